"""Colours of the drawing: tile colours, a stable colour per corporation, train colours."""

from __future__ import annotations

import zlib

# Tile colours as players know them, a little softened so black track reads on them.
TILE_COLORS = {
    "white": "#f3ecd8",   # printed map (plain hex)
    "yellow": "#f7e463",
    "green": "#7cc47f",
    "brown": "#c49a6c",
    "gray": "#b8b8b8",
    "grey": "#b8b8b8",
    "red": "#e0524d",
    "blue": "#7fb3e0",     # water / ports
}
UNKNOWN_TILE = "#ece6d4"   # custom maps say nothing of colour: a neutral map colour
EMPTY_CELL = "#f7f4ea"     # grid cells no hex occupies, drawn faintly for orientation

# Strong colours that stand out on every tile colour, one per train.
TRAIN_COLORS = ["#1f5fd6", "#e0218a", "#f08c00", "#00a3a3", "#7b2fbe",
                "#2e9e2e", "#c62828", "#6d4c41"]

# Corporation token colours: picked by a hash of the name, so the same corporation
# gets the same colour in every picture, on every machine (unlike Python's hash()).
_CORP_PALETTE = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
                 "#8c564b", "#e377c2", "#393b79", "#637939", "#8c6d31", "#843c39",
                 "#7b4173", "#3182bd", "#31a354", "#756bb1", "#000000", "#636363"]


def tile_color(name):
    """Fill colour for a hex colour name (None or unknown: the neutral map colour)."""
    if not name:
        return UNKNOWN_TILE
    return TILE_COLORS.get(str(name).lower(), UNKNOWN_TILE)


def corporation_color(corp: str) -> str:
    """A stable colour for a corporation name."""
    return _CORP_PALETTE[zlib.crc32(corp.encode("utf-8")) % len(_CORP_PALETTE)]


def train_color(i: int) -> str:
    """The colour of the i-th train's route."""
    return TRAIN_COLORS[i % len(TRAIN_COLORS)]


def text_color_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill``."""
    h = fill.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"

"""Hex coordinates as 18xx.games writes them (see docs/position-format.md).

A hex id is letters then a number (``G22``). In doubled coordinates one axis comes from
the letters (A=0, ..., Z=25, AA=26) and the other from the number minus one; which is
which is the map's ``axes`` setting. Sides are numbered 0-5 clockwise; the neighbour
across side ``e`` is reached through its side ``(e + 3) % 6``.
"""

import re

from trainruns.errors import InputError

_HEX_ID = re.compile(r"^([A-Z]+)(\d+)$")

# (dx, dy) across each side, in doubled coordinates.
NEIGHBOUR_OFFSETS = {
    "flat": ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)),
    "pointy": ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1)),
}

DEFAULT_AXES = {"x": "letter", "y": "number"}


def letters_to_index(letters: str) -> int:
    """A=0, ..., Z=25, AA=26, AB=27, ... (spreadsheet-style, zero-based)."""
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def parse_hex_id(hex_id, axes=None, where=None):
    """Return the doubled coordinates ``(x, y)`` of a hex id such as ``"G22"``."""
    if not isinstance(hex_id, str) or not _HEX_ID.match(hex_id):
        raise InputError(f"{hex_id!r} is not a hex id (letters then a number, like 'G22')", where)
    letters, number = _HEX_ID.match(hex_id).groups()
    letter_coord = letters_to_index(letters)
    number_coord = int(number) - 1
    axes = axes or DEFAULT_AXES
    if axes.get("x") == "number":
        return number_coord, letter_coord
    return letter_coord, number_coord


def neighbour(x: int, y: int, side: int, layout: str):
    """Doubled coordinates of the hex across ``side``."""
    dx, dy = NEIGHBOUR_OFFSETS[layout][side]
    return x + dx, y + dy


def opposite(side: int) -> int:
    return (side + 3) % 6

"""The one place ``trainruns serve`` asks which moves are legal and what they are worth.

Today the legality of a tile lay (1832 rulebook "Laying Track": the title's upgrade
chart, counts and phase colours, and track the operating company reaches) and the
ranking of lays live in :mod:`trainruns.services.whatif`; the trains a company could buy next
too. Everything the web page needs of them goes through this thin adapter, so when
those rules move behind a title hook only this module is repointed.
"""

from __future__ import annotations

from trainruns.errors import InputError
from trainruns.services import whatif


def tile_lays(data, hex_id):
    """The legal lays and upgrades on ``hex_id`` for the operating company, as
    ``[(move, variant position)]``; ``move`` is ``{"hex", "tile", "rotation"}`` plus
    ``"replaces"`` for an upgrade. A position without tiles to lay (a custom map) is
    an :class:`InputError` saying so."""
    return whatif.tile_candidates(data, hexes={hex_id})


def lay(data, hex_id, tile, rotation):
    """The position after laying ``tile`` at ``rotation`` on ``hex_id``, if that is one
    of the legal lays (else an :class:`InputError` naming the hex)."""
    for move, variant in tile_lays(data, hex_id):
        if str(move["tile"]) == str(tile) and move["rotation"] == rotation:
            return move, variant
    raise InputError(f"tile {tile} at rotation {rotation} is not a legal lay on {hex_id} now", "lay")


def rank_lays(data, time_limit, progress):
    """Every legal lay ranked by the best run it allows (``whatif --tiles``);
    ``progress`` has ``start(total)`` and ``advance()``."""
    return whatif.rank_tiles_full(data, time_limit, progress)


def trains_to_buy(data):
    """The trains the company could add now (1832 rulebook [10], Table 1), or None
    when the position has no train data (a custom map: any name the user types)."""
    try:
        return [move["train"] for move, _ in whatif.train_candidates(data) if not move.get("starts_phase")]
    except InputError:
        return None

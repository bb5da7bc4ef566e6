"""1831 (rulebook ../shared/rules/1831.md), for running trains: typed token sites,
typed trains, token-to-token runs, track rights and commuter runs.

The printed map is not in any public source (docs/gaps.md), so an 1831 position brings
its own ``map`` in the custom-map format with 1831 extensions (docs/rules-1831.md).

- ``trains.py``: train names, phases, token values, retirement (3.3, 5.2.7.5, 5.3.5);
- ``mapformat.py``: the map extensions, tokens on typed sites, track rights (5.2.3, 5.5);
- ``model.py``: the Board's ``route_model`` (5.6); ``kernels.py`` its numba kernels;
- ``commuter.py``: commuter runs (5.6.7); ``explain.py``: which stops a train runs to;
- ``options.py``: the readings a position chooses (``rules``).
"""

from __future__ import annotations

from ...board import Board
from ...errors import InputError
from .mapformat import mark_blocks, place_tokens, read_map, read_rights
from . import kernels
from .model import Model1831
from .options import read_options
from .trains import parse_trains, phase_number


class Title1831:
    """``build_board(position, where)`` for ``"title": "1831"``."""

    name = "1831"
    audit_sections = {"track-right-unused": "1831 rules 5.5 and 5.6.5 (track rights)"}

    def audit_checks(self, board, routes):
        """5.6.5: every track right bought for this round must be run to by some train.
        A declared run that leaves one out is illegal as a whole; the problem is put on
        the last declared train."""
        model = board.route_model
        rights = getattr(getattr(model, "facts", None), "rights", [])
        if not rights or not routes:
            return []
        visited = {tuple(ref) for r in routes for ref in (r.refs or []) if ref is not None}
        problems = []
        for hex_id, k, slot in rights:
            if (hex_id, k) not in visited:
                problems.append((len(routes) - 1, "track-right-unused",
                                 f"the track right bought on {hex_id}.{k} (slot {slot}) is run to by "
                                 "no train; every right bought must be used this round (5.6.5)"))
        return problems

    def build_board(self, data: dict, where: str) -> Board:
        """An 1831 position as a core Board whose ``route_model`` runs 1831's rules."""
        if "map" not in data:
            raise InputError("an 1831 position needs its own 'map' (the printed map is not shipped; "
                             "see docs/rules-1831.md)", where)
        board, facts = read_map(data, where)
        phase = phase_number(board.phase, where)
        board.trains = parse_trains(data, phase, where)
        place_tokens(board, facts, phase, data, where)
        read_rights(board, facts, data, where)
        mark_blocks(board, facts)
        board.route_model = Model1831(board, facts, phase, read_options(data, where))
        kernels.warm_up()
        for hx in board.hexes.values():
            # the drawing's hint: Stations round, Rail Yards square (5.2.3.9), black sites
            hx.extra["sites"] = {k: [{"shape": "square" if s.type == "yard" else "circle",
                                      "black": s.black, "holder": s.holder}
                                     for s in facts.sites.get((hx.id, k), [])]
                                 for k in range(len(hx.stops))}
        return board


TITLE = Title1831()

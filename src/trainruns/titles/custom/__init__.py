"""The custom map: a position that carries its own ``map`` and runs under the plain
rules of docs/custom-map.md. It is a title like the others, with no
tiles to lay, no train data (whatif asks the caller for train names) and plain tokens
(a token only makes its city a root of routes and unblocks it).

Reading gives a frozen :class:`PositionCustom` (every field checked: the map's hexes,
phase, company, trains, tokens); building a Board from it is pure."""

from __future__ import annotations

from dataclasses import dataclass

from trainruns.position.reader import (
    parse_axes,
    parse_corporation,
    parse_layout,
    parse_phase,
    parse_phases,
    parse_trains,
    place_tokens,
    require,
)
from trainruns.route.board import Board
from trainruns.route.trains import parse_train
from trainruns.titles.base import Title
from trainruns.titles.typed_map import freeze, read_hexes, thaw


@dataclass(frozen=True)
class PositionCustom:
    """A custom-map position after every check: the map (layout, axes as ``(("x", word),
    ("y", word))``, phases, frozen hexes), the phase, the running company, its trains
    and the station tokens ``(hex, stop, company)`` in the position's order."""

    layout: str
    axes: tuple
    phases: tuple
    hexes: tuple
    phase: str
    corporation: str
    trains: tuple
    tokens: tuple


class TitleCustom(Title):
    """``"map": {...}`` instead of a ``title``."""

    name = "custom"
    schema = "custom"
    tokens_are_plain = True

    def read_position(self, data: dict, where: str) -> PositionCustom:
        board = self._read(data, where)
        tokens = data.get("tokens", [])
        frozen = freeze(board.hexes)  # before the tokens: placing them checks them on this board
        place_tokens(board, tokens, where)
        return PositionCustom(board.layout, tuple(board.axes.items()), tuple(board.phases), frozen, board.phase,
                              board.corporation, tuple(board.trains),
                              tuple((t["hex"], t.get("stop", 0), t["corporation"]) for t in tokens))

    def build_board(self, data: dict, where: str) -> Board:
        """The Board of a schema-checked position dict, every rule checked as
        :meth:`read_position` checks it, in one pass: the Board read is the one built
        (what ``build(read_position(...))`` builds, with no snapshot frozen and thawed)."""
        board = self._read(data, where)
        place_tokens(board, data.get("tokens", []), where)
        return board

    def _read(self, data: dict, where: str) -> Board:
        """The map, phase, company and trains checked, as a Board with no tokens yet."""
        m = require(data, "map", dict, where)
        layout, axes = parse_layout(m, where), parse_axes(m, where)
        phases = parse_phases(m.get("phases"), where)
        phase = parse_phase(data, phases, where)
        hexes, _ = read_hexes(m, layout, axes, phases, phase, where)
        corporation = parse_corporation(data, where)
        trains = parse_trains(data, where, parse_train)
        return Board(layout=layout, hexes=hexes, phase=phase, corporation=corporation, trains=trains,
                     phases=list(phases), axes=dict(axes))

    def build(self, position: PositionCustom) -> Board:
        """The Board of a checked custom-map position (pure: a fresh Board each call)."""
        board = Board(layout=position.layout, hexes=thaw(position.hexes), phase=position.phase,
                      corporation=position.corporation, trains=list(position.trains),
                      phases=list(position.phases), axes=dict(position.axes))
        place_tokens(board, [{"hex": h, "stop": k, "corporation": c} for h, k, c in position.tokens], "position")
        return board


TITLE = TitleCustom()

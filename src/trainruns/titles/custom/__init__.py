"""The custom map: a position that carries its own ``map`` and runs under the plain
rules of CONTRACT.md (docs/custom-map.md). It is a title like the others, with no
tiles to lay, no train data (whatif asks the caller for train names) and plain tokens
(a token only makes its city a root of routes and unblocks it)."""

from __future__ import annotations

from ...board import Board
from ...position import board_from_custom_map
from ..base import Title


class TitleCustom(Title):
    """``"map": {...}`` instead of a ``title``."""

    name = "custom"
    schema = "custom"
    tokens_are_plain = True

    def build_board(self, data: dict, where: str) -> Board:
        return board_from_custom_map(data, where)


TITLE = TitleCustom()

"""1833NE stock rounds."""

from __future__ import annotations

from ....game.round import StepsRound
from .stock import StockTurn


class StockRound(StepsRound):
    """Turns clockwise from the priority holder until every player still in has passed in
    a row (bankrupt players are out)."""

    kind = "stock"

    def __init__(self, game, first, number):
        super().__init__(game)
        self.number = number
        self.current = first
        self.passes = 0
        self.last_actor = None
        self.sold_by: dict[str, set] = {}
        self.started = False

    def info(self):
        return {"kind": self.kind, "number": self.number}

    def next_entity(self):
        rules = self.game.rules
        if self.passes >= len(rules.active_players()):
            rules.end_stock_round(self.last_actor)
            return False
        if self.started:
            self.current = rules.next_active_player(self.current)
        elif self.game.state.player[self.current].bankrupt:
            self.current = rules.next_active_player(self.current)
        self.started = True
        self.queue = [StockTurn(self.game, self, self.current)]
        self.queue[0].enter()
        return True

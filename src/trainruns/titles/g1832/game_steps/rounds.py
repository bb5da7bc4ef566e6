"""1832 stock rounds ([5])."""

from __future__ import annotations

from ....game.round import StepsRound
from ....game.steps.stock import StockRoundMixin
from .stock_turn import StockTurn1832
from ..game_forced import ProtectStep1832


class StockRound(StepsRound, StockRoundMixin):
    """[5.2] turns clockwise from the priority holder until all have passed in a row."""

    kind = "stock"

    def __init__(self, game, first, number, selling=True):
        super().__init__(game)
        self.number = number
        self.selling = selling
        self.init_stock(first)
        self.started = False
        self.last_turn = None
        self.resume = None

    def info(self):
        return {"kind": self.kind, "number": self.number}

    def next_entity(self):
        turn = self.last_turn
        if turn is not None and turn.sales and not getattr(turn, "offered", False):
            # [5.9] after the seller's turn, each president whose shares he sold may
            # protect them, in the order sold
            turn.offered = True
            self.queue = [ProtectStep1832(self.game, sale, self._protected) for sale in turn.sales]
            self.queue[0].enter()
            return True
        if turn is not None and turn.sales:
            self._close_unprotected(turn)
        if self.passes >= len(self.state.players):
            self.game.rules.end_stock_round(self.last_actor)
            return False
        if self.started:
            self.current = self.next_player(self.resume or self.current)
        self.resume = None
        self.started = True
        self.last_turn = StockTurn1832(self.game, self, self.current, self.selling)
        self.queue = [self.last_turn]
        self.queue[0].enter()
        return True

    def _protected(self, president):
        """[5.9] protection is an action for the priority card; the round resumes left
        of the last protecting president."""
        self.acted(president)
        self.resume = president

    def _close_unprotected(self, turn):
        """[5.1.1] Black area: a sale left unprotected closes the company."""
        rules = self.game.rules
        for sale in turn.sales:
            c = self.state.corp[sale["corporation"]]
            if not c.closed and c.cell is not None and rules.market.zone(c.cell) == "closed":
                rules.close_corporation(c)

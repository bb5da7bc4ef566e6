"""1832 stock and operating rounds ([5], [4.1.3])."""

from __future__ import annotations

from ....game.round import StepsRound
from ....game.steps.buy_train import BuyTrainStep
from ....game.steps.dividend import DividendStep
from ....game.steps.protect import ProtectStep
from ....game.steps.routes import RoutesStep
from ....game.steps.stock import StockRoundMixin
from ....game.steps.token import TokenStep
from ....game.steps.track import TrackStep
from .stock_turn import StockTurn1832


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
            self.queue = [ProtectStep(self.game, sale, self._protected) for sale in turn.sales]
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


class OperatingRound(StepsRound):
    """[4.1.3] privates pay first; then each floated company in share price order lays
    track, places a token, runs, pays or withholds, and buys trains."""

    kind = "operating"

    def __init__(self, game, k, n):
        super().__init__(game)
        self.k, self.n = k, n
        rules = game.rules
        rules.private_income()
        # the order is fixed at the start of the round from the share prices then
        self.order = [c for c in rules.price_order([c for c in self.state.corporations
                                                    if c.floated and c.capitalised and not c.closed])]
        self.state.event("operating_round", number=rules.stock_round_number, round=k, of=n,
                         order=[c.id for c in self.order])

    def info(self):
        if getattr(self.step(), "merger", False):   # [11] the last-chance merger phase
            return {"kind": "merger", "number": self.game.rules.stock_round_number, "last_chance": True,
                    "or": self.k, "of": self.n}
        return {"kind": self.kind, "number": self.game.rules.stock_round_number, "or": self.k, "of": self.n}

    def next_entity(self):
        if self.game.rules.reached_400():
            return False   # [17.1] the company that reached $400 has finished: the game ends
        turns = self.game.rules.last_chance_turns()   # [11] right after the first 6-train's turn
        if turns:
            self.queue = turns
            self.queue[0].enter()
            return True
        while self.order:
            c = self.order.pop(0)
            if c.closed:
                continue
            rules = self.game.rules
            rules.home_token(c)
            c.operated = True
            turn = {"corporation": c.id}
            self.queue = [TrackStep(self.game, c), TokenStep(self.game, c), RoutesStep(self.game, c, turn),
                          DividendStep(self.game, c, turn), BuyTrainStep(self.game, c)]
            self.queue[0].enter()
            return True
        return False

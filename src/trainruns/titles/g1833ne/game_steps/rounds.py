"""1833NE stock and operating rounds ("Number of phases": two operating rounds per stock
round; the very first operating round in reverse stock price order)."""

from __future__ import annotations

from ....game.round import StepsRound
from ....game.steps.buy_train import BuyTrainStep
from ....game.steps.dividend import DividendStep
from ....game.steps.routes import RoutesStep
from ....game.steps.token import TokenStep
from ....game.steps.track import TrackStep
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


class OperatingRound(StepsRound):
    """Privates pay; then each launched corporation, in stock price order fixed at the
    start (reversed in the game's very first operating round), lays track, places a
    station, runs, pays or withholds, and buys trains; issuing, redeeming, ferries and
    privates are open during its turn before it runs."""

    kind = "operating"

    def __init__(self, game, k, n):
        super().__init__(game)
        self.k, self.n = k, n
        rules = game.rules
        t = self.state.title_state
        t.free_tile = None
        rules.private_income()
        order = rules.price_order([c for c in self.state.corporations if c.started])
        if not t.first_or_done and order:
            order = order[::-1]
            t.first_or_done = True
        self.order = order
        self.state.event("operating_round", number=rules.stock_round_number, round=k, of=n,
                         order=[c.id for c in self.order])

    def info(self):
        return {"kind": self.kind, "number": self.game.rules.stock_round_number, "or": self.k, "of": self.n}

    def next_entity(self):
        rules = self.game.rules
        while self.order:
            c = self.order.pop(0)
            if c.closed:
                continue
            c.operated = True
            turn = {"corporation": c.id}
            rules.turn = turn
            self.queue = [TrackStep(self.game, c), TokenStep(self.game, c), RoutesStep(self.game, c, turn),
                          DividendStep(self.game, c, turn), BuyTrainStep(self.game, c)]
            self.queue[0].enter()
            return True
        rules.turn = None
        return False

"""Buying trains (1832 [10]): from the bank in order, from the open market at the
printed price; optional unless the company has a route and no train, when the
president's cash and then his share sales must make up the price (the forced purchase,
[10] Train Purchase Funds); the title lists what is legal and settles phase changes."""

from __future__ import annotations

from trainruns.game.action import free_amount
from trainruns.game.errors import Refusal
from trainruns.game.state import State
from trainruns.game.steps.operating import CorporationStep
from trainruns.game.train import kinds
from trainruns.game.turn import Turn


def trains_from_companies(state: State, corp, trains_of=lambda d: d.trains, skip=lambda d: False,
                          face=None) -> list[dict]:
    """The purchases of a train from another company open to ``corp`` (1832 [10] Train
    Cost, 1833NE "Train list and prices"): each train kind ``trains_of`` each open
    company other than ``corp`` (and not ``skip``) holds (one offer per name; a
    title's ``counted_trains``, where a train that no longer counts is not sold:
    1833NE "A phased-out train ... can't be sold to another corporation", 1831 5.3.2
    "Corporations may not buy retired trains"), at an agreed price from $1 to its
    treasury (never with the president's money), and no more than the train's ``face``
    value where the title says so (1831 5.3.4); none with an empty treasury."""
    if corp.cash < 1:
        return []
    return [{"type": "buy_train", "corporation": corp.id, "from": d.id, "train": t,
             "price": free_amount(1, corp.cash if face is None else min(face(t), corp.cash))}
            for d in state.corporations if d is not corp and not d.closed and not skip(d)
            for t in kinds(trains_of(d))]


class BuyTrainStep(CorporationStep):
    """A title's train step subclasses it where its rules add to buying (1831 5.3: deals
    another president answers, receivership and interest as the phase ends) and
    overrides :meth:`_buys` and :meth:`finish`, calling ``super``."""

    def __init__(self, game, corp, turn: Turn | None = None):
        super().__init__(game, corp, turn)
        # whether the company has a legal route, where the title's requirement to own a
        # train asks it (1832 [10]): found once a step, since its purchases do not change it
        self.legal_route: bool | None = None
        # the president's sales for a forced purchase, in the order made, until their
        # protections are offered (1832 [10] Presidential Stock Sales, [5.9])
        self.forced_sales: list[dict] = []

    def enter(self):
        self.game.rules.enter_buy_train(self)
        if not self.done and not self._buys():
            self.finish()

    def _buys(self):
        return self.game.rules.train_buys(self)

    def finish(self):
        """The step ends: nothing happens by rule here."""
        self.done = True

    def actions(self):
        out = self._buys()
        if not self.game.rules.must_buy(self):
            out = out + self.extra_actions() + [self.pass_action()]
        return out

    def process(self, a):
        self.check_entity(a) if a["type"] != "sell_shares" else None
        if a["type"] == "pass":
            if self.game.rules.must_buy(self):
                raise Refusal("train.must-buy", f"{self.corp.id} has no train and must buy one"
                                                f"{self.game.rules.cite('must-buy')}")
            self.finish()
            return a
        own = {"buy_train", "sell_shares"} | {x["type"] for x in self._buys()}
        if a["type"] not in own:   # the title's extras (a private, a mortgage, ...)
            if self.game.rules.must_buy(self):
                raise Refusal("train.must-buy", f"{self.corp.id} must buy a train first"
                                                f"{self.game.rules.cite('must-buy')}")
            return self.process_extra(a)
        recorded = self.game.rules.train_process(self, a)
        if not self.done and not self._buys():
            self.finish()
        return recorded

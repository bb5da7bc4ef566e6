"""Buying trains (1832 [10]): from the bank in order, from the open market at the
printed price; optional unless the company has a route and no train, when the
president's cash and then his share sales must make up the price (the forced purchase,
[10] Train Purchase Funds); the title lists what is legal and settles phase changes."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.state import State, corp_key, player_key
from trainruns.game.steps.operating import CorporationStep


def pay_for_train(state: State, corp, price: int):
    """The company pays the bank for a train; what its treasury lacks, its president
    contributes first (1832 [10] Train Purchase Funds, 1833NE "Emergency sell"; the
    titles list a purchase only when the two together can pay)."""
    if price > corp.cash:
        diff = price - corp.cash
        state.pay(player_key(corp.president), corp_key(corp.id), diff)
        state.event("contribution", corporation=corp.id, player=corp.president, amount=diff)
    state.pay(corp_key(corp.id), "bank", price)


class BuyTrainStep(CorporationStep):
    def enter(self):
        self.game.rules.enter_buy_train(self)
        if not self.done and not self._buys():
            self.done = True

    def _buys(self):
        return self.game.rules.train_buys(self)

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
            self.done = True
            return a
        own = {"buy_train", "sell_shares"} | {x["type"] for x in self._buys()}
        if a["type"] not in own:   # the title's extras (a private, a mortgage, ...)
            if self.game.rules.must_buy(self):
                raise Refusal("train.must-buy", f"{self.corp.id} must buy a train first"
                                                f"{self.game.rules.cite('must-buy')}")
            return self.process_extra(a)
        recorded = self.game.rules.train_process(self, a)
        if not self.done and not self._buys():
            self.done = True
        return recorded

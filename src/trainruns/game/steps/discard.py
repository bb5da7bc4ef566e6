"""Excess trains after a phase change (1832 [10] Exceeding Train Limits): the president
chooses which train goes to the open market, without compensation."""

from __future__ import annotations

from ..errors import Refusal
from .operating import CorporationStep


class DiscardStep(CorporationStep):
    def enter(self):
        if len(self.corp.trains) <= self.game.rules.train_limit(self.corp):
            self.done = True

    def actions(self):
        return [{"type": "discard_train", "corporation": self.corp.id, "train": t}
                for t in dict.fromkeys(self.corp.trains)]

    def process(self, a):
        self.check_entity(a)
        if a["type"] != "discard_train" or a["train"] not in self.corp.trains:
            raise Refusal("train.discard", f"{self.corp.id} must discard one of its trains "
                                           f"{self.corp.trains} down to its limit [10]")
        self.corp.trains.remove(a["train"])
        self.state.market_trains.append(a["train"])
        self.state.event("discard", corporation=self.corp.id, train=a["train"])
        self.enter()
        return a

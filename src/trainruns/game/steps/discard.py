"""Excess trains after a phase change (1832 [10] Exceeding Train Limits; 1833NE, where
the rules are silent, the same: docs/gaps.md): the president chooses which train goes to
the open market, without compensation. Only the trains that count against the limit
(``GameRules.counted_trains``) are over it and may go."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.steps.operating import CorporationStep


class DiscardStep(CorporationStep):
    def enter(self):
        r = self.game.rules
        if self.corp.closed or len(r.counted_trains(self.corp)) <= r.train_limit(self.corp):
            self.done = True

    def actions(self):
        return [{"type": "discard_train", "corporation": self.corp.id, "train": t}
                for t in dict.fromkeys(self.game.rules.counted_trains(self.corp))]

    def process(self, a):
        self.check_entity(a)
        counted = self.game.rules.counted_trains(self.corp)
        if a["type"] != "discard_train" or a["train"] not in counted:
            raise Refusal("train.discard", f"{self.corp.id} must discard one of its trains {counted} down to "
                                           f"its limit of {self.game.rules.train_limit(self.corp)}")
        self.corp.trains.remove(a["train"])
        self.state.market_trains.append(a["train"])
        self.state.event("discard", corporation=self.corp.id, train=a["train"])
        self.enter()
        return a

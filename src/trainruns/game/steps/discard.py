"""Excess trains after a phase change (1832 [10] Exceeding Train Limits; 1833NE, where
the rules are silent, the same: docs/gaps.md): the president chooses which train goes to
the open market, without compensation. Only the trains that count against the limit
(``GameRules.counted_trains``) are over it and may go. A rule may set a lower limit
for one discard (``limit``: 1832 [17.5] the Civil War's "as if the train limit were
one")."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.steps.operating import CorporationStep


class DiscardStep(CorporationStep):
    def __init__(self, game, corp, limit: int | None = None):
        super().__init__(game, corp)
        self.limit = limit

    def train_limit(self) -> int:
        return self.game.rules.train_limit(self.corp) if self.limit is None else self.limit

    def enter(self):
        r = self.game.rules
        if self.corp.closed or len(r.counted_trains(self.corp)) <= self.train_limit():
            self.done = True

    def actions(self):
        return [{"type": "discard_train", "corporation": self.corp.id, "train": t}
                for t in dict.fromkeys(self.game.rules.counted_trains(self.corp))]

    def process(self, a):
        self.check_entity(a)
        counted = self.game.rules.counted_trains(self.corp)
        if a["type"] != "discard_train" or a["train"] not in counted:
            raise Refusal("train.discard", f"{self.corp.id} must discard one of its trains {counted} down to "
                                           f"its limit of {self.train_limit()}")
        self.corp.trains.remove(a["train"])
        self.state.market_trains.append(a["train"])
        self.state.event("discard", corporation=self.corp.id, train=a["train"])
        self.enter()
        return a

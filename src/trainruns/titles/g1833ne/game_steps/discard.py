"""Trains over the limit after a phase change ([?]; docs/gaps.md): the president
discards to the open market. Only trains not phased out count ("Number of phases")."""

from __future__ import annotations

from ....game.errors import Refusal
from ....game.steps.operating import CorporationStep


class DiscardStep(CorporationStep):
    def enter(self):
        r = self.game.rules
        if self.corp.closed or len(r.live_trains(self.corp)) <= r.train_limit(self.corp):
            self.done = True

    def actions(self):
        return [{"type": "discard_train", "corporation": self.corp.id, "train": t}
                for t in dict.fromkeys(self.game.rules.live_trains(self.corp))]

    def process(self, a):
        self.check_entity(a)
        live = self.game.rules.live_trains(self.corp)
        if a["type"] != "discard_train" or a["train"] not in live:
            raise Refusal("train.discard", f"{self.corp.id} must discard one of its trains {live} down to the "
                                           "limit (phased-out trains don't count)")
        self.corp.trains.remove(a["train"])
        self.state.market_trains.append(a["train"])
        self.state.event("discard", corporation=self.corp.id, train=a["train"])
        self.enter()
        return a

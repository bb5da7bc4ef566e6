"""Excess trains (1832 [10] Exceeding Train Limits; 1833NE, where the rules are silent,
the same: docs/gaps.md; 1831 5.3.7): the president chooses which train goes, one at a
time, down to the limit. The title says which trains may go (``GameRules.discardable``:
by default those that count against the limit, ``counted_trains``), where one goes
(``discard_train``: by default the open market, without compensation) and why a choice
is refused (``why_not_discard``). A rule may set a lower limit for one discard
(``limit``: 1832 [17.5] the Civil War's "as if the train limit were one")."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.steps.operating import CorporationStep


class DiscardStep(CorporationStep):
    """``bought``: the train whose purchase put the company over its limit, when the
    title keeps it (1831 5.3.7 gives up trains "to make room for the new trains");
    ``limit``: a rule's own limit for this discard, below the title's. The step is done
    once no train may go, read from the trains whenever the round looks: what happens
    after the push (1831: a company closed out in the same action, 4.3.2) ends it."""

    def __init__(self, game, corp, bought=None, limit: int | None = None):
        super().__init__(game, corp)
        self.bought = bought
        self.limit = limit

    def _may_go(self) -> list[str]:
        return [] if self.corp.closed else self.game.rules.discardable(self.corp, self.bought, self.limit)

    @property
    def done(self):
        return not self._may_go()

    def actions(self):
        return [{"type": "discard_train", "corporation": self.corp.id, "train": t} for t in self._may_go()]

    def process(self, a):
        self.check_entity(a)
        if a["type"] != "discard_train" or a["train"] not in self._may_go():
            raise Refusal(*self.game.rules.why_not_discard(self.corp, self.bought, self.limit))
        self.game.rules.discard_train(self.corp, a["train"], self.bought)
        return a

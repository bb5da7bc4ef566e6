"""What every step of a corporation's operating turn shares: who acts, the check that the
action names the operating corporation, and the turn's record ``turn`` (one dict for all
the steps of the turn: what it laid and bought, the run's revenue the dividend pays)."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.round import Step
from trainruns.game.turn import Turn


class CorporationStep(Step):
    def __init__(self, game, corp, turn: Turn | None = None):
        super().__init__(game)
        self.corp = corp
        # the turn's record (:class:`~trainruns.game.turn.Turn`), shared by its steps
        self.turn = turn if turn is not None else game.rules.turn_class(corp.id)

    def active(self):
        return {"corporation": self.corp.id, "player": self.corp.president}

    def check_entity(self, a):
        cid = self.game.rules.corporation_id(a.get("corporation")) if a.get("corporation") else None
        if cid != self.corp.id:
            raise Refusal("turn.not-yours", f"{self.corp.id} is operating now{self.game.rules.cite('operating-order')}")

    def extra_actions(self) -> list[dict]:
        """What the company may do at this point of its turn besides the step's own
        actions (buying a private, issuing shares, ...): the title's ``turn_actions``. A
        title's step adds what only it offers and calls ``super``."""
        return self.game.rules.turn_actions(self.corp, self.turn)

    def process_extra(self, a: dict):
        """Process an action of :meth:`extra_actions`; returns what the log records."""
        return self.game.rules.turn_action(self.corp, self.turn, a)

    def pass_action(self):
        return {"type": "pass", "corporation": self.corp.id}

"""What every step of a corporation's operating turn shares: who acts and the check
that the action names the operating corporation; the steps that read or write the
turn's record share it (:class:`TurnStep`)."""

from __future__ import annotations

from ..errors import Refusal
from ..round import Step


class CorporationStep(Step):
    def __init__(self, game, corp):
        super().__init__(game)
        self.corp = corp

    def active(self):
        return {"corporation": self.corp.id, "player": self.corp.president}

    def check_entity(self, a):
        cid = self.game.rules.corporation_id(a.get("corporation")) if a.get("corporation") else None
        if cid != self.corp.id:
            raise Refusal("turn.not-yours", f"{self.corp.id} is operating now [4.1.3]")

    def pass_action(self):
        return {"type": "pass", "corporation": self.corp.id}


class TurnStep(CorporationStep):
    """A step that reads or writes the corporation's turn record ``turn`` (one dict for
    all its steps this turn: what it laid and bought, the run's revenue the dividend
    pays)."""

    def __init__(self, game, corp, turn):
        super().__init__(game, corp)
        self.turn = turn

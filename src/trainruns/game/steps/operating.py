"""What every step of a corporation's operating turn shares: who acts, the check that the
action names the operating corporation, and the turn's record ``turn`` (one dict for all
the steps of the turn: what it laid and bought, the run's revenue the dividend pays)."""

from __future__ import annotations

from ..errors import Refusal
from ..round import Step


class CorporationStep(Step):
    def __init__(self, game, corp, turn: dict | None = None):
        super().__init__(game)
        self.corp = corp
        self.turn = turn if turn is not None else {"corporation": corp.id}

    def active(self):
        return {"corporation": self.corp.id, "player": self.corp.president}

    def check_entity(self, a):
        cid = self.game.rules.corporation_id(a.get("corporation")) if a.get("corporation") else None
        if cid != self.corp.id:
            raise Refusal("turn.not-yours", f"{self.corp.id} is operating now [4.1.3]")

    def pass_action(self):
        return {"type": "pass", "corporation": self.corp.id}

"""Laying track (1832 [6]): the title lists the legal lays of the operating corporation
now (reach, tile rules, phase colours, terrain costs it can pay, blocked hexes, the lay
limit: two yellow tiles or one upgrade); a ``pass`` ends the step."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.steps.operating import CorporationStep


def check_rotation(a):
    """A lay's rotation is one of the six, 0 to 5, as ``play actions`` lists it (never
    taken modulo 6: the log keeps what the game did)."""
    if not 0 <= a["rotation"] <= 5:
        raise Refusal("track.rotation", f"a tile's rotation is 0 to 5, not {a['rotation']}")


class TrackStep(CorporationStep):
    def __init__(self, game, corp, turn=None):
        super().__init__(game, corp, turn)
        self.lays: list[dict] = []

    def enter(self):
        if not self._lays():
            self.done = True

    def _lays(self):
        return self.game.rules.tile_lays(self.corp, self.lays)

    def actions(self):
        out = [{"type": "lay_tile", "corporation": self.corp.id, "hex": m["hex"], "tile": m["tile"],
                "rotation": m["rotation"]} for m in self._lays()]
        return out + self.extra_actions() + [self.pass_action()]

    def process(self, a):
        self.check_entity(a)
        if a["type"] == "pass":
            self.done = True
            return a
        if a["type"] != "lay_tile":
            return self.process_extra(a)
        check_rotation(a)
        for m in self._lays():
            if (m["hex"], m["tile"], m["rotation"] % 6) == (a["hex"], str(a["tile"]), a["rotation"]):
                self.game.rules.lay_tile(self.corp, m)
                self.lays.append(m)
                if not self._lays():
                    self.done = True
                return a
        raise Refusal(*self.game.rules.why_not_lay(self.corp, a, self.lays))

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
    """A title's track step subclasses it where its rules add to laying tiles (1831
    5.2: tokens bought in the same phase, a pass that is not always allowed) and
    overrides the step methods below, calling ``super``."""

    def __init__(self, game, corp, turn=None):
        super().__init__(game, corp, turn)
        self.lays: list[dict] = []

    def enter(self):
        if not self.has_moves():
            self.done = True

    def _lays(self):
        return self.game.rules.tile_lays(self.corp, self.lays)

    def has_moves(self) -> bool:
        """Whether anything but a pass is left to do here (the step ends by itself when
        not): a tile lay (the title's :meth:`may_lay_tile`: no listing of them all)."""
        return self.game.rules.may_lay_tile(self.corp, self.lays)

    def may_pass(self, moves: list[dict]) -> bool:
        """Whether the company may end the step with ``moves`` (its listed actions but
        the pass) still open: always here."""
        return True

    def moves(self) -> list[dict]:
        """The step's actions but the pass: the lays, then :meth:`extra_actions`."""
        out = [{"type": "lay_tile", "corporation": self.corp.id, "hex": m["hex"], "tile": m["tile"],
                "rotation": m["rotation"]} for m in self._lays()]
        return out + self.extra_actions()

    def actions(self):
        moves = self.moves()
        return moves + [self.pass_action()] if self.may_pass(moves) else moves

    def lay(self, m: dict):
        """Make the listed lay ``m`` (the title's ``lay_tile``) and keep it in the turn's lays."""
        self.game.rules.lay_tile(self.corp, m)
        self.lays.append(m)

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
                self.lay(m)
                if not self.has_moves():
                    self.done = True
                return a
        raise Refusal(*self.game.rules.why_not_lay(self.corp, a, self.lays))

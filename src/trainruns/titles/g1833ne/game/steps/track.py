"""1833NE's track step: the shared one, open also for a tile an issue would pay for."""

from __future__ import annotations

from trainruns.game.steps.track import TrackStep


class TrackStep1833NE(TrackStep):
    """[E] "one issue or redeem per turn, any time before dividends" (the digest's step
    order; the summary does not order them): a corporation whose treasury pays for no
    tile now may issue shares first and then lay one, so the step stays open while the
    issue still open to it would pay for a lay (:meth:`issue_cash`, counted as paid in;
    a lay the treasury pays for now is one too); the shared step would end by itself."""

    def has_moves(self) -> bool:
        rules = self.game.rules
        return rules.may_lay_tile(self.corp, self.lays, rules.issue_cash(self.corp, self.turn))

    def extra_actions(self):
        """P2's free Lowell lay is one of the step's own lays here (the title's
        ``tile_lays``), not an extra of the turn as in its other steps."""
        return [x for x in super().extra_actions() if x["type"] != "lay_tile"]

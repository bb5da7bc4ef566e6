"""The initial sale of the privates: not in the summary; [E] (docs/gaps.md) the shared
waterfall sale (:mod:`trainruns.game.steps.auction`). If all players pass in a row, two
operating rounds of private income only are played and the sale resumes. Once all are
sold the first stock round starts with the player after the last to buy."""

from __future__ import annotations

from trainruns.game.round import Round
from trainruns.game.steps.auction import PrivateSaleStep, WaterfallSale


class PrivateAuction(WaterfallSale, Round):
    kind = "private_auction"

    def __init__(self, game, first):
        super().__init__(game)
        self.start_sale(first, game.rules.data["bid_step"])
        self._step = PrivateSaleStep(game, self)

    def step(self):
        return self._step

    def all_passed(self):
        """All passed: two operating rounds in which only the privates pay ([E])."""
        for k in (1, 2):
            self.state.event("private_operating_round", round=k)
            self.game.rules.private_income()
        self.current = self.next_player(self.current)

    def settle(self):
        if not self.unsold() and self.mode == "turn":
            if self.last_buyer is not None:
                self.game.rules.priority = self.next_player(self.last_buyer)
            self.over = True

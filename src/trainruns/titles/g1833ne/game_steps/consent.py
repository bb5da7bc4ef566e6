"""A private sold by a player to a corporation he does not preside ("Corporations may buy
privates from players during phases I and II"): a deal between two parties, so the
seller accepts (``accept``) or declines (``pass``)."""

from __future__ import annotations

from ....game.errors import Refusal
from ....game.round import Step


class PrivateSaleConsent(Step):
    def __init__(self, game, corp, private, seller, price):
        super().__init__(game)
        self.corp, self.private, self.seller, self.price = corp, private, seller, price

    def active(self):
        return {"player": self.seller}

    def actions(self):
        return [{"type": "accept", "player": self.seller, "private": self.private, "corporation": self.corp.id,
                 "price": self.price}, {"type": "pass", "player": self.seller}]

    def process(self, a):
        if a.get("player") != self.seller or a["type"] not in ("accept", "pass"):
            raise Refusal("private.consent", f"{self.seller} accepts or declines {self.corp.id}'s offer of "
                                             f"${self.price} for {self.private}")
        if a["type"] == "accept":
            self.game.rules.buy_private(self.corp, self.private, self.price)
        else:
            self.state.event("offer_declined", private=self.private, corporation=self.corp.id)
        self.done = True
        return a

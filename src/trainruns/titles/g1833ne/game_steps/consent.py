"""A deal between two parties (GAME-CONTRACT.md "Deals between two parties"): a
corporation's offer for a private held by a player it is not presided by ("List of
private companies": "Corporations may buy privates from players during phases I and
II"), or for a train of another corporation with another president. The other party
answers ``accept`` or declines with ``pass``; nothing is hidden."""

from __future__ import annotations

from ....game.errors import Refusal
from ....game.round import Step


class Offer(Step):
    def __init__(self, game, party: str, offer: dict, on_accept):
        super().__init__(game)
        self.party = party          # the player who answers
        self.offer = offer          # what is offered, shown in the listing
        self.on_accept = on_accept

    def active(self):
        return {"player": self.party}

    def actions(self):
        return [dict(self.offer, type="accept", player=self.party), {"type": "pass", "player": self.party}]

    def process(self, a):
        if a.get("player") != self.party or a["type"] not in ("accept", "pass"):
            raise Refusal("deal.answer", f"{self.party} accepts or declines the offer {self.offer}")
        if a["type"] == "accept":
            self.on_accept()
        else:
            self.state.event("offer_declined", **{k: v for k, v in self.offer.items() if k != "type"})
            self.game.rules.declined(self.offer)
        self.done = True
        return a

"""A deal between two parties (docs/game-log.md "Deals between two parties"): one party
proposes (1833NE: a corporation's offer for a private held by a player it is not
presided by, "List of private companies"; 1833NE and 1831 5.3.2/5.3.4: a train of
another corporation with another president, "at any mutually agreed price"), and the
other party answers ``accept`` or declines with ``pass`` (1831 5.3.4: "The President is
not forced to accept any offers"); nothing is hidden.

A declined offer is kept in the turn's record and not made again in the same turn, so
a turn always ends (:func:`was_declined`). The record is keyed by what is offered
(``offer``: "private" or "train") and by the private or the selling corporation."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.round import Step
from trainruns.game.turn import Turn

# the terms an accept may repeat (``play actions`` lists it with them) but never change
TERMS = ("offer", "corporation", "private", "from", "train", "price")


class Offer(Step):
    def __init__(self, game, party: str, offer: dict, on_accept, turn: Turn | None):
        super().__init__(game)
        self.party = party          # the player who answers
        self.offer = offer          # what is offered, shown in the listing
        self.on_accept = on_accept
        self.turn = turn            # the proposer's turn record, where a decline is kept

    @property
    def concerns(self) -> str | None:
        """The corporation whose turn proposed the deal (its id), if a turn did: what a
        position asked for with no corporation named shows while the answer waits."""
        return self.turn.corporation if self.turn is not None else None

    def active(self):
        return {"player": self.party}

    def actions(self):
        return [dict(self.offer, type="accept", player=self.party), {"type": "pass", "player": self.party}]

    def process(self, a):
        if a.get("player") != self.party or a["type"] not in ("accept", "pass"):
            raise Refusal("deal.answer", f"{self.party} accepts or declines the offer {self.offer}")
        if a["type"] == "accept":
            wrong = [k for k in TERMS if k in a and a[k] != self.offer.get(k)]
            if wrong:
                terms = ", ".join(f"{k} {self.offer[k]}" for k in TERMS if k in self.offer)
                raise Refusal("deal.terms", f"{self.party} accepts the offer as made ({terms}), "
                                            f"not with another {wrong[0]}")
            self.on_accept()
        else:
            self.state.event("offer_declined", **{k: v for k, v in self.offer.items() if k != "type"})
            declined(self.turn, self.offer)
        self.done = True
        return a


def make_offer(game, party: str, offer: dict, on_accept, turn: Turn | None):
    """Put ``offer`` to ``party`` before the proposer's turn goes on; ``on_accept`` makes
    the deal when the party accepts."""
    game.round.push(Offer(game, party, offer, on_accept, turn))


def declined(turn: Turn | None, offer: dict):
    """Keep a declined offer in the turn's record (not made again this turn)."""
    if turn is not None:
        turn.decline(offer.get("offer"), offer.get("private") or offer.get("from"))


def was_declined(turn: Turn | None, kind: str, what: str) -> bool:
    """Whether an offer of ``kind`` for ``what`` (a private, or the selling corporation
    of a train) was declined this turn."""
    return turn is not None and (kind, what) in turn.declined

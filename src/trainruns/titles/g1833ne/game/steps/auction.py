"""The initial sale of the privates: not in the summary; [E] (docs/gaps.md) a
waterfall auction. Privates are offered in ascending cost order; on his turn a player
buys the cheapest unsold one at its cost, bids on a dearer one (at least $5 over its cost
or the high bid; the money is set aside), or passes. When a private is bought, the next
goes to its only bidder, or is auctioned among its bidders (starting left of the high
bidder, until all others pass); repeat. If all players pass in a row, two operating
rounds of private income only are played and the sale resumes. Once all are sold the
first stock round starts with the player after the last to buy."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.round import Round, Step
from trainruns.game.shares import seat_order_from
from trainruns.game.steps.auction import auction_turn, bids_on_dearer, sell_private


class AuctionStep(Step):
    def __init__(self, game, round_):
        super().__init__(game)
        self.round = round_

    def active(self):
        r = self.round
        return {"player": r.auction["turn"] if r.auction else r.current}

    def actions(self):
        r, s = self.round, self.state
        step = self.game.rules.data["bid_step"]
        if r.auction:
            return auction_turn(s, r.auction, r.auction["turn"], step)
        name = r.current
        unsold = r.unsold()
        out = []
        if s.player[name].cash >= unsold[0].price:
            out.append({"type": "buy_private", "player": name, "private": unsold[0].id, "price": unsold[0].price})
        return out + bids_on_dearer(s, name, unsold, r.bids, step) + [{"type": "pass", "player": name}]

    def process(self, a):
        r, s = self.round, self.state
        who = self.active()["player"]
        if a.get("player") != who:
            raise Refusal("turn.not-yours", f"it is {who}'s turn in the private sale")
        step = self.game.rules.data["bid_step"]
        if r.auction:
            return self._auction(a, step)
        t = a["type"]
        if t == "pass":
            r.passes += 1
            if r.passes >= len(s.players):
                r.private_rounds()
            r.current = r.next_player(r.current)
            return a
        if t == "buy_private":
            p = r.unsold()[0]
            if a["private"] != p.id:
                raise Refusal("auction.not-cheapest", f"only the cheapest unsold private ({p.id}) is bought at its "
                                                      "cost; the others are bid on")
            if "price" in a and a["price"] != p.price:
                raise Refusal("auction.price", f"{p.id} costs ${p.price}")
            if s.player[who].cash < p.price:
                raise Refusal("auction.cash", f"{who} cannot pay ${p.price} for {p.id}")
            r.sell(p, who, p.price)
            r.passes = 0
            r.last_buyer = who
            r.resolve(who)
            return dict(a, price=p.price)
        if t == "bid":
            listed = [x for x in self.actions() if x["type"] == "bid" and x["private"] == a["private"]]
            if not listed or not listed[0]["price"]["min"] <= a["price"] <= listed[0]["price"]["max"]:
                raise Refusal("auction.bid", f"a bid on a dearer private is at least ${step} over its cost or the "
                                             "high bid, within the bidder's cash")
            bids = r.bids.setdefault(a["private"], {})
            s.commit(who, a["price"] - bids.get(who, 0))
            bids[who] = a["price"]
            r.passes = 0
            r.current = r.next_player(r.current)
            return a
        raise Refusal("auction.action", "in the private sale: buy the cheapest private, bid on a dearer one, or pass")

    def _auction(self, a, step):
        r, s = self.round, self.state
        au = r.auction
        who = au["turn"]
        if a["type"] == "pass":
            s.release(who, au["bids"].pop(who))
        elif a["type"] == "bid" and a.get("private") == au["private"]:
            high = max(au["bids"].values())
            most = s.player[who].cash + au["bids"][who]
            if not high + step <= a["price"] <= most:
                raise Refusal("auction.bid", f"a bid must be at least ${high + step} and within {who}'s cash")
            s.commit(who, a["price"] - au["bids"][who])
            au["bids"][who] = a["price"]
        else:
            raise Refusal("auction.action", f"{who} bids on {au['private']} or passes")
        if len(au["bids"]) == 1:
            winner, price = next(iter(au["bids"].items()))
            s.release(winner, price)
            r.auction = None
            r.sell(s.private[au["private"]], winner, price)
            r.resolve(au["after"])
        else:
            au["turn"] = r.next_bidder(who, au["bids"])
        return a


class PrivateAuction(Round):
    kind = "private_auction"

    def __init__(self, game, first):
        super().__init__(game)
        self.current = first
        self.passes = 0
        self.bids: dict[str, dict] = {}
        self.auction = None
        self.last_buyer = None
        self._step = AuctionStep(game, self)

    def unsold(self):
        return [x for x in self.state.privates if x.owner is None and x.open]

    def step(self):
        return self._step

    def next_player(self, name):
        return seat_order_from(self.state, name)[0]

    def next_bidder(self, name, bids):
        for other in seat_order_from(self.state, name):
            if other in bids:
                return other
        return name

    def sell(self, p, name, price):
        sell_private(self.state, p, name, price)

    def resolve(self, buyer):
        """The next private goes to its only bidder, or to an auction of its bidders."""
        s = self.state
        while not self.auction:
            unsold = self.unsold()
            if not unsold:
                break
            bids = self.bids.pop(unsold[0].id, {})
            if not bids:
                break
            if len(bids) == 1:
                name, price = next(iter(bids.items()))
                s.release(name, price)
                self.sell(unsold[0], name, price)
                continue
            high = max(bids, key=lambda n: (bids[n], -[p.name for p in s.players].index(n)))
            self.auction = {"private": unsold[0].id, "bids": bids, "after": buyer,
                            "turn": self.next_bidder(high, bids)}
            return
        self.current = self.next_player(buyer)

    def private_rounds(self):
        """All passed: two operating rounds in which only the privates pay ([E])."""
        self.passes = 0
        for k in (1, 2):
            self.state.event("private_operating_round", round=k)
            self.game.rules.private_income()

    def settle(self):
        if not self.unsold() and not self.auction:
            if self.last_buyer is not None:
                self.game.rules.priority = self.next_player(self.last_buyer)
            self.over = True

"""1832's initial stock round ([5.7]).

Privates are offered in ascending cost order. On his turn a player buys the cheapest
unsold private at its price, bids on a dearer one (at least $5 over its cost or the
high bid; the money is set aside), or passes. When a private is bought and the next
has one bid it goes to that bidder; with two or more, the bidders alone auction it,
starting left of the high bidder, until all but one pass; repeat for the next. Play
resumes left of the player who bought the private that started it (a standing decision
for a single-bid sale, docs/gaps.md). If all pass before P7 is sold, one operating round of private
income only, P1 (unsold) drops $5, and at $0 the priority holder must take it; play
resumes left of the last player to buy or bid (or with the round's first player).
P7's buyer takes CoG's president's certificate and sets its par at once. Once all
privates are sold, the round goes on as a stock round without selling.
"""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.round import StockRound
from trainruns.game.state import player_key
from trainruns.game.steps.auction import PrivateSaleStep, WaterfallSale


class PrivateSale(PrivateSaleStep):
    """The shared sale's turn, with P7's par (``mode`` ``par``) and P1 at $0."""

    def active(self):
        r = self.round
        return {"player": r.par_player} if r.mode == "par" else super().active()

    def actions(self):
        r, s = self.round, self.state
        if r.mode == "par":
            cog = s.corp[self.game.rules.data["cog"]]
            return [{"type": "par", "player": r.par_player, "corporation": cog.id, "price": v}
                    for v in self.game.rules.par_prices(cog)]
        p1 = r.unsold()[0]
        if r.mode == "turn" and p1.price == 0:
            # [5.7] at $0 the priority holder must take it as his only action
            return [{"type": "buy_private", "player": r.current, "private": p1.id, "price": 0}]
        return super().actions()

    def process(self, a):
        r = self.round
        if r.mode != "par":
            return super().process(a)
        if a.get("player") != r.par_player:
            raise Refusal("turn.not-yours", f"it is {r.par_player}'s turn in the initial stock round [5.7]")
        rules, s = self.game.rules, self.state
        cog = s.corp[rules.data["cog"]]
        if a["type"] != "par" or a.get("corporation") != cog.id:
            raise Refusal("auction.p7-par", f"{r.par_player} must set CoG's par now [16.2] P7")
        if a["price"] not in rules.par_prices(cog):
            raise Refusal("stock.par-value", f"par must be one of {rules.par_prices(cog)} [5.6]")
        rules.set_par(cog, a["price"])
        r.started_here.add(cog.id)
        s.event("par", corporation=cog.id, player=r.par_player, price=a["price"])
        rules.check_float(cog)
        r.mode = "turn"
        r.settle_bids()
        return a


class InitialStockRound(WaterfallSale, StockRound):
    kind = "private_auction"

    def __init__(self, game, first):
        super().__init__(game, first, 1, selling=False)
        self.start_sale(first, game.rules.data["bid_step"])
        self.first = first
        self.par_player = None
        self.sale = PrivateSale(game, self)
        self.queue = [self.sale]

    def info(self):
        kind = "private_auction" if self.unsold() or self.mode != "turn" else "stock"
        return {"kind": kind, "number": 1}

    def next_entity(self):
        if self.unsold() or self.mode != "turn":
            # private sales are one step that never finishes while privates remain
            self.queue = [self.sale]
            return True
        return super().next_entity()

    def settle(self):
        if self.unsold() or self.mode != "turn":
            return
        if self.queue and self.queue[0] is self.sale:
            # all privates sold: a stock round without selling from the next player
            self.queue = []
            self.passes = 0
            self.started = False
        super().settle()

    def sell(self, p, name, price):
        """[5.7] the private goes at the winning bid; [16.2] P7 comes with CoG's
        president's certificate, and its par is set at once. Its buyer is the last to
        act (the shared sale): [5.2.2] the priority card goes left of "the last person
        to perform a stock action ... buying a private company [5.7]", and [5.7] resumes
        after all passed left of "the last player to buy or bid" (docs/gaps.md)."""
        s, rules = self.state, self.game.rules
        p.price = price
        super().sell(p, name, price)
        if p.id == rules.data["cog_private"]:
            cog = s.corp[rules.data["cog"]]
            s.move_shares(cog, "ipo", player_key(name), rules.shares["president"])
            cog.president = name
            self.par_player = name
            self.mode = "par"

    def all_passed(self):
        """[5.7] all passed in a row before P7 was sold: the private-only operating
        round and P1's price drop; at $0 the priority holder must take it; else play
        resumes left of the last to buy or bid."""
        s, rules = self.state, self.game.rules
        s.event("operating_round", privates_only=True)
        rules.private_income()
        p1 = self.unsold()[0] if self.unsold() else None
        if p1 is not None and p1.id == s.privates[0].id and p1.price > 0:
            p1.price = max(0, p1.price - rules.data["p1_drop"])
            s.event("private_price", private=p1.id, price=p1.price)
        if p1 is not None and p1.price == 0:
            self.current = rules.priority
        elif self.last_actor is not None:
            self.current = self.next_player(self.last_actor)
        else:
            self.current = self.first

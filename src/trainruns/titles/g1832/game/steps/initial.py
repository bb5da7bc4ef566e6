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
from trainruns.game.round import Step, StockRound
from trainruns.game.shares import seat_order_from
from trainruns.game.state import player_key
from trainruns.game.steps.auction import auction_turn, bids_on_dearer, sell_private


class PrivateSale(Step):
    """Everything of the private sales: ``mode`` is ``turn``, ``auction`` or ``par``."""

    def __init__(self, game, round_):
        super().__init__(game)
        self.round = round_

    def active(self):
        r = self.round
        if r.mode == "auction":
            return {"player": r.auction["turn"]}
        if r.mode == "par":
            return {"player": r.par_player}
        return {"player": r.current}

    # --- listing ---------------------------------------------------------------------

    def actions(self):
        r, s = self.round, self.state
        if r.mode == "par":
            cog = s.corp[self.game.rules.data["cog"]]
            return [{"type": "par", "player": r.par_player, "corporation": cog.id, "price": v}
                    for v in self.game.rules.par_prices(cog)]
        if r.mode == "auction":
            return auction_turn(s, r.auction, r.auction["turn"], r.step_)
        name = r.current
        unsold = r.unsold()
        p1 = unsold[0]
        out = []
        if p1.price == 0:
            # [5.7] at $0 the priority holder must take it as his only action
            return [{"type": "buy_private", "player": name, "private": p1.id, "price": 0}]
        if s.player[name].cash >= p1.price:
            out.append({"type": "buy_private", "player": name, "private": p1.id, "price": p1.price})
        return out + bids_on_dearer(s, name, unsold, r.bids, r.step_) + [{"type": "pass", "player": name}]

    # --- processing ------------------------------------------------------------------

    def process(self, a):
        r = self.round
        who = self.active()["player"]
        if a.get("player") != who:
            raise Refusal("turn.not-yours", f"it is {who}'s turn in the initial stock round [5.7]")
        if r.mode == "par":
            return self._par(a)
        if r.mode == "auction":
            return self._auction(a)
        t = a["type"]
        if t == "pass":
            r.passes += 1
            r.after_turn()
            return a
        if t == "buy_private":
            return self._buy(a)
        if t == "bid":
            return self._bid(a)
        raise Refusal("auction.action", "in the initial stock round: buy the cheapest private, bid on a dearer "
                                        "one, or pass [5.7]")

    def _buy(self, a):
        r, s = self.round, self.state
        p = r.unsold()[0]
        if a["private"] != p.id:
            raise Refusal("auction.not-cheapest", f"only the cheapest unsold private ({p.id}) may be bought; "
                                                  "the others are bid on [5.7]")
        if "price" in a and a["price"] != p.price:
            raise Refusal("auction.price", f"{p.id} costs ${p.price} [5.7]")
        name = a["player"]
        if s.player[name].cash < p.price:
            raise Refusal("auction.cash", f"{name} cannot pay ${p.price} for {p.id} [5.7]")
        r.sell(p, name, p.price)
        r.passes = 0
        r.last_actor = name
        r.resolve_after(name)
        return dict(a, price=p.price)

    def _bid(self, a):
        r, s = self.round, self.state
        name, pid, price = a["player"], a["private"], a["price"]
        unsold = r.unsold()
        if pid not in [x.id for x in unsold[1:]]:
            raise Refusal("auction.bid-target", f"bids are on unsold privates dearer than the cheapest ({unsold[0].id}) "
                                                "[5.7]")
        x = s.private[pid]
        bids = r.bids.setdefault(pid, {})
        low = max([x.cost] + list(bids.values())) + r.step_
        if price < low:
            raise Refusal("auction.bid-low", f"a bid on {pid} must be at least ${low} [5.7]")
        old = bids.get(name, 0)
        if price - old > s.player[name].cash:
            raise Refusal("auction.cash", f"{name} cannot set aside ${price} [5.7]")
        s.commit(name, price - old)
        bids[name] = price
        r.passes = 0
        r.last_actor = name
        r.after_turn()
        return a

    def _auction(self, a):
        r, s = self.round, self.state
        au = r.auction
        name = a["player"]
        if a["type"] == "pass":
            s.release(name, au["bids"].pop(name))
            au["order"].remove(name)
        elif a["type"] == "bid":
            if a["private"] != au["private"]:
                raise Refusal("auction.bid-target", f"{au['private']} is being auctioned [5.7]")
            high = max(au["bids"].values())
            if a["price"] < high + r.step_:
                raise Refusal("auction.bid-low", f"a bid must be at least ${high + r.step_} [5.7]")
            old = au["bids"][name]
            if a["price"] - old > s.player[name].cash:
                raise Refusal("auction.cash", f"{name} cannot bid ${a['price']} [5.7]")
            s.commit(name, a["price"] - old)
            au["bids"][name] = a["price"]
        else:
            raise Refusal("auction.action", "in an auction: bid higher or pass [5.7]")
        r.auction_next(name)
        return a

    def _par(self, a):
        r, s = self.round, self.state
        rules = self.game.rules
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
        r.after_par()
        return a


class InitialStockRound(StockRound):
    kind = "private_auction"

    def __init__(self, game, first):
        super().__init__(game, first, 1, selling=False)
        self.mode = "turn"
        self.bids: dict[str, dict] = {}
        self.auction = None
        self.first = first
        self.resume = None
        self.par_player = None
        self.step_ = game.rules.data["bid_step"]
        self.sale = PrivateSale(game, self)
        self.queue = [self.sale]

    def info(self):
        kind = "private_auction" if self.unsold() or self.mode != "turn" else "stock"
        return {"kind": kind, "number": 1}

    def unsold(self):
        return [x for x in self.state.privates if x.owner is None and x.open]

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

    # --- sales -----------------------------------------------------------------------

    def sell(self, p, name, price):
        s = self.state
        sell_private(s, p, name, price)
        rules = self.game.rules
        if p.id == rules.data["cog_private"]:
            # [16.2] P7 comes with CoG's president's certificate; its par is set at once
            cog = s.corp[rules.data["cog"]]
            s.move_shares(cog, "ipo", player_key(name), rules.shares["president"])
            cog.president = name
            self.par_player = name
            self.mode = "par"

    def resolve_after(self, buyer):
        """A private was bought: settle bids on the next ones ([5.7])."""
        self.resume = buyer
        self._resolve()

    def _resolve(self):
        s = self.state
        while self.mode == "turn":
            unsold = self.unsold()
            if not unsold:
                break
            nxt = unsold[0]
            bids = self.bids.pop(nxt.id, {})
            if not bids:
                break
            if len(bids) == 1:
                (name, price), = bids.items()
                s.release(name, price)
                nxt.price = price
                self.sell(nxt, name, price)
                continue
            high = max(bids.values())
            leader = next(n for n in bids if bids[n] == high)
            order = [n for n in seat_order_from(s, leader) if n in bids] + [leader]
            self.auction = {"private": nxt.id, "bids": dict(bids), "order": order, "turn": order[0]}
            self.mode = "auction"
            return
        if self.mode == "turn":
            self.current = seat_order_from(s, self.resume)[0]

    def auction_next(self, actor):
        """The next bidder clockwise from ``actor`` who does not hold the high bid; the
        last one left buys at his bid."""
        au = self.auction
        if len(au["order"]) == 1:
            name = au["order"][0]
            price = au["bids"][name]
            self.state.release(name, price)
            x = self.state.private[au["private"]]
            x.price = price
            self.auction = None
            self.mode = "turn"
            self.sell(x, name, price)
            if self.mode == "turn":
                self._resolve()
            return
        high = max(au["bids"].values())
        for name in seat_order_from(self.state, actor):
            if name in au["order"] and au["bids"][name] != high:
                au["turn"] = name
                return

    def after_par(self):
        self._resolve()

    def after_turn(self):
        """Next player; all passed in a row before P7 was sold: the private-only
        operating round and P1's price drop ([5.7])."""
        s = self.state
        if self.passes >= len(s.players):
            self.passes = 0
            rules = self.game.rules
            s.event("operating_round", privates_only=True)
            rules.private_income()
            p1 = self.unsold()[0] if self.unsold() else None
            if p1 is not None and p1.id == s.privates[0].id and p1.price > 0:
                p1.price = max(0, p1.price - rules.data["p1_drop"])
                s.event("private_price", private=p1.id, price=p1.price)
            if p1 is not None and p1.price == 0:
                self.current = rules.priority
            elif self.last_actor is not None:
                self.current = seat_order_from(s, self.last_actor)[0]
            else:
                self.current = self.first
            return
        self.current = seat_order_from(s, self.current)[0]

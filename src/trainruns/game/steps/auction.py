"""The waterfall sale of the privates, as 1832 [5.7] writes it and 1833NE reads it
([E], docs/gaps.md): privates are offered in ascending cost order; on his turn a player
buys the cheapest unsold one at its price, bids on a dearer one (at least the bid step
over its cost or the high bid; the money is set aside), or passes. When a private is
bought, the next goes to its only bidder, or is auctioned among its bidders alone
(starting left of the high bidder, until all but one pass); repeat; then play resumes
left of the player who bought the private that started it.

:class:`WaterfallSale` is the round's side of it (what is unsold, the bids, whose turn)
and :class:`PrivateSaleStep` the turn; a title says what follows when everyone passed in
a row (:meth:`WaterfallSale.all_passed`: 1832's private-only operating round and P1's
drop, 1833NE's two) and what a sale brings (:meth:`WaterfallSale.sell`: 1832's P7 with
CoG's presidency)."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.round import Step
from trainruns.game.shares import seat_order_from
from trainruns.game.state import State, player_key


def bids_on_dearer(state: State, name: str, unsold: list, bids: dict, step: int) -> list[dict]:
    """``name``'s legal bids on the privates after the cheapest: at least ``step`` over
    the private's cost or its high bid, at most his cash plus what he already set aside
    on it."""
    out = []
    for x in unsold[1:]:
        on = bids.get(x.id, {})
        low = max([x.cost] + list(on.values())) + step
        most = state.player[name].cash + on.get(name, 0)
        if most >= low:
            out.append({"type": "bid", "player": name, "private": x.id, "price": {"min": low, "max": most}})
    return out


def auction_turn(state: State, auction: dict, name: str, step: int) -> list[dict]:
    """In an auction among a private's bidders: raise the high bid by at least ``step``
    (within cash plus the bid already set aside), or pass and take the bid back."""
    high = max(auction["bids"].values())
    most = state.player[name].cash + auction["bids"].get(name, 0)
    out = []
    if most >= high + step:
        out.append({"type": "bid", "player": name, "private": auction["private"],
                    "price": {"min": high + step, "max": most}})
    return out + [{"type": "pass", "player": name}]


def sell_private(state: State, private, name: str, price: int):
    """``name`` pays the bank ``price`` and owns ``private``."""
    state.pay(player_key(name), "bank", price)
    private.owner = player_key(name)
    state.event("private_sold", private=private.id, player=name, price=price)


class WaterfallSale:
    """The round's side of the sale (a mixin of the title's first round): ``current``
    (whose turn), ``passes`` in a row, ``bids`` (private -> bidder -> amount set
    aside), the ``auction`` under way, ``mode`` (``turn``, ``auction``, or a title's
    own, 1832's ``par``), ``resume`` (whose left the turn goes on after a sale) and the
    last to act and to buy; ``bid_step`` is the least raise."""

    def start_sale(self, first: str, bid_step: int):
        self.current = first
        self.passes = 0
        self.bids: dict[str, dict] = {}
        self.auction = None
        self.mode = "turn"
        self.resume = None
        self.last_actor = self.last_buyer = None
        self.bid_step = bid_step

    def unsold(self) -> list:
        return [x for x in self.state.privates if x.owner is None and x.open]

    def next_player(self, name: str) -> str:
        return seat_order_from(self.state, name)[0]

    def next_bidder(self, name: str, bids: dict) -> str:
        """The bidder after ``name``, clockwise."""
        return next((other for other in seat_order_from(self.state, name) if other in bids), name)

    def sell(self, p, name: str, price: int):
        """``name`` buys ``p`` for ``price`` (the title adds what comes with it), and is
        the last to act: a private sold to its only bidder or its auction's winner after
        another's purchase is bought after that one (1832 [5.2.2], [5.7])."""
        sell_private(self.state, p, name, price)
        self.last_actor = name

    def all_passed(self):
        """Everyone passed in a row: the title's rule, which sets ``current``."""
        raise NotImplementedError

    def resolve(self, buyer: str):
        """``buyer`` bought a private: the next ones go to their only bidder or to an
        auction of their bidders; then the turn goes left of ``buyer``."""
        self.resume = buyer
        self.settle_bids()

    def settle_bids(self):
        s = self.state
        while self.mode == "turn":
            unsold = self.unsold()
            bids = self.bids.pop(unsold[0].id, {}) if unsold else {}
            if not bids:
                break
            if len(bids) == 1:
                (name, price), = bids.items()
                s.release(name, price)
                self.sell(unsold[0], name, price)
                continue
            high = max(bids, key=lambda n: bids[n])
            self.auction = {"private": unsold[0].id, "bids": bids, "turn": self.next_bidder(high, bids)}
            self.mode = "auction"
            return
        if self.mode == "turn":
            self.current = self.next_player(self.resume)


class PrivateSaleStep(Step):
    """A turn of the waterfall sale: buy the cheapest, bid on a dearer one, pass; in an
    auction, raise or pass (the refusals cite the title's ``private-sale`` rule)."""

    def __init__(self, game, round_):
        super().__init__(game)
        self.round = round_

    def active(self):
        r = self.round
        return {"player": r.auction["turn"] if r.mode == "auction" else r.current}

    def actions(self):
        r, s = self.round, self.state
        if r.mode == "auction":
            return auction_turn(s, r.auction, r.auction["turn"], r.bid_step)
        name, unsold = r.current, r.unsold()
        out = []
        if s.player[name].cash >= unsold[0].price:
            out.append({"type": "buy_private", "player": name, "private": unsold[0].id, "price": unsold[0].price})
        return out + bids_on_dearer(s, name, unsold, r.bids, r.bid_step) + [{"type": "pass", "player": name}]

    def process(self, a):
        r, cite = self.round, self.game.rules.cite("private-sale")
        who = self.active()["player"]
        if a.get("player") != who:
            raise Refusal("turn.not-yours", f"it is {who}'s turn in the private sale{cite}")
        if r.mode == "auction":
            return self._auction(a, cite)
        if a["type"] == "pass":
            r.passes += 1
            if r.passes >= len(self.state.players):
                r.passes = 0
                r.all_passed()
            else:
                r.current = r.next_player(r.current)
            return a
        if a["type"] == "buy_private":
            return self._buy(a, cite)
        if a["type"] == "bid":
            return self._bid(a, cite)
        raise Refusal("auction.action", f"in the private sale: buy the cheapest private, bid on a dearer one, "
                                        f"or pass{cite}")

    def _buy(self, a, cite):
        r, s = self.round, self.state
        p, name = r.unsold()[0], a["player"]
        if a["private"] != p.id:
            raise Refusal("auction.not-cheapest", f"only the cheapest unsold private ({p.id}) may be bought; "
                                                  f"the others are bid on{cite}")
        if "price" in a and a["price"] != p.price:
            raise Refusal("auction.price", f"{p.id} costs ${p.price}{cite}")
        if s.player[name].cash < p.price:
            raise Refusal("auction.cash", f"{name} cannot pay ${p.price} for {p.id}{cite}")
        r.sell(p, name, p.price)
        r.passes = 0
        r.last_buyer = name
        r.resolve(name)
        return dict(a, price=p.price)

    def _bid(self, a, cite):
        r, s = self.round, self.state
        name, pid, price = a["player"], a["private"], a["price"]
        unsold = r.unsold()
        if pid not in [x.id for x in unsold[1:]]:
            raise Refusal("auction.bid-target", f"bids are on unsold privates dearer than the cheapest "
                                                f"({unsold[0].id}){cite}")
        bids = r.bids.setdefault(pid, {})
        low = max([s.private[pid].cost] + list(bids.values())) + r.bid_step
        if price < low:
            raise Refusal("auction.bid-low", f"a bid on {pid} must be at least ${low}{cite}")
        old = bids.get(name, 0)
        if price - old > s.player[name].cash:
            raise Refusal("auction.cash", f"{name} cannot set aside ${price}{cite}")
        s.commit(name, price - old)
        bids[name] = price
        r.passes = 0
        r.last_actor = name
        r.current = r.next_player(r.current)
        return a

    def _auction(self, a, cite):
        r, s = self.round, self.state
        au, name = r.auction, a["player"]
        if a["type"] == "pass":
            s.release(name, au["bids"].pop(name))
        elif a["type"] == "bid":
            if a["private"] != au["private"]:
                raise Refusal("auction.bid-target", f"{au['private']} is being auctioned{cite}")
            high = max(au["bids"].values())
            if a["price"] < high + r.bid_step:
                raise Refusal("auction.bid-low", f"a bid must be at least ${high + r.bid_step}{cite}")
            old = au["bids"][name]
            if a["price"] - old > s.player[name].cash:
                raise Refusal("auction.cash", f"{name} cannot bid ${a['price']}{cite}")
            s.commit(name, a["price"] - old)
            au["bids"][name] = a["price"]
        else:
            raise Refusal("auction.action", f"in an auction: bid higher or pass{cite}")
        if len(au["bids"]) > 1:
            au["turn"] = r.next_bidder(name, au["bids"])
            return a
        (winner, price), = au["bids"].items()
        s.release(winner, price)
        r.auction, r.mode = None, "turn"
        r.sell(s.private[au["private"]], winner, price)
        r.settle_bids()
        return a

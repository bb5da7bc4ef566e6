"""A stock round turn, the one every title runs (1832 [5.3]-[5.6]; 1833NE "Comparison
with 1830"; 1831 4.5-4.7; the 1830 family).

On his turn a player sells any number of shares (one block per company) and buys one
certificate; a title whose rules allow it (1832 [5.3] Buy/Sell Order) lets him buy first
and sell after, but never both ways in one turn; a title may let him buy several
certificates of one company (1831 4.7.3 blocks). A ``pass`` ends the turn; a pass with
nothing done counts toward the round's end ("all players have passed consecutively",
1832 [5.2.2], 1831 4.8.1). A player over the certificate limit sells before anything
else while a sale could bring him down (1832 [5.4], 1831 5.4.6). Nobody buys back a
company he sold this round (1832 [5.3] Selling Shares, 1831 4.6.6). Rules read through
the title's hooks (:class:`~trainruns.game.game_rules.GameRules`): the certificate
limit and what counts toward it, the 60% holding limit, the 50% market limit, par
values, what a share costs, and the moves of shares and money.
"""

from __future__ import annotations

from trainruns.game.action import bounds, free_amount
from trainruns.game.errors import Refusal
from trainruns.game.round import Step
from trainruns.game.shares import up_to, update_president


class StockTurn(Step):
    """One player's turn; ``round`` (the stock round) keeps the order, the passes and
    who sold what. A title's turn subclasses this and overrides the listing or the
    processing of one kind of action where its rules differ, calling ``super``."""

    #: a turn whose only legal action is ``pass`` is passed by rule (no decision, so
    #: nothing is logged: docs/game-log.md)
    pass_by_rule = True
    #: a purchase may come before the turn's sales (1832 [5.3] Buy/Sell Order)
    buy_then_sell = True
    #: sales are listed before purchases (the order a turn takes them, 1831 4.5.1)
    sales_listed_first = False

    def __init__(self, game, round_, player: str, selling: bool = True):
        super().__init__(game)
        self.round = round_
        self.player = player
        self.selling = selling
        self.bought = 0                    # purchases this turn
        self.sold: list[str] = []          # companies sold this turn, in order
        self.sold_first = False
        self.acted = False
        self.sales: list[dict] = []        # for price protection (1832 [5.9])
        rules = game.rules
        # [5.3] "sold ... at the price indicated by the share price token when that
        # player's stock turn began"
        self.start_price = {c.id: rules.market.price(c.cell) for c in self.state.corporations if c.cell}

    def active(self):
        return {"player": self.player}

    def enter(self):
        """A turn without a choice is passed by rule; it counts toward the round's end
        like any pass, unless the player did something earlier in the turn."""
        if self.pass_by_rule and not self.done and self.only_pass():
            self.state.event("pass", player=self.player, reason="no legal action")
            self.end()

    def end(self):
        """The turn is over; a turn in which the player did nothing is a pass toward the
        round's end (1832 [5.2.2], 1831 4.8.1)."""
        if not self.acted:
            self.round.passed(self.player)
        self.done = True

    # --- listing -------------------------------------------------------------------------

    def buying_open(self) -> bool:
        """Whether the turn may still buy (one purchase, or a title's block)."""
        return self.bought < self.buys_per_turn()

    def buys_per_turn(self) -> int:
        """Purchases in one turn: one certificate (several shares at once only where
        :meth:`GameRules.multiple_buys` says so)."""
        return 1

    def selling_open(self) -> bool:
        """Whether the turn may still sell: not in a round without sales (1832 [5.7]), and
        after the purchase only where :attr:`buy_then_sell` and nothing was sold first."""
        return self.selling and not (self.bought and (self.sold_first or not self.buy_then_sell))

    def actions(self):
        forced = self.forced_sales()
        if forced:
            return forced
        buys = self._buys() if self.buying_open() else []
        sells = self._sells() if self.selling_open() else []
        listed = sells + buys if self.sales_listed_first else buys + sells
        return listed + self.extra_actions() + [{"type": "pass", "player": self.player}]

    def forced_sales(self) -> list[dict]:
        """1832 [5.4] "A player may never exceed his certificate limit at any time during
        his turn in a stock round" (1833NE: the limit drops when a corporation closes): a
        player over it is offered only sales, while a sale of a company that counts could
        still bring him down."""
        rules = self.game.rules
        if not self.selling_open() or rules.cert_room(self.player) >= 0:
            return []
        sells = self._sells()
        return sells if any(rules.counts_for_limit(self.state.corp[x["corporation"]]) for x in sells) else []

    def meets_forced(self, a: dict, forced: list[dict]) -> bool:
        """Whether action ``a`` is one of the ``forced`` sales the turn owes first."""
        return a["type"] == "sell_shares"

    def why_forced(self, forced: list[dict]) -> tuple[str, str]:
        """The refusal of anything but the sales owed first."""
        rules = self.game.rules
        return "stock.cert-limit", (f"{self.player} holds more than the certificate limit {rules.cert_limit()}: "
                                    f"he sells first{rules.cite('limits')}")

    def _buys(self):
        rules, s, name = self.game.rules, self.state, self.player
        cash = s.player[name].cash
        room = rules.cert_room(name)
        out = []
        for c in s.corporations:
            if c.closed:
                continue
            if c.par is None:
                if room >= 1 and rules.can_par(c):
                    out += [{"type": "par", "player": name, "corporation": c.id, "price": price}
                            for price in rules.par_prices(c) if cash >= price * rules.shares["president"]]
                continue
            if c.id in self.round.sold_by.get(name, set()) or rules.market.zone(c.cell) == "closed":
                continue  # [5.3] no buying back until after the next set of operating rounds
            counts = rules.counts_for_limit(c)
            if counts and room < 1:
                continue
            cap = rules.holding_room(c, name)
            if cap < 1:
                continue
            ipo = rules.ipo_source
            if c.held(ipo) and cash >= rules.ipo_price(c) and rules.ipo_refusal(c) is None:
                out.append({"type": "buy_shares", "player": name, "corporation": c.id, "from": ipo, "count": 1})
            if c.held("market"):
                price = rules.market.price(c.cell)
                most = c.held("market") if rules.multiple_buys(c) else 1
                most = min(most, cash // price if price else most)
                most = min(most, cap)
                if counts:
                    most = min(most, room)
                if most >= 1:
                    out.append({"type": "buy_shares", "player": name, "corporation": c.id, "from": "market",
                                "count": free_amount(1, most)})
        return out

    def _sells(self):
        return [x for c in self.state.corporations for x in self.sales_of(c)]

    def sales_of(self, c) -> list[dict]:
        """The listed sales of ``c``'s shares (a title's turn overrides this, and reads
        it to check a sale): none of a company not started, sold this turn, closed to
        sales this round or in the closed area; else what :meth:`may_sell` allows."""
        rules = self.game.rules
        if not c.started or c.id in self.sold or c.id in self.round.no_sale or \
                rules.market.zone(c.cell) == "closed":
            return []
        n = rules.may_sell(c, self.player)
        return [{"type": "sell_shares", "player": self.player, "corporation": c.id,
                 "count": free_amount(1, n)}] if n >= 1 else []

    def extra_actions(self) -> list[dict]:
        """A title's own stock-turn actions, listed before ``pass``: its turn subclasses
        this and adds them."""
        return []

    # --- processing ----------------------------------------------------------------------

    def process(self, a):
        rules = self.game.rules
        if a.get("player") != self.player:
            raise Refusal("turn.not-yours", f"it is {self.player}'s turn in the stock round{rules.cite('stock-turn')}")
        forced = self.forced_sales()
        if forced and not self.meets_forced(a, forced):
            raise Refusal(*self.why_forced(forced))
        t = a["type"]
        if t == "pass":
            self.end()
            return a
        if t == "par":
            return self._par(a)
        if t == "buy_shares":
            return self._buy(a)
        if t == "sell_shares":
            return self._sell(a)
        return self.process_extra(a)

    def process_extra(self, a: dict):
        """Process an action of :meth:`extra_actions`; returns what the log records."""
        raise Refusal("stock.action", f"{a['type']} is not a stock round action{self.game.rules.cite('stock-turn')}")

    def note_action(self):
        self.acted = True
        self.round.acted(self.player)

    def _listed(self, a):
        for x in self._buys() if self.buying_open() else []:
            if x["type"] != a["type"] or x.get("corporation") != a.get("corporation"):
                continue
            if x.get("from", a.get("from")) != a.get("from"):
                continue
            return x
        return None

    def _par(self, a):
        rules, s = self.game.rules, self.state
        c = rules.corporation(a["corporation"])
        if not self.buying_open():
            raise Refusal("stock.one-buy", f"one certificate per turn{rules.cite('buy-sell')}")
        if c.par is not None:
            raise Refusal("stock.started", f"{c.id} has started already{rules.cite('par')}")
        if not rules.can_par(c):
            raise Refusal("stock.cannot-start", f"{c.id} cannot be started now{rules.cite('par')}")
        if a["price"] not in rules.par_prices(c):
            raise Refusal("stock.par-value", f"par must be one of {rules.par_prices(c)}{rules.cite('par')}")
        if rules.cert_room(self.player) < 1:
            raise Refusal("stock.cert-limit", f"the certificate limit would be exceeded{rules.cite('limits')}")
        cost = a["price"] * rules.shares["president"]
        if s.player[self.player].cash < cost:
            raise Refusal("stock.cash", f"starting {c.id} at {a['price']} costs {cost}{rules.cite('par')}")
        rules.start_corporation(c, self.player, a["price"])
        self.round.started_here.add(c.id)
        self._bought()
        return a

    def _buy(self, a):
        rules = self.game.rules
        c = rules.corporation(a["corporation"])
        if a["from"] not in (rules.ipo_source, "market"):
            raise Refusal("stock.source", f"shares are bought from the '{rules.ipo_source}' or the "
                                          f"'market'{rules.cite('buy-sell')}")
        listed = self._listed(a)
        count = a.get("count", 1)
        if listed is None:
            raise Refusal(*self._why_not_buy(c, a))
        most = bounds(listed["count"])[1]
        if not isinstance(count, int) or count < 1 or count > most:
            raise Refusal("stock.count", f"at most {most} share(s) of {c.id} from the {a['from']} now: one "
                                          f"certificate{rules.cite('buy-sell')}, several only from the market in "
                                          f"the brown area{rules.cite('brown')}")
        price = rules.ipo_price(c) if a["from"] == rules.ipo_source else rules.market.price(c.cell)
        rules.buy_shares(c, self.player, a["from"], count, price)
        self._bought()
        return dict(a, count=count)

    def _why_not_buy(self, c, a):
        rules, name = self.game.rules, self.player
        if not self.buying_open():
            return "stock.one-buy", f"one certificate per turn{rules.cite('buy-sell')}"
        if not c.started:
            return "stock.not-started", f"{c.id} has not started: buy its president's certificate with par{rules.cite('par')}"
        if c.id in self.round.sold_by.get(name, set()):
            return "stock.rebuy", (f"{name} sold {c.id} this round: no buying until after the next operating "
                                   f"rounds{rules.cite('buy-sell')}")
        if not c.held(a["from"]):
            return "stock.none-left", f"no {c.id} share in the {a['from']}{rules.cite('buy-sell')}"
        refusal = rules.ipo_refusal(c) if a["from"] == rules.ipo_source else None
        if refusal is not None:
            return refusal
        if rules.counts_for_limit(c) and rules.cert_room(name) < 1:
            return "stock.cert-limit", f"{name} is at the certificate limit {rules.cert_limit()}{rules.cite('limits')}"
        if rules.holding_room(c, name) < 1:
            return "stock.60-percent", f"{name} may not hold more than 60% of {c.id}{rules.cite('limits')}"
        return "stock.cash", f"{name} cannot pay for a {c.id} share{rules.cite('buy-sell')}"

    def _bought(self):
        """After a purchase: the turn ends when nothing but a pass is left of it
        ([5.3] Buy/Sell Order)."""
        self.bought += 1
        self.sold_first = bool(self.sold)
        self.note_action()
        self.end_if_nothing_left()

    def end_if_nothing_left(self):
        if not (self.buying_open() and self._buys()) and not (self.selling_open() and self._sells()):
            self.done = True

    def _sell(self, a):
        rules = self.game.rules
        c = rules.corporation(a["corporation"])
        if not self.selling:
            raise Refusal("stock.no-selling", f"no selling in the initial stock round{rules.cite('no-selling')}")
        if not self.selling_open():
            raise Refusal("stock.sell-after-buy", f"sales come before the purchase"
                                                  f"{', or after it: not both' if self.buy_then_sell else ''}"
                                                  f"{rules.cite('buy-sell')}")
        if self.sold_already(c, a):
            raise Refusal("stock.one-block", self.why_sold_already(c, a))
        if c.id in self.round.no_sale:
            raise Refusal("stock.no-selling", f"{c.id} shares may not be sold now{rules.cite('no-selling')}")
        self.sell(c, a)
        if c.id not in self.sold:
            self.sold.append(c.id)
        self.note_sale(c, a)
        self.round.sold_by.setdefault(self.player, set()).add(c.id)
        self.note_action()
        self.after_sale(c, a)
        return a

    def sold_already(self, c, a) -> bool:
        """Whether the sale ``a`` of ``c`` is one the turn has made [one block of a
        company per turn: any sale of it]."""
        return c.id in self.sold

    def why_sold_already(self, c, a) -> str:
        return f"shares of {c.id} are sold in one block per turn{self.game.rules.cite('buy-sell')}"

    def note_sale(self, c, a):
        """What the turn keeps of a sale besides the companies sold [nothing]."""

    def sell(self, c, a):
        """Check the sale's count and sell at the price the turn began with."""
        rules = self.game.rules
        n = rules.may_sell(c, self.player)
        count = a["count"]
        if count < 1 or count > n:
            why = (f"50% market limit{rules.cite('limits')}, president's 20%{rules.cite('presidency')}" if n
                   else rules.why_no_sale(c, self.player))
            raise Refusal("stock.sell-limit", f"{self.player} may sell {up_to(n, c.id + ' share')} now: {why}")
        price = self.start_price.get(c.id, rules.market.price(c.cell))
        self.sales.append({"corporation": c.id, "player": self.player, "count": count, "price": price,
                           "cell": c.cell, "depth": rules.market.depth(c.id, c.cell)})
        rules.sell_shares(c, self.player, count, price, stock_round=True)

    def after_sale(self, c, a):
        """What follows a sale in the turn: it ends when nothing but a pass is left."""
        self.end_if_nothing_left()


__all__ = ["StockTurn", "update_president"]

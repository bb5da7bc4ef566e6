"""A stock round turn (1832 [5.3]-[5.6]; the 1830 family).

On his turn a player may sell any number of shares (one block per company) and then
buy one certificate, or buy one certificate and then sell ([5.3] Buy/Sell Order); a
``pass`` ends the turn (a pass with nothing done counts toward the round's end: "all
players have passed consecutively", [5.2.2]). Rules read through the title's hooks:
certificate limit and the zones that exempt from it ([5.4], [5.1.1]), the 60% holding
limit, the 50% market limit, no rebuying after a sale ([5.3] Selling Shares), par
values ([5.6]), the brown area's multiple buys ([5.1.1] Brown).
"""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.round import Step
from trainruns.game.shares import max_sellable, scaled, up_to, update_president, why_none_sellable
from trainruns.game.state import player_key


class StockTurn(Step):
    """One player's turn; ``round`` (the stock round) keeps the order and the passes."""

    def __init__(self, game, round_, player: str, selling: bool = True):
        super().__init__(game)
        self.round = round_
        self.player = player
        self.selling = selling
        self.bought = False
        self.sold: list[str] = []          # companies sold this turn, in order
        self.sold_first = False
        self.acted = False
        self.sales: list[dict] = []        # for price protection [5.9]
        r = game.rules
        # [5.3] "sold ... at the price indicated by the share price token when that
        # player's stock turn began"
        self.start_price = {c.id: r.market.price(c.cell) for c in self.state.corporations if c.cell}

    def active(self):
        return {"player": self.player}

    # --- listing -------------------------------------------------------------------------

    def actions(self):
        out = []
        if not self.bought:
            out += self._buys()
        if self.selling and not (self.bought and self.sold_first):
            out += self._sells()
        out += self.extra_actions()
        out.append({"type": "pass", "player": self.player})
        return out

    def _buys(self):
        r, s, name = self.game.rules, self.state, self.player
        p = s.player[name]
        out = []
        room = r.cert_limit() - r.player_certs(name)
        for c in s.corporations:
            if c.closed:
                continue
            if c.par is None:
                if room >= 1 and r.can_par(c):
                    for price in r.par_prices(c):
                        if p.cash >= price * r.shares["president"]:
                            out.append({"type": "par", "player": name, "corporation": c.id, "price": price})
                continue
            if c.id in self.round.sold_by.get(name, set()) or r.market.zone(c.cell) == "closed":
                continue  # [5.3] no buying back until after the next set of operating rounds
            counts = r.counts_for_limit(c)
            if counts and room < 1:
                continue
            held = c.held(player_key(name))
            cap = None if r.may_exceed_holding(c) else scaled(r.shares, c, "player_limit") - held
            if cap is not None and cap < 1:
                continue
            if c.held("ipo") and p.cash >= r.ipo_price(c) and r.ipo_refusal(c) is None:
                out.append({"type": "buy_shares", "player": name, "corporation": c.id, "from": "ipo", "count": 1})
            if c.held("market"):
                price = r.market.price(c.cell)
                most = c.held("market") if r.multiple_buys(c) else 1
                most = min(most, p.cash // price if price else most)
                if cap is not None:
                    most = min(most, cap)
                if counts:
                    most = min(most, room)
                if most >= 1:
                    count = 1 if most == 1 else {"min": 1, "max": most}
                    out.append({"type": "buy_shares", "player": name, "corporation": c.id, "from": "market",
                                "count": count})
        return out

    def _sells(self):
        r, s = self.game.rules, self.state
        out = []
        for c in s.corporations:
            if not c.started or c.id in self.sold or c.id in self.round.no_sale or \
                    r.market.zone(c.cell) == "closed":
                continue
            n = max_sellable(s, c, self.player, scaled(r.shares, c, "market_limit"),
                             scaled(r.shares, c, "president"))
            if n >= 1:
                out.append({"type": "sell_shares", "player": self.player, "corporation": c.id,
                            "count": 1 if n == 1 else {"min": 1, "max": n}})
        return out

    # --- processing ----------------------------------------------------------------------

    def process(self, a):
        if a.get("player") != self.player:
            raise Refusal("turn.not-yours", f"it is {self.player}'s turn in the stock round"
                                            f"{self.game.rules.cite('stock-turn')}")
        t = a["type"]
        if t == "pass":
            self.done = True
            if not self.acted:
                self.round.passed(self.player)
            return a
        if t == "par":
            self._par(a)
        elif t == "buy_shares":
            self._buy(a)
        elif t == "sell_shares":
            self._sell(a)
        else:
            return self.process_extra(a)
        return a

    def extra_actions(self) -> list[dict]:
        """A title's own stock-turn actions, listed before ``pass``: its turn subclasses
        this and adds them."""
        return []

    def process_extra(self, a: dict):
        """Process an action of :meth:`extra_actions`; returns what the log records."""
        raise Refusal("stock.action", f"{a['type']} is not a stock round action")

    def note_action(self):
        self.acted = True
        self.round.acted(self.player)

    def _listed(self, a):
        for x in self.actions():
            if x["type"] != a["type"] or x.get("corporation") != a.get("corporation"):
                continue
            if x.get("from", a.get("from")) != a.get("from"):
                continue
            return x
        return None

    def _par(self, a):
        r, s = self.game.rules, self.state
        c = r.corporation(a["corporation"])
        if self.bought:
            raise Refusal("stock.one-buy", f"one certificate per turn{r.cite('buy-sell')}")
        if c.par is not None:
            raise Refusal("stock.started", f"{c.id} has started already{r.cite('par')}")
        if not r.can_par(c):
            raise Refusal("stock.cannot-start", f"{c.id} cannot be started now{r.cite('par')}")
        if a["price"] not in r.par_prices(c):
            raise Refusal("stock.par-value", f"par must be one of {r.par_prices(c)}{r.cite('par')}")
        if r.cert_limit() - r.player_certs(self.player) < 1:
            raise Refusal("stock.cert-limit", f"the certificate limit would be exceeded{r.cite('limits')}")
        cost = a["price"] * r.shares["president"]
        if s.player[self.player].cash < cost:
            raise Refusal("stock.cash", f"starting {c.id} at {a['price']} costs {cost}{r.cite('par')}")
        r.start_corporation(c, self.player, a["price"])
        self.round.started_here.add(c.id)
        self._bought()

    def _buy(self, a):
        r = self.game.rules
        c = r.corporation(a["corporation"])
        if a["from"] not in ("ipo", "market"):
            raise Refusal("stock.source", f"shares are bought from the 'ipo' or the 'market'{r.cite('buy-sell')}")
        listed = self._listed(a)
        count = a.get("count", 1)
        if listed is None:
            raise Refusal(*self._why_not_buy(c, a))
        lc = listed["count"]
        most = lc["max"] if isinstance(lc, dict) else lc
        if not isinstance(count, int) or count < 1 or count > most:
            raise Refusal("stock.count", f"at most {most} share(s) of {c.id} from the {a['from']} now: one "
                                          f"certificate{r.cite('buy-sell')}, several only from the market in "
                                          f"the brown area{r.cite('brown')}")
        price = r.ipo_price(c) if a["from"] == "ipo" else r.market.price(c.cell)
        r.buy_shares(c, self.player, a["from"], count, price)
        self._bought()

    def _why_not_buy(self, c, a):
        r, name = self.game.rules, self.player
        if self.bought:
            return "stock.one-buy", f"one certificate per turn{r.cite('buy-sell')}"
        if not c.started:
            return "stock.not-started", f"{c.id} has not started: buy its president's certificate with par{r.cite('par')}"
        if c.id in self.round.sold_by.get(name, set()):
            return "stock.rebuy", (f"{name} sold {c.id} this round: no buying until after the next operating "
                                   f"rounds{r.cite('buy-sell')}")
        if not c.held(a["from"]):
            return "stock.none-left", f"no {c.id} share in the {a['from']}{r.cite('buy-sell')}"
        if a["from"] == "ipo" and r.ipo_refusal(c) is not None:
            return r.ipo_refusal(c)
        if r.counts_for_limit(c) and r.cert_limit() - r.player_certs(name) < 1:
            return "stock.cert-limit", f"{name} is at the certificate limit {r.cert_limit()}{r.cite('limits')}"
        if not r.may_exceed_holding(c) and c.held(player_key(name)) >= scaled(r.shares, c, "player_limit"):
            return "stock.60-percent", f"{name} may not hold more than 60% of {c.id}{r.cite('limits')}"
        return "stock.cash", f"{name} cannot pay for a {c.id} share{r.cite('buy-sell')}"

    def _bought(self):
        self.bought = True
        self.sold_first = bool(self.sold)
        self.note_action()
        if self.sold_first or not self.selling or not self._sells():
            self.done = True   # nothing more this turn ([5.3] Buy/Sell Order)

    def _sell(self, a):
        r, s = self.game.rules, self.state
        c = r.corporation(a["corporation"])
        if not self.selling:
            raise Refusal("stock.no-selling", f"no selling in the initial stock round{r.cite('no-selling')}")
        if self.bought and self.sold_first:
            raise Refusal("stock.sell-after-buy", f"sell then buy, or buy then sell: not both{r.cite('buy-sell')}")
        if c.id in self.sold:
            raise Refusal("stock.one-block", f"shares of {c.id} are sold in one block per turn{r.cite('buy-sell')}")
        if c.id in self.round.no_sale:
            raise Refusal("stock.no-selling", f"{c.id} shares may not be sold now{r.cite('no-selling')}")
        limit, president = scaled(r.shares, c, "market_limit"), scaled(r.shares, c, "president")
        n = max_sellable(s, c, self.player, limit, president) if c.started else 0
        count = a["count"]
        if count < 1 or count > n:
            if n:
                why = f"50% market limit{r.cite('limits')}, president's 20%{r.cite('presidency')}"
            elif not c.started:
                why = f"{c.id} has not started{r.cite('par')}"
            else:
                why, topic = why_none_sellable(c, self.player, limit, president)
                why += r.cite(topic) if topic else ""
            raise Refusal("stock.sell-limit", f"{self.player} may sell {up_to(n, c.id + ' share')} now: {why}")
        price = self.start_price.get(c.id, r.market.price(c.cell))
        self.sales.append({"corporation": c.id, "player": self.player, "count": count, "price": price,
                           "cell": c.cell})
        r.sell_shares(c, self.player, count, price, stock_round=True)
        self.sold.append(c.id)
        self.round.sold_by.setdefault(self.player, set()).add(c.id)
        self.note_action()
        if not self.bought and not self._buys() and not self._sells():
            self.done = True
        elif self.bought and not self._sells():
            self.done = True


__all__ = ["StockTurn", "update_president"]

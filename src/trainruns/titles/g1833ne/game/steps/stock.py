"""A stock round turn with incremental capitalisation (summary "Capitalization type",
"Floating percentage and per-player share limits"; [E] 1846 turn: sell first, in one
block per corporation, then buy one certificate, which ends the turn; no buying back a
corporation sold this round)."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.round import Step
from trainruns.game.shares import up_to
from trainruns.game.state import player_key


class StockTurn(Step):
    def __init__(self, game, round_, player):
        super().__init__(game)
        self.round = round_
        self.player = player
        self.sold: list[str] = []
        self.acted = False

    def active(self):
        return {"player": self.player}

    def actions(self):
        sells = self._sells()
        if self._over_limit() and sells:
            return sells   # over the certificate limit (a corporation closed): sell first
        return self._buys() + sells + [{"type": "pass", "player": self.player}]

    def _over_limit(self) -> bool:
        """[E] a player over the certificate limit (it drops when a corporation closes)
        sells down before anything else, while he can (docs/gaps.md)."""
        r = self.game.rules
        return r.player_certs(self.player) > r.cert_limit()

    def _buys(self):
        r, s, name = self.game.rules, self.state, self.player
        cash = s.player[name].cash
        if r.cert_limit() - r.player_certs(name) < 1:
            return []
        out = []
        for c in s.corporations:
            if c.closed:
                continue
            if c.par is None:
                out += [{"type": "par", "player": name, "corporation": c.id, "price": p}
                        for p in r.par_prices() if cash >= p * r.shares["president"]]
                continue
            if c.id in self.round.sold_by.get(name, set()):
                continue
            if c.held(player_key(name)) >= r.shares["player_limit"] or cash < r.price(c):
                continue
            for source in ("treasury", "market"):
                if c.held(source):
                    out.append({"type": "buy_shares", "player": name, "corporation": c.id, "from": source, "count": 1})
        return out

    def _sells(self):
        r, s = self.game.rules, self.state
        out = []
        for c in s.corporations:
            if c.id in self.sold:
                continue
            n = r.may_sell(c, self.player)
            if n >= 1:
                out.append({"type": "sell_shares", "player": self.player, "corporation": c.id,
                            "count": 1 if n == 1 else {"min": 1, "max": n}})
        return out

    def process(self, a):
        r = self.game.rules
        if a.get("player") != self.player:
            raise Refusal("turn.not-yours", f"it is {self.player}'s turn in the stock round")
        t = a["type"]
        if t == "pass":
            if self._over_limit() and self._sells():
                raise Refusal("stock.over-limit", f"{self.player} holds more certificates than the limit "
                                                  f"{r.cert_limit()} and must sell first")
            self.done = True
            if not self.acted:
                self.round.passes += 1
            return a
        if t == "par":
            c = r.corporation(a["corporation"])
            if not any(x["type"] == "par" and x["corporation"] == c.id and x["price"] == a["price"]
                       for x in self._buys()):
                raise Refusal("stock.launch", f"{c.id} is launched by buying its 20% president's certificate at an "
                                              f"initial price of {r.par_prices()} that the player can pay twice, "
                                              "within the certificate limit (\"Floating percentage and per-player share limits\")")
            r.launch(c, self.player, a["price"])
            self._bought()
            return a
        if t == "buy_shares":
            c = r.corporation(a["corporation"])
            if a.get("count", 1) != 1 or not any(
                    x["type"] == "buy_shares" and x["corporation"] == c.id and x["from"] == a["from"]
                    for x in self._buys()):
                raise Refusal(*self._why_not_buy(c, a))
            r.buy_share(c, self.player, a["from"])
            self._bought()
            return dict(a, count=1)
        if t == "sell_shares":
            c = r.corporation(a["corporation"])
            n = 0 if c.id in self.sold else r.may_sell(c, self.player)
            if not 1 <= a["count"] <= n:
                why = (f"{self.player} sold {c.id} this turn: one block a corporation a turn" if c.id in self.sold
                       else r.why_no_sale(c, self.player) if not n
                       else "at most 50% in the Stock Market, not the president's certificate, only the president "
                            'before its first run ("Floating percentage and per-player share limits")')
                raise Refusal("stock.sell-limit", f"{self.player} may sell {up_to(n, c.id + ' share')} now: {why}")
            r.sell(c, self.player, a["count"])
            self.sold.append(c.id)
            self.round.sold_by.setdefault(self.player, set()).add(c.id)
            self._acted()
            if not self._buys() and not self._sells():
                self.done = True
            return a
        raise Refusal("stock.action", f"{t} is not a stock round action")

    def _why_not_buy(self, c, a):
        r, name = self.game.rules, self.player
        if not c.started:
            return "stock.not-launched", (f"{c.id} is launched by buying its president's certificate (par) "
                                          '("Floating percentage and per-player share limits")')
        if a.get("count", 1) != 1:
            return "stock.one-share", "one share a turn"
        if a["from"] not in ("treasury", "market") or not c.held(a["from"]):
            return "stock.none-left", f"no {c.id} share in the {a['from']} (shares come from the 'treasury' or the 'market')"
        if c.id in self.round.sold_by.get(name, set()):
            return "stock.rebuy", f"{name} sold {c.id} this round"
        if r.cert_limit() - r.player_certs(name) < 1:
            return "stock.cert-limit", (f"{name} is at the certificate limit {r.cert_limit()} "
                                        '("Floating percentage and per-player share limits")')
        if c.held(player_key(name)) >= r.shares["player_limit"]:
            return "stock.60-percent", (f"no player may own more than 60% of {c.id}, with no exceptions "
                                        '("Floating percentage and per-player share limits")')
        return "stock.cash", f'{name} cannot pay ${r.price(c)} for a {c.id} share ("Capitalization type")'

    def _acted(self):
        self.acted = True
        self.round.passes = 0
        self.round.last_actor = self.player

    def _bought(self):
        self._acted()
        self.done = True

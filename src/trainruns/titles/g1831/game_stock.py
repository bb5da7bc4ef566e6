"""1831 stock rules (4.2-4.8): preferred and common stock, the par chart and the Par
Marker, the pool limit, sale movements, Government Intervention, blocks, split markers,
closing out. The stock round's steps (game_steps/stock.py) ask these."""

from __future__ import annotations

from ...game.state import player_key
from . import game_certs as certs
from .game_certs import is_preferred, shares_of

UP_FROM_COMMONS = (3, 4)   # 4.7.10-11: the third and fourth 10/5/0% common sold


class StockRules:
    # --- limits ------------------------------------------------------------------------

    def cert_limit(self) -> int:
        return self.limit

    def player_certs(self, name: str) -> int:
        """4.7.7: certificates (not shares); commons of a company in receivership do not
        count, its preferred does (5.4.6)."""
        key, n = player_key(name), 0
        for c in self.state.corporations:
            for cert in c.extra.get("certs", []):
                if cert["holder"] == key and (is_preferred(cert) or not c.extra["receivership"]):
                    n += 1
        return n

    def pool_shares(self, c) -> int:
        return sum(shares_of(x) for x in certs.held(c, "market"))

    def block_size(self) -> int:
        """4.7.3: one certificate; after an Operation Set of 2 ORs a block of 2, after one
        of 4 a block of 4 (DIGEST 4.6: "after an Operation Set of two ORs"); GI: one."""
        if self.state.title_state["government_intervention"]:
            return 1
        return self.last_set_size if self.last_set_size in (2, 4) else 1

    def gi_room(self, c, name) -> int | None:
        """4.2.2: under GI at most 70% of one company's preferred and common together
        (decision: combined), in units; None without GI."""
        if not self.state.title_state["government_intervention"]:
            return None
        return self.rules["gi_holding_limit_percent"] // certs.UNIT - certs.units(c, player_key(name))

    # --- prices ------------------------------------------------------------------------

    def par_values(self) -> list[int]:
        """4.7.5: the par chart's values; $166 (the config's unselectable ones) may not be chosen."""
        return [v for v in self.config.par_chart if v not in self.config.unselectable
                and self.market.par_cell(v) is not None]

    def par_now(self, c) -> int:
        return c.extra["par_marker"]

    def cert_price(self, c, cert, source: str) -> int:
        """4.7.1: the initial offering at the Par Bar value x shares; the pool at the
        posted P (preferred) or C (common) price x shares."""
        n = shares_of(cert)
        if source == "ipo":
            return self.par_now(c) * n
        price = self.market.preferred(c.cell) if is_preferred(cert) else self.market.common(c.cell)
        return price * n

    def sale_value(self, c, cert) -> int:
        """4.6.3.3: the posted price before the marker moves x shares x 2^markers
        (decision: the 2x markers multiply)."""
        price = self.market.preferred(c.cell) if is_preferred(cert) else self.market.common(c.cell)
        return price * shares_of(cert) * (2 ** cert["splits"])

    # --- buying ------------------------------------------------------------------------

    def start_company(self, c, name: str, par: int):
        """4.7.5: the president's preferred sets par: Par Marker on the chart, Stock Marker
        in the PAR column square whose P is par; 4.7.5.2: he pays its shares x par."""
        pres = next(x for x in c.extra["certs"] if x["kind"] == "president")
        cost = par * shares_of(pres)
        self.state.pay(player_key(name), f"corp:{c.id}", cost)
        certs.move(self.state, c, pres, player_key(name))
        c.par = par
        c.extra["par_marker"] = par
        c.cell = self.market.par_cell(par)
        self.market.place(c.id, c.cell)
        c.president = name
        c.extra["last_dividend"] = None
        self.state.event("par", corporation=c.id, player=name, par=par, cash=cost)

    def buy_cert(self, c, name: str, kind: str, source: str):
        """4.7: one certificate from the initial offering (money to the company) or the
        pool (money to the bank; 4.7.7.1: to a company in receivership)."""
        cert = self.next_cert(c, kind, source)
        price = self.cert_price(c, cert, source)
        payee = f"corp:{c.id}" if source == "ipo" or c.extra["receivership"] else "bank"
        self.state.pay(player_key(name), payee, price)
        certs.move(self.state, c, cert, player_key(name))
        cert["bought_round"] = self.stock_round_number
        self.state.event("buy", corporation=c.id, player=name, kind=kind, source=source, price=price)
        if source == "ipo" and kind == "preferred" and not certs.held(c, "ipo", "preferred"):
            # 4.7.6: all preferred sold: the company is active; the Par Marker moves up one value
            c.floated = c.capitalised = True
            c.extra["active"] = True
            higher = [v for v in self.config.par_chart if v > c.extra["par_marker"]]
            if higher:
                c.extra["par_marker"] = higher[0]
            self.state.event("active", corporation=c.id, par_marker=c.extra["par_marker"])
        if source == "ipo" and kind == "common":
            sold = 5 - len(certs.held(c, "ipo", "common"))
            if sold in UP_FROM_COMMONS:
                self.move_marker(c, "up", 1, "common_funding")
        self.update_president(c)

    def next_cert(self, c, kind: str, source: str):
        pool = certs.held(c, source, kind)
        pool = [x for x in pool if x["kind"] != "president"]
        return pool[0] if pool else None

    def update_president(self, c, seller: str | None = None):
        """4.7.9 and 4.6.2: the player with more preferred stock than the president, holding
        at least the president's certificate's size, takes it (ties: nearest the
        president's left), giving back as much ordinary preferred. 5.4.12: frozen in
        receivership."""
        if c.president is None or c.extra["receivership"]:
            return
        pres_cert = next(x for x in c.extra["certs"] if x["kind"] == "president")
        cur = certs.units(c, player_key(c.president), "preferred")
        names = [p.name for p in self.state.players]
        i = names.index(c.president)
        best, best_n = None, cur
        for name in names[i + 1:] + names[:i]:
            n = certs.units(c, player_key(name), "preferred")
            if n > best_n and n >= pres_cert["size"]:
                best, best_n = name, n
        if best is None:
            return
        ordinary = certs.held(c, player_key(best), "preferred")
        give, size = [], 0
        for x in ordinary:
            if size >= pres_cert["size"]:
                break
            give.append(x)
            size += x["size"]
        if size != pres_cert["size"]:
            return   # no equal exchange possible (4.7.9 "equal number of shares")
        old = c.president
        for x in give:
            certs.move(self.state, c, x, player_key(old))
        certs.move(self.state, c, pres_cert, player_key(best))
        c.president = best
        self.state.event("president", corporation=c.id, player=best, previous=old)

    # --- selling -----------------------------------------------------------------------

    def sellable(self, c, name: str, kind: str) -> list[dict]:
        """4.6: certificates ``name`` may sell of one kind: never the president's
        certificate (4.6.2; its partial sale of 4.6.2.1 is not offered), not in
        receivership (4.6.9), under GI not commons bought this round (no profit taking
        or cycling, 4.6.7-4.6.8)."""
        if c.extra["receivership"] or c.cell is None:
            return []
        gi = self.state.title_state["government_intervention"]
        out = []
        for x in certs.held(c, player_key(name), kind):
            if x["kind"] == "president":
                continue
            if gi and x["kind"] == "common" and x.get("bought_round") == self.stock_round_number:
                continue
            out.append(x)
        return out

    def max_sale(self, c, name: str, kind: str) -> int:
        """How many certificates of ``kind`` fit the pool (4.6.1.1: 5 shares) and the
        bank's cash (4.6.3.4)."""
        room = self.rules["pool_share_limit"] - self.pool_shares(c)
        n, money = 0, 0
        for x in self.sellable(c, name, kind):
            if shares_of(x) > room:
                break
            money += self.sale_value(c, x)
            if money > self.state.bank.cash:
                break
            room -= shares_of(x)
            n += 1
        return n

    def sell(self, c, name: str, preferred: int, common: int):
        """4.6.3: one sale per company: every certificate at the posted price before the
        marker moves (2x markers removed as they go to the pool, 4.6.3.3.2); commons move
        the Stock Marker down by the company's last dividend decision, rounded on the
        total (decision), at the bottom left, each step counted (4.6.3.2.2)."""
        sold = self.sellable(c, name, "preferred")[:preferred] + self.sellable(c, name, "common")[:common]
        total = 0
        for x in sold:
            total += self.sale_value(c, x)
            x["splits"] = 0
            certs.move(self.state, c, x, "market")
        self.state.pay("bank", player_key(name), total)
        self.state.event("sell", corporation=c.id, player=name, preferred=preferred, common=common, cash=total)
        if common:
            num, den = self.rules["sale_moves"][c.extra["last_dividend"] or "preferred"]
            steps = -(-common * num // den) if c.extra["last_dividend"] != "all200" else common * num // den
            self.move_marker(c, "down", steps, "sale")
        self.update_president(c)

    # --- the market --------------------------------------------------------------------

    def move_marker(self, c, direction: str, steps: int, why: str):
        """Move the Stock Marker; a closed-out square closes the company (4.3.2), a split
        square sends it to the target and gives held certificates a 2x marker (4.3.4)."""
        if c.cell is None or steps <= 0:
            return
        old = c.cell
        cell, area = self.market.walk(c.cell, direction, steps)
        self.market.move(c.id, old, cell)
        c.cell = cell
        if cell != old:
            self.state.event("price", corporation=c.id, cell=list(cell), common=self.market.common(cell),
                             preferred=self.market.preferred(cell), why=why)
        if area == "closed":
            self.close_out(c)
        elif area == "split" and self.market.target is not None:
            self.market.move(c.id, cell, self.market.target)
            c.cell = self.market.target
            for x in c.extra["certs"]:
                if x["holder"].startswith(("player:", "corp:")):
                    x["splits"] += 1
            self.state.event("split", corporation=c.id, cell=list(c.cell))

    def close_out(self, c):
        """4.3.2: the company ceases to exist: tokens and markers removed, every
        certificate back to the initial offering without compensation, its cash to the
        bank, its trains to the pool as used; it may be started again."""
        s = self.state
        for x in c.extra["certs"]:
            x["splits"] = 0
            if x["holder"] != "ipo":
                certs.move(s, c, x, "ipo")
        if c.cash:
            s.pay(f"corp:{c.id}", "bank", c.cash)
        for t in c.trains:
            s.market_trains.append(t["train"])
        self.market.remove(c.id, c.cell)
        s.event("closed_out", corporation=c.id, trains=[t["train"] for t in c.trains])
        c.trains, c.tokens = [], []
        c.par = c.cell = c.president = None
        c.floated = c.capitalised = c.operated = False
        self.reset_extra(c)

    def end_stock_round(self):
        """4.8.3: fully funded companies (no preferred or common in the pool or initial
        offering) move up one, together, keeping the operating order; 4.8.1: the FIRST
        STOCK OPTION card goes to the holder's left."""
        movers = [c for c in self.state.corporations if c.cell is not None and not c.closed
                  and not certs.held(c, "ipo") and not certs.held(c, "market")]
        movers.sort(key=lambda c: self.market.order_key(c.id, c.cell))
        for c in movers:
            self.move_marker(c, "up", 1, "fully_funded")
        names = [p.name for p in self.state.players]
        holder = self.state.title_state["first_stock_option"]
        self.state.title_state["first_stock_option"] = names[(names.index(holder) + 1) % len(names)]

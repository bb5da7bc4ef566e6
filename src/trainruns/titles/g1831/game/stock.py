"""1831 stock rules (4.2-4.8): preferred and common stock, the par chart and the Par
Marker, the pool limit, sale movements, Government Intervention, blocks, split markers,
closing out. The stock round's steps (steps/stock.py) ask these."""

from __future__ import annotations

from trainruns.game.action import free_amount
from trainruns.game.shares import next_president
from trainruns.game.state import player_key
from trainruns.titles.g1831.game import certs
from trainruns.titles.g1831.game.certs import Cert, is_preferred, shares_of

UP_FROM_COMMONS = (3, 4)   # 4.7.10-11: the third and fourth 10/5/0% common sold


class StockRules:
    # --- limits ------------------------------------------------------------------------

    def cert_limit(self) -> int:
        return self.limit

    def player_certs(self, name: str) -> int:
        """4.7.7: the certificates (not shares) that count toward the limit
        (:meth:`cert_counts`)."""
        key, n = player_key(name), 0
        for c in self.state.corporations:
            n += len([x for x in c.certs if x.holder == key and self.cert_counts(c, x)])
            n += len(certs.held(c, key, "bond"))   # 3.2.1.1: "stock and bond certificates"
        return n

    def cert_counts(self, c, cert) -> bool:
        """4.7.7: "EXCEPTION: Common stock of companies or systems in receivership does
        not count toward the total. (Preferred stock in receivership does count ...)"
        (5.4.6); bonds count (3.2.1.1)."""
        return cert.kind == "bond" or is_preferred(cert) or not c.receivership

    def pool_shares(self, c) -> int:
        """4.6.1.1: a company's shares in the pool, bonds included (4.6.3.2.4)."""
        return sum(shares_of(x) for x in certs.held(c, "market") + certs.held(c, "market", "bond"))

    def block_size(self) -> int:
        """4.7.3: one certificate; after an Operation Set of 2 ORs a block of 2, after one
        of 4 a block of 4 (4.7.3.1: "after an Operation Set of two ORs"); GI: one."""
        if self.state.title_state.government_intervention:
            return 1
        return self.last_set_size if self.last_set_size in (2, 4) else 1

    def gi_room(self, c, name) -> int | None:
        """4.2.2: under GI at most 70% of one company's preferred and common together
        (decision: combined), in units; None without GI."""
        if not self.state.title_state.government_intervention:
            return None
        return self.numbers["gi_holding_limit_percent"] // certs.UNIT - certs.units(c, player_key(name))

    # --- prices ------------------------------------------------------------------------

    def par_values(self) -> list[int]:
        """4.7.5: the par chart's values; $166 (the config's unselectable ones) may not be chosen."""
        return [v for v in self.config.par_chart if v not in self.config.unselectable
                and self.market.par_cell(v) is not None]

    def par_now(self, c) -> int:
        return c.par_marker

    def posted_price(self, c, cert, cell=None) -> int:
        """4.3, 4.4.1: the price posted for a share of ``cert``: P for preferred and for
        bonds (at the Bond Marker), C for common; on the Stock Marker's square, or
        ``cell``."""
        if cert.kind == "bond":
            return self.market.preferred(c.bond_cell)
        cell = cell or c.cell
        return self.market.preferred(cell) if is_preferred(cert) else self.market.common(cell)

    def cert_price(self, c, cert, source: str) -> int:
        """4.7.1: the initial offering at the Par Bar value x shares; the pool at the
        posted price x shares (bonds always at their P)."""
        price = self.par_now(c) if source == "ipo" and cert.kind != "bond" else self.posted_price(c, cert)
        return price * shares_of(cert)

    def sale_value(self, c, cert, cell=None) -> int:
        """4.6.3.3: the posted price before the marker moves (on ``cell``, default its
        square now) x shares x 2^markers (decision: the 2x markers multiply)."""
        return self.posted_price(c, cert, cell) * shares_of(cert) * (2 ** cert.splits)

    # --- buying ------------------------------------------------------------------------

    def start_corporation(self, c, name: str, par: int):
        """4.7.5: the president's preferred sets par: Par Marker on the chart, Stock Marker
        in the PAR column square whose P is par; 4.7.5.2: he pays its shares x par."""
        pres = certs.president_cert(c)
        cost = par * shares_of(pres)
        self.state.pay(player_key(name), f"corp:{c.id}", cost)
        certs.move(self.state, c, pres, player_key(name))
        self.set_par(c, par)
        c.par_marker = par
        c.president = name
        c.last_dividend = None
        self.state.event("par", corporation=c.id, player=name, par=par, cash=cost)

    def buy_cert(self, c, name: str, kind: str, source: str):
        """4.7: one certificate from the initial offering (money to the company) or the
        pool (money to the bank; 4.7.7.1: to a company in receivership)."""
        cert = self.next_cert(c, kind, source)
        price = self.cert_price(c, cert, source)
        payee = f"corp:{c.id}" if source == "ipo" or c.receivership else "bank"
        if kind == "bond":
            payee = "bank"   # 4.7.1: bonds are always paid to The Bank
        self.state.pay(player_key(name), payee, price)
        certs.move(self.state, c, cert, player_key(name))
        # what cycling asks of a later sale this round (4.6.8, 4.6.8.1)
        cert.bought_round, cert.bought_from, cert.bought_price = self.stock_round_number, source, price
        self.state.event("buy", corporation=c.id, player=name, kind=kind, source=source, price=price)
        if source == "ipo" and kind == "preferred" and not certs.held(c, "ipo", "preferred"):
            # 4.7.6: all preferred sold: the company is active; the Par Marker moves up one value
            c.floated = c.capitalised = True
            c.active = True
            c.active_set = self.sets_done   # 5.9.5: mergers after one full Operation Set
            higher = [v for v in self.config.par_chart if v > c.par_marker]
            if higher:
                c.par_marker = higher[0]
            self.state.event("active", corporation=c.id, par_marker=c.par_marker)
        if source == "ipo" and cert.kind == "common" and self.commons_sold(c) in UP_FROM_COMMONS:
            self.move_marker(c, "up", 1, "common_funding")
        self.update_president(c)

    def commons_sold(self, c) -> int:
        """4.7.10-11: how many of the company's 10/5/0% commons have left its Initial
        Offerings; a system's 5% commons for mergers (4.7.8) are not counted."""
        return len([x for x in c.certs if x.kind == "common" and x.holder != "ipo"])

    def next_cert(self, c, kind: str, source: str):
        pool = certs.held(c, source, kind)
        pool = [x for x in pool if x.kind != "president"]
        return pool[0] if pool else None

    def update_president(self, c):
        """4.7.9 and 4.6.2: the player with more preferred stock than the president, holding
        at least the president's certificate's size, takes it (ties: nearest the
        president's left), giving back as much ordinary preferred. 5.4.12: frozen in
        receivership."""
        if c.president is None or c.receivership:
            return
        size = certs.president_cert(c).size
        best = self._most_preferred(c, max(certs.units(c, player_key(c.president), "preferred"), size - 1))
        give = self._exchanged(c, best, size) if best else []
        if give:   # else no equal exchange is possible (4.7.9 "equal number of shares")
            self._exchange(c, best, give)

    def _most_preferred(self, c, above: int):
        """The player other than the president with the most preferred units, more than
        ``above`` (ties: nearest the president's left); None."""
        return next_president(self.state, c.president, lambda name: certs.units(c, player_key(name), "preferred"),
                              above)

    def _exchanged(self, c, name: str, size: int) -> list[Cert]:
        """``name``'s ordinary preferred making up exactly ``size`` units, given for the
        president's certificate (4.7.9, 4.6.2.1: "equal number of shares"); empty when
        they cannot."""
        give, got = [], 0
        for x in certs.held(c, player_key(name), "preferred"):
            if got < size:
                give.append(x)
                got += x.size
        return give if got == size else []

    def _exchange(self, c, to: str, give: list[Cert], **why):
        """The president's certificate goes to ``to`` for his ordinary preferred ``give``."""
        old = c.president
        for x in give:
            certs.move(self.state, c, x, player_key(old))
        certs.move(self.state, c, certs.president_cert(c), player_key(to))
        c.president = to
        self.state.event("president", corporation=c.id, player=to, previous=old, **why)

    # --- selling -----------------------------------------------------------------------

    def sellable(self, c, name: str, kind: str) -> list[Cert]:
        """4.6: certificates ``name`` may sell of one kind: never the president's
        certificate (4.6.2; its partial sale of 4.6.2.1: :meth:`president_portion`), not in
        receivership (4.6.9), under GI none whose sale would be profit taking or
        cycling (:meth:`gi_forbids`)."""
        if c.receivership or c.cell is None:
            return []
        if kind == "bond" and c.bond_cell is None:
            return []
        gi = self.state.title_state.government_intervention
        out = []
        for x in certs.held(c, player_key(name), kind):
            if x.kind == "president":
                continue
            if gi and self.gi_forbids(c, x):
                continue
            out.append(x)
        return out

    def gi_forbids(self, c, cert) -> bool:
        """4.2.2: under Government Intervention "Profit Taking (4.6.7) and Cycling (4.6.6
        & 4.6.8.1) are prohibited": a sale of ``cert`` bought this Stock Round that is
        cycling (:meth:`cycled`: from the pool, or from Initial Offerings for equal or
        less money; never with 2x markers, 4.6.3.3.1), or of a common bought from
        Initial Offerings "for more than par value" (4.6.7: more than it cost)."""
        if cert.kind not in ("common", "merger", "bond") or cert.bought_round != self.stock_round_number:
            return False
        return self.cycled(c, cert) or (cert.bought_from == "ipo" and self.sale_value(c, cert) > cert.bought_price)

    def successor(self, c, name: str):
        """4.6.2.1: the player who would take the president's certificate if ``name``
        (the president) sold part of it: the one with the most preferred stock (ties:
        nearest the president's left), holding at least the certificate's size; None."""
        if c.president != name or c.receivership:
            return None
        return self._most_preferred(c, certs.president_cert(c).size - 1)

    def president_portion(self, c, name: str) -> list[Cert]:
        """4.6.2.1: the ordinary preferred the president would get for his certificate
        from its successor, which he may then sell (a sale that hands the presidency
        over; 4.6.2.2: exchange first, then the sale). Empty when no one can take it."""
        to = self.successor(c, name)
        return self._exchanged(c, to, certs.president_cert(c).size) if to is not None else []

    def hand_over(self, c, name: str):
        """4.6.2.2: the president's certificate goes to the successor for as much of his
        ordinary preferred."""
        self._exchange(c, self.successor(c, name), self.president_portion(c, name), why="4.6.2.1")

    def max_sale(self, c, name: str, kind: str) -> int:
        """How many certificates of ``kind`` ``name`` may sell now (:meth:`pool_takes`);
        for the president, preferred includes the portion of his certificate 4.6.2.1
        lets him sell."""
        listed = self.sellable(c, name, kind)
        if kind == "preferred" and not c.receivership and c.cell is not None:
            listed = listed + self.president_portion(c, name)
        return len(self.pool_takes(c, listed))

    def pool_takes(self, c, listed: list[Cert], enough=lambda cash: False) -> list[Cert]:
        """The first of the certificates ``listed`` of ``c``, in order, that fit the pool
        (4.6.1.1: 5 shares) and the bank's cash at their sale value (4.6.3.4), stopping
        once ``enough`` of what they raise."""
        room, money, out = self.numbers["pool_share_limit"] - self.pool_shares(c), 0, []
        for x in listed:
            if enough(money) or shares_of(x) > room or money + self.sale_value(c, x) > self.state.bank.cash:
                break
            out.append(x)
            room -= shares_of(x)
            money += self.sale_value(c, x)
        return out

    def sell_to_pool(self, c, name, sold, value=None) -> int:
        """``name``'s certificates ``sold`` of ``c`` go to the pool, paid by the bank at
        ``value`` of each (default: their sale value, 4.6.3.3; 2x markers count, then are
        removed, 4.6.3.3.2); the cash."""
        value = value or (lambda x: self.sale_value(c, x))
        total = 0
        for x in sold:
            total += value(x)
            x.splits = 0
            certs.move(self.state, c, x, "market")
        self.state.pay("bank", player_key(name), total)
        return total

    def sell(self, c, name: str, preferred: int, common: int, bonds: int = 0, before=None):
        """4.6.3: one sale per company: every certificate at the posted price before the
        marker moves (on ``before``, the Stock Marker's square when the turn's sale of the
        company began, 4.6.3.1; 2x markers removed as they go to the pool, 4.6.3.3.2), a
        cycled one at the price after it (4.6.8.2, :meth:`cycled`); commons move the Stock
        Marker down by the company's last dividend decision, rounded on the total
        (decision), at the bottom left, each step counted (4.6.3.2.2)."""
        if preferred > len(self.sellable(c, name, "preferred")):
            self.hand_over(c, name)   # 4.6.2.1: part of the president's certificate
        sold = (self.sellable(c, name, "preferred")[:preferred] + self.sellable(c, name, "common")[:common]
                + self.sellable(c, name, "bond")[:bonds])
        steps = self.sale_steps(c, common)
        cycled = sum(self.cycled(c, x) for x in sold)
        after = {"common": self.square_after(c.cell, steps), "bond": self.square_after(c.bond_cell, bonds)}
        total = self.sell_to_pool(c, name, sold, lambda x: self.cycled_value(x, after) if self.cycled(c, x)
                                  else self.sale_value(c, x, before))
        self.state.event("sell", corporation=c.id, player=name, preferred=preferred, common=common, bonds=bonds,
                         cash=total, **({"cycled": cycled} if cycled else {}))
        if bonds:
            self.move_bond_marker(c, "down", bonds, "sale")   # 4.6.3.2.4: one square per bond
        self.move_marker(c, "down", steps, "sale")
        self.update_president(c)

    def sale_steps(self, c, common: int) -> int:
        """4.6.3.2.1: the squares a sale of ``common`` commons moves the Stock Marker
        down, by the company's last dividend decision ("not yet operated": paid
        preferred only), rounded on the total (decision)."""
        num, den = self.numbers["sale_moves"][c.last_dividend or "preferred"]
        return -(-common * num // den) if c.last_dividend != "all200" else common * num // den

    def square_after(self, cell, steps: int):
        """The square a marker on ``cell`` ends on after ``steps`` squares down
        (4.6.3.2.2; a split square sends it to the target, 4.3.4); None for none."""
        if cell is None:
            return None
        end, area = self.market.walk(cell, "down", steps)
        return self.market.target if area == "split" and self.market.target is not None else end

    def cycled(self, c, cert) -> bool:
        """4.6.8: "If a player buys common stock or bonds ... from the Stock Bank Pool and
        sells it during the same Stock Round, it is called Cycling"; 4.6.8.1: so is
        common stock bought from Initial Offerings and sold in the same Stock Round "for
        equal or less money" (its sale value before the move at most what it cost);
        4.6.3.3.1: "Selling stocks with 2x markers is never considered cycling"."""
        if cert.kind not in ("common", "merger", "bond") or cert.splits:
            return False
        if cert.bought_round != self.stock_round_number:
            return False
        return cert.bought_from == "market" or self.sale_value(c, cert) <= cert.bought_price

    def cycled_value(self, cert, after: dict) -> int:
        """4.6.8.2: "Stock that has been Cycled is valued at the final price after all
        Stock Marker Token movement has been completed, and not before movement": a
        common at the C price of the square the sale's move leaves the Stock Marker
        on, a bond at the P price of the Bond Marker's (4.4.1)."""
        if cert.kind == "bond":
            return self.market.preferred(after["bond"]) * shares_of(cert)
        return self.market.common(after["common"]) * shares_of(cert)

    # --- a company buys its own stock sold to the pool (4.6.4, 4.6.5) --------------------

    def own_room(self, c, kind: str) -> int:
        """4.6.5: a company holds at most 25% of its own stock (commons only); 4.6.5.1: a
        system at most four of its own bonds besides. In certificates of ``kind``."""
        if kind == "bond":
            return self.numbers["own_bond_limit"] - len(certs.held(c, "treasury", "bond"))
        room = self.numbers["own_common_limit_percent"] // certs.UNIT - certs.units(c, "treasury", "common")
        pool = certs.held(c, "market", "common")
        n = 0
        for x in pool:
            if x.size > room:
                break
            room -= x.size
            n += 1
        return n

    def buy_back_offer(self, c, kind: str, sold: int) -> int:
        """4.6.4: how many of the ``sold`` certificates just put in the pool the company may
        buy at once with its own cash (the price posted now)."""
        if c.cell is None or c.receivership or c.president is None:
            return 0
        pool = certs.held(c, "market", kind)
        n, cash = 0, c.cash
        for x in pool[:min(sold, self.own_room(c, kind))]:
            price = self.cert_price(c, x, "market")
            if price > cash:
                break
            cash -= price
            n += 1
        return n

    def buy_back(self, c, kind: str, count: int):
        for x in certs.held(c, "market", kind)[:count]:
            price = self.cert_price(c, x, "market")
            self.state.pay(f"corp:{c.id}", "bank", price)
            if x.kind == "bond":
                x.holder = "treasury"
            else:
                certs.move(self.state, c, x, "treasury")
        self.state.event("buy_back", corporation=c.id, kind=kind, count=count)

    # --- Government Intervention's 70% (4.2.2) -----------------------------------------

    def gi_excess(self, c, name: str) -> int:
        """4.2.2: units of ``c`` ``name`` holds beyond 70% under GI (0 without GI)."""
        room = self.gi_room(c, name)
        return max(0, -room) if room is not None else 0

    def gi_corrections(self, name: str) -> list[dict]:
        """4.2.2: "If a player is over the limit he must make the correction at his first
        opportunity": the sales owed now, each as many certificates of one kind as bring
        him to 70% (or as many as the pool's 5 shares and the bank's cash allow: he keeps
        the rest and corrects later)."""
        out = []
        for c in self.state.corporations:
            excess = self.gi_excess(c, name)
            if not excess or c.cell is None:
                continue
            for kind in ("preferred", "common"):
                most = self.max_sale(c, name, kind)
                if not most:
                    continue
                sizes = [x.size for x in self.sellable(c, name, kind)]
                if kind == "preferred":
                    sizes += [x.size for x in self.president_portion(c, name)]
                need, got = 0, 0
                for size in sizes:
                    if got >= excess:
                        break
                    got += size
                    need += 1
                out.append({"type": "sell_shares", "player": name, "corporation": c.id, "kind": kind,
                            "count": min(need, most)})
        return out

    # --- the certificate limit after receivership (5.4.6) -------------------------------

    def limit_corrections(self, name: str) -> list[dict]:
        """5.4.6: commons of a company in receivership do not count towards the
        certificate limit; "When the corporation comes out of receivership, the stocks
        will again count, and the player must make any necessary corrections to his
        portfolio to comply with the limit (similar to the exception in 4.2.2)", that
        is "at his first opportunity": at his next stock turn a player over the limit is
        offered only sales, of any certificates he may sell, up to his excess (he keeps
        what the pool's 5 shares and the bank's cash do not let him sell, and corrects
        later). The same holds for a holding over the limit from a merger's 5% commons
        (5.9.7.5 note)."""
        excess = -self.cert_room(name)
        if excess <= 0:
            return []
        out = []
        for c in self.state.corporations:
            if c.cell is None:
                continue
            for kind in ("preferred", "common", "bond"):
                most = min(excess, self.max_sale(c, name, kind))
                if most:
                    out.append({"type": "sell_shares", "player": name, "corporation": c.id, "kind": kind,
                                "count": free_amount(1, most)})
        return out

    # --- the market --------------------------------------------------------------------

    def walk_marker(self, key: str, old, direction: str, steps: int):
        """A marker ``key`` moves ``steps`` squares ``direction`` from ``old`` (4.4.1);
        from a STOCK SPLIT square on to the SPLIT TARGET (4.3.4). Returns the square it
        reached, the area of that square, and where it ends."""
        cell, area = self.market.walk(old, direction, steps)
        self.market.move(key, old, cell)
        end = self.market.target if area == "split" and self.market.target is not None else cell
        self.market.move(key, cell, end)
        return cell, area, end

    def move_marker(self, c, direction: str, steps: int, why: str):
        """Move the Stock Marker; a closed-out square closes the company (4.3.2), a split
        square sends it to the target and gives held certificates a 2x marker (4.3.4)."""
        if c.cell is None or steps <= 0:
            return
        old = c.cell
        cell, area, c.cell = self.walk_marker(c.id, old, direction, steps)
        if cell != old:
            self.state.event("price", corporation=c.id, cell=list(cell), common=self.market.common(cell),
                             preferred=self.market.preferred(cell), why=why)
        if area == "closed":
            self.close_out(c)
        elif c.cell != cell:
            for x in c.certs:
                if x.holder.startswith(("player:", "corp:")) or x.holder == "treasury":
                    x.splits += 1   # players', companies' and systems' own (4.3.4)
            self.state.event("split", corporation=c.id, cell=list(c.cell))

    def close_out(self, c):
        """4.3.2: the company ceases to exist: tokens and markers removed, every
        certificate back to the initial offering without compensation, its cash to the
        bank, its trains to the pool as used; it may be started again. A retired train it
        kept in receivership (5.4.8) leaves play: 5.3.6 "immediately removed from play",
        its exception lasting only "until it is no longer in receivership", and 5.3.2
        "Corporations may not buy retired trains"."""
        s = self.state
        if c.bond_cell is not None:
            self.close_bonds(c, half=False)   # its bonds surrendered too (4.3.2)
        for bid in c.absorbed:
            self.restart(s.corp[bid])         # 5.9.7.4: retired preferred back in play
        if c.cash:
            s.pay(f"corp:{c.id}", "bank", c.cash)
        for t in c.trains:
            if t.status != "retired":
                s.market_trains.append(t)
        self.market.remove(c.id, c.cell)
        s.event("closed_out", corporation=c.id, trains=[t.name for t in c.trains])
        c.trains, c.tokens = [], []
        c.owed_commons = 0   # 5.3.4's owed sale ends with the company
        c.par = c.cell = c.president = None
        self.reset_company(c)

    def stock_round_end_move(self, c):
        """4.8.3: a fully funded company (no preferred or common in the pool or initial
        offering) moves up one; all move together, keeping the operating order."""
        if c.cell is not None and not certs.held(c, "ipo") and not certs.held(c, "market"):
            self.move_marker(c, "up", 1, "fully_funded")

    def end_stock_round(self, last_actor):
        """4.8.3 the price moves; 4.8.1: the FIRST STOCK OPTION card goes to the holder's left."""
        self.stock_round_price_moves()
        self.end_of_sr_bonds()
        t = self.state.title_state
        t.first_stock_option = self.player_after(t.first_stock_option)

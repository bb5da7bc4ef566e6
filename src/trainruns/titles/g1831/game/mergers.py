"""1831 mergers and takeovers (5.9), the systems they make and their bonds (4.3.3,
4.4.1, 4.6.3.2.4, 4.8.4, 5.4.14, 5.10, 5.12.1).

The operating corporation A announces, after its dividend, one merger or takeover of a
company B per round (5.9.1). Which of the four types applies follows from A and B:

- Type I, friendly (5.9.7): the same president (B in receivership too, 5.9.7.1);
- Type II, hostile (5.9.8): B not in receivership, A a company;
- Type III (5.9.9): B in receivership, A a company;
- Type IV, for bonds (5.9.10): A a system (a system's second merger is Type IV only).

A system's commons are 5% holdings (its own 10/5/0% ones, "still 1 share", and its 5%
common for mergers that replace B's commons, 4.7.8); after Type IV, B's 10/5/0%
commons are A's bonds, priced by the Bond Marker (B's Stock Marker, put under A's).
Bonds are listed in ``Corporation1831.bonds`` and are no part of A's shares.
"""

from __future__ import annotations

from trainruns.game import merger, route_adapter
from trainruns.game.shares import seat_order_from
from trainruns.game.state import player_key
from trainruns.titles.g1831.game import certs
from trainruns.titles.g1831.game.certs import Cert, is_preferred


def split_rule(kind: str) -> str:
    """The rule of a stock split during a takeover's move: 5.9.8.4 for Type II, 5.9.10.5
    for Type IV (the only types that move B's Stock Marker before they complete)."""
    return "5.9.8.4" if kind == "II" else "5.9.10.5"


class MergerRules:
    # --- what a system is -----------------------------------------------------------

    def is_system(self, c) -> bool:
        return bool(c.absorbed)

    def tile_allowance(self, c):
        """5.2.4.2-3: a company lays up to 4 tiles, at most 2 cities; a system 7 and 5
        (data ``tile_lays``, read by :func:`trainruns.game.tile_lays.may_lay`)."""
        return self.numbers["tile_lays"]["system" if self.is_system(c) else "company"]

    def token_limit(self, c) -> int:
        """5.2.4.2-3: a company buys up to 3 tokens in a track phase; a system 6."""
        return self.numbers["token_limits"]["system" if self.is_system(c) else "company"]

    def min_trains(self, c) -> int:
        """5.3.1: one train; a system two from the first 3-train."""
        names = [r["name"] for r in self.numbers["phases"]]
        if self.is_system(c) and names.index(self.state.phase) >= names.index("3"):
            return 2
        return 1

    # --- 5.9 who may take over whom ---------------------------------------------------

    def mergers_open(self) -> bool:
        """5.3.5: from the first 2-train until the first 12-train."""
        m = self.numbers["mergers"]
        names = [r["name"] for r in self.numbers["phases"]]
        now = names.index(self.state.phase)
        return (self.state.title_state.trains_bought and names.index(m["from_phase"]) <= now
                < names.index(m["until_phase"]))

    def seasoned(self, c) -> bool:
        """5.9.5: active for one full Operation Set."""
        return c.active and c.active_set is not None and self.sets_done > c.active_set

    def merger_type(self, a, b) -> str:
        if self.is_system(a):
            return "IV"
        if a.president == b.president:
            return "I"
        return "III" if b.receivership else "II"

    def merger_targets(self, a) -> list:
        """5.9.1-5.9.5: (B, type) for each company A may announce a takeover of now."""
        m = self.numbers["mergers"]
        if (not self.mergers_open() or a.cell is None or a.receivership or not self.seasoned(a)
                or len(a.absorbed) >= m["most_absorbed"] or a.merge_tried == self.or_counter
                or not a.sites):
            return []
        if self.is_system(a) and a.bond_cell is not None:
            return []   # one set of bonds: its Bond Marker is B's Stock Marker (5.9.10.9)
        out = []
        reach = None   # A's reach, walked once for every B
        for b in self.state.corporations:
            if b is a or b.cell is None or self.is_system(b) or not self.seasoned(b) or b.president is None:
                continue   # 5.9.4: a system is never B
            kind = self.merger_type(a, b)
            if kind == "IV" and b.receivership:
                continue   # 5.9.10.1
            if self.announcement_closes(a, kind):
                continue   # 5.9.3: cancelled, so not offered
            reach = self.merger_reach(a) if reach is None else reach
            if not reach & {(x.hex, 0) for x in b.sites}:
                continue   # 5.9.3: an unblocked path to one of B's tokens
            out.append((b, kind))
        return out

    def announcement_closes(self, a, kind: str) -> bool:
        """5.9.3: "If the movement of A's Stock Marker Token as a result of the merger or
        takeover announcement would move it to the STOCK TRADES CLOSED area, the merger or
        takeover is cancelled". Types II to IV move it one square left (or down, 5.9.8.2,
        5.9.9.2, 5.9.10.2); a Type I announcement does not move it (5.9.7.2)."""
        return kind != "I" and self.market.zone(self.market.walk(a.cell, "left", 1)[0]) == "closed"

    def merger_reach(self, c) -> frozenset:
        """5.9.3 "an unblocked path": what the company's track connects to from its
        tokens, through cities not full of others' tokens (the route core's loose
        reach, :func:`~trainruns.game.route_adapter.board_and_loose_reach`)."""
        return frozenset(route_adapter.board_and_loose_reach(self.position(c.id, trains=[]))[1].stops)

    # --- 5.9 the announcement ---------------------------------------------------------

    def buyout_payments(self, b) -> list:
        """5.9.7.3, 5.9.8.5: B's preferred held by players and the pool, each certificate
        at B's P price x shares x 2^markers (players paid, the pool's part to the bank)."""
        return [(x.holder, self.sale_value(b, x)) for x in b.certs
                if is_preferred(x) and x.holder not in ("ipo", "retired")]

    def assets(self, c) -> int:
        """5.9.8.3 "total ASSETS (stock & cash)": cash and the company's own stock and
        bonds at their posted prices."""
        stock = sum(self.sale_value(c, x) for x in certs.held(c, "treasury"))
        stock += sum(self.sale_value(c, x) for x in certs.held(c, "treasury", "bond"))
        return c.cash + stock

    def merge(self, a, b, kind: str):
        """Announce and, when A passes the type's test, carry out the takeover."""
        s = self.state
        a.merge_tried = self.or_counter
        s.event("merger_announced", corporation=a.id, target=b.id, type=kind)
        b_cell, b_stack = b.cell, list(self.market.stacks.get(b.cell, []))
        if kind == "I":
            # 5.9.7.3: A's cash must buy all of B's preferred, else both markers go down one
            if a.cash < merger.buyout_cost(self, b):
                self.move_marker(a, "down", 1, "merger_failed")
                self.move_marker(b, "down", 1, "merger_failed")
                s.event("merger_cancelled", corporation=a.id, target=b.id, rule="5.9.7.3.1")
                return
        elif kind == "III":
            # 5.9.9.2-3: A's marker one left; A's cash covers B's preferred and loan
            self.move_marker(a, "left", 1, "takeover")
            if a.cell is None or a.cash < merger.buyout_cost(self, b) + b.debt:
                s.event("merger_cancelled", corporation=a.id, target=b.id, rule="5.9.9.3.1")
                return
        else:
            # 5.9.8.2 / 5.9.10.2: B's marker two right for now, A's one left
            seen = len(s.events)
            self.move_marker(b, "right", 2, "takeover")
            split = any(e.get("event") == "split" and e.get("corporation") == b.id for e in s.events[seen:])
            self.move_marker(a, "left", 1, "takeover")
            need = merger.buyout_cost(self, b)
            if a.cell is None or self.assets(a) <= need + self.assets(b) // 2 or a.cash < need:
                # 5.9.8.3.1 / 5.9.10.4: B's marker back where it was, in its place in the stack
                if b.cell is not None:
                    self.market.remove(b.id, b.cell)
                    b.cell = b_cell
                    stack = self.market.stacks.setdefault(b_cell, [])
                    stack.insert(min(b_stack.index(b.id), len(stack)), b.id)
                s.event("merger_cancelled", corporation=a.id, target=b.id, rule="5.9.8.3.1")
                return
            if split:
                owners = self.split_sellers(a, b)
                if owners:
                    s.event("takeover_split_sales", corporation=a.id, target=b.id, players=owners,
                            rule=split_rule(kind))
                    return owners   # each chooses (steps: SplitSaleStep), then :meth:`complete_takeover`
        self.complete_takeover(a, b, kind)

    # --- 5.9.8.4 / 5.9.10.5: a split during the takeover's move ------------------------

    def split_sellers(self, a, b) -> list[str]:
        """5.9.8.4 / 5.9.10.5: "If B's stock split during the move ..., owners of B's
        common stock may sell at the current price including any 2x markers, or they
        may trade [II: for A's 5% common for mergers] / hold them [IV: as bonds]": the
        players holding B's commons, asked in seat order from A's president
        (docs/gaps.md)."""
        return [n for n in [a.president, *seat_order_from(self.state, a.president)] if self.split_sale_most(b, n)]

    def split_sale_most(self, b, name: str) -> int:
        """How many of B's commons ``name`` may sell now: those he holds, as many as the
        bank can pay (4.6.3.4) and, when the config's ``takeover_split_sales.pool_limit``
        says so, the pool's 5 shares hold (4.6.1.1); without it the pool takes them past
        its limit, as 5.9.10.10 puts B's unsold stock there (docs/gaps.md)."""
        limit = (self.config.raw.get("takeover_split_sales") or {}).get("pool_limit", False)
        room = self.numbers["pool_share_limit"] - self.pool_shares(b) if limit else None
        n, money = 0, 0
        for x in certs.held(b, player_key(name), "common"):
            money += self.sale_value(b, x)
            if money > self.state.bank.cash or (room is not None and n + 1 > room):
                break
            n += 1
        return n

    def split_sale(self, b, name: str, count: int, kind: str):
        """The sale of 5.9.8.4 (a Type ``kind`` II takeover) / 5.9.10.5 (Type IV): to
        the pool, paid by the bank at B's posted common price x 2^markers (the markers
        removed in the pool, 4.6.3.3.2); "Selling does not affect the Stock Marker
        Token". The takeover then makes the pool's certificates A's (5.9.8.6: A's 5%
        common for mergers; 5.9.10.8: bonds)."""
        sold = certs.held(b, player_key(name), "common")[:count]
        total = self.sell_to_pool(b, name, sold)
        self.state.event("sell", corporation=b.id, player=name, preferred=0, common=count, bonds=0, cash=total,
                         rule=split_rule(kind))

    def complete_takeover(self, a, b, kind: str):
        """The merger's or takeover's steps once it passed its test and the owners chose
        (5.9.7.3-9, 5.9.8.5-11, 5.9.9.4-11, 5.9.10.6-13)."""
        s = self.state
        # B's preferred bought, then retired (5.9.7.3-4, 5.9.8.5, 5.9.9.4, 5.9.10.6)
        merger.buy_out(self, a, b)
        b_pres = b.president
        # 5.9.8.7 / 5.9.10.7: B's former president gets half B's cash, rounded up;
        # 5.9.9.6: A pays B's loan
        if kind in ("II", "IV") and b.cash:
            s.pay(f"corp:{b.id}", player_key(b_pres), -(-b.cash // 2))
        if kind == "III" and b.debt:
            s.pay(f"corp:{a.id}", "bank", b.debt)
            b.debt = 0
        # commons: B's 10/5/0% become A's 5% merger commons where they are (I-III), or A's
        # bonds (IV); A's own 10/5/0% become 5% holdings (4.7.8)
        b_commons = [x for x in b.certs if x.kind == "common"]
        if kind == "IV":
            bonds = []
            for x in b_commons:
                where = x.holder
                if where == "ipo":
                    where = "market"   # 5.9.10.10: into the pool even past its limit
                bonds.append(Cert("bond", 1, where, x.splits, origin=b.id))
            a.bonds = bonds
            a.bond_cell = a.cell
            self.market.place(f"{a.id}/bonds", a.cell)   # 5.9.10.8: B's marker under A's
        else:
            for x in a.certs:
                if x.kind == "common":
                    x.size = 1
            spare = [x for x in a.certs if x.kind == "merger" and x.holder == "none"]
            for x, y in zip(b_commons, spare):
                y.holder = x.holder
                y.splits = x.splits
            if kind == "III":
                a.receivership = False   # 5.9.9.11
        # equipment (5.9.7.6, 5.9.8.8, 5.9.9.8; Type IV read the same, docs/gaps.md): cash,
        # trains and tokens; limits add up to 19
        cap = self.numbers["mergers"]["token_cap"]
        a.supply_before.append(dict(a.supply))
        for t in ("station", "yard"):
            a.supply[t] = min(cap, a.supply[t] + b.supply[t])
        moved = b.sites
        a.absorbed.append(b.id)
        merger.absorb(self, a, b)
        self._retired_leave(a)
        certs.recount(a)
        a.sites.extend(moved)
        a.tokens = [(x.hex, 0) for x in a.sites]
        self._correct_tokens(a)
        self.discard_surplus(a)
        # bonus from the bank: 3 / 5 / 8 / 2 x "the value of its par stock" (5.9.7.9),
        # the Par Marker's value, which 4.7.6 moved up from the first par (7.1 shorter
        # game: 5 / 10 / 13 / 3)
        times = self.numbers["mergers"]["bonus_times_par" + ("_short" if "short" in self.variants else "")][kind]
        bonus = times * self.par_now(a)
        s.pay("bank", f"corp:{a.id}", bonus)
        s.event("merger", corporation=a.id, target=b.id, type=kind, bonus=bonus,
                trains=[t.name for t in a.trains], bonds=len(a.bonds))

    def retire_shell(self, b):
        """B ends (5.9.7.4): its certificates out of play, its stations off the map, no
        market or par price; it may be started again only when bonds made of it close
        (4.3.3)."""
        for x in b.certs:
            x.holder = "retired"
        b.sites = []
        b.cell = b.par = None
        b.active = False
        b.total_shares = 0

    def _retired_leave(self, a):
        """5.3.6: retired trains run only "until it is no longer in receivership": those a
        company out of receivership holds after a merger (a Type III buyer leaves
        receivership, 5.9.9.11; a shell in receivership hands over its retired trains)
        leave play at once, as a new phase takes them from any other company."""
        if a.receivership:
            return
        for t in [t for t in a.trains if t.status == "retired"]:
            a.trains.remove(t)
            self.state.event("retire", corporation=a.id, train=t.name)

    def _correct_tokens(self, a):
        """5.9.7.8: "If A cannot absorb all of B's tokens, then A must decide which of the
        tokens that cannot be absorbed are to be liquidated ... if it has more than two in
        any city hex, or if it has two or more of any one type in any city hex" (before
        the first 3-train, more than one: 5.2.7.6), or more of a type than its supply
        (5.4.14). The tokens in conflict leave the map (``liquidating``, shown as
        ``tokens_to_liquidate``) and A's president liquidates them one at a time
        (``liquidate_token``, :class:`LiquidateStep`) until the rest fit; when they all
        fit with one choice made for him (one token in conflict), it is made at once."""
        self._set_aside(a)
        if len(a.liquidating) > 1 and self.game.round is not None:
            from trainruns.titles.g1831.game.steps.operating import LiquidateStep

            self.game.round.push(LiquidateStep(self.game, a))
            return
        while a.liquidating:
            self.liquidate_token(a, a.liquidating[0])

    def token_conflicts(self, a, sites) -> list:
        """The sites of ``sites`` that A cannot all hold (5.9.7.8, 5.2.7.6, 1.9): every
        token of a city hex holding more than the phase allows or two of one type, and
        every token of a type past its supply."""
        per_city = self.phase_row()["tokens_per_city"]
        out, cities = [], {}
        for site in sites:
            cities.setdefault(self.map.city_of(site.hex), []).append(site)
        for group in cities.values():
            kinds = [x.type for x in group]
            if len(group) > per_city or len(set(kinds)) < len(kinds):
                out += group
        for kind in ("station", "yard"):
            of_kind = [x for x in sites if x.type == kind]
            if len(of_kind) > a.supply[kind]:
                out += [x for x in of_kind if x not in out]
        return out

    def _set_aside(self, a):
        """The tokens in conflict off the map into ``a.liquidating``; the others back on."""
        every = a.sites + a.liquidating
        conflicts = self.token_conflicts(a, every)
        a.sites = [x for x in every if x not in conflicts]
        a.liquidating = conflicts
        a.tokens = [(x.hex, 0) for x in a.sites]

    def liquidate_token(self, a, site):
        """5.9.7.8: "Liquidation pays one-half the current price of a new Station or Rail
        Yard", to A's assets; 4.3.3: a system whose Bond Marker closed its bonds removes
        them "without compensation" (``tokens_due``). The other tokens set aside that now
        fit go back."""
        a.liquidating.remove(site)
        if a.tokens_due:
            self.state.event("token_removed", corporation=a.id, hex=site.hex, kind=site.type, rule="4.3.3")
        else:
            cash = self.token_price(site.type) // 2
            self.state.pay("bank", f"corp:{a.id}", cash)
            self.state.event("token_liquidated", corporation=a.id, hex=site.hex, kind=site.type, cash=cash)
        self._set_aside(a)
        a.tokens_due = a.tokens_due and bool(a.liquidating)

    def correct_due_tokens(self, c) -> bool:
        """4.3.3: when its Bond Marker closed its bonds the system's "token limits drop to
        their pre-final-merger level. During Phase 2 of the next Operation Round the system
        will correct its map token holdings (if it is over allocated) by removing excess
        tokens of its choice without compensation": at the start of that Phase 2 the limits
        drop and the tokens in conflict leave the map (:meth:`_correct_tokens`). True while
        its president chooses which go (:class:`LiquidateStep`)."""
        if not c.tokens_due:
            return False
        self.drop_token_limits(c)
        c.tokens_due = bool(c.liquidating)
        return c.tokens_due

    # --- bonds ----------------------------------------------------------------------------

    def move_bond_marker(self, c, direction: str, steps: int, why: str):
        """The Bond Marker moves as a Stock Marker (4.4.1): into STOCK TRADES CLOSED OUT
        the bonds close (4.3.3); into STOCK SPLIT the marker goes to the target and every
        bond held by a player or the system gets a 2x marker (4.3.4)."""
        old = c.bond_cell
        if old is None or steps <= 0:
            return
        cell, area, c.bond_cell = self.walk_marker(f"{c.id}/bonds", old, direction, steps)
        if cell != old:
            self.state.event("bond_price", corporation=c.id, cell=list(cell), price=self.market.preferred(cell),
                             why=why)
        if area == "closed":
            self.close_bonds(c, half=False)
            self.enter_receivership(c)
        elif c.bond_cell != cell:
            for b in c.bonds:
                if b.holder.startswith("player:") or b.holder == "treasury":
                    b.splits += 1
            self.state.event("bond_split", corporation=c.id)

    def close_bonds(self, c, half: bool):
        """4.3.3: bonds closed without compensation; 5.4.14: closed at one-half value
        (rounded down) when the system enters receivership. Either way the company they
        came from may be started again, the train limit drops by one and the token
        limits drop to their level before the final merger: 5.4.14 at once, the tokens
        over it liquidated as in 5.9.7.8 (half a new token's price each); 4.3.3 at the
        start of the system's next Phase 2, the tokens over it removed without
        compensation (:meth:`correct_due_tokens`)."""
        s = self.state
        if c.bond_cell is None:
            return
        paid = 0
        for b in c.bonds:
            if half and b.holder != "market":
                amount = self.sale_value(c, b) // 2
                to = f"corp:{c.id}" if b.holder == "treasury" else b.holder
                s.pay("bank", to, amount)
                paid += amount
        origin = c.bonds[0].origin if c.bonds else None
        self.market.remove(f"{c.id}/bonds", c.bond_cell)
        c.bonds, c.bond_cell = [], None
        if origin is not None and origin in c.absorbed:
            c.absorbed.remove(origin)
            self.restart(s.corp[origin])
        if half:
            self.drop_token_limits(c)   # 5.4.14: "It must also immediately reduce its tokens"
        else:
            c.tokens_due = True         # 4.3.3: at its next Phase 2 (:meth:`correct_due_tokens`)
        self.discard_surplus(c)
        s.event("bonds_closed", corporation=c.id, paid=paid)

    def drop_token_limits(self, c):
        """4.3.3, 5.4.14: the token limits drop to their level before the final merger;
        the tokens over them leave the map until the president has chosen which go
        (:meth:`_correct_tokens`)."""
        if c.supply_before:
            c.supply = c.supply_before.pop()
        self._correct_tokens(c)

    def restart(self, b):
        """A company absorbed earlier available for sale again (4.3.2, 4.3.3)."""
        b.closed = False
        b.owed_commons = 0
        b.total_shares = 20
        self.reset_company(b)

    def collect_bond_revenue(self, c):
        """5.10: the bank pays 10% of the bond price (rounded down; 2x markers do not
        count) for each bond held by a player or the system."""
        if c.bond_cell is None:
            return
        each = self.market.preferred(c.bond_cell) * self.numbers["mergers"]["bond_interest_percent"] // 100
        paid = {}
        for b in c.bonds:
            if b.holder == "market" or not each:
                continue
            to = f"corp:{c.id}" if b.holder == "treasury" else b.holder
            self.state.pay("bank", to, each)
            paid[to] = paid.get(to, 0) + each
        if paid:
            self.state.event("bond_revenue", corporation=c.id, paid=paid)

    def end_of_operating_round(self):
        """5.12.1: at the end of an Operation Round every Bond Marker rises one square."""
        for c in self.state.corporations:
            if c.bond_cell is not None:
                self.move_bond_marker(c, "up", 1, "end_of_or")

    def end_of_sr_bonds(self):
        """4.8.4: a system none of whose bonds is in the pool: its Bond Marker rises one."""
        for c in self.state.corporations:
            if c.bond_cell is not None and not certs.held(c, "market", "bond"):
                self.move_bond_marker(c, "up", 1, "bonds_held")

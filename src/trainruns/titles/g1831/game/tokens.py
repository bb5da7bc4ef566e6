"""1831's Stations and Rail Yards (5.2.5, 5.2.7): where a company may place one, the
sites kept for other companies' home tokens, the token a yellow city owes, the home
token, and their prices by phase."""

from __future__ import annotations

from trainruns.game import route_adapter
from trainruns.titles.g1831.game.state import Token
from trainruns.titles.g1831.route.mapformat import SLOT_TYPES


class TokenRules:
    def token_price(self, kind: str) -> int:
        """5.2.7.4: Stations $40 / $70 / $110, Rail Yards $70 / $110 / $210 by phase."""
        return self.phase_row()[kind][0]

    def tokens_bought(self, c) -> int:
        """The tokens ``c`` has bought in this turn's track phase (5.2.4.3's limit)."""
        return self.turn_under_way(c).tokens

    def owed_token(self, c):
        """5.2.6.8: the city of this turn's yellow tile whose token is still to be bought
        (the only moves listed until it is), or None; it lapses when no token can be
        placed there after all (the lay was listed only when one could, so a rare case:
        docs/gaps.md)."""
        h = self.turn_under_way(c).owed_token
        if h is None or any(x.hex == h for x in c.sites):
            return None
        return h if any(m["hex"] == h for m in self.token_places(c)) else None

    def tokens_left(self, c, kind: str) -> int:
        placed = sum(1 for x in c.sites if x.type == kind)
        return c.supply[kind] - placed

    def token_places(self, c) -> list[dict]:
        """5.2.7: a reached city with a free site of the type (black sites are none,
        5.2.7.2); one token per city until the first 3-train, then one of each type
        (5.2.7.6); the company's supply (1.9); up to 3 per phase (5.2.4.3)."""
        if self.tokens_bought(c) >= self.token_limit(c) or not c.sites:
            return []
        kinds = self.token_kinds(c)
        if not kinds:
            return []
        board, reached = route_adapter.board_and_loose_reach(self.position(c.id, trains=[]))
        laid = self.laid()
        taken = self.taken_sites()
        per_city = self.phase_row()["tokens_per_city"]
        out = []
        for hex_id, k in sorted(reached.stops):
            if not self.map.is_city(hex_id) or k != 0:
                continue
            mine = [x for x in c.sites if self.map.city_of(x.hex) == self.map.city_of(hex_id)]
            if len(mine) >= per_city:
                continue
            types = self.map.sites(hex_id, laid)
            for kind in kinds:
                if any(x.type == kind for x in mine) or self.tokens_left(c, kind) <= 0:
                    continue
                if not self.affords(c, self.token_price(kind)):
                    continue
                free = self.free_sites(c, hex_id, kind, types, taken)
                if free:
                    out.append({"hex": hex_id, "stop": 0, "kind": kind, "slot": free[0],
                                "cost": self.token_price(kind)})
        return out

    def token_kinds(self, c) -> tuple:
        """The token types the company may buy: both; in receivership (5.4.10) only while
        it lacks its minimum route, of the types its smallest train runs to, on debt, and
        none once the bank has run out (5.4.15)."""
        if not c.receivership:
            return SLOT_TYPES
        if self.state.bank.broken or self.route_met(c):
            return ()
        return tuple(k for k in SLOT_TYPES if any(k in self.runs_to(t) for t in self.route_need(c)[1]))

    def taken_sites(self) -> set:
        return {(x.hex, x.slot) for c in self.state.corporations for x in c.sites}

    def reserved(self, c, hex_id: str, kind: str) -> int:
        """5.2.5: "the 'home token' is not special in any way except that its location is
        reserved for exclusive use by the company": the number of sites of ``kind`` in
        ``hex_id`` kept for other companies in play (``c`` excepted) whose home token is
        not yet placed, closed out ones included (they may start again, 4.3.2); not a
        company retired by a merger (5.9.7.4). The config names the home city and the
        home token's type, not which of its sites bears the logo: any free site of that
        type is kept (docs/gaps.md)."""
        return sum(1 for o in self.state.corporations
                   if o is not c and o.home == hex_id and o.home_type == kind and self.keeps_home(o))

    def kept_sites(self, c) -> list[dict]:
        """The position's ``home_sites`` (5.2.5, :meth:`reserved`) for company ``c``: the
        sites kept in each city for the other companies' home tokens, as many as it has
        free sites of their type at most (a kept site beyond them keeps nothing more)."""
        laid, taken, out = self.laid(), self.taken_sites(), []
        for o in self.state.corporations:
            if o is c or not self.keeps_home(o):
                continue
            kind = o.home_type
            free = self.unheld(o.home, kind, self.map.sites(o.home, laid), taken)
            if sum(1 for x in out if x["hex"] == o.home and x["type"] == kind) < len(free):
                out.append({"hex": o.home, "stop": 0, "type": kind, "corporation": o.id})
        return out

    def reserved_homes(self):
        """5.2.5: the home city of each company that keeps a site there for its home
        token (:meth:`keeps_home`), with the site's type."""
        return [dict(r, kind=self.state.corp[r["corporation"]].home_type) for r in super().reserved_homes()]

    @staticmethod
    def keeps_home(o) -> bool:
        """5.2.5: whether company ``o`` keeps a site for its home token (see :meth:`reserved`)."""
        return not o.closed and not o.sites and not o.home_done

    def free_sites(self, c, hex_id: str, kind: str, types, taken) -> list[int]:
        """The free sites of ``kind`` in ``hex_id`` (``types``: its sites on the tile now)
        ``c`` may take: none while the free ones are all kept for other companies' home
        tokens (5.2.5)."""
        free = self.unheld(hex_id, kind, types, taken)
        return free if len(free) > self.reserved(c, hex_id, kind) else []

    @staticmethod
    def unheld(hex_id: str, kind: str, types, taken) -> list[int]:
        """The sites of ``kind`` in ``hex_id`` (``types``: its sites on the tile now) with
        no token (``taken``: the sites with one), reservations aside."""
        return [i for i, t in enumerate(types) if t == kind and (hex_id, i) not in taken]

    def place_token(self, c, m, home=False):
        s = self.state
        self.charge(c, m["cost"])
        c.sites.append(Token(m["hex"], m["slot"], m["kind"], home_black=bool(m.get("black"))))
        c.tokens.append((m["hex"], 0))
        # 5.2.4.3's three tokens a phase; 5.2.5: "its purchase of its home token counts
        # toward its token limit" (one placed as the turn starts: :meth:`start_turn`)
        self.turn_under_way(c).tokens += 1
        s.event("token", corporation=c.id, hex=m["hex"], kind=m["kind"], slot=m["slot"], cost=m["cost"],
                home=home)

    def home_token(self, c):
        """5.2.5: at its first operation the company buys its home token, of the type the
        map shows, in its home city; with no vacancy of that type, any vacancy; with none,
        a black site, where its token keeps its own type (5.2.5.1). A home city still
        untiled gets its tile first, the company's first play (:meth:`home_lays`); the
        token goes down after that lay (:meth:`lay_tile`)."""
        if c.sites or c.home_done:
            return
        c.home_done = True
        types = self.map.sites(c.home, self.laid())
        taken = self.taken_sites()
        kind = c.home_type
        free = [i for i, t in enumerate(types) if (c.home, i) not in taken]
        same = self.free_sites(c, c.home, kind, types, taken)
        other = [i for k in SLOT_TYPES if k != kind for i in self.free_sites(c, c.home, k, types, taken)]
        black = [i for i in free if types[i] == "black"]
        cost = self.token_price(kind)
        if same:
            m = {"hex": c.home, "slot": same[0], "kind": kind, "cost": cost}
        elif other:
            kind = types[other[0]]
            m = {"hex": c.home, "slot": other[0], "kind": kind, "cost": self.token_price(kind)}
        elif black:
            m = {"hex": c.home, "slot": black[0], "kind": kind, "cost": cost, "black": True}
        else:
            self.state.event("no_home", corporation=c.id, hex=c.home)
            return
        if m["cost"] > c.cash and not c.receivership:
            m["cost"] = c.cash   # never happens with a real par (an active company holds 5 x par)
        self.place_token(c, m, home=True)

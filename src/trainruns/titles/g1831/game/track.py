"""1831's track (5.2.2-5.2.6): the lays a company may make (its home tile first, the
yellow city that owes a token, a full city's upgrade), their cost on its cash or, in
receivership, its debt, and the running route a company must have (5.2.2)."""

from __future__ import annotations

from trainruns.game import route_adapter
from trainruns.game.state import LaidTile
from trainruns.titles.moves import single_lays


class TrackRules:
    def may_lay_tile(self, c, lays) -> bool:
        """Whether ``c`` has a lay left: its lays listed by :meth:`tile_lays` (5.2.4-5.2.6),
        not the shared generator's."""
        return bool(self.tile_lays(c, lays))

    def tile_lays(self, c, lays) -> list[dict]:
        """The lays ``c`` may make now, ``lays`` made this turn. 5.2.5: while its home
        city waits for its tile, that tile is the company's first play
        (:meth:`home_lays`); 5.2.6.8: none while the token of a yellow city tile is owed
        (:meth:`owed_token`); 5.2.4: up to 4 tiles, at most 2 cities, each hex altered
        once per phase; the terrain cost paid from cash (in receivership added to the
        debt: yellow only while it lacks its minimum route, yellow or green once it has
        it, 5.4.10; none once the bank has run out, 5.4.15)."""
        home = self.home_lays(c)
        if home:
            return home
        if not c.sites or self.owed_token(c) is not None or c.receivership and self.state.bank.broken:
            return []   # 5.4.15, 6.3: no more debt for track once the bank has run out
        kinds = lambda: self.token_kinds(c)   # noqa: E731 (asked only for a city lay)
        # 5.2.6.8: no yellow city tile without the token it obliges; 5.2.4.1: no upgrade
        # of a full city that stays full by a company without a token there
        return [m for m in self.legal_lays(c, lays, lambda pos: self._listed_lays(c, lays, pos))
                if (not self.lay_owes_token(c, m) or self._owed_token_possible(c, m, kinds))
                and not self._full_city_of_others(c, m)]

    def _listed_lays(self, c, lays, pos):
        """The lays 1831's tile rules list (:meth:`GameMap.tile_rules`) for ``c``'s
        position ``pos``: reached from its tokens (5.2.4.1), each hex once a turn
        (5.2.4), of the phase's colours, in receivership yellow to make its minimum
        route and yellow or green with it (5.4.10); each says whether it is on a city
        (5.2.4.3's two)."""
        board, reached = route_adapter.board_and_loose_reach(dict(pos, trains=[]))
        colors = self.phase_row()["colors"]
        if c.receivership:
            colors = [x for x in ("yellow", "green") if x in colors] if self.route_met(c) else ["yellow"]
        rules = self.map.tile_rules(self.laid(), colors, self.tiles_used(), {m["hex"] for m in lays})
        for h, tile, rot, before in single_lays(rules, board, reached):
            yield {"hex": h, "tile": tile, "rotation": rot, "upgrade": before is not None, "city": self.map.is_city(h)}

    def lay_cost(self, c, m) -> int:
        """5.2.3: the terrain's cost, the config's."""
        return self.map.cost(m["hex"], m["upgrade"], self.numbers["terrain_cost"])

    def affords(self, c, cost: int) -> bool:
        """5.2.3, 5.2.7.4: track and tokens are paid from the company's cash; 5.4.10: in
        receivership they are added to its debt (:meth:`charge`)."""
        return c.receivership or cost <= c.cash

    def home_lays(self, c) -> list[dict]:
        """5.2.5: "When a company operates for the first time, its first play will be to
        lay a tile on its home city if this is not already done": while the company has
        not yet placed its home token, the yellow tiles it may lay on its printed,
        untiled home city (:meth:`GameMap.home_lays`), paid as any lay (in receivership
        on the debt); its home token follows the tile (:meth:`lay_tile`). None when the
        city is tiled, or no tile can go there (none left, or no cash): then the home
        token goes on the city as it is (:meth:`home_token`)."""
        if c.sites or c.home_done or (c.receivership and self.state.bank.broken):
            return []
        out = []
        for m in self.map.home_lays(c.home, self.laid(), self.phase_row()["colors"], self.tiles_used()):
            m["cost"] = self.lay_cost(c, m)
            if self.affords(c, m["cost"]):
                out.append(m)
        return out

    def lay_owes_token(self, c, m) -> bool:
        """5.2.6.8: "If a corporation lays an initial tile (yellow) in a city site, it must
        also purchase a token for that site"; 5.2.4.1: "If a corporation upgrades a city
        to create a vacancy, it must also lay a token there" (a city where it has a token
        already, its home city among them (5.2.5), owes none: "If a corporation with a
        token in a city upgrades the city, it does not have to lay a token there")."""
        if not self.map.is_city(m["hex"]) or any(x.hex == m["hex"] for x in c.sites):
            return False
        return not m["upgrade"] or self._opens_vacancy(m)

    def _opens_vacancy(self, m) -> bool:
        """5.2.4.1: the upgrade ``m`` turns a city full of other corporations' tokens into
        one with a vacancy (:meth:`GameMap.opens_vacancy`)."""
        taken = self._taken_on(m["hex"])
        return bool(taken) and self.map.opens_vacancy(m["hex"], self.laid(), m["tile"], m["rotation"], taken)

    def _full_city_of_others(self, c, m) -> bool:
        """5.2.4.1: only the corporations with tokens in a full city may upgrade it when
        the upgrade opens no vacancy (:meth:`GameMap.stays_full`): ``m`` is such an
        upgrade and ``c`` has no token in that city."""
        h = m["hex"]
        if not m["upgrade"] or not self.map.is_city(h):
            return False
        if any(self.map.city_of(x.hex) == self.map.city_of(h) for x in c.sites):
            return False
        return self.map.stays_full(h, self.laid(), m["tile"], m["rotation"], self._taken_on(h))

    def _taken_on(self, hex_id) -> set:
        """The indexes of ``hex_id``'s sites that hold a token."""
        return {i for h, i in self.taken_sites() if h == hex_id}

    def _owed_token_possible(self, c, m, kinds) -> bool:
        """Whether the token 5.2.6.8 asks for ``m`` can be bought with it: a site of a type
        the company may place on the new tile, its supply, the turn's token limit
        (5.2.4.3) and the cash for tile and token (in receivership both go on the debt)."""
        if self.tokens_bought(c) >= self.token_limit(c):
            return False
        types = self.map.sites(m["hex"], dict(self.laid(), **{m["hex"]: (m["tile"], m["rotation"])}))
        taken = self.taken_sites()
        for kind in kinds():
            free = bool(self.free_sites(c, m["hex"], kind, types, taken))
            if free and self.tokens_left(c, kind) > 0 and self.affords(c, m["cost"] + self.token_price(kind)):
                return True
        return False

    def has_running_route(self, c) -> bool:
        """5.2.2: "a corporation that is active must have a running route: a route that
        connects one of its Rail Yards or Stations to another": two of its token cities
        joined by track it may trace (5.2.4.1's reach from one of them, not through a
        city full of other corporations' tokens)."""
        hexes = list(dict.fromkeys(x.hex for x in c.sites))
        if len(hexes) < 2:
            return False
        base = self.position(c.id, trains=[])
        base.pop("track_rights", None)
        for h in hexes[:-1]:
            tokens = [t for t in base["tokens"] if t["corporation"] != c.id or t["hex"] == h]
            _, reached = route_adapter.board_and_loose_reach(dict(base, tokens=tokens))
            if any((o, 0) in reached.stops for o in hexes if o != h):
                return True
        return False

    def route_token_owed(self, c) -> bool:
        """5.2.2: a company without a running route may not end its track phase while it
        can buy a token in a city its track reaches (which makes one). Which tiles would
        make a route is the president's plan, so lays stay optional (docs/gaps.md); a
        company in receivership follows 5.4.10 instead."""
        if c.receivership or not c.sites:
            return False
        mine = {x.hex for x in c.sites}
        return any(m["hex"] not in mine for m in self.token_places(c)) and not self.has_running_route(c)

    def charge(self, c, cost: int):
        """5.2.3, 5.2.7.4: track and tokens are paid from the company's cash; 5.4.10: in
        receivership they are added to its debt."""
        if c.receivership:
            c.debt += cost
        else:
            self.state.pay(f"corp:{c.id}", "bank", cost)

    def lay_tile(self, c, m):
        s = self.state
        owes = self.lay_owes_token(c, m)   # read on the city before the tile goes down
        self.charge(c, m["cost"])
        s.tiles = [t for t in s.tiles if t.hex != m["hex"]]
        s.tiles.append(LaidTile.of(m))
        if owes:
            self.turn_under_way(c).owed_token = m["hex"]   # 5.2.6.8, 5.2.4.1: its token is bought next
        s.event("tile", corporation=c.id, hex=m["hex"], tile=m["tile"], rotation=m["rotation"], cost=m["cost"])
        if m["hex"] == c.home and not c.sites and not c.home_done:
            self.home_token(c)   # 5.2.5: the home tile first, then its home token

    def why_not_lay(self, c, a, lays):
        """A lay not listed (:meth:`tile_lays`) breaks one of 5.2's rules."""
        return "track.illegal", (f"{c.id} cannot lay tile {a['tile']} on {a['hex']} at rotation {a['rotation']} "
                                 "now: reach (5.2.4.1), colour and upgrade (5.2.6), track kept (5.2.6.5), cost "
                                 "(5.2.3), limits (5.2.4.3)")

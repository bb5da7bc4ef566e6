"""1831 operating rules (5.0-5.12) the operating round's steps ask: track and tokens,
trains, runs, dividends, receivership's loans and debt, phases and retirements."""

from __future__ import annotations

from dataclasses import replace

from trainruns.game import route_adapter
from trainruns.game.rules.dividend import Dividend
from trainruns.game.state import player_key
from trainruns.game.steps.buy_train import trains_from_companies
from trainruns.game.steps.consent import was_declined
from trainruns.game.train import Train, remove_named, take
from trainruns.route.limits import Work
from trainruns.titles.g1831.game import certs
from trainruns.titles.g1831.game.certs import is_preferred, shares_of
from trainruns.titles.g1831.game.state import Token
from trainruns.titles.moves import single_lays

TYPES = ("station", "yard")
# 5.5.5 sets no number; each right listed costs a search of the run with it (5.6.5), so a
# company rents at most this many per round, and at most MOST_OFFERS tokens are tried for
# each (in the order of the corporations and their tokens; a bound on work: docs/gaps.md)
MOST_RIGHTS = 3
MOST_OFFERS = 4

# 5.6.6: a run need not be the best, so the game's search is bounded, by counts and not a
# time (a live game must not depend on the machine's load), large enough that the boards
# of a game are solved to proof: the routes found in PATH_STEPS steps of the listing from
# each token (a late board's token-to-token paths grow exponentially with its track),
# then at most RUN_NODES branch and bound nodes, or COVERING_NODES for a run that must
# use every bought track right (5.6.5; each node scans a train's whole candidate list)
RUN_NODES = 20_000
COVERING_NODES = 2_000
PATH_STEPS = 20_000


def train_type(t: Train) -> str:
    """5.6.2.3: a train's type, "S", "MX" or "YD", after its size in its name."""
    return t.name[len(str(t.distance)):]


def run_budget() -> Work:
    """The bounded search's counts, an option of its solve
    (:func:`trainruns.game.route_adapter.bounded_run`)."""
    return Work(nodes=RUN_NODES, covering_nodes=COVERING_NODES, path_steps=PATH_STEPS)


def best_run(position: dict) -> tuple[int, list[dict], dict]:
    """The best run the game's bounded search finds (5.6.6: "nor is it required to find
    and run optimal routes"): revenue, routes and ``{"proven", "bound"}``, the same on
    every machine. The log records the routes, so a replay audits them instead of
    searching again, and the proof, so a run not proven best says so with its bound."""
    return route_adapter.bounded_run(position, run_budget())


class OperatingRules:
    # --- phases ------------------------------------------------------------------------

    def train_limit(self, c) -> int:
        """5.3.5: the phase's limit; a system one more per merger (5.9.7.7), at most two."""
        return super().train_limit(c) + min(2, len(c.absorbed))

    def token_price(self, kind: str) -> int:
        """5.2.7.4: Stations $40 / $70 / $110, Rail Yards $70 / $110 / $210 by phase."""
        return self.phase_row()[kind][0]

    def remove_trains(self, phase):
        """5.3.6: the trains the new phase retires (their ``rusts_on``, the engine's
        :meth:`~trainruns.game.phase.Phases.scrapped_at`) leave the companies, the pool
        and the bank; a corporation in receivership keeps and runs its obsolete trains
        (5.4.8)."""
        s = self.state
        for old in self.phases.scrapped_at(phase):
            for c in s.corporations:
                keep = []
                for t in c.trains:
                    if str(t.distance) == old and not c.receivership:
                        s.event("retire", corporation=c.id, train=t.name)
                        continue
                    keep.append(replace(t, status="retired") if str(t.distance) == old else t)
                c.trains = keep
            before = len(s.market_trains)
            s.market_trains = [t for t in s.market_trains if t.card != old]
            if len(s.market_trains) != before:
                s.event("retire", corporation=None, train=old, where="pool")
            for row_ in s.depot:
                if row_.size == int(old):
                    row_.left = 0

    def discard_order(self, buyer, over: list) -> list:
        """5.3.5: a lower limit sends the surplus trains to the pool; the rules set no
        order, so the corporations go as listed, the last listed first (each pushed in
        front of the one before). The buyer's own surplus is settled after its purchase,
        keeping the train bought (5.3.7, :meth:`add_train`)."""
        return [d for d in reversed(over) if d is not buyer]

    def counted_trains(self, c) -> list:
        """5.3.7 / 5.6.1: every train the corporation holds counts against its limit, a
        USED one too; a RETIRED one does not (kept in receivership, 5.4.8)."""
        return [t for t in c.trains if t.status != "retired"]

    def discard_surplus(self, c, bought=None, limit=None):
        """Over the limit (a lower limit, 5.3.5; a purchase at the limit, 5.3.7; a
        merger's or bonds' limit, 5.9.7.7, 4.3.3): "It must give its extra trains to the
        Stock Bank Pool, with no compensation". Which ones the rules leave to the
        company, so its president chooses (``discard_train``, the shared ``DiscardStep``);
        when the trains that may go are all of one name, there is no choice and they go
        at once."""
        over, may_go = self.surplus(c, bought)
        if over <= 0:
            return
        if len({t.name for t in may_go}) > 1 and self.game.round is not None:
            return super().discard_surplus(c, bought)
        while over > 0 and may_go:
            self.discard_train(c, may_go[0].name, bought)
            over, may_go = self.surplus(c, bought)

    def discardable(self, c, bought=None, limit=None) -> list[str]:
        """5.3.7: the engine's (:meth:`surplus`), none of a company out of play (4.3.2)."""
        return super().discardable(c, bought) if c.cell is not None else []

    def why_not_discard(self, c, bought=None, limit=None):
        return "5.3.7", (f"{c.id} is over its limit of {self.train_limit(c)} trains and gives one of "
                         f"{', '.join(self.discardable(c, bought))} to the pool, not the train just bought "
                         "(5.3.7, 5.3.5)")

    def discard_train(self, c, name: str, bought=None):
        """5.3.7: a train named ``name`` goes to the pool without compensation; of two of
        that name, a USED one first (it would not run this round, 5.3.2)."""
        t = min((t for t in self.surplus(c, bought)[1] if t.name == name), key=lambda t: t.status != "used")
        c.trains.remove(t)
        self.state.market_trains.append(t)
        self.state.event("surplus_train", corporation=c.id, train=t.name)

    # --- the position ------------------------------------------------------------------

    def position(self, corporation=None, trains=None) -> dict:
        cid = self.asked_corporation(corporation, "in play")
        c = self.state.corp[cid]
        tokens = []
        for other in self.state.corporations:
            for site in other.sites:
                tok = {"hex": site.hex, "stop": 0, "slot": site.slot, "corporation": other.id}
                if site.home_black:
                    tok.update(home=True, type=site.type)
                tokens.append(tok)
        train_list = trains if trains is not None else [
            {"name": t.name, "status": self._running_status(c, t)} for t in c.trains]
        pos = {"title": "1831", "phase": self.state.phase, "corporation": cid, "trains": train_list,
               "map": self.map.position_map(self.laid()), "tokens": tokens,
               "receivership": bool(c.receivership)}
        if c.rights:
            pos["track_rights"] = [{"hex": h, "stop": 0, "slot": j} for h, j in c.rights]
        kept = self.kept_sites(c)
        if kept:
            pos["home_sites"] = kept  # 5.2.5: what whatif's token moves must leave free
        if self.config.raw.get("mixed_counts"):
            pos["rules"] = {"mixed_counts": self.config.raw["mixed_counts"]}
        return pos

    # --- track and tokens (5.2) --------------------------------------------------------

    @staticmethod
    def _running_status(c, t) -> str:
        """A train's status in the position (docs/rules-1831.md): a new train runs as a
        restored one; a retired train of a company in receivership runs until it leaves
        receivership (5.3.6, 5.4.8), so it goes as restored (the position's
        ``receivership`` keeps its retired size); any other retired or used train does
        not run."""
        if t.status == "new" or t.status == "retired" and c.receivership:
            return "restored"
        return t.status

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

    def has_running_route(self, c) -> bool:
        """5.2.2: "a corporation that is active must have a running route: a route that
        connects one of its Rail Yards or Stations to another": two of its token cities
        joined by track it may trace (5.2.4.1's reach from one of them, not through a
        city full of other corporations' tokens)."""
        hexes = list(dict.fromkeys(x.hex for x in c.sites))
        for h in hexes[:-1]:
            pos = self.position(c.id, trains=[])
            pos.pop("track_rights", None)
            pos["tokens"] = [t for t in pos["tokens"] if t["corporation"] != c.id or t["hex"] == h]
            _, reached = route_adapter.board_and_loose_reach(pos)
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
        s.tiles = [t for t in s.tiles if t["hex"] != m["hex"]]
        s.tiles.append({"hex": m["hex"], "tile": m["tile"], "rotation": m["rotation"]})
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
            return TYPES
        if self.state.bank.broken or self.route_met(c):
            return ()
        return tuple(k for k in TYPES if any(k in self.runs_to(t) for t in self.route_need(c)[1]))

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
        other = [i for k in TYPES if k != kind for i in self.free_sites(c, c.home, k, types, taken)]
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

    # --- track rights (5.5) -----------------------------------------------------------

    def right_places(self, c) -> list[dict]:
        """Every track right the company may buy now (:meth:`each_right_place`)."""
        return list(self.each_right_place(c))

    def may_buy_right(self, c) -> bool:
        """Whether the company may buy a track right now: the first of
        :meth:`each_right_place` found, the rest not tried."""
        return next(self.each_right_place(c), None) is not None

    def each_right_place(self, c):
        """5.5: other corporations' Stations and Rail Yards the company may rent for this
        round at the price of a new one, paid to their owners (who cannot refuse, 5.5.4),
        from its cash (5.5.5); not in receivership (5.4.7). Offered only where a train
        can run to it: every right bought must be used by a run (5.6.5), so a right is
        listed when the best run with it (and the rights already bought) uses them all;
        and only one that enhances the run (5.5.1 "To enhance its route"): that run earns
        more than the best without it. (A right that lowers the run would bind its
        train to the rented token, 5.6.5, while an audit of the same routes counts the
        company's own token there instead: the replayed revenue would differ.)"""
        if c.receivership or not self.runnable(c) or not c.sites:
            return
        have = c.rights
        if len(have) >= MOST_RIGHTS:
            return
        board, reached = route_adapter.board_and_loose_reach(self.position(c.id, trains=[]))
        laid = self.laid()
        types = {train_type(t) for t in c.trains}
        usable = {"station"} if types <= {"S"} else {"yard"} if types <= {"YD"} else set(TYPES)
        tried, base = 0, None
        for o in self.state.corporations:
            if o is c or o.cell is None:
                continue
            for site in o.sites:
                h, kind = site.hex, site.type
                if (h, 0) not in reached.stops or kind not in usable or site.home_black:
                    continue
                if any(x.hex == h and x.type == kind for x in c.sites):
                    continue   # its own token of that type there already counts
                if any(hh == h and self.map.sites(h, laid)[j] == kind for hh, j in have):
                    continue   # the route core: one right of a type per city
                cost = self.token_price(kind)
                if cost > c.cash or tried >= MOST_OFFERS:
                    continue
                tried += 1
                trial = self.position(c.id)
                trial["track_rights"] = [{"hex": hh, "stop": 0, "slot": j} for hh, j in have + [(h, site.slot)]]
                found = route_adapter.bounded_run_or_none(trial, run_budget())
                if found is None:
                    continue   # the route core: no run uses every right (5.6.5)
                revenue, routes, _proof = found
                if base is None:
                    without = route_adapter.bounded_run_or_none(self.position(c.id), run_budget())
                    base = without[0] if without else 0
                if routes and revenue > base:
                    yield {"hex": h, "slot": site.slot, "kind": kind, "owner": o.id, "cost": cost}

    def buy_right(self, c, m):
        self.state.pay(f"corp:{c.id}", f"corp:{m['owner']}", m["cost"])
        c.rights.append((m["hex"], m["slot"]))
        self.state.event("track_right", corporation=c.id, hex=m["hex"], slot=m["slot"], kind=m["kind"],
                         owner=m["owner"], cost=m["cost"])

    # --- trains (5.3) ------------------------------------------------------------------

    def bank_rows(self) -> list:
        """5.3.8: the lowest size the bank has; the buyer picks S, MX or YD."""
        left = [r for r in self.state.depot if r.left]
        size = min((r.size for r in left), default=None)
        return [r for r in left if r.size == size]

    def market_price(self, name: str) -> int:
        """5.3.2.1: the pool's trains at 60% of face, rounded up (decision)."""
        return -(-super().market_price(name) * self.numbers["pool_train_percent"] // 100)

    def needs_train(self, c) -> bool:
        """5.3.1: fewer trains than the minimum (a system two from the first 3-train)."""
        return len(c.trains) < self.min_trains(c)

    def train_deals(self, c, turn=None) -> list[dict]:
        """5.3.2: a train from another corporation, "at any mutually agreed price": the
        buyer's president proposes a price and, when the seller has another president,
        that president accepts or declines it (the engine's ``agree_company_train`` with
        :attr:`seller_answers`; one president may deal with himself); 5.3.4 "at least $1
        and no more than the real cost (as printed on the train), and ... fully funded by
        the corporation's cash" (read as the same bounds when the purchase is not forced).
        A seller whose president declined is not asked again this turn
        (game/steps/consent.py). Never a retired train (5.3.2: not one it counts,
        :meth:`counted_trains`), never from a corporation in receivership (5.4.4)."""
        return trains_from_companies(
            self.state, c, self.counted_trains,
            lambda o: o.cell is None or not o.active or o.receivership or was_declined(turn, "train", o.id),
            face=self.trains.price)

    def train_buys(self, step) -> list[dict]:
        """5.3: the trains the company of ``step`` may buy now (none once it is closed
        out, 4.3.2). A company in receivership buys no
        more than its minimum (5.4.3). A forced purchase (5.3.1) the company's cash
        cannot pay from the bank or the pool (5.3.4) lists the president's deals with
        other corporations first and the cheapest train of the bank and the pool (its
        funding: the company's own stock and bonds, then the president's cash, then a
        loan, :meth:`fund_forced_purchase`); once the company has sold its stock the
        deals are over ("the President may no longer buy a train from any
        corporation", ``turn.own_sold``). Otherwise the trains of the bank and the
        pool its cash pays and, for a system, those its president's cash makes up
        (5.3.11, :meth:`train_budget`); the deals stay within its own cash (5.3.4)."""
        c, turn = step.corp, step.turn
        if c.closed or c.cell is None:
            return []
        forced = self.needs_train(c)
        if c.receivership and not forced:
            return []   # 5.4.3: no more than the minimum
        shop = self.train_offers(c, self.train_sources())
        if self.short_of_forced(c, shop):
            cheapest = min(x["price"] for x in shop)
            out = [x for x in shop if x["price"] == cheapest]   # "the lowest appropriate train purchase"
        else:
            out = [x for x in shop if x["price"] <= self.train_budget(c)]
        if not turn.own_sold:
            out += self.train_deals(c, turn)
        return out

    def short_of_forced(self, c, shop) -> bool:
        """5.3.4: ``c`` must buy a train (5.3.1) and its cash pays none of ``shop`` (the
        bank's and the pool's ``buy_train`` offers): the purchase is 5.3.4's."""
        return self.needs_train(c) and bool(shop) and min(x["price"] for x in shop) > c.cash

    def train_budget(self, c) -> int:
        """What ``c`` may spend on a train of the bank or the pool it is not forced to buy
        with 5.3.4's funding: its cash and, for a system, its president's (5.3.11:
        :meth:`subsidy_room`)."""
        return c.cash + self.subsidy_room(c)

    def subsidy_room(self, c) -> int:
        """5.3.11: "The President of a system may use his own cash holdings to subsidize
        the purchase of a train for his system": all his cash, for a system (not a
        company; not one in receivership, which buys only its minimum, 5.4.3, by 5.3.4's
        steps); 0 otherwise."""
        if not self.is_system(c) or c.receivership or c.president is None:
            return 0
        return self.state.player[c.president].cash

    def subsidise(self, c, price: int):
        """5.3.11: "All of the cash in the system must be used first, and then the
        President may add enough to buy the trains he desires, but he may not put any
        extra cash into the system. The system will have no cash holdings after the train
        purchases": the president pays what the system's cash lacks of ``price``."""
        give = price - c.cash
        self.state.pay(player_key(c.president), f"corp:{c.id}", give)
        self.state.event("president_funds", corporation=c.id, player=c.president, cash=give, rule="5.3.11")

    def must_own_train(self, step) -> bool:
        """5.3.1: a company in play (not closed out, 4.3.2) must own its minimum, bought
        from the bank or the pool (5.3.4: "The President is not forced to accept any
        offers" of other corporations)."""
        return step.corp.cell is not None

    def why_not_train(self, c, a):
        """Which of 5.3's rules a purchase not listed (:meth:`train_buys`) breaks."""
        src, turn = a["from"], self.turn_under_way(c)
        if src not in ("bank", "market") and src in self.state.corp:
            o = self.state.corp[src]
            if o.receivership:
                return "train.seller-receivership", f"{o.id} is in receivership and may not sell trains (5.4.4)"
            if turn.own_sold:
                return "train.deals-over", (f"{c.id} has sold its own stock for a forced purchase: no more trains "
                                            "from other corporations (5.3.4)")
            if c.cash < 1:
                return "train.cash", f"a train from another corporation is paid from {c.id}'s cash, at least $1 (5.3.4)"
        if c.receivership and not self.needs_train(c):
            return "train.receivership", f"{c.id} is in receivership: no more than its minimum of trains (5.4.3)"
        shop = self.train_offers(c, self.train_sources())
        if src == "bank" and not any(x["from"] == "bank" and x["train"] == a["train"] for x in shop):
            sold = ", ".join(x["train"] for x in shop if x["from"] == "bank") or "nothing"
            return "train.lowest-first", (f"the bank sells the lowest size it has first: {sold}, not a "
                                          f"{a['train']} (5.3.8)")
        if self.needs_train(c) and min((x["price"] for x in shop), default=0) > c.cash:
            return "train.forced-cheapest", (f"{c.id} must buy a train it cannot pay for: the cheapest the bank or "
                                             "the pool has (5.3.4)")
        listed = next((x for x in shop if x["from"] == src and x["train"] == a["train"]), None)
        if listed is not None and listed["price"] > self.train_budget(c):
            return "train.cash", (f"{c.id} cannot pay ${listed['price']} for the {a['train']} from its cash (5.3), "
                                  "nor with its president's help (a system's, 5.3.11)")
        return "train.unavailable", (f"{c.id} cannot buy a {a['train']} from {a['from']} now: trains come from "
                                     "the bank, the pool (5.3.2) or another corporation, never a retired one "
                                     "(5.3.2)")

    #: 5.3.2 "at any mutually agreed price", 5.3.4 "The President is not forced to accept
    #: any offers": a train of a corporation with another president waits for his answer
    seller_answers = True

    def buy_train(self, c, source: str, name: str, price: int):
        """5.3.2, 5.3.8: ``c`` buys a ``name`` train from the bank or the pool at ``price``;
        a forced purchase its cash cannot pay is funded by 5.3.4 (which ends its deals
        with other corporations, ``own_sold``, and may close it out first, 4.3.2: then no
        purchase), any other a system's cash cannot pay by its president (5.3.11), then
        :meth:`add_train`."""
        s = self.state
        if price > c.cash and not self.short_of_forced(c, self.train_offers(c, self.train_sources())):
            self.subsidise(c, price)   # 5.3.11: a system's president adds what it lacks
        elif price > c.cash:
            self.turn_under_way(c).own_sold = True
            self.fund_forced_purchase(c, price)
            if c.cell is None:
                return
        if source == "bank":
            take(s.depot, name)
        else:
            remove_named(s.market_trains, name)
        s.pay(f"corp:{c.id}", "bank", price)
        self.add_train(c, source, name, price)

    def sell_company_train(self, c, d, name: str, price: int):
        """5.3.2, 5.3.4: ``d`` sells ``c`` its ``name`` train (never a retired one) for the
        agreed ``price``; :meth:`add_train`."""
        d.trains.remove(next(t for t in d.trains if t.name == name and t.status != "retired"))
        self.state.pay(f"corp:{c.id}", f"corp:{d.id}", price)
        self.add_train(c, d.id, name, price)

    def add_train(self, c, source: str, name: str, price: int):
        """5.3.2: a train from the pool or another corporation is USED (it does not run
        this round), one from the bank new and with the phase it brings (5.3.5); then a
        company over its limit gives up a train other than this one (5.3.7)."""
        s = self.state
        bought = replace(self.trains[name], status="new" if source == "bank" else "used")
        c.trains.append(bought)
        s.event("train", corporation=c.id, train=name, source=source, price=price)
        if source == "bank":
            s.title_state.trains_bought = True   # 5.3.5: mergers from the first 2-train
            for phase in self.phases.after_buying(s.phase, bought.card):   # 5.3.5
                self.new_phase(phase, c)
        self.discard_surplus(c, bought)

    # --- 5.3.4 funding a forced purchase ----------------------------------------------

    def fund_forced_purchase(self, c, price: int):
        """5.3.4, after the deals: (2) the company sells its own common stock, then its
        bonds, no more than the purchase needs, within the pool's 5 shares and the bank's
        cash (4.6.3.4); bonds the pool's limit keeps it from selling are all closed at
        half value and the system enters receivership (5.4.14); (3) the president gives
        what is still missing, or all he has; (4) the rest is a loan and the company
        enters receivership (5.4.1)."""
        s = self.state
        self.sell_own_for_train(c, price, "common")
        if c.cell is None:
            return   # the sale's move closed it out (4.3.2)
        if c.cash < price and certs.held(c, "treasury", "bond"):
            if not self.sell_own_for_train(c, price, "bond"):
                s.event("bonds_blocked", corporation=c.id, rule="5.3.4")
                self.enter_receivership(c)   # closes the bonds at half value (5.4.14)
                if c.cell is None:
                    return
        short = price - c.cash
        give = min(short, s.player[c.president].cash) if short > 0 and c.president else 0
        if give:
            s.pay(player_key(c.president), f"corp:{c.id}", give)
            s.event("president_funds", corporation=c.id, player=c.president, cash=give)
        loan = price - c.cash
        if loan > 0:
            s.pay("bank", f"corp:{c.id}", loan)
            c.debt += loan
            self.enter_receivership(c)

    def sell_own_for_train(self, c, price: int, kind: str) -> bool:
        """5.3.4 (2): the company's own commons (``kind`` "common") or bonds ("bond") to the
        pool, one at a time at the posted price before any move, until its cash reaches
        ``price``, within the pool's 5 shares (4.6.1.1) and the bank's cash (4.6.3.4).
        False when the pool's limit stops a sale still needed; commons it stops are owed
        (``owed_commons``, sold as the pool makes room: :meth:`owed_sales`)."""
        chosen = self.pool_takes(c, certs.held(c, "treasury", kind), lambda cash: c.cash + cash >= price)
        self.sell_own(c, kind, chosen)
        left = certs.held(c, "treasury", kind)
        blocked = bool(c.cash < price and left and self.pool_shares(c) + shares_of(left[0])
                       > self.numbers["pool_share_limit"])
        if blocked and kind == "common":
            need, short = 0, price - c.cash
            for x in left:
                if short <= 0:
                    break
                short -= self.sale_value(c, x)
                need += 1
            c.owed_commons += need
            self.state.event("sale_owed", corporation=c.id, count=need, rule="5.3.4")
        return not blocked

    def sell_own(self, c, kind: str, chosen: list):
        """The company's own certificates to the pool, paid by the bank at the posted price
        before the move with their 2x markers (removed in the pool, 4.6.3.3); 5.3.4:
        commons move the Stock Marker one-half square per certificate, rounded up, LEFT
        (or down); each bond the Bond Marker one square down (or left)."""
        if not chosen:
            return
        s = self.state
        cash = sum(self.sale_value(c, x) for x in chosen)
        for x in chosen:
            x.splits = 0
            certs.move(s, c, x, "market")
        s.pay("bank", f"corp:{c.id}", cash)
        s.event("forced_sale", corporation=c.id, kind=kind, count=len(chosen), cash=cash, rule="5.3.4")
        if kind == "common":
            self.move_marker(c, "left", -(-len(chosen) // 2), "forced_sale")
        else:
            self.move_bond_marker(c, "down", len(chosen), "forced_sale")

    def owed_sales(self, c):
        """5.3.4: "the company or system must immediately sell its common stock ... if
        space in the Stock Bank Pool becomes available during a Stock Round": the commons
        a forced sale could not put in the pool, as many as the pool now takes."""
        owed = c.owed_commons
        if not owed or c.cell is None:
            return
        chosen = self.pool_takes(c, certs.held(c, "treasury", "common")[:owed])
        self.sell_own(c, "common", chosen)
        c.owed_commons = (owed - len(chosen)) if certs.held(c, "treasury", "common") else 0

    # --- receivership (5.4) and debt (5.11) --------------------------------------------

    @staticmethod
    def runs_to(train_type: str) -> tuple:
        """5.6.2.3: an S train runs to Stations, a YD train to Rail Yards, an MX to both."""
        return {"S": ("station",), "YD": ("yard",)}.get(train_type, TYPES)

    def route_need(self, c):
        """5.4.9: a company in receivership needs a route to one-half (rounded up) of
        the size of the smallest train it owns of its tokens, of the types that train
        runs to (a mixed train: at least one Station and one Rail Yard): ``(tokens,
        [train types of that size])``; None without a train."""
        if not c.trains:
            return None
        size = min(t.distance for t in c.trains)
        kinds = sorted({train_type(t) for t in c.trains if t.distance == size})
        return -(-size // 2), kinds

    def route_met(self, c) -> bool:
        """5.4.9: whether the company has its minimum route: a route of one train of
        the needed size and type (the mixed one with only 5.4.9's "at least one Station,
        one Rail Yard"), in the run the game's bounded search finds (5.6.6), runs to
        that many of its tokens; a need of one token is a token of a type the train
        runs to. With two smallest trains of one size, either will do (docs/gaps.md)."""
        need = self.route_need(c)
        if need is None:
            return True
        k, kinds = need
        for kind in kinds:
            if k < 2:
                if any(x.type in self.runs_to(kind) for x in c.sites):
                    return True
                continue
            if len({x.hex for x in c.sites}) < k:
                continue   # fewer token cities than the route needs
            pos = self.position(c.id, trains=[{"name": f"{k}{kind}", "status": "new"}])
            pos.pop("track_rights", None)      # 5.4.7: no rights in receivership
            pos.pop("rules", None)             # 5.4.9: any mix with one of each type
            if route_adapter.bounded_most_run_to(pos, run_budget()) >= k:
                return True
        return False

    def must_build(self, c) -> bool:
        """5.4.10: a company in receivership without its minimum route (5.4.9) "must lay
        track and purchase tokens (subject to the limitations of 5.2.4.2 & 5.2.4.3)", on
        debt; 5.4.15: not once the bank has run out. So its track phase may not end
        while a lay or a token it lists (yellow lays, tokens of its train's types:
        :meth:`tile_lays`, :meth:`token_places`) is left and the route can still be made.

        5.4.10 asks the lays and tokens "to make the route": when none can make it this
        phase, nothing is required and the company may pass. That is certain when its
        token cities of the types its train runs to, plus one per token it may still
        buy this phase (5.2.4.2-3's limit, its supply of those types, 1.9), are fewer
        than the route's count, or when a type the route needs (a mixed train: one
        Station and one Rail Yard, 5.4.9) is neither held nor buyable. Short of that the
        company keeps building; the phase's limits end it in any case."""
        if not c.receivership or self.state.bank.broken or self.route_met(c):
            return False
        k, kinds = self.route_need(c)
        room = max(0, self.token_limit(c) - self.tokens_bought(c))
        for kind in kinds:   # two smallest trains of one size: either route will do (route_met)
            runs = self.runs_to(kind)
            mine = [x for x in c.sites if x.type in runs]
            # the types the route needs: the train's one type; a mixed train's route of
            # two or more tokens one Station and one Rail Yard (5.4.9)
            needs = set(runs) if len(runs) == 1 or k > 1 else set()
            missing = needs - {x.type for x in mine}
            if len(missing) > room or any(self.tokens_left(c, t) <= 0 for t in missing):
                continue
            buyable = min(room, sum(max(0, self.tokens_left(c, t)) for t in runs))
            if len({x.hex for x in mine}) + buyable >= k:
                return True
        return False

    def enter_receivership(self, c):
        """5.4: the marker moves one left (5.4.5); interest from the next OR (5.4.1.2)."""
        if c.receivership:
            return
        c.receivership = True
        c.entered_or = self.or_counter
        self.state.event("receivership", corporation=c.id)
        if c.bond_cell is not None:
            self.close_bonds(c, half=True)   # 5.4.14
        self.move_marker(c, "left", 1, "receivership")

    def interest(self, c):
        """5.3.9: 10% of the debt, rounded up, added to it at the end of the Buy Trains
        phase (not in the OR of entry)."""
        if c.receivership and c.debt and c.entered_or != self.or_counter:
            add = -(-c.debt * self.numbers["interest_percent"] // 100)
            c.debt += add
            self.state.event("interest", corporation=c.id, amount=add, debt=c.debt)

    def pay_debt(self, c):
        """5.11: cash up to the loan, then the president's cash."""
        debt = c.debt
        if not debt or c.closed or c.cell is None:
            return
        a = min(debt, c.cash)
        if a:
            self.state.pay(f"corp:{c.id}", "bank", a)
        b = min(debt - a, self.state.player[c.president].cash) if c.president else 0
        if b:
            self.state.pay(player_key(c.president), "bank", b)
        c.debt -= a + b
        if a + b:
            self.state.event("debt_paid", corporation=c.id, amount=a + b, debt=c.debt)

    def end_of_set(self):
        """5.4.11: out of receivership at the end of an Operation Set with no debt and
        some cash."""
        for c in self.state.corporations:
            if c.receivership and not c.debt and c.cash > 0:
                c.receivership = False
                self.state.event("receivership_ends", corporation=c.id)
                self.update_president(c)   # 5.4.12: the presidency was frozen until now
                for t in list(c.trains):
                    if t.status == "retired":
                        c.trains.remove(t)   # 5.3.6: obsolete trains go once out of receivership
                        self.state.event("retire", corporation=c.id, train=t.name)

    # --- running (5.6) -----------------------------------------------------------------

    def may_run(self, c) -> bool:
        """5.6: a company still in play with a train that runs (:meth:`runnable`)."""
        return c.cell is not None and self.runnable(c)

    def runnable(self, c) -> bool:
        return any(t.status in ("new", "restored") or (t.status == "retired" and c.receivership)
                   for t in c.trains)

    # 5.6.6: the run "best" is the bounded search's (:func:`best_run`), its proof logged
    run_work = run_budget()

    def after_run(self, c, chosen):
        """5.5.3: the track rights bought are used by this run and end; 5.7.1: a run of no
        train is DID NOT RUN (:meth:`settle_without_dividend`)."""
        c.rights = []
        self.turn_under_way(c).ran = bool(chosen)

    # --- dividends (5.7) and the marker (5.8) ------------------------------------------

    payout_kind = "all"       # 5.7.2.4 PAY ALL: the run to every share
    withhold_kind = "hold"    # 5.7.2.1 HOLD: the run to the treasury

    def dividend_kinds(self, c, revenue) -> list[str]:
        if c.receivership:
            return ["hold"]   # 5.4.2
        kinds = ["hold", "preferred", "split", "all"]
        if c.cash >= 2 * revenue:
            kinds.append("all200")   # 5.7.4: it must have the cash
        return kinds

    def settle_without_dividend(self, c, revenue):
        """A company closed out earlier in the round pays nothing; one that did not run
        is DID NOT RUN (5.7.1)."""
        if c.cell is None:
            return True
        if revenue is None or not self.turn_under_way(c).ran:
            self.did_not_run(c)
            return True
        return False

    def dividend(self, c, revenue, kind):
        """5.7: pool shares' part stays with the bank, initial-offering and own shares'
        with the company; 2x markers do not change dividends (decision). ALL 200% (5.7.4)
        pays three times the run, the company adding twice the run from its treasury."""
        pot = 3 * revenue if kind == "all200" else revenue
        paid, corp = {}, f"corp:{c.id}"
        in_play = [x for x in c.certs if x.holder not in certs.OUT_OF_PLAY]
        n_pref = sum(shares_of(x) for x in in_play if is_preferred(x))
        for x in in_play if kind != "hold" else []:
            # by the certificate's percent (size x 5%): a preferred share 10%; a 10%
            # common 5% (split) or 10% (all), a 5% common 2.5% or 5%, rounded down
            if kind == "preferred":
                amount = pot * shares_of(x) // n_pref if is_preferred(x) else 0
            elif kind == "split":
                amount = pot * x.size * (50 if is_preferred(x) else 25) // 1000
            else:
                amount = pot * x.size * certs.UNIT // 100
            if amount:
                key = corp if x.holder in ("ipo", "treasury") else x.holder
                paid[key] = paid.get(key, 0) + amount
        # what is not paid out (all of a hold, the remainders) stays with the company
        rest = pot - sum(paid.values())
        if rest or kind == "all200":
            paid[corp] = paid.get(corp, 0) + rest
        return Dividend(kind, 0, list(paid.items()), {"paid": {k.partition(":")[2] or k: v for k, v in paid.items()}},
                        company_adds=2 * revenue if kind == "all200" else 0)

    def price_after_dividend(self, c, d):
        """5.8.1: the marker moves as the dividend's kind says (the title's
        ``dividend_moves``)."""
        c.last_dividend = d.kind
        direction, steps = self.numbers["dividend_moves"][d.kind]
        if direction != "none":
            self.move_marker(c, direction, steps, "dividend")

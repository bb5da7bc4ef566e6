"""What a title gives the engine: :class:`GameRules`, its data and the hooks the shared
rounds and steps call, each declared here once with what it must do and a default.

A title's rules class subclasses it (``class Rules(StockRules, OperatingRules,
GameRules)``: the title's own mixins first, so their methods override these defaults)
and sets the class attributes below. docs/engine.md lists the hooks and shows a title's
shape; a new title implements the hooks without a default and overrides only where its
rules differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trainruns.errors import InputError
from trainruns.game.emergency import contribute
from trainruns.game.errors import Refusal
from trainruns.game.ids import Ids
from trainruns.game.report import PlayerReport
from trainruns.game.shares import (certificates, keeping_presidency, max_sellable, scaled, shares_value,
                                   update_president, why_none_sellable)
from trainruns.game.state import corp_key, player_key
from trainruns.game.tile_lays import may_lay
from trainruns.game.train import available, row_trains, sell_one


@dataclass
class Dividend:
    """What a dividend pays (:meth:`GameRules.dividend`): the ``kind`` paid (a payout of
    nothing is withheld), what the company adds to the run from its treasury first
    (1831 5.7.4: twice the run), what it keeps, each holder's part (``payments``: holder
    key and amount, in the order paid) and the ``dividend`` event's own fields."""

    kind: str
    kept: int = 0
    payments: list = field(default_factory=list)
    fields: dict = field(default_factory=dict)
    company_adds: int = 0


class GameRules(Ids, PlayerReport):
    """The engine's view of a title. Set by the title's ``__init__``: ``game``,
    ``state`` (:class:`~.state.State`), ``market``, ``stock_round_number``, ``priority``."""

    #: the title's name as logs and positions spell it
    title: str = ""
    #: the action types it accepts (:func:`.action.declare`)
    action_types: dict = {}
    #: the variants the game is played with
    variants: list = []
    #: the variants a new game may choose: name -> what it changes, with its rule (the
    #: page's New game form lists them)
    known_variants: dict = {}
    #: the steps of a company's operating turn, in order: step classes built as
    #: ``Step(game, corporation, turn)`` (:class:`~.steps.operating.CorporationStep`)
    operating_steps: tuple = ()
    #: where the title's own rules say what a shared step refuses: topic -> the section
    #: as the title's refusals cite it, brackets and all ("[8]" in 1832, "(5.0.4)" in
    #: 1831, '("Emergency sell")' for a heading of 1833NE's summary); :meth:`cite` reads
    #: it. The topics are those the shared steps the title runs cite.
    citations: dict = {}
    #: what each zone of the stock market means (zone as ``market.view()`` names it ->
    #: the title's words and section), and ``"par"`` for a par box; the page's legend
    market_legend: dict = {}
    #: private id -> what the private does, in the title's words (its companies' data),
    #: which :meth:`private_ability` tells the page
    abilities: dict = {}

    #: the rules' attributes set when the game starts and only read after it (the
    #: title's tables, its map and market grid): a copy of the game shares them
    fixed_attributes: tuple = ("data", "numbers", "config", "phases", "shares", "trains", "token_costs",
                               "abilities", "cards", "sides", "private_data", "map")

    def fixed(self) -> list:
        """The objects of :attr:`fixed_attributes` (and the market's grid of boxes)
        this game has: :meth:`~.game.Game.copy` shares them instead of copying."""
        out = [getattr(self, name) for name in self.fixed_attributes if hasattr(self, name)]
        rows = getattr(getattr(self, "market", None), "rows", None)
        return out + ([rows] if rows is not None else [])

    def cite(self, topic: str) -> str:
        """The title's own rule on ``topic`` (:attr:`citations`) as a refusal of a shared
        step appends it: " [8]" (with the space before it); empty when the title's
        rules say nothing on it, never another title's section."""
        where = self.citations.get(topic)
        return f" {where}" if where else ""

    # --- the setup ---------------------------------------------------------------------

    def check_setup(self, n: int, players: dict, rule: str, variants=None):
        """A new game's players and variants, refused as bad input where the title's
        rules do not allow them: ``n`` players within ``players`` (``{"min", "max"}``,
        the title's data; ``rule``: where its rulebook says so), and each variant one
        of :attr:`known_variants` (``variants`` None: the title checks its own)."""
        if not players["min"] <= n <= players["max"]:
            raise InputError(f"{self.title} is for {players['min']} to {players['max']} players, not {n} ({rule})",
                             "players")
        for v in variants or ():
            if v not in self.known_variants:
                raise InputError(f"unknown {self.title} variant {v!r} (known: {', '.join(self.known_variants)})",
                                 "variants")

    # --- the rounds --------------------------------------------------------------------

    def first_round(self):
        """The round the game starts with (an auction, an initial stock round)."""
        raise NotImplementedError

    def next_round(self):
        """The round after ``self.game.round``, which is over; calls ``game.finish``
        when the game ends between rounds."""
        raise NotImplementedError

    # --- the stock round (:class:`~.round.StockRound`) -----------------------------------

    def start_stock_round(self, r):
        """What happens as stock round ``r`` starts (a card drawn)."""

    def stock_turn(self, r, player: str):
        """The step of ``player``'s turn in stock round ``r``."""
        raise NotImplementedError

    def between_stock_turns(self, r) -> list:
        """Steps that come before the next turn (offers to protect a price after a
        sale, a seat chosen); empty for none."""
        return []

    def ipo_refusal(self, c):
        """Why the next share of ``c``'s initial offering may not be bought now, as
        ``(rule id, message)`` (1832 [17.4]: a company's 6th share waits for its
        predecessors), or None when it may; default: it may."""
        return None

    def takes_stock_turns(self, player: str) -> bool:
        """Whether ``player`` takes turns in the stock round (not a bankrupt one)."""
        return True

    def end_stock_round(self, last_actor):
        """What happens as the stock round ends; ``last_actor`` is the last player who did
        not pass, or None. [Priority to the player after him (1832 [5.2.2]), then each
        started company, in share price order, moves as :meth:`stock_round_end_move` says.]"""
        if last_actor is not None:
            self.priority = self.player_after(last_actor)
        self.stock_round_price_moves()

    def stock_round_price_moves(self):
        """Each started company, in share price order (fixed before any moves), moves by
        :meth:`stock_round_end_move` (1832 [5.8.1], 1831 4.8.3)."""
        for c in self.price_order([c for c in self.state.corporations if c.started]):
            self.stock_round_end_move(c)

    def stock_round_end_move(self, c):
        """How ``c``'s token moves as a stock round ends [it stays] (1832: sold out, up)."""

    # --- the stock turn (:class:`~.steps.stock.StockTurn`) ------------------------------

    #: the title's share numbers for an ordinary company: ``president`` (shares in the
    #: president's certificate), ``player_limit`` (60%), ``market_limit`` (50%),
    #: ``float``, ``total`` (:func:`~.shares.scaled` scales them for a larger company)
    shares: dict = {}
    #: where unsold shares are bought from: the initial offering (``"ipo"``), or the
    #: company's treasury (``"treasury"``: incremental capitalisation, 1833NE)
    ipo_source: str = "ipo"

    def cert_limit(self) -> int:
        """The most certificates a player may hold now (1832 [5.4], 1831 4.7.7)."""
        raise NotImplementedError

    def counts_for_limit(self, c) -> bool:
        """Whether ``c``'s shares count toward the certificate limit [they do] (1832
        [5.1.1]: not in the yellow, green or brown area)."""
        return True

    def may_exceed_holding(self, c) -> bool:
        """Whether a player may hold more than the holding limit of ``c`` [no] (1832
        [5.1.1] green and brown areas)."""
        return False

    def multiple_buys(self, c) -> bool:
        """Whether a turn may buy several market shares of ``c`` at once [no] (1832
        [5.1.1] brown area)."""
        return False

    def can_par(self, c) -> bool:
        """Whether ``c`` may be started now [any open company not started]."""
        return not c.closed and c.par is None

    def par_prices(self, c) -> list[int]:
        """The par values ``c`` may start at."""
        raise NotImplementedError

    def ipo_price(self, c) -> int:
        """What a share of ``c`` from its :attr:`ipo_source` costs [its par]."""
        return c.par

    def start_corporation(self, c, name: str, price: int):
        """Player ``name`` starts ``c`` at par ``price``: he buys its president's
        certificate and its token goes on the market."""
        raise NotImplementedError

    def set_par(self, c, price: int):
        """``c`` starts at par ``price``: its token goes on the market's par box for it,
        under any tokens already there (1832 [5.6], 1831 4.7.5, 4.4.2)."""
        c.par = price
        c.cell = self.market.par_cell(price)
        self.market.place(c.id, c.cell)

    def buy_shares(self, c, name: str, source: str, count: int, price: int):
        """Player ``name`` buys ``count`` shares of ``c`` from ``source`` at ``price``
        each. [The money goes to the bank, or to ``c`` for shares from its treasury; the
        presidency follows (1832 [5.5]).]"""
        s = self.state
        s.pay(player_key(name), corp_key(c.id) if source == "treasury" else "bank", price * count)
        s.move_shares(c, source, player_key(name), count)
        s.event("buy", corporation=c.id, player=name, count=count, price=price, source=source)
        update_president(s, c)

    def may_sell(self, c, name: str) -> int:
        """How many shares of ``c`` player ``name`` may sell now [the market limit and
        the president's certificate: :func:`~.shares.max_sellable`, none before it starts]."""
        if not c.started:
            return 0
        return max_sellable(self.state, c, name, scaled(self.shares, c, "market_limit"),
                            scaled(self.shares, c, "president"))

    def why_no_sale(self, c, name: str) -> str:
        """Why player ``name`` may sell no share of ``c`` (:meth:`may_sell` says none),
        with the title's section."""
        if not c.started:
            return f"{c.id} has not started{self.cite('par')}"
        why, topic = why_none_sellable(c, name, scaled(self.shares, c, "market_limit"),
                                       scaled(self.shares, c, "president"))
        return why + (self.cite(topic) if topic else "")

    def sell_shares(self, c, name: str, count: int, price: int | None = None, stock_round: bool = False):
        """Player ``name`` sells ``count`` shares of ``c`` to the market at ``price`` each
        [the price now]: the bank pays, the presidency may change (1832 [5.5]) and the
        price moves (:meth:`price_after_sale`)."""
        s = self.state
        price = self.market.price(c.cell) if price is None else price
        by_president = c.president == name
        s.pay("bank", player_key(name), price * count)
        s.move_shares(c, player_key(name), "market", count)
        s.event("sell", corporation=c.id, player=name, count=count, price=price)
        update_president(s, c)
        self.price_after_sale(c, count, by_president)

    def price_after_sale(self, c, count: int, by_president: bool):
        """How a sale of ``count`` shares of ``c`` moves its price [one row down per
        share, 1832 [5.8.1]]."""
        self.move_share_price(c, self.market.down(c.cell, count), "sale")

    # --- the operating round (:class:`~.round.OperatingRound`) ---------------------------

    def start_operating_round(self):
        """What happens as an operating round starts, before the order is fixed (the
        privates' income, counters of the title)."""

    def operating_order(self) -> list:
        """The companies that operate this round, in order (usually by share price)."""
        raise NotImplementedError

    def operating_round_fields(self, k: int, n: int) -> dict:
        """The ``operating_round`` event's fields besides ``order``: the stock round
        whose set this is, and operating round ``k`` of ``n``."""
        return {"number": self.stock_round_number, "round": k, "of": n}

    def operating_round_ends_now(self) -> bool:
        """Whether the round stops before the next company's turn (a rule that ends the
        game at once)."""
        return False

    def interrupting_steps(self) -> list:
        """Steps that run before the next company's turn (a merger phase between two
        turns); empty for none."""
        return []

    def operates(self, c) -> bool:
        """Whether ``c``, in the order fixed at the round's start, still takes its turn
        when it comes."""
        return not c.closed

    def start_turn(self, c) -> dict:
        """What happens by rule as ``c``'s turn starts (a home token placed); returns the
        turn record its steps share."""
        return {"corporation": c.id}

    def operating_turns_over(self):
        """What happens once the last company of the round has operated."""

    def turn_under_way(self, c) -> dict:
        """The record of ``c``'s operating turn under way, the one its current step
        shares (what it did so far this turn), for a hook that is not handed it; an
        empty record when ``c`` is not the company of the current step."""
        r = getattr(self.game, "round", None)
        step = r.step() if r is not None and not self.game.finished else None
        return step.turn if getattr(step, "corp", None) is c and getattr(step, "turn", None) is not None else {}

    def turn_actions(self, c, turn: dict) -> list[dict]:
        """What ``c`` may do at any point of its turn besides the current step's own
        actions (buying a private, a mortgage, issuing shares). ``turn`` is the turn's
        record; once the company has run, it holds the run's ``revenue``."""
        return []

    def turn_action(self, c, turn: dict, a: dict):
        """Process an action of :meth:`turn_actions`; returns what the log records."""
        raise Refusal("turn.action", f"{a['type']} is not allowed in this step of {c.id}'s turn")

    # --- the shared operating steps (game/steps) --------------------------------------

    def tile_lays(self, c, lays: list) -> list[dict]:
        """TrackStep: every tile lay ``c`` may make now, given the lays ``lays`` made
        this turn: ``{"hex", "tile", "rotation", "upgrade", "cost", ...}`` (what
        :meth:`lay_tile` needs); empty when the turn's allowance is used up. [1832 [6],
        1833NE "Laying track": each lay the route core lists for ``c``'s position
        (reach, the tiles left, upgrades, the phase's colours) that fits the turn's
        :meth:`tile_allowance`, or is free (:meth:`free_lay_hexes`: no slot, $0); never
        on a hex of :meth:`blocked_hexes`, nor an upgrade of a hex laid this turn, nor
        one :meth:`legal_lay` refuses; at its :meth:`lay_cost`, which ``c`` can pay.]"""
        from trainruns.game import route_adapter

        return list(self.legal_lays(c, lays, route_adapter.tile_lays))

    def may_lay_tile(self, c, lays: list) -> bool:
        """TrackStep: whether ``c`` may make any tile lay now (the step has something to
        do), always the answer of ``bool(tile_lays(c, lays))``: :meth:`legal_lays`
        stopped at the first, on the route core's lays walked one at a time. A title
        that lists its lays otherwise (its own :meth:`tile_lays`) answers it so too."""
        from trainruns.game import route_adapter

        return next(self.legal_lays(c, lays, route_adapter.each_tile_lay), None) is not None

    def legal_lays(self, c, lays: list, listing):
        """The lays of :meth:`tile_lays`, one at a time, from ``listing`` (the route
        adapter's lays of a position: all at once, or one at a time)."""
        allowance, free_hexes = self.tile_allowance(c), self.free_lay_hexes(c)
        if not free_hexes and not (may_lay(allowance, lays, False) or may_lay(allowance, lays, True)):
            return
        blocked = self.blocked_hexes()
        laid = {x.get("hex") for x in lays}
        for m in listing(self.position(c.id)):
            free = m["hex"] in free_hexes
            if m["hex"] in blocked or m["upgrade"] and m["hex"] in laid or (
                    not free and not may_lay(allowance, lays, m["upgrade"])) or not self.legal_lay(m):
                continue
            cost = 0 if free else self.lay_cost(c, m)
            if cost <= c.cash:
                yield dict(m, cost=cost, free=free)

    def tile_allowance(self, c):
        """:meth:`tile_lays`: the tiles ``c`` lays in a turn, as data read by
        :func:`~.tile_lays.may_lay` [the title's ``tile_lays`` in its rules data]."""
        return self.data["tile_lays"]

    def free_lay_hexes(self, c) -> set:
        """:meth:`tile_lays`: the hexes where ``c`` may lay a tile free now, outside its
        allowance (1833NE P2: Lowell) [none]."""
        return set()

    def blocked_hexes(self) -> set:
        """:meth:`tile_lays`: the hexes no company may lay a tile on now (a private's
        hexes while a player holds it, 1832 [16.1]) [none]."""
        return set()

    def legal_lay(self, lay: dict) -> bool:
        """:meth:`tile_lays`: whether a lay the route core lists may be made after all
        (1833NE: no track across an impassable border) [it may]."""
        return True

    def lay_cost(self, c, lay: dict) -> int:
        """:meth:`tile_lays`: what ``c`` pays for ``lay`` (terrain, a minimum) [nothing]."""
        return 0

    def lay_tile(self, c, lay: dict):
        """TrackStep: make a lay that :meth:`tile_lays` listed (pay for it, carry tokens)."""
        raise NotImplementedError

    def why_not_lay(self, c, a: dict, lays: list) -> tuple[str, str]:
        """TrackStep: (rule id, message) refusing a lay that was not listed."""
        raise NotImplementedError

    def token_places(self, c) -> list[dict]:
        """TokenStep: every ``{"hex", "stop"}`` where ``c`` may place a token now. [1832
        [7.2], 1833NE "List of corporations": while it has a token left, each city the
        route core finds it reaches with room and none of its tokens; never the last
        free slot of a home kept for another company (:meth:`reserved_homes`), nor a city
        of :meth:`reserved_cities`; at a :meth:`token_cost` it can pay.]"""
        from trainruns.game import route_adapter

        if len(c.tokens) >= len(c.token_costs):
            return []
        cities = route_adapter.token_cities(self.position(c.id))
        homes = {(r["hex"], r["stop"]) for r in self.reserved_homes() if r["corporation"] != c.id}
        kept = self.reserved_cities(c, cities)
        return [{"hex": h, "stop": k} for h, k, free in cities
                if not ((h, k) in homes and free <= 1) and (h, k) not in kept and self.token_cost(c, h) <= c.cash]

    def reserved_cities(self, c, cities: list) -> set:
        """:meth:`token_places`: the cities ``(hex, stop)`` of ``cities`` (``(hex, stop,
        free slots)``, those ``c`` reaches with room) kept from ``c`` now besides the
        home slots (1833NE: Worcester and Boston until phase IV) [none]."""
        return set()

    def token_cost(self, c, hex_id: str) -> int:
        """What ``c``'s next token costs on ``hex_id`` [its charter's price for it, 1832
        [7] Token Cost]."""
        return c.token_costs[len(c.tokens)]

    def place_token(self, c, place: dict):
        """TokenStep: ``c`` places a token where :meth:`token_places` listed and pays its
        :meth:`token_cost` to the bank; then :meth:`token_placed`."""
        cost = self.token_cost(c, place["hex"])
        if cost:
            self.state.pay(corp_key(c.id), "bank", cost)
        c.tokens.append((place["hex"], place.get("stop", 0)))
        self.token_placed(c, place, cost)

    def token_placed(self, c, place: dict, cost: int):
        """:meth:`place_token`: what follows a token placed for ``cost`` [nothing]."""

    def why_not_token(self, c, a: dict) -> tuple[str, str]:
        """TokenStep: (rule id, message) refusing a token that was not listed."""
        raise NotImplementedError

    def reserved_homes(self) -> list[dict]:
        """The home cities kept now for corporations that have not placed their home
        token, each ``{"corporation", "hex", "stop"}``, as :meth:`token_places` keeps
        them from the others [each company that :meth:`keeps_home`]."""
        return [{"corporation": d.id, "hex": d.home, "stop": d.home_stop} for d in self.state.corporations
                if self.keeps_home(d)]

    def keeps_home(self, d) -> bool:
        """:meth:`reserved_homes`: whether company ``d`` keeps its home slot [open, no token
        placed yet: 1832 [7.2]]."""
        return not d.closed and not d.tokens

    def run(self, c, routes) -> tuple[list[dict], int]:
        """RoutesStep: ``c`` runs ``routes`` (``"best"``, or a declared run that the
        route core's audit of its position finds legal, refused otherwise and as
        :meth:`check_declared_run` says). Returns (the routes as the log keeps them, the
        revenue); the step calls :meth:`after_run` once the run is accepted (its revenue
        checked), so a refused run changes nothing."""
        from trainruns.game import route_adapter
        from trainruns.game.steps.routes import declared_run

        pos = self.position(c.id)
        if routes == "best":
            revenue, chosen = route_adapter.best_run(pos)
        else:
            revenue, best, chosen = declared_run(routes, lambda r: route_adapter.audit_run(pos, r), self.cite("run"))
            self.check_declared_run(c, revenue, best)
        return chosen, revenue

    def run_fields(self, c) -> dict:
        """RoutesStep: what the log records with ``c``'s ``run_routes`` besides its routes
        and revenue, read once the run is made (default: nothing; 1831 5.6.6: whether its
        bounded search proved the run best)."""
        return {}

    def check_declared_run(self, c, declared: int, best: int):
        """RoutesStep: refuse (a Refusal) a legal declared run earning ``declared`` when
        the best earns ``best`` and the title requires the best (default: any legal
        run may be declared)."""

    def may_run(self, c) -> bool:
        """RoutesStep: whether ``c`` has a train that may run now (default: it owns
        one); when not, the step ends with no run (``revenue`` None)."""
        return bool(c.trains)

    def after_run(self, c, routes: list[dict]):
        """RoutesStep: what running ``routes`` changes beyond the revenue (1832's first
        run to Miami, 1833NE's phased-out trains), once the run is accepted: :meth:`run`
        changes nothing, so a run refused for its declared revenue leaves the state as
        it was."""

    def no_route(self, c) -> bool:
        """RoutesStep: whether ``c``'s trains have no route at all, so that its best run
        is no run ($0) and a ``pass`` makes it (default: the route core's best run of
        its position has no route)."""
        from trainruns.game.route_adapter import best_run

        return not best_run(self.position(c.id))[1]

    def dividend_kinds(self, c, revenue) -> list[str]:
        """DividendStep: the kinds the president chooses from (one: paid by rule)."""
        return ["payout", "half", "withhold"]

    def settle_without_dividend(self, c, revenue) -> bool:
        """DividendStep: settle the turn's money when there is no dividend to choose
        and say so (default: a company without a run, or a $0 run, withholds: 1832 [9]
        No Dividend)."""
        if revenue:
            return False
        self.pay_dividend(c, 0, "withhold")
        return True

    def dividend(self, c, revenue: int, kind: str) -> Dividend:
        """DividendStep: what a dividend of ``kind`` on ``revenue`` pays: the amount per
        share and how the odd dollars go."""
        raise NotImplementedError

    def dividend_per_share(self, c, revenue: int, kind: str) -> int | None:
        """What one share gets from a dividend of ``kind`` on ``revenue``, for the page
        (default: the ``per_share`` the title's :meth:`dividend` reports, else None:
        shares get different amounts)."""
        return self.dividend(c, revenue, kind).fields.get("per_share")

    def price_after_dividend(self, c, d: Dividend):
        """DividendStep: the share price's move after dividend ``d``."""
        raise NotImplementedError

    def pay_dividend(self, c, revenue: int, kind: str):
        """Pay a dividend (:meth:`dividend`): what the company keeps comes from the bank
        to it; each holder's part from the bank to the holder, the initial offering's
        and the treasury's to the company, the open market's nowhere (the bank's); then
        the event and the price move (:meth:`price_after_dividend`)."""
        s = self.state
        d = self.dividend(c, revenue, kind)
        if d.company_adds:
            s.pay(corp_key(c.id), "bank", d.company_adds)
        if d.kept:
            s.pay("bank", corp_key(c.id), d.kept)
        for holder, amount in d.payments:
            if amount and holder != "market":
                s.pay("bank", corp_key(c.id) if holder in ("ipo", "treasury") else holder, amount)
        s.event("dividend", corporation=c.id, kind=d.kind, revenue=revenue, **d.fields)
        self.price_after_dividend(c, d)

    def train_buys(self, step) -> list[dict]:
        """BuyTrainStep: every purchase (and forced share sale) open to ``step.corp`` now."""
        raise NotImplementedError

    def train_process(self, step, a: dict):
        """BuyTrainStep: process a purchase or forced sale; returns what the log records.
        Default: any other type than ``buy_train`` is the title's :meth:`emergency_action`
        with what :meth:`train_buys` lists of it; a purchase must be listed
        (:meth:`why_not_train` says why not), from another company it is the title's
        :meth:`buy_company_train`, else it is bought at the listed price
        (:meth:`buy_train`)."""
        c, listed = step.corp, self.train_buys(step)
        if a["type"] != "buy_train":
            return self.emergency_action(step, a, next((x for x in listed if x["type"] == a["type"] and x.get(
                "corporation") == a.get("corporation") and x.get("player") == a.get("player")), None))
        x = next((x for x in listed if x["type"] == "buy_train" and x["from"] == a["from"]
                  and x["train"] == a["train"]), None)
        if x is None:
            raise Refusal(*self.why_not_train(c, a))
        if x["from"] not in ("bank", "market"):
            return self.buy_company_train(step, a, x)
        if "price" in a and a["price"] != x["price"]:
            raise Refusal("train.price", f"a {a['train']}-train from the {a['from']} costs "
                                         f"${x['price']}{self.cite('train-cost')}")
        self.buy_train(c, a["from"], a["train"], x["price"])
        return dict(a, price=x["price"])

    def emergency_action(self, step, a: dict, listed: dict | None):
        """:meth:`train_process`: an action of the buy-train step other than a purchase
        (a forced sale, 1833NE's emergency issue), with its entry in :meth:`train_buys`
        (None: not listed); returns what the log records."""
        raise Refusal("train.action", f"{step.corp.id} is buying trains: buy_train or pass{self.cite('trains')}")

    def buy_company_train(self, step, a: dict, listed: dict):
        """:meth:`train_process`: a listed purchase of a train from another company."""
        raise NotImplementedError

    def why_not_train(self, c, a: dict) -> tuple[str, str]:
        """:meth:`train_process`: (rule id, message) refusing a purchase
        :meth:`train_buys` did not list."""
        raise NotImplementedError

    def must_buy(self, step) -> bool:
        """BuyTrainStep: whether ``step.corp`` must still buy a train (it may not pass)."""
        return False

    def enter_buy_train(self, step):
        """BuyTrainStep: what happens by rule as the step starts (a bankruptcy when a
        forced purchase cannot be raised, :func:`.emergency.bankrupt_if_short`)."""

    def bankrupt(self, c, name: str, step):
        """:func:`.emergency.bankrupt_if_short`: president ``name`` cannot raise the price
        of ``c``'s forced train in ``step``; what follows is the title's (1832 [13]: the
        game ends; 1833NE "Emergency sell": he is out and the game goes on)."""
        raise NotImplementedError

    def bank_rows(self) -> list[dict]:
        """The depot rows the bank sells from now (default: the first type not sold out,
        1832 [10] Bank Trains, 1833NE "Train list and prices")."""
        row = available(self.state.depot)
        return [row] if row is not None else []

    def train_sources(self) -> list[tuple]:
        """(from, train, price) of every train on sale at a fixed price now: what
        :meth:`bank_rows` sell (a card as each of its sides), then each kind in the open
        market at its printed price (1832 [10] Train Cost)."""
        out = [("bank", t, p) for row in self.bank_rows() for t, p in row_trains(row)]
        return out + [("market", t, self.trains.price(t)) for t in dict.fromkeys(self.state.market_trains)]

    def train_offers(self, c, sources) -> list[dict]:
        """The ``buy_train`` actions of ``c`` for ``sources`` ((from, train, price) as
        :meth:`train_sources` lists them)."""
        return [{"type": "buy_train", "corporation": c.id, "from": f, "train": t, "price": p} for f, t, p in sources]

    def buy_train(self, c, source: str, name: str, price: int):
        """``c`` buys a ``name`` train from the ``"bank"`` or the ``"market"`` for
        ``price``, its president paying what its treasury lacks (1832 [10] Train Purchase
        Funds): the depot row's count falls or the open market loses it, then
        :meth:`train_bought`, then the phases its card starts (1832 [4.2]; 1833NE "the
        first card of a phase starts that phase")."""
        s = self.state
        row = None
        if source == "bank":
            row = next((r for r in self.bank_rows() if name in dict(row_trains(r))), None)
            if row is None:
                raise Refusal("train.order", f"the bank does not sell a {name}-train now: all of a type before "
                                             "the next")
        contribute(s, c, price)
        s.pay(corp_key(c.id), "bank", price)
        if row is None:
            s.market_trains.remove(name)
        else:
            sell_one(row)
        c.trains.append(name)
        self.train_bought(c, source, name, price)
        if source == "bank":
            for phase in self.phases.after_buying(s.phase, self.trains[name].card):
                self.new_phase(phase, c)

    def train_bought(self, c, source: str, name: str, price: int):
        """What follows a purchase by rule before its phase change (default: nothing)."""

    def price_order(self, corps: list) -> list:
        """``corps`` in share price order: highest price first, then the rightmost box,
        then the top of a stack (1832 [4.1.3]; 1833NE: ties by arrival in the box, [E]);
        the market's :meth:`~.market.Market.order_key`."""
        return sorted(corps, key=lambda c: self.market.order_key(c.id, c.cell))

    # --- phases and trains -------------------------------------------------------------

    def train_limit(self, c) -> int:
        """How many trains ``c`` may hold now [the phase's ``train_limit``: 1832 [10.2],
        1833NE "Number of phases", 1831 5.3.5]."""
        return self.phases.limit(self.state.phase)

    def counted_trains(self, c) -> list:
        """The trains of ``c`` that count against its limit."""
        return c.trains

    def new_phase(self, phase: str, buyer):
        """``phase`` starts, by a train ``buyer`` bought from the bank: the trains it
        ends leave (:meth:`remove_trains`), its events run in the order the title's data
        lists them (``events`` of the phase's row: ``{"type": T, ...}`` calls
        ``event_T(phase, ...)``), and companies over the new limit (or the row's own
        ``discard_limit``) discard (:meth:`queue_discards`)."""
        s = self.state
        s.phase = phase
        s.event("phase", phase=phase)
        self.remove_trains(phase)
        for event in self.phases.events(phase):
            getattr(self, f"event_{event['type']}")(phase, **{k: v for k, v in event.items() if k != "type"})
        self.queue_discards(buyer, self.phases.discard_limit(phase))

    def event_close_privates(self, phase: str, only=None, keep=(), held_by_players: bool = False):
        """A phase's event ``{"type": "close_privates"}`` (1832 Table 1, phase 5; 1833NE
        "Number of phases", phases III and IV): the open privates close, each with a
        ``private_closed`` event: every one, or ``only`` those listed; never those in
        ``keep`` (1832 [17.3]: the Southern Bank); with ``held_by_players``, only those
        a player holds or nobody owns (1833NE phase III)."""
        for x in self.state.privates:
            if not x.open or x.id in keep or (only is not None and x.id not in only):
                continue
            if held_by_players and x.owner is not None and not x.owner.startswith("player:"):
                continue
            x.open = False
            self.state.event("private_closed", private=x.id,
                             reason=f"phase {phase}" + (": held by a player" if held_by_players else ""))

    def remove_trains(self, phase: str):
        """The trains that rust as ``phase`` starts (each train's ``rusts_on``) leave the
        companies and the open market, without compensation."""
        s = self.state
        for t in self.phases.scrapped_at(phase):
            holders = []
            for d in s.corporations:
                if t in d.trains:
                    holders.append(d.id)
                    d.trains = [x for x in d.trains if x != t]
            s.market_trains[:] = [x for x in s.market_trains if x != t]
            s.event("rust", train=t, corporations=holders)

    def discardable(self, c, bought=None, limit: int | None = None) -> list[str]:
        """DiscardStep: the trains ``c`` may discard now, one name each; none once it is
        within its limit, or ``limit``, a rule's own for this discard (default: those that
        count against it, :meth:`counted_trains`)."""
        counted = self.counted_trains(c)
        return list(dict.fromkeys(counted)) if len(counted) > self._discard_limit(c, limit) else []

    def _discard_limit(self, c, limit: int | None) -> int:
        return self.train_limit(c) if limit is None else limit

    def discard_train(self, c, name: str, bought=None):
        """DiscardStep: a train named ``name`` of ``c`` goes (default: to the open market,
        without compensation, 1832 [10] Exceeding Train Limits)."""
        c.trains.remove(name)
        self.state.market_trains.append(name)
        self.state.event("discard", corporation=c.id, train=name)

    def why_not_discard(self, c, bought=None, limit: int | None = None) -> tuple[str, str]:
        """DiscardStep: (rule id, message) refusing a discard :meth:`discardable` did not list."""
        return "train.discard", (f"{c.id} must discard one of its trains {self.counted_trains(c)} down to its "
                                 f"limit of {self._discard_limit(c, limit)}")

    def queue_discards(self, buyer, limit: int | None = None):
        """Companies over their limit (or over ``limit``, a rule's own for this discard)
        discard (:meth:`discard_surplus`), in :meth:`discard_order`."""
        over = [d for d in self.state.corporations
                if not d.closed and len(self.counted_trains(d)) > self._discard_limit(d, limit)]
        for d in reversed(self.discard_order(buyer, over)):
            self.discard_surplus(d, limit=limit)

    def discard_order(self, buyer, over: list) -> list:
        """The order in which the companies ``over`` their limit discard after ``buyer``'s
        purchase (1832 [10] Exceeding Train Limits): the company that caused the phase
        change first, then the others in descending share price order."""
        return ([buyer] if buyer in over else []) + self.price_order([d for d in over if d is not buyer])

    def discard_surplus(self, c, bought=None, limit: int | None = None):
        """``c`` is over its limit: its president's discard (:class:`.steps.discard.DiscardStep`)
        goes in front of the step under way (1832 [10]: "the president chooses")."""
        from trainruns.game.steps.discard import DiscardStep

        self.game.round.push(DiscardStep(self.game, c, bought=bought, limit=limit))

    # --- rules the titles share, with the hooks where they differ -------------------------

    def issuable(self, c) -> int:
        """How many shares ``c`` may issue from its treasury now (:mod:`.issue`; 1833NE
        "Comparison with 1830" item 3); default: none."""
        return 0

    def issue_price(self, c) -> int:
        """What the bank pays a share ``c`` issues (:mod:`.issue`; default: the price one
        column left of its own, 1833NE [E])."""
        return self.market.price(self.market.left(c.cell))

    def redeem_price(self, c) -> int:
        """What ``c`` pays a share it redeems (:mod:`.issue`; default: the price one
        column right of its own, 1833NE [E])."""
        return self.market.price(self.market.right(c.cell))

    def private_income(self):
        """The privates pay their owners (1832 [4.1.3] "First, all private companies pay
        their owner"; 1833NE "List of private companies"): each of
        :meth:`paying_privates` from the bank to its owner, a player or a company's
        treasury, with an ``income`` event."""
        s = self.state
        for x in self.paying_privates():
            s.pay("bank", x.owner, x.revenue)
            s.event("income", private=x.id, owner=x.owner.partition(":")[2], amount=x.revenue)

    def paying_privates(self) -> list:
        """The privates that pay income now, in the state's order (default: every open
        private that has an owner)."""
        return [x for x in self.state.privates if x.open and x.owner is not None]

    def home_token(self, c):
        """The home token, placed free in ``c``'s home slot when it has no token yet
        (1832 [7.1]; 1833NE "List of corporations": as it launches)."""
        if c.tokens:
            return
        c.tokens.append((c.home, c.home_stop))
        self.state.event("token", corporation=c.id, hex=c.home, stop=c.home_stop, cost=0, reason="home")

    def move_share_price(self, c, new, reason: str) -> bool:
        """Move ``c``'s share price token to market box ``new`` (its stack kept by the
        market) and report a ``price`` event when it moved; returns whether it moved."""
        old = c.cell
        self.market.move(c.id, old, new)
        c.cell = new
        if new != old:
            self.state.event("price", corporation=c.id, price=self.market.price(new), reason=reason)
        return new != old

    def close_corporation(self, c):
        """``c`` closes (1832 [5.1.1] Black area; 1833NE "A corporation closes if its
        stock price falls to $0"): its treasury goes to the bank, its trains as
        :meth:`closing_trains` says, its tokens and share price token leave, its
        certificates are void (the JSON shows a total of 0), it has no president; then
        :meth:`closing_assets`; the privates it owns close; a ``close`` event."""
        s = self.state
        if c.cash:
            s.pay(corp_key(c.id), "bank", c.cash)
        self.closing_trains(c)
        c.trains = []
        c.tokens = []
        self.market.remove(c.id, c.cell)
        c.shares = {}
        c.closed = True
        c.president = None
        self.closing_assets(c)
        for x in s.privates:
            if x.owner == corp_key(c.id):
                x.open = False
        s.event("close", corporation=c.id)

    def closing_trains(self, c):
        """Where a closing company's trains go (default: to the open market, 1832
        [5.1.1])."""
        self.state.market_trains.extend(c.trains)

    def closing_assets(self, c):
        """What else of a closing company leaves with it (special tokens, ferries);
        default: nothing."""

    # --- a forced train purchase (game/emergency.py) ------------------------------------

    def president_sale_most(self, c, d, name: str) -> int:
        """How many shares of ``d`` the president ``name`` may sell toward ``c``'s
        forced train purchase (:func:`.emergency.president_sales`: 1832 [10]
        Presidential Stock Sales, 1833NE "Emergency sell") [what he may sell
        (:meth:`may_sell`), and of ``c`` itself no more than keeps him its president:
        both titles' "not ... to change the presidency"]."""
        n = self.may_sell(d, name)
        if d is c:
            n = keeping_presidency(self.state, d, name, n, scaled(self.shares, d, "president"))
        return n

    def president_sell(self, d, name: str, count: int):
        """:func:`.emergency.sell_out`: the bankrupt president ``name`` sells ``count``
        shares of ``d`` as the title sells a president's shares for a train [at the
        price now, :meth:`sell_shares`]."""
        self.sell_shares(d, name, count)

    # --- mergers (game/merger.py) ----------------------------------------------------------

    def merger_reach(self, c) -> frozenset:
        """The cities ``(hex, stop)`` ``c``'s track reaches for a merger's eligibility
        (:func:`.merger.reaches`; default: a run of unlimited length from its tokens,
        1832 [11] Merger Eligibility)."""
        from trainruns.game import route_adapter

        return route_adapter.reached_stops(self.position(c.id, trains=[]))

    def absorbed_assets(self, shell, into):
        """:func:`.merger.absorb`: what else of ``shell`` goes to ``into`` besides its
        treasury, trains and privates (1832's special tokens); default: nothing."""

    def retire_shell(self, shell):
        """:func:`.merger.absorb`: what else of an absorbed ``shell`` leaves play besides
        its share price token, shares, tokens, trains and president (1831's certificates
        and stations); default: nothing."""

    def player_after(self, name: str) -> str:
        """The next player clockwise from ``name`` who takes stock turns
        (:meth:`takes_stock_turns`), the priority's seat after the last to act; ``name``
        when nobody else does."""
        names = [p.name for p in self.state.players]
        i = names.index(name)
        return next((other for other in names[i + 1:] + names[:i + 1] if self.takes_stock_turns(other)), name)

    def core_position(self, cid: str, trains=None) -> dict:
        """What every title's position for the route core starts with
        (docs/position-format.md): the title, the phase, the corporation, its trains
        (or ``trains``), the tiles laid and every open company's tokens."""
        s = self.state
        return {"title": self.title, "phase": s.phase, "corporation": cid,
                "trains": list(s.corp[cid].trains if trains is None else trains),
                "tiles": [dict(x) for x in s.tiles],
                "tokens": [{"hex": h, "stop": k, "corporation": x.id}
                           for x in s.corporations if not x.closed for h, k in x.tokens]}

    def place_tile(self, c, lay: dict):
        """Lay tile ``lay`` (what :meth:`tile_lays` listed): ``c`` pays its ``cost`` to
        the bank and the tile goes on the map; returns the (tile, rotation) it replaced,
        None on an empty hex (for carrying the tokens of the cities it upgrades)."""
        s = self.state
        if lay["cost"]:
            s.pay(corp_key(c.id), "bank", lay["cost"])
        before = next(((t["tile"], t["rotation"]) for t in reversed(s.tiles) if t["hex"] == lay["hex"]), None)
        s.tiles.append({"hex": lay["hex"], "tile": lay["tile"], "rotation": lay["rotation"]})
        return before

    # --- the state ---------------------------------------------------------------------

    def state_json(self) -> dict:
        """The state as JSON (docs/game-log.md "The state"): the title adds to it through
        :meth:`corporation_fields`, :meth:`private_json`, :meth:`bank_json`,
        :meth:`depot_json`, :meth:`market_trains_json` and :meth:`title_state_json`."""
        s, g = self.state, self.game
        return {"title": self.title, "finished": g.finished, "end_reason": g.end_reason, "result": g.result,
                "round": g.round.info(), "phase": s.phase, "active": g.active(), "priority": self.priority,
                "bank": self.bank_json(), "cert_limit": self.cert_limit(),
                "players": [self._player_json(p) for p in s.players],
                "corporations": [self.corporation_json(c) for c in s.corporations],
                "privates": [self.private_json(x) for x in s.privates],
                "depot": self.depot_json(), "market_trains": self.market_trains_json(),
                "tiles": [dict(t) for t in s.tiles], "events": list(s.events),
                "actions_applied": len(g.applied), "variants": list(self.variants),
                "title_state": self.title_state_json()}

    def bank_json(self) -> dict:
        """The bank in the state JSON."""
        return {"cash": self.state.bank.cash, "broken": self.state.bank.broken}

    def depot_json(self) -> list:
        """The bank's trains in the state JSON."""
        return [dict(row) for row in self.state.depot]

    def market_trains_json(self) -> list:
        """The open market's trains in the state JSON."""
        return list(self.state.market_trains)

    def private_json(self, x) -> dict:
        """A private company in the state JSON."""
        kind, _, name = (x.owner or "").partition(":")
        return {"id": x.id, "owner": name or None, "owner_kind": kind or None, "open": x.open, "price": x.price,
                "cost": x.cost, "revenue": x.revenue}

    def private_ability(self, private_id: str) -> str:
        """What private ``private_id`` does, in the title's words with its section, for
        the page (default: its entry in :attr:`abilities`, the title's companies' data;
        nothing said without one)."""
        return self.abilities.get(private_id, "")

    def corporation_json(self, c) -> dict:
        """A corporation in the state JSON: what every title shows, then the title's
        :meth:`corporation_fields` (which may also replace a field)."""
        return {"id": c.id, "name": c.name, "president": c.president, "par": c.par,
                "price": self.market.price(c.cell) if c.cell and not c.closed else None,
                "floated": c.floated, "closed": c.closed, "operated": c.operated, "cash": c.cash,
                "trains": list(c.trains), "tokens": [{"hex": h, "stop": k} for h, k in c.tokens],
                "tokens_left": len(c.token_costs) - len(c.tokens) if not c.closed else 0,
                "privates": [x.id for x in self.state.privates if x.owner == corp_key(c.id) and x.open],
                "shares": self.shares_json(c),
                **self.corporation_fields(c)}

    def shares_json(self, c) -> dict:
        """Where a corporation's shares are, in the state JSON: the places add up to
        ``total`` (0 once closed: its certificates are void)."""
        sh = c.shares
        return {"total": 0 if c.closed else c.total_shares, "ipo": sh.get("ipo", 0), "market": sh.get("market", 0),
                "treasury": sh.get("treasury", 0),
                "players": {k.partition(":")[2]: v for k, v in sh.items() if k.startswith("player:") and v},
                "corporations": {k.partition(":")[2]: v for k, v in sh.items() if k.startswith("corp:") and v}}

    def corporation_fields(self, c) -> dict:
        """The title's own fields of a corporation in the state JSON."""
        return {}

    def title_state_json(self) -> dict:
        """The title's own facts in the state JSON (``title_state``)."""
        return {}

    def position(self, corporation: str | None = None, trains=None) -> dict:
        """The position of ``corporation`` (default: the one operating, bad input when
        none is) for the route core, with ``trains`` instead of its own [what
        :meth:`core_position` says; a title adds its own fields]."""
        return self.core_position(self.asked_corporation(corporation, self.title), trains)

    def value(self, name: str) -> int:
        """Player ``name``'s score by the title's formula, now [1832 [14], 1833NE "End
        game triggers": cash, shares at their market price and, where
        :meth:`scores_privates`, the privates he holds at face value]."""
        s = self.state
        p = s.player[name]
        total = p.cash + p.committed + shares_value(s, self.market, name)
        if self.scores_privates():
            total += sum(x.cost for x in s.privates if x.open and x.owner == player_key(name))
        return total

    def scores_privates(self) -> bool:
        """:meth:`value`: whether a player's privates count at face value now [they do]."""
        return True

    def player_certs(self, name: str) -> int:
        """How many certificates player ``name`` holds, as the certificate limit counts them
        [those of each open company that counts toward it (:meth:`certificates_held`), and
        each open private he owns that counts (:meth:`private_counts`); 1832 [5.4]]."""
        s = self.state
        n = sum(self.certificates_held(c, name) for c in s.corporations if not c.closed and self.counts_for_limit(c))
        return n + sum(1 for x in s.privates if x.open and x.owner == player_key(name) and self.private_counts(x, name))

    def certificates_held(self, c, name: str) -> int:
        """The certificates of ``c`` player ``name`` holds [a share each, the president's
        certificate one]."""
        return certificates(c, name, scaled(self.shares, c, "president"))

    def private_counts(self, x, name: str) -> bool:
        """Whether private ``x``, held by player ``name``, counts toward his certificate
        limit [it does]."""
        return True

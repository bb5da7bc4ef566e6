"""1831 as a game (1831 rulebook): a configurable engine.

The procedure is the rulebook's; its numbers come from ``data/rules.json`` (what the
rulebook gives: bank, cash, companies in play, limits, terrain costs, the moves), the
phases with their token costs from ``data/phases.json``
(:func:`trainruns.titles.g1831.route.trains.game_phases`),
and from a config (what it lacks: market, par chart, trains, company table, map, tiles;
:mod:`.config`). Without ``--config`` the shipped, invented config is
used and ``title_state.config`` says so. Rules are grouped by section: stock in
:mod:`.stock`; operating in :mod:`.operating` (the position, the run, the dividend),
:mod:`.track`, :mod:`.tokens`, :mod:`.trains`, :mod:`.forced`, :mod:`.rights` and
:mod:`.receivership`; the board in
:mod:`trainruns.titles.g1831.route.board_map`,
certificates in :mod:`.certs`, the typed company and title state in
:mod:`.state`; the rounds' steps in :mod:`.steps`.
"""

from __future__ import annotations

import random
from dataclasses import replace

from trainruns.errors import InputError
from trainruns.game.action import INT, STR, declare
from trainruns.game.game_rules import GameRules
from trainruns.game.phase import Phases
from trainruns.game.round import StockRound
from trainruns.game.state import player_key
from trainruns.game.steps.dividend import DividendStep
from trainruns.game.steps.routes import RoutesStep
from trainruns.titles.g1831.game import certs
from trainruns.titles.g1831.game.config import PACKAGE, Config
from trainruns.titles.g1831.route.board_map import GameMap
from trainruns.titles.g1831.game.market import Market1831
from trainruns.titles.g1831.game.mergers import MergerRules
from trainruns.titles.g1831.game.forced import ForcedPurchaseRules
from trainruns.titles.g1831.game.operating import OperatingRules
from trainruns.titles.g1831.game.receivership import ReceivershipRules
from trainruns.titles.g1831.game.rights import RightsRules
from trainruns.titles.g1831.game.state import Corporation1831, TitleState1831, Turn1831
from trainruns.titles.g1831.game.steps.operating import MergerStep, RightsStep, TrackStep, TrainStep
from trainruns.titles.g1831.game.steps.stock import StockTurn1831
from trainruns.titles.g1831.game.stock import StockRules
from trainruns.titles.g1831.game.tokens import TokenRules
from trainruns.titles.g1831.game.track import TrackRules
from trainruns.titles.g1831.game.trains import TrainRules
from trainruns.titles.g1831.route.trains import game_phases, train_table
from trainruns.titles.tiled import load_data

VARIANTS = {"extended": "3.1 the extended game (a larger bank)",
            "short": "7.1 the shorter game (larger merger and takeover bonuses)",
            # a house rule, not the rulebook's (docs/game-1831.md "How a game ends")
            "idle_end": "house rule: the game ends when a whole set of rounds passes with no company to "
                        "operate (once the game has had an operating round)"}
CARDS = ("first_stock_option", "government_intervention")

# what 1831 accepts (docs/game-1831.md): the shared types, and its own: the GI drawer's
# seat swap (3.2.3.2), a company buying its own commons or bonds right after a sale
# (4.6.4, 4.6.5), track rights (5.5), the tokens a merger makes it liquidate (5.9.7.8)
ACTION_TYPES = declare(
    "pass", "par", "buy_shares", "sell_shares", "lay_tile", "place_token", "run_routes", "dividend",
    "buy_train", "discard_train", "merge", "accept",
    # which stock a certificate is: preferred or common (docs/game-1831.md)
    more_fields={"buy_shares": {"kind": (STR, False)}, "sell_shares": {"kind": (STR, False)}},
    swap_seats={"player": (STR, True), "with": (STR, True)},
    company_buy={"player": (STR, True), "corporation": (STR, True), "kind": (STR, True), "count": (INT, True)},
    track_right={"corporation": (STR, True), "hex": (STR, True), "slot": (INT, True)},
    liquidate_token={"corporation": (STR, True), "hex": (STR, True), "slot": (INT, True)})


class Rules(StockRules, OperatingRules, TrackRules, TokenRules, RightsRules, TrainRules, ForcedPurchaseRules,
            ReceivershipRules, MergerRules, GameRules):
    title = "1831"
    action_types = ACTION_TYPES
    known_variants = VARIANTS
    # 5.0.3: track and tokens, trains, track rights, the run (5.6.6: a company whose
    # trains have a route runs one, the shared step's rule), the dividend, mergers
    operating_steps = (TrackStep, TrainStep, RightsStep, RoutesStep, DividendStep, MergerStep)
    turn_class = Turn1831
    stock_turn_step = StockTurn1831
    citations = {"operating-order": "(5.0.4)", "run": "(5.6)", "must-buy": "(5.3.1, 5.3.4)", "train-cost": "(5.3.2, 5.3.4)", "stock-turn": "(4.5)",
                 "buy-sell": "(4.5.1)", "limits": "(4.6.1.1, 4.7.7)", "presidency": "(4.6.2)", "par": "(4.7.5)",
                 "no-selling": "", "brown": ""}
    market_legend = {
        "par": "the PAR column: a company starts on the square whose preferred price is its par value (4.7.5)",
        "closed": "STOCK TRADES CLOSED OUT: the company ceases to exist (4.3.2)",
        "split": "STOCK SPLIT GO TO TARGET: the marker moves to the target, certificates get a 2x marker (4.3.4)",
        "target": "SPLIT TARGET (4.3.4)"}

    def __init__(self, game, players, seed, variants, config):
        self.game = game
        # the rulebook's numbers (data/rules.json: bank, cash, companies in play, limits,
        # terrain costs, the marker's moves) with the phases from the one table
        # (data/phases.json), in the engine's words; "rules" is the game's GameRules
        self.phases = Phases(game_phases(), list(train_table()))
        self.numbers = dict(load_data(PACKAGE, "rules.json"), phases=self.phases.rows)
        n = len(players)
        self.check_setup(n, self.numbers["players"], "3.1", variants)
        self.variants = list(variants)
        self.config = Config(config)
        self.trains = self.config.train_cards()
        game.header["config"] = self.config.logged   # the map and tiles files read in
        self.market = Market1831(self.config.market)
        self.map = GameMap(self.config.map, self.config.tiles)
        in_play, self.limit = self._companies_in_play(n)
        table = self.config.companies[:in_play]
        if len(table) < in_play:
            raise InputError(f"{n} players use {in_play} companies (3.2.1.1); the config lists "
                             f"{len(self.config.companies)}", "config.companies")
        corps = []
        for row in table:
            c = Corporation1831(id=row["id"], name=row["name"], home=row["home"], home_stop=0, token_costs=[],
                                total_shares=20, shares={"ipo": 20}, president_percent=row["president"],
                                home_type=row["home_type"],
                                base_supply={"station": row["stations"], "yard": row["yards"]})
            self.reset_company(c)
            corps.append(c)
        bank = self.numbers["bank"]["extended" if "extended" in self.variants else "standard"][str(n)]
        self.start_state(players, self.numbers["starting_cash"], bank, corps, table, [], self.config.train_counts(n))
        self.rng = random.Random(seed if seed is not None else 0)
        self.or_counter = 0
        self.sets_done = 0
        self.last_set_size = 1
        self._setup_deck(players)

    def _companies_in_play(self, n):
        for most, count, limit in self.numbers["companies_in_play"]:
            if n <= most:
                return count, limit
        raise InputError(f"1831 is for 3 to 10 players, not {n}", "players")

    def reset_company(self, c):
        """A company's facts before it starts (and again after it is closed out, 4.3.2).
        4.3.2, 4.3.3, 5.4.14: stock returned to the initial offering "will be available
        for sale during the next Stock Round": not in the stock round it is returned in."""
        c.reset(for_sale_from=self.next_stock_round())

    def next_stock_round(self) -> int:
        """The number of the next stock round that begins (the current one during an
        operating round's set: 0, any coming stock round)."""
        r = self.game.round
        return self.stock_round_number + 1 if r is not None and r.kind == "stock" else 0

    def for_sale(self, c, number: int) -> bool:
        """4.3.2: a company closed out (or given back by a merger, 4.3.3, 5.4.14) during
        stock round ``number`` may be started again from the next one."""
        return c.for_sale_from <= number

    # --- the First Buy deck (3.2.3, 4.2) -----------------------------------------------

    def _setup_deck(self, players):
        """3.2.3: 20 cards (FIRST STOCK OPTION, GOVERNMENT INTERVENTION, 18 blank) shuffled
        by the seed; drawn clockwise from the first seat (the last seat shuffles) until
        FIRST STOCK OPTION shows; its drawer goes first. The deck without it is
        reshuffled for the stock rounds (3.2.3.3)."""
        cards = list(CARDS) + ["blank"] * (self.numbers["deck"]["cards"] - len(CARDS))
        deck = list(cards)
        self.rng.shuffle(deck)
        i, gi_drawer = 0, None
        while True:
            card = deck.pop(0)
            drawer = players[i % len(players)]
            if card == "government_intervention":
                gi_drawer = drawer
            if card == "first_stock_option":
                break
            i += 1
        deck = [c for c in cards if c != "first_stock_option"]
        self.rng.shuffle(deck)
        self.state.title_state = TitleState1831(
            config="shipped (invented: for tests and examples)" if self.config.shipped else "supplied",
            config_invented=self.config.invented, first_stock_option=drawer,
            setup_gi_drawer=gi_drawer, deck=deck, government_intervention=False, cards_drawn=[])
        self.state.event("first_stock_option", player=drawer, gi_drawer=gi_drawer)

    def draw_card(self):
        """4.2.1: one card at the start of every stock round; GOVERNMENT INTERVENTION
        applies from then on (4.2.2)."""
        t = self.state.title_state
        if not t.deck:
            return
        card = t.deck.pop(0)
        t.cards_drawn.append(card)
        if card == "government_intervention":
            t.government_intervention = True
        self.state.event("card", card=card)

    def swap_seats(self, a: str, b: str):
        """3.2.3.2: the GI drawer swaps seats with ``b``; the first player stays first
        (the FIRST STOCK OPTION card stays with him)."""
        seats = self.state.players
        i = next(k for k, p in enumerate(seats) if p.name == a)
        j = next(k for k, p in enumerate(seats) if p.name == b)
        seats[i], seats[j] = seats[j], seats[i]
        self.state.event("seats", player=a, swapped_with=b, seats=[p.name for p in seats])

    # --- ids ---------------------------------------------------------------------------

    def train_names(self):
        """1831 trains are named by size and kind (S, MX, YD), one depot row each."""
        return [r.train for r in self.state.depot]

    def check_title_ids(self, a: dict, where: str):
        if "kind" in a and a["type"] in ("buy_shares", "sell_shares", "company_buy") and a["kind"] not in (
                "preferred", "common", "bond"):
            raise InputError(f"kind is 'preferred', 'common' or 'bond', not {a['kind']!r}", where)
        if a["type"] == "swap_seats" and a["with"] not in self.state.player:
            raise InputError(f"unknown player {a['with']!r} (players: {', '.join(self.state.player)})", where)

    # --- rounds ------------------------------------------------------------------------

    def first_round(self):
        self.stock_round_number = 1
        return StockRound(self.game, self.priority, 1)

    # --- 4 the stock round ----------------------------------------------------------------

    def start_stock_round(self, r):
        """4.2.1: a card is drawn at the start of each stock round (4.2.2: Government
        Intervention)."""
        self.draw_card()

    def between_stock_turns(self, r):
        """3.2.3.2: before the first stock round's first turn, the player who drew
        GOVERNMENT INTERVENTION while the first player was drawn may swap seats."""
        from trainruns.titles.g1831.game.steps.stock import SeatStep

        t = self.state.title_state
        if r.number == 1 and not r.started and t.setup_gi_drawer and not t.seats_settled:
            t.seats_settled = True
            return [SeatStep(self.game, t.setup_gi_drawer)]
        return []

    # --- 5.0 the operating round ----------------------------------------------------------

    def start_operating_round(self):
        self.or_counter += 1

    def operating_round_fields(self, k, n):
        return {"round": k, "of": n}

    def operates(self, c):
        """5.0.4: the active companies, in order of their common price at the round's
        start (:meth:`operating_order`); one closed out earlier in the round does not."""
        return c.cell is not None and c.active

    def start_turn(self, c):
        """5.0.3: the trains lent out come back and the home token goes down before the
        company's first decision, unless its home city is still to be tiled: that tile
        is its first play, and the token follows it (5.2.5, :meth:`home_lays`); the home
        token is one of the phase's tokens (5.2.5 "counts toward its token limit",
        5.2.4.3); its track rights are for this turn only (5.5)."""
        self.restore_trains(c)
        placed = len(c.sites)
        if not self.home_lays(c):
            self.home_token(c)
        c.rights = []
        turn = super().start_turn(c)
        turn.tokens, turn.revenue = len(c.sites) - placed, None
        return turn

    def next_round(self):
        """3.4.1: a stock round, then an Operation Set of 1, 2 or 4 ORs (5.0.5); 6.1: a
        bank run out during an OR ends the game at the end of that OR
        (:attr:`bank_ends_game_after_round`), one run out during a stock round has no
        effect (a payment in the next operating round that it cannot make runs it out
        again, 6.2)."""
        if self.game.round.kind == "stock":
            self.state.bank.broken = False
        return super().next_round()

    bank_ends_game_after_round = True

    def round_before_operating(self, r):
        """4.8.2: no active company: another stock round."""
        if any(self.operates(c) for c in self.state.corporations):
            return None
        self.stock_round_number += 1
        return StockRound(self.game, self.priority, self.stock_round_number)

    def game_ends_after(self, r) -> bool:
        """With no active company, the ``idle_end`` house rule ends the game once an
        operating round has been played (docs/game-1831.md: the Operation Set this stock
        round would start has no company to operate, 4.8.2, so the game ends, scored by
        6.5 as at 6.1's end; ``end_reason`` "idle"), and a stock round that changed
        nothing and could not have ends it as ``stalled`` (docs/game-1831.md: a guard,
        not a rule end)."""
        if any(self.operates(c) for c in self.state.corporations):
            return False
        if "idle_end" in self.variants and self.or_counter > 0:
            self.game.finish("idle")
            return True
        if r.last_actor is None and self.stock_round_number > 1 and self._stuck(r):
            self.game.finish("stalled")
            return True
        return False

    def end_of_operating_set(self, n: int):
        """5.4.11 (:meth:`end_of_set`); the sets counted for 5.9.5 and the next stock
        round's block size (4.5)."""
        self.end_of_set()
        self.sets_done += 1
        self.last_set_size = n

    def _stuck(self, r) -> bool:
        """No company is active (so no operating round, no income), nobody bought or
        sold in the stock round just ended, and nobody can: every player's stock turn
        lists only a pass. The next stock round would be the same one again, so the game
        can never reach 6.1's end. (A round everybody passed while someone could still
        buy or sell is not stuck: another stock round follows.)"""
        return all(all(a["type"] == "pass" for a in self.stock_turn(r, p.name).actions())
                   for p in self.state.players)

    def restore_trains(self, c):
        """5.1: retired trains go (not in receivership); USED trains become RESTORED."""
        c.trains = [replace(t, status="restored") if t.status == "used" else t for t in c.trains
                    if t.status != "retired" or c.receivership]

    def did_not_run(self, c):
        """5.7.1 DID NOT RUN; 5.8.1 the marker moves two left."""
        c.last_dividend = "did_not_run"
        self.state.event("dividend", corporation=c.id, kind="did_not_run", revenue=0, paid={})
        self.move_marker(c, "left", 2, "did_not_run")

    # --- the state as JSON -------------------------------------------------------------

    @property
    def priority(self) -> str:
        """The holder of the First Stock Option card starts the stock round (4.2)."""
        return self.state.title_state.first_stock_option

    def market_trains_json(self):
        """The pool's trains at their price (5.3.2.1)."""
        return [{"train": x.name, "price": self.market_price(x.name)} for x in self.state.market_trains]

    def title_state_json(self):
        s, t = self.state, self.state.title_state
        return {"config": t.config, "config_invented": t.config_invented, "first_stock_option": t.first_stock_option,
                "setup_gi_drawer": t.setup_gi_drawer, "seats": [p.name for p in s.players],
                "government_intervention": t.government_intervention,
                "cards_left": len(t.deck), "cards_drawn": list(t.cards_drawn),
                "block_size": self.block_size(), "operation_set": list(self.or_set or [])}

    def shares_json(self, c):
        """A company merged away keeps its share count (its certificates were exchanged, 5.9)."""
        return dict(super().shares_json(c), total=c.total_shares)

    def corporation_fields(self, c):
        """Common and preferred prices (4.3), the Par Marker, receivership and debt (5.4),
        trains with their status, typed token sites, certificates and bonds, and who may
        be president (the preferred stock, 4.7.9)."""
        pref = {}
        for x in c.certs:
            if certs.is_preferred(x) and x.holder.startswith("player:"):
                name = x.holder.partition(":")[2]
                pref[name] = pref.get(name, 0) + x.size
        supply = c.supply
        return {"par_marker": c.par_marker,
                "price": self.market.common(c.cell) if c.cell else None,
                "preferred_price": self.market.preferred(c.cell) if c.cell else None,
                "market_cell": list(c.cell) if c.cell else None,
                "floated": bool(c.active), "active": bool(c.active),
                "receivership": c.receivership, "debt": c.debt,
                "owed_commons": c.owed_commons,   # 5.3.4: a forced sale the pool stopped
                "last_dividend": c.last_dividend,
                "train_status": [t.status for t in c.trains],
                "tokens": [{"hex": x.hex, "stop": 0, "slot": x.slot, "type": x.type} for x in c.sites],
                # 5.9.7.8: off the map until the president has liquidated enough of them
                "tokens_to_liquidate": [{"hex": x.hex, "slot": x.slot, "type": x.type}
                                        for x in c.liquidating],
                "tokens_left": supply["station"] + supply["yard"] - len(c.sites),
                "token_supply": supply["station"] + supply["yard"],
                "certificates": [{"kind": x.kind, "percent": x.size * certs.UNIT, "holder": x.holder,
                                  "splits": x.splits} for x in c.certs if x.holder not in certs.OUT_OF_PLAY],
                "system": self.is_system(c), "absorbed": list(c.absorbed),
                "bonds": [{"holder": b.holder, "splits": b.splits} for b in c.bonds],
                "bond_price": self.market.preferred(c.bond_cell) if c.bond_cell is not None else None,
                "president_by": {"preferred": pref, "frozen": bool(c.receivership)}}

    # --- 6.5 the score -----------------------------------------------------------------

    def value(self, name: str) -> int:
        """6.5: cash + stock at the marker's price (P for preferred, C for common) x shares
        x 2^markers (decision); stock of a company in receivership at half, rounded down
        (decision: 6.5 over 6.4)."""
        key = player_key(name)
        total = self.state.player[name].cash
        for c in self.state.corporations:
            if c.cell is None:
                continue
            v = sum(self.sale_value(c, x) for x in c.certs if x.holder == key)
            total += v // 2 if c.receivership else v
            total += sum(self.sale_value(c, b) for b in certs.held(c, key, "bond"))   # 6.5: bonds at the P
        return total

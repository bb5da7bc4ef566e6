"""1833NE (Standard game) as a game: data + hooks (1833NE rules summary;
where it is silent, the 18xx.games engine's [E] defaults, each listed in
docs/gaps.md "## 1833NE game").

The numbers are in ``data/game.json`` (players, cash, bank, certificate limits, the
linear market, privates) and the route core's data files (companies, trains, phases);
the ferries and the connection bonuses come from the game's ``config``, in the shape the
positions take (docs/rules-1833NE.md); without one, ``data/game_config.json`` is used,
which is invented and says so (``title_state.config_invented``). The rounds are in
:mod:`.steps`; the rules the steps ask about are the mixins below:
:mod:`.stock` (incremental capitalisation, the stock round),
:mod:`.operating` (track, stations, ferries, runs, privates),
:mod:`.trains` (train cards, phases, the emergency purchase, bankruptcy) and
:mod:`.money` (income and dividends).
"""

from __future__ import annotations

import warnings

from trainruns.errors import InputError, InputWarning
from trainruns.game.action import BOOL, INT, STR, declare
from trainruns.game.config_file import load_config
from trainruns.game.train import Trains, make_depot
from trainruns.game.game_rules import GameRules
from trainruns.game.market import Market
from trainruns.game.phase import Phases
from trainruns.game.round import StockRound
from trainruns.game.state import Corporation, Private
from trainruns.game.steps.buy_train import BuyTrainStep
from trainruns.game.steps.dividend import DividendStep
from trainruns.game.steps.routes import RoutesStep
from trainruns.game.steps.token import TokenStep
from trainruns.titles.g1833ne.game.money import MoneyRules
from trainruns.titles.g1833ne.game.operating import OperatingRules
from trainruns.titles.g1833ne.game.state import TitleState1833NE, Turn1833NE
from trainruns.titles.g1833ne.game.steps.stock import StockTurn1833NE
from trainruns.titles.g1833ne.game.steps.track import TrackStep1833NE
from trainruns.titles.g1833ne.game.stock import StockRules
from trainruns.titles.g1833ne.game.trains import TrainRules
from trainruns.titles.tiled import load_data

PACKAGE = "trainruns.titles.g1833ne"
TAKEOVER = "takeover"

# what 1833NE accepts (docs/game-1833NE.md): the shared types, and its own: a company
# issuing or redeeming its shares ("Issuing and redeeming shares"; ``emergency``: listed
# with the issue a forced train purchase makes) and buying a ferry
ACTION_TYPES = declare(
    "pass", "bid", "buy_private", "par", "buy_shares", "sell_shares", "lay_tile", "place_token", "run_routes",
    "dividend", "buy_train", "discard_train", "accept",
    issue_shares={"corporation": (STR, True), "count": (INT, True), "emergency": (BOOL, False)},
    redeem_shares={"corporation": (STR, True), "count": (INT, True)},
    buy_ferry={"corporation": (STR, True), "ferry": (STR, True)})


def read_config(config, where="config"):
    """The game's config (ferries and connection bonuses; docs/game-1833NE.md), of the
    shape of ``position/schema/game-1833NE-config.json``; None takes the shipped,
    invented one."""
    config, _, shipped = load_config(config, "1833NE", PACKAGE, "game_config.json", "game-1833NE-config.json")
    if shipped:
        return config, True
    ids = [f.get("id", f["hex"]) for f in config.get("ferries", [])]
    if len(set(ids)) < len(ids):
        raise InputError(f"ferry ids (each ferry's id, else its hex) must be distinct: {ids}", f"{where}.ferries")
    if config.get("takeover") is not None:
        raise InputError("the Takeover game's corporations and procedure are not built yet "
                         "(docs/game-1833NE.md)", where)
    out = dict(config)
    out["ferries"] = [dict(f, id=f.get("id", f["hex"])) for f in config.get("ferries", [])]
    _check_with_the_route_core(out, where)
    return out, bool(config.get("invented", False))


def _check_with_the_route_core(config, where):
    """The config's bonuses and ferries are read by the route core as a position's
    fields: a position carrying all of them must load now, not fail mid-game."""
    from trainruns import load_position

    for phase in ("I", "V"):
        pos = {"title": "1833NE", "phase": phase, "corporation": "CV", "trains": [], "tiles": [], "tokens": [],
               "bonuses": config.get("bonuses", [])}
        if phase == "I":
            pos["ferries"] = [{"hex": f["hex"], "value": f["value"]} for f in config["ferries"]]
        try:
            with warnings.catch_warnings():
                # the probe has no tokens on purpose; only a refusal matters here
                warnings.simplefilter("ignore", InputWarning)
                load_position(pos)
        except InputError as e:
            raise InputError(f"the route core refuses it: {e}", where) from None


class Rules(StockRules, OperatingRules, TrainRules, MoneyRules, GameRules):
    title = "1833NE"
    action_types = ACTION_TYPES
    # the summary's operating turn: lay track, place a station, run, pay or withhold, buy trains
    operating_steps = (TrackStep1833NE, TokenStep, RoutesStep, DividendStep, BuyTrainStep)
    turn_class = Turn1833NE
    stock_turn_step = StockTurn1833NE
    # the summary's headings (the 1833NE rules summary)
    citations = {"operating-order": '("Number of phases")', "run": '("Train list and prices")',
                 "must-buy": '("Emergency sell")', "limits": '("Floating percentage and per-player share limits")',
                 "presidency": '("Floating percentage and per-player share limits")',
                 "stock-turn": "", "buy-sell": '("Comparison with 1830")', "par": '("Capitalization type")',
                 "no-selling": "", "trains": '("Train list and prices")', "train-cost": "",
                 "train-limit": '("Number of phases": phased-out trains don\'t count)',
                 "bank-trains": '("Train list and prices")', "private-sale": "", "brown": ""}
    market_legend = {
        "par": 'an initial stock price a corporation may be launched at ("Comparison with 1830")',
        "closed": 'a corporation whose price falls to $0 closes ("Game-specific mechanics")'}

    def __init__(self, game, players, seed, variants, config):
        self.game = game
        data = load_data(PACKAGE, "game.json")
        self.data = data
        n = len(players)
        self.check_setup(n, data["players"], "Starting cash by player count")
        for v in variants:
            if v == TAKEOVER:
                raise InputError("--variant takeover: the Takeover game's five corporations and its procedure are "
                                 "in no source; only the Standard game is built until a config supplies them",
                                 "variants")
            raise InputError(f"unknown 1833NE variant {v!r} (known: {TAKEOVER}, refused until a config "
                             "supplies it)", "variants")
        self.variants = []
        self.config, invented = read_config(config)
        companies = load_data(PACKAGE, "companies.json")
        cards = load_data(PACKAGE, "trains.json")["trains"]
        self.phases = Phases(load_data(PACKAGE, "phases.json")["phases"], cards)
        self.trains = Trains(cards)   # a card's sides, each a train
        self.market = Market(data["market"])
        self.shares = data["shares"]
        cash = data["starting_cash"][str(n)]
        corps = []
        for c in companies["corporations"]:
            total = self.shares["total"]
            corps.append(Corporation(id=c["id"], name=c["name"], home=c["home"], home_stop=c["home_city"],
                                     token_costs=list(data["token_costs"]), total_shares=total,
                                     shares={"treasury": total}))
        names = {p["id"]: p["name"] for p in companies["privates"]}
        self.abilities = {p["id"]: p.get("description", "") for p in companies["privates"]}
        privates = [Private(id=p["id"], name=names[p["id"]], cost=p["cost"], revenue=p["revenue"], price=p["cost"])
                    for p in data["privates"]]
        self.private_data = {p["id"]: p for p in data["privates"]}
        # "The bank starts with $10,000" and pays the starting cash ([E]: 4p leaves $8,200)
        depot = make_depot(self.trains, unlimited_on=data["unlimited_cards_on"])   # the phase V card: "effectively unlimited"
        self.start_state(players, cash, data["bank"], corps, companies["corporations"], privates, depot)
        self.state.title_state = TitleState1833NE(
            config_invented=invented, ferries={f["id"]: None for f in self.config.get("ferries", [])})
        self.priority = players[0]

    # --- ids --------------------------------------------------------------------------

    def check_title_ids(self, a: dict, where: str):
        if "ferry" in a and a["ferry"] not in self.state.title_state.ferries:
            raise InputError(f"unknown ferry {a['ferry']!r} (this game's config: "
                             f"{', '.join(self.state.title_state.ferries) or 'none'})", where)

    # --- rounds -----------------------------------------------------------------------

    def active_players(self):
        return [p.name for p in self.state.players if not p.bankrupt]

    def first_round(self):
        from trainruns.titles.g1833ne.game.steps.auction import PrivateAuction

        return PrivateAuction(self.game, self.priority)

    # --- the stock round ------------------------------------------------------------------

    def takes_stock_turns(self, player):
        """A bankrupt player is out of the game ("End game triggers")."""
        return not self.state.player[player].bankrupt

    # --- the operating round ("Number of phases": two per stock round) --------------------

    def start_operating_round(self):
        """The privates pay; the free tile of a private is for one operating round."""
        self.state.title_state.free_tile = None
        super().start_operating_round()

    def operating_order(self):
        """The launched companies in stock price order fixed at the start; the very
        first operating round in reverse order ("Number of phases"; read as the first
        in which a corporation operates, docs/gaps.md)."""
        t = self.state.title_state
        order = super().operating_order()
        if not t.first_or_done and order:
            order = order[::-1]
            t.first_or_done = True
        return order

    def round_before_operating(self, r):
        """The private auction is followed by the first stock round; a stock round by
        the two operating rounds of every phase ("Number of phases")."""
        if r.kind == "private_auction":
            self.stock_round_number = 1
            return StockRound(self.game, self.priority, 1)
        return None

    def game_ends_after(self, r) -> bool:
        """docs/gaps.md: after a stock round, every corporation closed ([E] all_closed),
        or nobody acted in it while no corporation operates: nothing can change any
        more ("End game triggers": a broken bank ends the game once the round sequence
        it broke in, a stock round and its two operating rounds, is complete)."""
        s = self.state
        if r.kind != "stock":
            return False
        if all(c.closed for c in s.corporations):
            self.game.finish("all_closed")
            return True
        if r.last_actor is None and not any(self.operates(c) for c in s.corporations) and not any(
                x.open and x.owner and x.id not in s.title_state.flipped for x in s.privates):
            self.game.finish("stalled")
            return True
        return False

    def check_bankruptcies(self):
        """"End game triggers": all players but one bankrupt: immediate end."""
        if len(self.active_players()) <= 1 and not self.game.finished:
            self.game.finish("bankrupt")

    # --- the state as JSON -------------------------------------------------------------

    def bank_json(self):
        """The bank may run out and take notes ("End game triggers": the game goes on)."""
        s = self.state
        return {"cash": s.bank.cash, "broken": s.bank.broken, "notes_added": max(0, -s.bank.cash)}

    def private_json(self, x):
        """A flipped private (phase III) pays nothing."""
        flipped = x.id in self.state.title_state.flipped
        return dict(super().private_json(x), name=x.name, revenue=0 if flipped else x.revenue, flipped=flipped)

    def corporation_fields(self, c):
        """The phased-out trains ("Number of phases") and the ferries it owns."""
        return {"phased_out": [x.name for x in c.trains if self.phased_out(x)],
                "ferries": [f for f, o in self.state.title_state.ferries.items() if o == c.id]}

    def title_state_json(self):
        t = self.state.title_state
        return {"variant": "standard", "config_invented": t.config_invented,
                "ferries": [{"id": f["id"], "hex": f["hex"], "value": f["value"], "owner": t.ferries[f["id"]]}
                            for f in self.config.get("ferries", [])],
                "new_ferry": t.ferry_order[-1] if t.ferry_order else None,
                "luxury_ferry": t.luxury_ferry, "flipped_privates": list(t.flipped),
                "lowell_merchants_bought": t.lowell_merchants_bought,
                "first_operating_round_done": t.first_or_done}

    # --- "End game triggers": the score ------------------------------------------------

    def scores_privates(self) -> bool:
        """Privates held by players count at list price only before phase III (they are
        removed then); treasuries don't count."""
        return self.phases.index(self.state.phase) < self.phases.index(self.data["private_flip_phase"])

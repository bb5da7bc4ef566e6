"""1832: The South as a game (1832 rulebook): data + hooks.

The title's numbers are in ``data/game.json`` (Table 2, the market grid of docs/gaps.md,
trains and phases in the 18xx.games shape, par values, token costs) and
``data/companies.json``; the rounds are in :mod:`.steps`; the rules the generic
steps ask about are the methods below, grouped by the rulebook's sections. Mergers
([11]) are in :mod:`.merger` and :mod:`.steps.merger`.
"""

from __future__ import annotations

from functools import lru_cache

from trainruns.errors import InputError
from trainruns.game.action import INT, STR, declare
from trainruns.game.train import Trains, make_depot
from trainruns.game.game_rules import GameRules
from trainruns.game.market import Market
from trainruns.game.phase import Phases
from trainruns.game.state import Private, player_key
from trainruns.game.steps.dividend import DividendStep
from trainruns.game.steps.routes import RoutesStep
from trainruns.titles.g1832.game.forced import ForcedSaleRules, ProtectStep1832, close_unprotected
from trainruns.titles.g1832.game.merger import MergerRules
from trainruns.titles.g1832.game.money import MoneyRules
from trainruns.titles.g1832.game.mortgage import MortgageRules
from trainruns.titles.g1832.game.operating import OperatingRules
from trainruns.titles.g1832.game.privates import PrivateRules
from trainruns.titles.g1832.game.redeem import RedeemRules
from trainruns.titles.g1832.game.state import Corporation1832, TitleState1832
from trainruns.titles.g1832.game.steps.operating import BuyTrainStep1832, TokenStep1832, TrackStep1832
from trainruns.titles.g1832.game.steps.stock_turn import StockTurn1832
from trainruns.titles.g1832.game.stock import StockRules
from trainruns.titles.g1832.game.variants import VARIANTS, VariantRules, game_data
from trainruns.titles.g1832.game.vice import VicePresidentRules
from trainruns.titles.tiled import load_data

PACKAGE = "trainruns.titles.g1832"

# what 1832 accepts (docs/game-1832.md): the shared types, and its own: redeeming a
# company's market shares ([5.10]) and reissuing a closed company ([5.11]), the P4
# exchange ([16.2]), privates traded between players ([16.1]), the WVCF coal token
# ([6.5.2]), consent to a merger ([11]), and the Southern Bank's mortgages ([17.3])
ACTION_TYPES = declare(
    "pass", "bid", "buy_private", "par", "buy_shares", "sell_shares", "protect", "lay_tile", "place_token",
    "run_routes", "dividend", "buy_train", "discard_train", "merge",
    # [11] the proposing player, the kind (system, takeover or yield) and the System's
    # letter (a diesel's ``trade_in``, [17.2], is the shared buy_train's)
    more_fields={"merge": {"player": (STR, True), "kind": (STR, True), "system": (STR, False)}},
    redeem={"player": (STR, True), "corporation": (STR, True), "from": (STR, False)},
    reissue={"player": (STR, True), "corporation": (STR, True)},
    exchange={"player": (STR, True), "private": (STR, True), "corporation": (STR, True)},
    trade_private={"player": (STR, True), "private": (STR, True), "from": (STR, True), "price": (INT, True)},
    buy_token={"corporation": (STR, True), "kind": (STR, True)},
    consent={"player": (STR, True), "corporation": (STR, True), "with": (STR, False), "kind": (STR, False)},
    mortgage={"corporation": (STR, True), "player": (STR, False), "asset": (STR, True), "amount": (INT, True)},
    repay_mortgage={"corporation": (STR, True), "player": (STR, False), "amount": (INT, True)})
# [11.6] a System's vice-president's certificate in the open market is bought whole, named
# by its component company
ACTION_TYPES["buy_shares"] = dict(ACTION_TYPES["buy_shares"], vice_president=(STR, False))


@lru_cache(maxsize=None)
def _data(name: str) -> dict:
    """A data file, read once (read only: nothing mutates it)."""
    return load_data(PACKAGE, name)


class Rules(StockRules, VicePresidentRules, OperatingRules, PrivateRules, RedeemRules, MoneyRules, MergerRules, ForcedSaleRules,
            VariantRules, MortgageRules, GameRules):
    title = "1832"
    action_types = ACTION_TYPES
    known_variants = VARIANTS
    # [4.1.3] lay track, place a token, run, pay or withhold, buy trains
    operating_steps = (TrackStep1832, TokenStep1832, RoutesStep, DividendStep, BuyTrainStep1832)
    stock_turn_step = StockTurn1832
    citations = {"operating-order": "[4.1.3]", "run": "[8]", "must-buy": "[10]", "stock-turn": "[5.2]",
                 "buy-sell": "[5.3]", "limits": "[5.4]", "presidency": "[5.5]", "par": "[5.6]",
                 "no-selling": "[5.7]", "trains": "[10]", "train-cost": "[10] Train Cost",
                 "train-limit": "[10.2]", "bank-trains": "[10] Bank Trains", "private-sale": "[5.7]", "brown": "[5.1.1]", "protection": "[5.9]"}
    market_legend = {
        "par": "a par price a company may start at [5.6]",
        "yellow": "shares do not count towards the certificate limit [5.1.1]",
        "green": "shares do not count towards the certificate limit; more than 60% may be held [5.1.1]",
        "brown": "as green, and any number of Open Market shares of one company in a turn [5.1.1]",
        "closed": "the closed section: a company whose token enters it closes [5.1.1]"}

    def __init__(self, game, players, seed, variants, config):
        self.game = game
        data = _data("game.json")
        companies = _data("companies.json")
        self.data = data
        n = len(players)
        self.check_setup(n, data["players"], "Table 2", variants)
        self.variants = list(variants)
        self.seed = seed   # [17.5] the Civil War's coin
        # the trains and phases are the route core's data (data/trains.json, phases.json,
        # one schema for every title); a variant may change them ([17.2])
        data = dict(data, trains=_data("trains.json")["trains"], phases=_data("phases.json")["phases"])
        self.data = data = game_data(data, self.variants)
        self.southern_bank = "southern_bank" in variants
        capital = data["starting_capital"]["southern_bank" if self.southern_bank else "standard"]
        # [3] Player Starting Capital: $2100 / N ($2400 / N with P6; Table 2 rounds 7p to $343)
        cash = (2 * capital + n) // (2 * n)
        self.market = Market(data["market"])
        self.shares = data["shares"]
        self.phases = Phases(data["phases"], data["trains"])
        self.trains = Trains(data["trains"])
        self.token_costs = data["token_costs"]
        corps = []
        for c in companies["corporations"]:
            corps.append(Corporation1832(id=c["id"], name=c["name"], home=c["home"], home_stop=c["home_stop"],
                                         token_costs=list(data["token_costs"][str(c["tokens"])]),
                                         total_shares=self.shares["total"], shares={"ipo": self.shares["total"]},
                                         key_west=bool(c.get("key_west"))))
        privs = {p["id"]: p for p in companies["privates"]}
        if self.southern_bank:
            privs[data["southern_bank"]["id"]] = data["southern_bank"]
        order = sorted(privs.values(), key=lambda p: p["cost"])
        self.abilities = {p["id"]: p.get("ability", "") for p in order}
        privates = [Private(id=p["id"], name=p["name"], cost=p["cost"], revenue=p["revenue"], price=p["cost"])
                    for p in order]
        self.start_state(players, cash, data["bank"], corps, companies["corporations"], privates,
                         make_depot(self.trains))
        self.state.title_state = TitleState1832(coal_tokens_left=data["wvcf"]["tokens"])
        self.priority = players[0]
        # docs/gaps.md: stock rounds in a row with no company operating after which the
        # game is over (`stalled`); the rules have no such end, so it is off unless the
        # user sets it in the config
        if config is not None and not isinstance(config, dict):
            raise InputError("the 1832 config is a JSON object (its one field: 'stall_rounds') or null", "config")
        unknown = sorted(set(config or {}) - {"stall_rounds"})
        if unknown:
            raise InputError(f"unknown 1832 config field {unknown[0]!r} (its one field: 'stall_rounds')", "config")
        stall = (config or {}).get("stall_rounds")
        if stall is not None and (not isinstance(stall, int) or isinstance(stall, bool) or stall < 1):
            raise InputError("config field 'stall_rounds' must be a positive whole number", "config")
        self.stall_rounds = stall
        self.idle_rounds = 0   # stock rounds in a row with no company operating

    # --- rounds -----------------------------------------------------------------------

    def first_round(self):
        from trainruns.titles.g1832.game.steps.initial import InitialStockRound

        self.stock_round_number = 1
        return InitialStockRound(self.game, self.priority)

    def round_before_operating(self, r):
        """[4.1] after a stock round, in phases 4-5, a merger phase before the operating
        rounds (:meth:`merger_phase`)."""
        return None if r.kind == "merger" else self.merger_phase()

    def game_ends_after(self, r) -> bool:
        """The rulebook's ends are the bank and bankruptcy ([13]; [13.2]: a broken bank
        ends the game after the set of operating rounds that follows); the title's own
        ends (docs/gaps.md, 1832) come only where neither can ever come and nothing can
        change: no private pays income (privates paying would break the bank in the
        end, [13.2]) and either every company has closed (`all_closed`, [5.1.1]: never
        restarted), or no company operates and a stock round passed without any action
        or the players cannot raise what would float a company (`stalled`). The
        $400 finish variant ends here too ([17.1]: no company operates after it)."""
        s = self.state
        if self.reached_400():
            return True
        income = any(x.open and x.owner and self.pays_income(x) for x in s.privates)
        if all(c.closed for c in s.corporations) and not income:
            self.game.finish("all_closed")
            return True
        operating = any(self.operates(c) for c in s.corporations)
        if operating or r.kind != "stock":
            self.idle_rounds = 0
            return False
        self.idle_rounds += 1
        if not income and (r.last_actor is None or self._wealth() < self._cheapest_float()) \
                or self.stall_rounds is not None and self.idle_rounds >= self.stall_rounds:
            self.game.finish("stalled")
            return True
        return False

    def _wealth(self) -> int:
        """What all players could spend: cash plus shares sold at today's prices."""
        s = self.state
        return sum(p.cash + p.committed for p in s.players) + sum(
            c.held(player_key(p.name)) * self.market.price(c.cell)
            for c in s.corporations if c.cell and not c.closed for p in s.players)

    def _cheapest_float(self) -> int:
        """The least money that could still float a company from the initial offering
        ([5.6]); with no company operating and no income, prices only fall and money only
        leaves the players, so a game whose players cannot raise it can never move on."""
        s = self.state
        costs = []
        for c in s.corporations:
            if c.closed or c.floated:
                continue
            missing = self.shares["float"] - c.sold_from_offering
            costs.append(missing * (c.par if c.par else min(self.data["par"])))
        return min(costs) if costs else 1 << 60

    # --- [5] the stock round -------------------------------------------------------------

    def between_stock_turns(self, r):
        """[5.9] after the seller's turn, each president whose shares he sold may protect
        them, in the order sold; then [5.1.1] a sale left unprotected in the black area
        closes the company."""
        turn = r.last_turn
        if turn is None or not turn.sales:
            return []
        if not turn.protection_offered:
            turn.protection_offered = True
            return [ProtectStep1832(self.game, sale, lambda president: self._protected(r, president))
                    for sale in turn.sales]
        close_unprotected(self, turn.sales)
        return []

    @staticmethod
    def _protected(r, president):
        """[5.9] protection is an action for the priority card; the round resumes left
        of the last protecting president."""
        r.acted(president)
        r.resume = president

    # --- [4.1.3] the operating round -----------------------------------------------------

    def operates(self, c):
        """[4.1.3] the floated companies, in share price order (:meth:`still_to_operate`):
        floated once their treasury is paid ([5.6])."""
        return c.floated and c.capitalised and not c.closed

    def still_to_operate(self, order):
        """[4.1.3] "all floated corporations operate in descending share price order";
        Glossary, Share Price Order: "Share price order is determined dynamically. Player
        and company actions can change the position and thus the value of a companies
        stock market token so the order is never fixed": the next company is the one
        highest in share price order as the turn before it ends (a president's forced
        sales may have moved those still to operate)."""
        return self.price_order([c for c in order if self.operates(c)])

    def operating_round_ends_now(self):
        """[17.1] the company that reached $400 has finished: the game ends."""
        return self.reached_400()

    def interrupting_steps(self):
        """[11] the last-chance merger phase, right after the first 6-train's turn."""
        return self.last_chance_turns()

    def start_turn(self, c):
        self.home_token(c)   # [7.1]
        return super().start_turn(c)

    # --- the state as JSON -------------------------------------------------------------

    def title_state_json(self):
        t, m = self.state.title_state, self.mortgage()
        return {"miami_run": t.miami_run, "coal_tokens_left": t.coal_tokens_left,
                "coal_holders": list(t.coal_holders),
                "cotton": t.cotton.to_json() if t.cotton else None,
                "port": t.port.to_json() if t.port else None,
                "key_west": t.key_west, "london": t.london, "mergers": self.mergers_state_json(),
                "mortgage": m.to_json() if m else None,
                **({"civil_war": t.civil_war.to_json() if t.civil_war else None}
                   if "civil_war" in self.variants else {})}

    def corporation_fields(self, c):
        """The par its shares sell at ([5.11]: a reissue's new par), the market cell; a
        company counts as floated once its treasury is paid ([5.6]); a System's and a
        merged company's facts ([11])."""
        return {"par": c.reissue_par or c.par, "price": self.market.price(c.cell) if c.cell else None,
                "market_cell": list(c.cell) if c.cell else None, "floated": c.floated and c.capitalised,
                **self.merger_json(c)}

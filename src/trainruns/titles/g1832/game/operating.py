"""1832 operating rules as hooks of the generic operating steps: the position handed to
the route core, track ([6]), tokens ([7]), runs ([8]), trains and phases ([10], [4.2])."""

from __future__ import annotations

from trainruns.game import emergency, route_adapter
from trainruns.game.errors import Refusal
from trainruns.game.steps.buy_train import trains_from_companies
from trainruns.game.tile_lays import may_lay
from trainruns.game.tokens import carry_tokens
from trainruns.titles.g1832 import TITLE


class OperatingRules:
    # --- the position (docs/position-format.md; docs/rules-1832.md) -----------------------------------

    def position(self, cid=None, trains=None) -> dict:
        pos = super().position(cid, trains)
        cid, t = pos["corporation"], self.state.title_state
        pos.update(coal_token=cid in t.coal_holders, miami_run=t.miami_run)
        if t.cotton:
            pos["cotton"] = {"hex": t.cotton.hex, "stop": t.cotton.stop}
            pos["cotton_owner"] = t.cotton.corporation
        if t.port:
            pos["port"] = {"hex": t.port.hex}
            pos["port_owner"] = t.port.corporation
        if "diesels" in self.variants:   # [17.2] permanent 5-trains, no phases 8 and 10
            pos["diesels"] = True
        removed = self.war_removed_tiles()
        if removed:   # [17.5] the supply without them, for every listing of the position's lays
            pos["removed_tiles"] = sorted(removed)
        pos["key_west"] = bool(t.key_west) and cid == t.key_west
        if pos["key_west"] and cid != self.data["key_west"]["corporation"]:
            pos["key_west_owner"] = cid   # the key_west_inherited variant ([11])
        return pos

    # --- [6] track ------------------------------------------------------------------------

    def terrain_cost(self, c, hex_id) -> int:
        """[6] Terrain Costs, paid for the first tile of a hex only; [6] Starting City
        Costs: a company's home hex is free for it."""
        if hex_id == c.home:
            return 0
        return sum(t.get("cost", 0) for t in TITLE.facts.tiled.hexes.get(hex_id, {}).get("terrain", []))

    def blocked_hexes(self) -> set:
        """[16.1] a private held by a player blocks its hexes (P5: a standing decision, docs/gaps.md)."""
        w = self.data["wvcf"]
        p5 = self.state.private.get(w["private"])
        if p5 is not None and p5.open and (p5.owner is None or p5.owner.startswith("player:")):
            return set(w["blocks"])
        return set()

    def tile_allowance(self, c):
        """The title's ``tile_lays``: [6] a company's two yellow tiles or one upgrade;
        [11.6.8] a System's three yellow tiles, or one yellow tile and one upgrade."""
        return self.data["tile_lays"]["system" if c.system else "company"]

    def lay_cost(self, c, m) -> int:
        """[6] Terrain Costs, paid for the first tile of a hex only (:meth:`terrain_cost`)."""
        return 0 if m["upgrade"] else self.terrain_cost(c, m["hex"])

    def lay_tile(self, c, m):
        before = self.place_tile(c, m)
        self._carry_tokens(m["hex"], TITLE.facts.tiled.city_map(m["hex"], before, m["tile"], m["rotation"]))

    def _carry_tokens(self, hex_id, mapping):
        """Tokens, home slots and the Cotton token stay in their city when its tile is
        upgraded; [7.2] a company left with two tokens in one city takes one back."""
        s = self.state
        for cid, places in carry_tokens(s, hex_id, mapping).items():
            self.settle_returned_tokens(s.corp[cid], places)
        cotton = s.title_state.cotton
        if cotton and cotton.hex == hex_id:
            cotton.stop = mapping.get(cotton.stop, cotton.stop)
        # [17.3] a mortgaged token stays the asset it was in its city's new place
        # (Atlanta's three cities become one on #191)
        m = s.title_state.mortgage
        if m and m.asset.startswith(f"token:{hex_id}."):
            k = int(m.asset.rpartition(".")[2])
            m.asset = f"token:{hex_id}.{mapping.get(k, k)}"

    def why_not_lay(self, c, a, lays):
        allowance = self.tile_allowance(c)
        if c.system:
            if not may_lay(allowance, lays, False) and not may_lay(allowance, lays, True):
                return "track.limit", "a System lays three yellow tiles, or one yellow tile and one upgrade [11.6.8]"
            if any(m.get("hex") == a["hex"] for m in lays):
                return "track.same-hex", "a System's upgrade is of a different hex than its yellow tile [11.6.8]"
        elif lays and lays[0]["upgrade"]:
            return "track.limit", "an upgrade is the company's only tile lay this turn [6]"
        if len(lays) >= 2 and not c.system:
            return "track.limit", "two yellow tiles at most [6]"
        if str(a["tile"]) in self.war_removed_tiles():
            return "track.civil-war", f"tile {a['tile']} was removed from the supply by the Civil War [17.5]"
        if a["hex"] in self.blocked_hexes():
            return "track.blocked", f"{a['hex']} is blocked by a private company held by a player [16.1]"
        cost = self.terrain_cost(c, a["hex"])
        if cost > c.cash and not any(t.hex == a["hex"] for t in self.state.tiles):
            return "track.terrain-cost", f"the terrain of {a['hex']} costs ${cost}; {c.id} has ${c.cash} [6]"
        return "track.illegal", (f"tile {a['tile']} rotation {a['rotation']} on {a['hex']} is not a legal lay for "
                                 f"{c.id} now (reach, upgrade chart, phase colours, track ends [6])")

    # --- [7] tokens -----------------------------------------------------------------------

    def why_not_token(self, c, a):
        if len(c.tokens) >= len(c.token_costs):
            return "token.none-left", f"{c.id} has placed all its tokens [7]"
        cost = self.token_cost(c, a.get("hex"))
        if cost > c.cash:
            return "token.cost", f"the next {c.id} token costs ${cost}; it has ${c.cash} [7] Token Cost"
        return "token.illegal", (f"{c.id} may not place a token on {a['hex']}.{a.get('stop', 0)}: it must reach "
                                 "a city with room and none of its tokens, not a home slot kept for "
                                 "another company [7.2]")

    # --- [8] runs -------------------------------------------------------------------------

    def check_declared_run(self, c, declared, best):
        if declared < best:
            raise Refusal("run.not-best", f"the declared run earns {declared}, the best earns {best}: a "
                                          "shareholder may require the best route [8] Route Value")

    def after_run(self, c, chosen):
        """[8.5] Miami scores once some company has run to it."""
        miami = TITLE.facts.miami
        if not self.state.title_state.miami_run and any(
                st.split(".")[0] == miami for r in chosen for st in r["stops"]):
            self.state.title_state.miami_run = True
            self.state.event("miami_run", corporation=c.id)

    # --- [10] trains ------------------------------------------------------------------------

    def train_limit(self, c) -> int:
        """[10.2] by phase, per shell: a System has two ([11.6] System Trains)."""
        return super().train_limit(c) * c.shells

    def _smallest_train(self):
        names = self.phases.names
        i = names.index(self.state.phase)
        for t in self.trains.cards:
            if t.name in names and names.index(t.name) <= i and (not t.rusts_on or names.index(t.rusts_on) > i):
                return t.name
        return None

    def has_route(self, c) -> bool:
        small = self._smallest_train()
        return small is not None and route_adapter.has_route(self.position(c.id, trains=[small]))

    def must_own_train(self, step) -> bool:
        """[10] Requirement to Own a Train: a company with a legal route (found once a
        step: the step's own purchases do not change it)."""
        if step.legal_route is None:
            step.legal_route = self.has_route(step.corp)
        return step.legal_route

    def enter_buy_train(self, step):
        """[10] a forced purchase the president cannot raise even by selling all he may
        sell: he is bankrupt and the game ends ([13] Player Bankruptcy)."""
        emergency.bankrupt_if_short(self, step)

    def president_sale_most(self, c, d, name) -> int:
        """[10] Presidential Stock Sales: what the president may sell for a forced
        purchase: within the open market's limit, not changing the presidency of the
        company buying the train, whole vice-presidents' certificates ([11.6]); nothing
        of a company in the black area."""
        if self.market.zone(d.cell) == "closed":
            return 0
        n = super().president_sale_most(c, d, name)
        return self.largest_sale(d, name, n) if n > 0 else 0

    def bankrupt(self, c, name, step):
        """[13] Player Bankruptcy: the game ends; [10] when his sales closed the company
        requiring the train, his money is lost (:meth:`lose_president_funds`)."""
        emergency.sell_out(self, c, name)
        if c.closed:
            self.lose_president_funds(c, name)
        self.game.finish("bankrupt")
        step.done = True

    def train_buys(self, step):
        """[10] Train Purchase Funds: "Once the president contributes to the purchase
        price of a train, the railway must buy the cheapest train available from the
        open market or the bank and may not buy a train from another company": until
        he contributes, a company that must buy a train its treasury cannot pay may
        still buy another company's train with its treasury ([10] Train Cost, $1 at
        least), beside his help and his sales (:meth:`_short_of_every_train`)."""
        out = super().train_buys(step)
        if self._short_of_every_train(step):
            out = out + self._company_trains(step.corp)
        return out

    def _short_of_every_train(self, step) -> bool:
        """[10] Train Purchase Funds: ``step.corp`` must buy a train and its treasury pays
        none on sale from the bank or the open market."""
        sources = self.train_sources()
        return self.must_buy(step) and step.corp.cash < min((p for _f, _t, p in sources), default=0)

    def trains_at_limit(self, c):
        return self.trade_in_offers(c)   # [17.2] the count of trains stays the same

    def more_train_buys(self, c, sources, forced):
        """[11.6.7] a System's president's help, [17.2] a trade-in, [10] another company's trains."""
        return self.train_offers(c, self.system_help(c, sources)) + self.trade_in_offers(c) + self._company_trains(c)

    def president_sale_count(self, c, d, n, need):
        """[10] Presidential Stock Sales: only what the train needs, except down to 60%;
        [11.6] a vice-president's certificate is sold whole: one more share if need be."""
        name = c.president
        most = min(n, max(need, self.sell_back_minimum(d, name, n)))
        most = next((k for k in range(most, n + 1) if self.sale_ok(d, name, k)), most)
        return self.forced_sale_count(d, name, most)

    def system_help(self, c, sources):
        """[11.6.7] the president of a System with trains, but no more than one shell's
        limit, may help buy the cheapest train from the bank or the market with his own
        cash (no share sales; the treasury is emptied)."""
        if not c.system or not c.trains or len(c.trains) > self.phases.limit(self.state.phase) \
                or not sources:
            return []
        cheapest = min(p for _f, _t, p in sources)
        if c.cash >= cheapest or c.cash + self.state.player[c.president].cash < cheapest:
            return []
        return [x for x in sources if x[2] == cheapest]

    def _company_trains(self, c):
        """[10] Train Cost: a train from another company at any agreed price of at
        least $1 (never with the president's money), listed with that price range:
        between two presidents the logged action is the deal both agreed
        (docs/game-1832.md)."""
        return trains_from_companies(self.state, c)

    def train_process(self, step, a):
        """[17.2] a diesel with a trade-in; else the shared purchase, after which the forced
        sales' protections are offered ([5.9])."""
        if a["type"] == "buy_train" and a.get("trade_in") is not None:
            return self.buy_with_trade_in(step.corp, a)
        recorded = super().train_process(step, a)
        if a["type"] == "buy_train":
            self.offer_forced_protection(step)   # [10], [5.9] after the forced sales
        return recorded

    def why_not_emergency(self, c, a):
        return "train.emergency-sale", ("only the president's sales needed for a forced train purchase are allowed "
                                        "now, without changing the buying company's presidency [10] Presidential "
                                        "Stock Sales")

    def emergency_act(self, step, a, low):
        """[10] Presidential Stock Sales: a listed sale, at least down to 60%."""
        d = self.state.corp[a["corporation"]]
        if a["count"] < low:
            raise Refusal("train.sell-back", f"{a['player']} holds more than 60% of {d.id} outside the green and "
                                             f"brown areas: he sells at least {low} [10] Presidential Stock Sales")
        self.forced_sell(step, step.corp, d, a["player"], a["count"])

    def why_not_train(self, c, a):
        """[10] Train Cost: a train from another company is refused as such, at the limit too."""
        if a["from"] not in ("bank", "market"):
            return self.why_not_company_train(c, a)
        return super().why_not_train(c, a)

    def why_not_afford(self, c, a):
        return f"{c.id} cannot pay for that train (or must buy the cheapest with its president's help) [10]"

    def train_bought(self, c, source, name, price):
        """[10] a train another company sold; [16.2] P7 closes when CoG buys its first train."""
        if source not in ("bank", "market"):
            self.state.event("train_sold", train=name, seller=source, buyer=c.id, price=price)
        p7 = self.state.private.get(self.data["cog_private"])
        if c.id == self.data["cog"] and p7 is not None and p7.open:
            p7.open = False
            self.state.event("private_closed", private=p7.id, reason="CoG bought its first train")

    # --- [4.2] phases: the events of data/phases.json ------------------------------------------

    def event_remove_cotton_port(self, phase):
        """[16.2] P2, P3: the Cotton Warehouse and port tokens leave the board in phase 6."""
        t = self.state.title_state
        if t.cotton or t.port:
            self.state.event("tokens_removed", tokens=[k for k, token in (("cotton", t.cotton), ("port", t.port))
                                                       if token])
        t.cotton = t.port = None

    def event_last_chance_mergers(self, phase):
        """[11] one last merger phase, right after the turn of the company that bought the
        first 6-train."""
        self.start_last_chance()

    def event_remove_key_west(self, phase):
        """[7.5] the Key West token leaves the board with the first 8-train."""
        t = self.state.title_state
        if t.key_west:
            t.key_west = None
            self.state.event("tokens_removed", tokens=["key_west"])

    # --- actions open during the whole turn -------------------------------------------------

    def turn_actions(self, c, turn) -> list[dict]:
        """Buying a private ([12], any time in the turn) and the Southern Bank's
        mortgages ([17.3])."""
        return self.private_buys(c) + self.mortgage_offers(c)

    def turn_action(self, c, turn, a):
        if a["type"] == "buy_private" and "corporation" in a:
            return self.buy_private_for(c, a)
        if a["type"] in ("mortgage", "repay_mortgage"):
            return self.mortgage_process(c, a)
        raise Refusal("turn.action", f"{a['type']} is not allowed in this step of {c.id}'s turn [4.1.3]")

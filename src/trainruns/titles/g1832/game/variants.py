"""1832's variants ([17]; chosen before the game with ``--variant``).

- ``400_finish`` ([17.1] $400 Finish): "end the game when a company share price token
  reaches the $400 spot on the stock market. Finish operating that company and then
  determine the winner. None of the remaining companies operate. If the share price
  token reaches the $400 spot at the end of the stock round, do not operate any
  companies." (``end_reason`` ``400_finish``.)
- ``diesels`` ([17.2] 1830 Diesels): no 8- and 10-trains; the 12-trains are the
  diesels, sold from the purchase of the first 6-train on (the remaining 6-trains stay
  on sale beside them), with a trade-in: one train of the buying company goes back to
  the bank for a $300 credit; phases 8 and 10 are deleted; 4-trains are scrapped by the
  first diesel, 5-trains are permanent. Readings (docs/gaps.md): the diesel keeps the
  12-train's card (it runs 12 stops, price $1,100); phase 8's removal of the Key West
  token moves to the diesel's phase; a trade-in may be made at the train limit, the
  company's count of trains staying the same.
- ``southern_bank`` ([17.3]): P6 and the larger capital (game.py); its mortgages are
  in mortgage.py.
- ``historical_order`` ([17.4] Historical Order Start): the companies start in the
  table's order (ACL, SALR, CG, GRR, SOU, A&WP, N&W, L&N, GMO, FECR; game.json): "Shares
  in the other companies are available for sale, but a 6th share may not be purchased
  until all of its predecessors have been started. A company is eligible to start when
  all companies before it have sold 6 shares from the initial offering." Readings
  (docs/gaps.md): "started" is the last sentence's "sold 6 shares" (floated); any
  company may be begun with its president's certificate and its shares bought up to
  the 5th; a closed company no longer holds the ones after it back.
- ``civil_war`` ([17.5] The Civil War): on the purchase of the first 4-train, after the
  2-trains rust: a coin drawn from the game's seed (the ``civil_war`` event records
  it) removes the even (heads) or odd (tails) numbered yellow tiles from the supply;
  each green tile goes back to the yellow tile (or printed yellow hex) it was upgraded
  from; every company discards down to one train (the president chooses, as at a
  train limit); every company and player pays half its cash (rounded down) to the
  bank; every share price token moves three spaces left. Readings (docs/gaps.md).
- ``no_mergers`` ([17.6] No Mergers): "The game may be played without the merger
  rules": no merger phase after the stock rounds of phases 4 and 5 and none after the
  first 6-train, so no System ([11.6]) and no takeover ([11.7]).
- ``key_west_inherited`` (a reading, not one of [17]'s variants; docs/gaps.md): [7.5]
  says the Key West token adds $50 "for the Florida East Coast Railway only", [11] that
  a System or buying company "inherits the ... tokens (including private company
  tokens)" of its parts. The standard game takes [7.5]: the token counts for the FEC
  alone and for nobody once the FEC has merged. This variant takes [11]: the System or
  company that merged the FEC holds the token (placed or still to place) and gets the
  $50 (the position's ``key_west_owner``).
"""

from __future__ import annotations

import copy
import random

from trainruns.game.train import available, kinds, remove_named
from trainruns.game.errors import Refusal
from trainruns.game.state import corp_key, player_key
from trainruns.titles.g1832 import TITLE
from trainruns.titles.g1832.game.state import CivilWar

VARIANTS = {"southern_bank": "[17.3] the Southern Bank (P6) and its mortgages",
            "400_finish": "[17.1] the game ends when a share price reaches $400",
            "diesels": "[17.2] 1830 Diesels: no 8- or 10-trains, 12-trains as diesels with a trade-in",
            "historical_order": "[17.4] Historical Order Start: a company's 6th share waits until every company "
                                "before it in the table's order has sold 6 shares",
            "civil_war": "[17.5] The Civil War on the first 4-train: yellow tiles removed by a coin, green tiles "
                         "downgraded, one train each, half of all cash to the bank, share prices three spaces left",
            "no_mergers": "[17.6] No Mergers: the game without the merger rules (no Systems, no takeovers)",
            "key_west_inherited": "[11] the System or company that merges the FEC inherits its Key West token "
                                  "([7.5] read as the FEC's token, not the FEC alone)"}


def game_data(data: dict, variants) -> dict:
    """The title's data as the variants change it ([17.2], [17.5], [17.6]); the shipped
    data otherwise."""
    if not {"diesels", "civil_war", "no_mergers"} & set(variants):
        return data
    data = copy.deepcopy(data)
    if "no_mergers" in variants:   # [17.6] no merger phase, nor the last-chance one
        n = data["no_mergers"]
        for p in data["phases"]:
            p["status"] = [x for x in p.get("status", []) if x not in n["statuses"]]
            p["events"] = [e for e in p.get("events", []) if e["type"] not in n["events"]]
    if "civil_war" in variants:    # [17.5] "On the purchase of the first 4-train"
        war = data["civil_war"]
        for p in data["phases"]:
            if p["name"] == war["train"]:
                p["events"] = p.get("events", []) + war["events"]
                p["discard_limit"] = war["discard_limit"]   # "as if the train limit were one"
    if "diesels" not in variants:
        return data
    d = data["diesels"]
    data["trains"] = [t for t in data["trains"] if t["name"] not in d["removed"]]
    for t in data["trains"]:
        if t["name"] in d["rusts_on"]:
            t["rusts_on"] = d["rusts_on"][t["name"]]
    data["phases"] = [p for p in data["phases"] if p["name"] not in d["removed"]]
    for p in data["phases"]:   # what the removed 8-train's phase started, the diesel starts
        if p["name"] == d["train"]:
            p["events"] = p.get("events", []) + [{"type": t} for t in d["moved_events"]]
    return data


class VariantRules:
    # --- the Key West token after the FEC merges ([7.5], [11]; docs/gaps.md) -----------------

    def key_west_holder(self) -> str:
        """The company that holds the FEC's Key West token ([7.5]): the FEC; with the
        ``key_west_inherited`` variant, the System or company that merged it ([11])."""
        cid = self.data["key_west"]["corporation"]
        if "key_west_inherited" not in self.variants:
            return cid
        c = self.state.corp[cid]
        while c.merged_into or c.taken_over_by:
            c = self.state.corp[c.merged_into or c.taken_over_by]
        return c.id

    # --- [17.1] $400 finish ----------------------------------------------------------------

    def reached_400(self) -> bool:
        """With the variant, a token on the $400 spot ends the game now (called before
        each company operates and after each stock round)."""
        if "400_finish" not in self.variants or self.game.finished:
            return False
        top = self.data["finish_400"]
        for c in self.state.corporations:
            if not c.closed and c.cell is not None and self.market.price(c.cell) >= top:
                self.state.event("price_400", corporation=c.id)
                self.game.finish("400_finish")
                return True
        return False

    # --- [17.2] diesels ----------------------------------------------------------------------

    def bank_rows(self) -> list:
        """The depot rows the bank sells from now: the first type not sold out, and with
        diesels the diesel once phase 6 has begun."""
        s = self.state
        row = available(s.depot)
        rows = [row] if row is not None else []
        if "diesels" in self.variants and self.phases.index(s.phase) >= self.phases.index(
                self.data["diesels"]["after"]):
            diesel = next(r for r in s.depot if r.train == self.data["diesels"]["train"])
            if diesel is not row:
                rows.append(diesel)
        return rows

    def trade_in_offers(self, c) -> list[dict]:
        """[17.2] a diesel with one of the company's trains traded in for $300."""
        if "diesels" not in self.variants or c.closed:
            return []
        d = self.data["diesels"]
        row = next((r for r in self.bank_rows() if r.train == d["train"]), None)
        if row is None:
            return []
        price = row.price - d["trade_in"]
        if price > c.cash:
            return []
        return [{"type": "buy_train", "corporation": c.id, "from": "bank", "train": d["train"], "price": price,
                 "trade_in": t} for t in kinds(c.trains)]

    def buy_with_trade_in(self, c, a):
        offer = next((x for x in self.trade_in_offers(c) if x["trade_in"] == a["trade_in"]
                      and x["train"] == a["train"]), None)
        if offer is None:
            raise Refusal("train.trade-in", "a train is traded in for $300 only on a diesel, from phase 6, by a "
                                            "company owning it and able to pay the rest [17.2]")
        if "price" in a and a["price"] != offer["price"]:
            raise Refusal("train.price", f"a diesel with a trade-in costs ${offer['price']} [17.2]")
        remove_named(c.trains, a["trade_in"])
        self.state.event("trade_in", corporation=c.id, train=a["trade_in"], credit=self.data["diesels"]["trade_in"])
        self.buy_train(c, "bank", a["train"], offer["price"])
        return dict(a, price=offer["price"])

    # --- [17.4] Historical Order Start ---------------------------------------------------------

    def ipo_refusal(self, c):
        """[17.4] "a 6th share may not be purchased until all of its predecessors have been
        started": with the variant, the share that would be ``c``'s 6th sold from the
        initial offering waits until every company before it in the table's order has
        sold 6 (floated) or closed."""
        if "historical_order" not in self.variants or c.floated:
            return None
        if c.sold_from_offering + 1 < self.shares["float"]:
            return None
        order = self.data["historical_order"]
        waiting = [x for x in order[:order.index(c.id)]
                   if not self.state.corp[x].floated and not self.state.corp[x].closed]
        if not waiting:
            return None
        return "stock.historical-order", (f"{c.id}'s 6th share waits until {', '.join(waiting)} "
                                          f"{'has' if len(waiting) == 1 else 'have'} sold 6 shares "
                                          "[17.4] Historical Order Start")

    # --- [17.5] The Civil War --------------------------------------------------------------------

    def event_civil_war(self, phase):
        """[17.5] the steps after the 2-trains are scrapped (in the order the rule lists
        them; the discard is a choice each president makes once the event is done)."""
        s = self.state
        coin = random.Random(f"civil_war:{self.seed}").choice(("heads", "tails"))
        parity = 0 if coin == "heads" else 1
        tiled = TITLE.facts.tiled
        removed = sorted((t for t, spec in tiled.tiles.items() if spec["color"] == "yellow"
                          and t.isdigit() and int(t) % 2 == parity), key=int)
        s.title_state.civil_war = CivilWar(coin, removed)
        s.event("civil_war", coin=coin, removed_tiles=removed)
        self._downgrade_green_tiles()
        for c in s.corporations:
            if not c.closed and c.cash:
                s.pay(corp_key(c.id), "bank", c.cash // 2)
        for p in s.players:
            if p.cash:
                s.pay(player_key(p.name), "bank", p.cash // 2)
        for c in self.price_order([c for c in s.corporations if not c.closed and c.cell is not None]):
            cell = c.cell
            for _ in range(self.data["civil_war"]["price_steps_left"]):
                cell = self.market.left(cell)
            self.move_share_price(c, cell, "civil war")
            if self.market.zone(cell) == "closed":
                self.close_corporation(c)   # [5.1.1] the black area

    def war_removed_tiles(self) -> set:
        """[17.5] the yellow tiles the coin removed from the supply (none before the war)."""
        war = self.state.title_state.civil_war
        return set(war.removed_tiles) if war else set()

    def _downgrade_green_tiles(self):
        """[17.5] "Downgrade all green tiles to the yellow tiles they were upgraded from":
        the hex's last lay leaves the map's history, which then ends with that yellow
        tile (or the printed yellow hex). Tokens follow their city ([7.2]); a city left
        with more tokens than its slots keeps the home tokens, then those of the
        companies first in share price order, and the others go back to their charters,
        to be placed again for $100 ([7.2] as after an upgrade). A green tile whose yellow
        tile has no copy left (the manifest's count is on the map) stays green."""
        s, tiled = self.state, TITLE.facts.tiled
        current = {t.hex: t.tile for t in s.tiles}
        on_map = {}
        for tile in current.values():
            on_map[tile] = on_map.get(tile, 0) + 1
        downgraded = []
        for hex_id in list(current):
            i = max(j for j, t in enumerate(s.tiles) if t.hex == hex_id)
            green = s.tiles[i]
            if tiled.tiles[green.tile]["color"] != "green":
                continue
            prev = next((t for t in reversed(s.tiles[:i]) if t.hex == hex_id), None)
            if prev is not None and on_map.get(prev.tile, 0) >= tiled.manifest["counts"].get(prev.tile, 0):
                s.event("not_downgraded", hex=hex_id, tile=green.tile, reason=f"no tile {prev.tile} left")
                continue
            del s.tiles[i]
            on_map[green.tile] -= 1
            if prev is not None:
                on_map[prev.tile] = on_map.get(prev.tile, 0) + 1
            back = (prev.tile, prev.rotation) if prev else (None, 0)
            self._carry_tokens(hex_id, tiled.city_map(hex_id, (green.tile, green.rotation), *back))
            self._fit_tokens(hex_id, tiled.tiles[back[0]] if back[0] else tiled.hexes[hex_id])
            downgraded.append({"hex": hex_id, "from": green.tile, "to": back[0]})
        s.event("downgrade", tiles=downgraded)

    def _fit_tokens(self, hex_id, spec):
        s = self.state
        for k, stop in enumerate(spec.get("stops", [])):
            slots = stop.get("slots", 1 if stop.get("kind") == "city" else 0)
            here = [c for c in s.corporations if not c.closed and (hex_id, k) in c.tokens]
            if len(here) <= slots:
                continue
            order = self.price_order(here)
            keep = sorted(here, key=lambda c: (c.home != hex_id or c.home_stop != k, order.index(c)))[:slots]
            for c in here:
                if c not in keep:
                    place = c.tokens.index((hex_id, k))
                    del c.tokens[place]
                    s.event("token_returned", corporation=c.id, hex=hex_id, stop=k)
                    self.settle_returned_tokens(c, [place])

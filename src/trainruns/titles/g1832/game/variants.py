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

from trainruns.game.depot import available
from trainruns.game.errors import Refusal

VARIANTS = {"southern_bank": "[17.3] the Southern Bank (P6) and its mortgages",
            "400_finish": "[17.1] the game ends when a share price reaches $400",
            "diesels": "[17.2] 1830 Diesels: no 8- or 10-trains, 12-trains as diesels with a trade-in",
            "key_west_inherited": "[11] the System or company that merges the FEC inherits its Key West token "
                                  "([7.5] read as the FEC's token, not the FEC alone)"}


def game_data(data: dict, variants) -> dict:
    """The title's data as the variants change it ([17.2]); the shipped data otherwise."""
    if "diesels" not in variants:
        return data
    d = data["diesels"]
    data = copy.deepcopy(data)
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

    def bank_rows(self) -> list[dict]:
        """The depot rows the bank sells from now: the first type not sold out, and with
        diesels the diesel once phase 6 has begun."""
        s = self.state
        row = available(s.depot)
        rows = [row] if row is not None else []
        if "diesels" in self.variants and self.phases.index(s.phase) >= self.phases.index(
                self.data["diesels"]["after"]):
            diesel = next(r for r in s.depot if r["train"] == self.data["diesels"]["train"])
            if diesel is not row:
                rows.append(diesel)
        return rows

    def take_bank_train(self, name: str):
        row = next((r for r in self.bank_rows() if r["train"] == name), None)
        if row is None:
            raise Refusal("train.order", "the bank sells its trains in order: all of a type before the next "
                                         "[10] Bank Trains")
        if row["left"] is not None:
            row["left"] -= 1

    def trade_in_offers(self, c) -> list[dict]:
        """[17.2] a diesel with one of the company's trains traded in for $300."""
        if "diesels" not in self.variants or c.closed:
            return []
        d = self.data["diesels"]
        row = next((r for r in self.bank_rows() if r["train"] == d["train"]), None)
        if row is None:
            return []
        price = row["price"] - d["trade_in"]
        if price > c.cash:
            return []
        return [{"type": "buy_train", "corporation": c.id, "from": "bank", "train": d["train"], "price": price,
                 "trade_in": t} for t in dict.fromkeys(c.trains)]

    def buy_with_trade_in(self, c, a):
        offer = next((x for x in self.trade_in_offers(c) if x["trade_in"] == a["trade_in"]
                      and x["train"] == a["train"]), None)
        if offer is None:
            raise Refusal("train.trade-in", "a train is traded in for $300 only on a diesel, from phase 6, by a "
                                            "company owning it and able to pay the rest [17.2]")
        if "price" in a and a["price"] != offer["price"]:
            raise Refusal("train.price", f"a diesel with a trade-in costs ${offer['price']} [17.2]")
        c.trains.remove(a["trade_in"])
        self.state.event("trade_in", corporation=c.id, train=a["trade_in"], credit=self.data["diesels"]["trade_in"])
        self.buy_train(c, "bank", a["train"], offer["price"])
        return dict(a, price=offer["price"])

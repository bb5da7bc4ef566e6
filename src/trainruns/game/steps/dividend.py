"""Dividends (1832 [9]): full, half or withheld, chosen by the president; with no
train or a $0 run the company withholds by rule ([9] No Dividend: "$0 ... retained").
The title pays and moves the share price."""

from __future__ import annotations

from ..errors import Refusal
from .operating import CorporationStep

KINDS = ("payout", "half", "withhold")


class DividendStep(CorporationStep):
    def enter(self):
        if not self.turn.get("revenue"):
            self.game.rules.pay_dividend(self.corp, 0, "withhold")
            self.done = True

    def actions(self):
        return [{"type": "dividend", "corporation": self.corp.id, "kind": k} for k in KINDS]

    def process(self, a):
        self.check_entity(a)
        if a["type"] != "dividend":
            raise Refusal("dividend.choose", f"{self.corp.id} must choose a dividend: payout, half or withhold [9]")
        if a["kind"] not in KINDS:
            raise Refusal("dividend.kind", f"dividend kind is payout, half or withhold, not {a['kind']!r} [9]")
        self.game.rules.pay_dividend(self.corp, self.turn["revenue"], a["kind"])
        self.done = True
        return a

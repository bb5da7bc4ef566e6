"""Dividends (1832 [9], 1833NE "Comparison with 1830" item 4, 1831 5.7): the president
chooses among the title's kinds (``GameRules.dividend_kinds``); a single kind is paid by
rule, and a turn with nothing to pay settles by rule (``settle_without_dividend``: 1832
[9] No Dividend, "$0 ... retained")."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.steps.operating import CorporationStep


class DividendStep(CorporationStep):
    def enter(self):
        r = self.game.rules
        revenue = self.turn.revenue
        if r.settle_without_dividend(self.corp, revenue):
            self.done = True
            return
        kinds = r.dividend_kinds(self.corp, revenue)
        if len(kinds) == 1:
            r.pay_dividend(self.corp, revenue, kinds[0])
            self.done = True

    def actions(self):
        return [{"type": "dividend", "corporation": self.corp.id, "kind": k}
                for k in self.game.rules.dividend_kinds(self.corp, self.turn.revenue)]

    def process(self, a):
        self.check_entity(a)
        kinds = self.game.rules.dividend_kinds(self.corp, self.turn.revenue)
        if a["type"] != "dividend" or a["kind"] not in kinds:
            raise Refusal("dividend.kind", f"{self.corp.id} chooses its dividend: {', '.join(kinds)}")
        self.game.rules.pay_dividend(self.corp, self.turn.revenue, a["kind"])
        self.done = True
        return a

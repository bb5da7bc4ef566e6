"""The dividend step's hooks (:class:`~trainruns.game.steps.dividend.DividendStep`; 1832 [9],
1833NE "Dividends", 1831 5.7): the kinds the president chooses from, what a dividend pays
(:class:`Dividend`), paying it and the price's move after it."""

from __future__ import annotations

from dataclasses import dataclass, field

from trainruns.game.state import corp_key


@dataclass
class Dividend:
    """What a dividend pays (:meth:`DividendRules.dividend`): the ``kind`` paid (a payout of
    nothing is withheld), what the company adds to the run from its treasury first
    (1831 5.7.4: twice the run), what it keeps, each holder's part (``payments``: holder
    key and amount, in the order paid) and the ``dividend`` event's own fields."""

    kind: str
    kept: int = 0
    payments: list = field(default_factory=list)
    fields: dict = field(default_factory=dict)
    company_adds: int = 0


class DividendRules:
    """Paying or withholding the run's revenue.
    A mixin of :class:`~trainruns.game.game_rules.GameRules`."""

    # which of :meth:`dividend_kinds` pays the whole run to the shares and which keeps it
    # all in the treasury, in the title's words (the advisor's dividend rule asks for them)
    payout_kind = "payout"
    withhold_kind = "withhold"

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

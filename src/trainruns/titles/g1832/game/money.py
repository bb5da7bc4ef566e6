"""1832 money that moves by rule: private income ([12] Private Company Income) and
dividends with their share price moves ([9], [5.8])."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.rules.dividend import Dividend


class MoneyRules:
    def paying_privates(self):
        """[4.1.3] all private companies pay their owner, except P6, which pays its
        mortgage's interest instead (settled here, before the income), and nothing
        without a mortgage from phase 5 ([17.3], mortgage.py)."""
        sb = self.data["southern_bank"]["id"]
        mortgaged = self.southern_bank and self.mortgage_income()
        # [17.3] "$10 or 10% interest"; no revenue without a mortgage from phase 5
        return [x for x in super().paying_privates() if not (x.id == sb and (self._p6_income_over() or mortgaged))]

    def _p6_income_over(self) -> bool:
        return self.phases.index(self.state.phase) >= self.phases.index(self.data["southern_bank"]["income_ends"])

    def pays_income(self, x) -> bool:
        """Whether open private ``x`` with an owner pays him at operating rounds to come
        ([4.1.3]; P6 its $10 until phase 5, or a mortgage's interest, [17.3]); no money
        moves here."""
        if x.id != self.data["southern_bank"]["id"]:
            return True
        return not self._p6_income_over() or self.mortgage() is not None

    @staticmethod
    def _holding(revenue, kind, n, total):
        """[9] what a holding of ``n`` of ``total`` shares gets: full, 10% of the run per
        share, rounded to the nearest dollar per holding; half, half the run rounded up
        per share ($130 -> $7 a share)."""
        if kind == "payout":
            return (revenue * n * 2 + total) // (2 * total)
        return -(-revenue // (2 * total)) * n

    def dividend_kinds(self, c, revenue):
        """[9] Dividend Type: a full dividend, a half dividend or withheld; half only when
        :meth:`half_payable`."""
        kinds = super().dividend_kinds(c, revenue)
        return kinds if self.half_payable(c, revenue) else [k for k in kinds if k != "half"]

    def half_payable(self, c, revenue) -> bool:
        """[9] Half Dividend: "the company retains half of the money and pays the rest as
        a dividend", rounded up per share: a half whose shares' part is no more than the
        run. Above it (a System's $10: $1 on each of 20 shares) the company would retain
        less than nothing, which the rulebook does not provide for: no half dividend
        then (docs/gaps.md)."""
        return self._holding(revenue, "half", c.total_shares, c.total_shares) <= revenue

    def dividend(self, c, revenue, kind):
        """[9] full: 10% of the run per share (per holding, rounded to the nearest dollar
        for the odd share); half: the company keeps half and the shares get the rest,
        rounded up per share ($130 -> $7 a share, $60 kept); withheld: all to the
        treasury. Initial-offering and redeemed shares pay the company, open-market
        shares pay the bank."""
        total = c.total_shares
        if kind == "payout" and revenue:
            return Dividend("payout", 0, [(holder, self._holding(revenue, kind, n, total))
                                          for holder, n in sorted(c.shares.items())])
        if kind == "half" and revenue:
            if not self.half_payable(c, revenue):
                raise Refusal("dividend.kind", f"a half dividend of {c.id} on ${revenue} would pay its shares more "
                                               "than the run [9] Half Dividend")
            return Dividend("half", revenue - self._holding(revenue, kind, total, total),
                            [(holder, self._holding(revenue, kind, n, total)) for holder, n in sorted(c.shares.items())])
        return Dividend("withhold", revenue)

    def dividend_per_share(self, c, revenue, kind):
        """[9] what one share gets (full: the odd dollar of a larger holding aside)."""
        if kind in ("payout", "half") and revenue:
            return self._holding(revenue, kind, 1, c.total_shares)
        return 0

    def price_after_dividend(self, c, d):
        """[5.8] the token moves right on a full payout, left when withheld (or $0),
        not on half; a token that reaches the black area closes the company [5.1.1].
        [16.2] P4 closes at the first dividend the company it bought into pays."""
        if d.kind != "half":
            new = self.market.right(c.cell) if d.kind == "payout" else self.market.left(c.cell)
            self.move_share_price(c, new, d.kind)
            if self.market.zone(new) == "closed":
                self.close_corporation(c)
        if d.kind in ("payout", "half"):
            self.after_dividend(c)

    def after_dividend(self, c):
        """[16.2] P4 closes when the company it bought a share of pays its first dividend."""
        s = self.state
        london = s.title_state.london
        p4 = s.private.get("P4")
        if london and london == c.id and p4 is not None and p4.open:
            p4.open = False
            s.event("private_closed", private="P4", reason="first dividend of " + c.id)

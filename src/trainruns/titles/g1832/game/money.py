"""1832 money that moves by rule: private income ([12] Private Company Income) and
dividends with their share price moves ([9], [5.8])."""

from __future__ import annotations

from trainruns.game.game_rules import Dividend


class MoneyRules:
    def private_income(self):
        """[4.1.3] First, all private companies pay their owner (a player, or a public
        company's treasury). P6 pays its mortgage's interest instead, and nothing without
        a mortgage from phase 5 ([17.3], mortgage.py)."""
        s = self.state
        sb = self.data["southern_bank"]["id"]
        late = self.phases.index(s.phase) >= self.phases.index("5")
        mortgaged = self.southern_bank and self.mortgage_income()
        for x in s.privates:
            if x.id == sb and (late or mortgaged):
                continue  # [17.3] "$10 or 10% interest"; no revenue without a mortgage from phase 5
            if x.open and x.owner is not None:
                s.pay("bank", x.owner, x.revenue)
                s.event("income", private=x.id, owner=x.owner.partition(":")[2], amount=x.revenue)

    def dividend(self, c, revenue, kind):
        """[9] full: 10% of the run per share (per holding, rounded to the nearest dollar
        for the odd share); half: the company keeps half and the shares get the rest,
        rounded up per share ($130 -> $7 a share, $60 kept); withheld: all to the
        treasury. Initial-offering and redeemed shares pay the company, open-market
        shares pay the bank."""
        total = c.total_shares
        if kind == "payout" and revenue:
            return Dividend("payout", 0, [(holder, (revenue * n * 2 + total) // (2 * total))
                                          for holder, n in sorted(c.shares.items())])
        if kind == "half" and revenue:
            per = -(-revenue // (2 * total))   # rounded up per share
            return Dividend("half", revenue - per * total, [(holder, per * n) for holder, n in sorted(c.shares.items())])
        return Dividend("withhold", revenue)

    def price_after_dividend(self, c, d):
        """[5.8] the token moves right on a full payout, left when withheld (or $0),
        not on half; a token that reaches the black area closes the company [5.1.1].
        [16.2] P4 closes at the first dividend the company it bought into pays."""
        if d.kind != "half":
            old = c.cell
            new = self.market.right(old) if d.kind == "payout" else self.market.left(old)
            self.market.move(c.id, old, new)
            c.cell = new
            if new != old:
                self.state.event("price", corporation=c.id, price=self.market.price(new), reason=d.kind)
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

"""1832 money that moves by rule: private income ([12] Private Company Income) and
dividends with their share price moves ([9], [5.8])."""

from __future__ import annotations

from ...game.state import corp_key


class MoneyRules:
    def private_income(self):
        """[4.1.3] First, all private companies pay their owner (a player, or a public
        company's treasury). P6 pays its mortgage's interest instead, and nothing without
        a mortgage from phase 5 ([17.3], game_mortgage.py)."""
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

    def pay_dividend(self, c, revenue: int, kind: str):
        """[9] full: 10% of the run per share (per holding, rounded to the nearest dollar
        for the odd share); half: the company keeps half and the shares get the rest,
        rounded up per share ($130 -> $7 a share, $60 kept); withheld: all to the
        treasury. Initial-offering and redeemed shares pay the company, open-market
        shares pay the bank. Token: right on full, none on half, left on withheld or $0."""
        s = self.state
        total = c.total_shares
        if kind == "payout" and revenue:
            for holder, n in sorted(c.shares.items()):
                amount = (revenue * n * 2 + total) // (2 * total)
                self._dividend_to(c, holder, amount)
            move = "right"
        elif kind == "half" and revenue:
            per = -(-revenue // (2 * total))   # rounded up per share
            kept = revenue - per * total
            s.pay("bank", corp_key(c.id), kept)
            for holder, n in sorted(c.shares.items()):
                self._dividend_to(c, holder, per * n)
            move = None
        else:
            if revenue:
                s.pay("bank", corp_key(c.id), revenue)
            move = "left"
            kind = "withhold"
        s.event("dividend", corporation=c.id, kind=kind, revenue=revenue or 0)
        if move:
            old = c.cell
            new = self.market.right(old) if move == "right" else self.market.left(old)
            self.market.move(c.id, old, new)
            c.cell = new
            if new != old:
                s.event("price", corporation=c.id, price=self.market.price(new), reason=kind)
            if self.market.zone(new) == "closed":
                self.close_corporation(c)
        if kind in ("payout", "half") and revenue:
            self.after_dividend(c)

    def _dividend_to(self, c, holder, amount):
        if not amount or holder == "market":
            return  # open-market shares pay the bank: nothing moves
        dst = corp_key(c.id) if holder in ("ipo", "treasury") else holder
        self.state.pay("bank", dst, amount)

    def after_dividend(self, c):
        """[16.2] P4 closes when the company it bought a share of pays its first dividend."""
        s = self.state
        london = s.title_state.london
        p4 = s.private.get("P4")
        if london and london == c.id and p4 is not None and p4.open:
            p4.open = False
            s.event("private_closed", private="P4", reason="first dividend of " + c.id)

"""1831 5.3.4: funding a forced train purchase the company's cash cannot pay: its own
stock and bonds to the pool, the president's cash, then a loan and receivership; the
commons the pool could not take, sold as it makes room."""

from __future__ import annotations

from trainruns.game.state import player_key
from trainruns.titles.g1831.game import certs
from trainruns.titles.g1831.game.certs import shares_of


class ForcedPurchaseRules:
    def fund_forced_purchase(self, c, price: int):
        """5.3.4, after the deals: (2) the company sells its own common stock, then its
        bonds, no more than the purchase needs, within the pool's 5 shares and the bank's
        cash (4.6.3.4); bonds the pool's limit keeps it from selling are all closed at
        half value and the system enters receivership (5.4.14); (3) the president gives
        what is still missing, or all he has; (4) the rest is a loan and the company
        enters receivership (5.4.1)."""
        s = self.state
        self.sell_own_for_train(c, price, "common")
        if c.cell is None:
            return   # the sale's move closed it out (4.3.2)
        if c.cash < price and certs.held(c, "treasury", "bond"):
            if not self.sell_own_for_train(c, price, "bond"):
                s.event("bonds_blocked", corporation=c.id, rule="5.3.4")
                self.enter_receivership(c)   # closes the bonds at half value (5.4.14)
                if c.cell is None:
                    return
        short = price - c.cash
        give = min(short, s.player[c.president].cash) if short > 0 and c.president else 0
        if give:
            s.pay(player_key(c.president), f"corp:{c.id}", give)
            s.event("president_funds", corporation=c.id, player=c.president, cash=give)
        loan = price - c.cash
        if loan > 0:
            s.pay("bank", f"corp:{c.id}", loan)
            c.debt += loan
            self.enter_receivership(c)

    def sell_own_for_train(self, c, price: int, kind: str) -> bool:
        """5.3.4 (2): the company's own commons (``kind`` "common") or bonds ("bond") to the
        pool, one at a time at the posted price before any move, until its cash reaches
        ``price``, within the pool's 5 shares (4.6.1.1) and the bank's cash (4.6.3.4).
        False when the pool's limit stops a sale still needed; commons it stops are owed
        (``owed_commons``, sold as the pool makes room: :meth:`owed_sales`)."""
        chosen = self.pool_takes(c, certs.held(c, "treasury", kind), lambda cash: c.cash + cash >= price)
        self.sell_own(c, kind, chosen)
        left = certs.held(c, "treasury", kind)
        blocked = bool(c.cash < price and left and self.pool_shares(c) + shares_of(left[0])
                       > self.numbers["pool_share_limit"])
        if blocked and kind == "common":
            need, short = 0, price - c.cash
            for x in left:
                if short <= 0:
                    break
                short -= self.sale_value(c, x)
                need += 1
            c.owed_commons += need
            self.state.event("sale_owed", corporation=c.id, count=need, rule="5.3.4")
        return not blocked

    def sell_own(self, c, kind: str, chosen: list):
        """The company's own certificates to the pool, paid by the bank at the posted price
        before the move with their 2x markers (removed in the pool, 4.6.3.3); 5.3.4:
        commons move the Stock Marker one-half square per certificate, rounded up, LEFT
        (or down); each bond the Bond Marker one square down (or left)."""
        if not chosen:
            return
        s = self.state
        cash = sum(self.sale_value(c, x) for x in chosen)
        for x in chosen:
            x.splits = 0
            certs.move(s, c, x, "market")
        s.pay("bank", f"corp:{c.id}", cash)
        s.event("forced_sale", corporation=c.id, kind=kind, count=len(chosen), cash=cash, rule="5.3.4")
        if kind == "common":
            self.move_marker(c, "left", -(-len(chosen) // 2), "forced_sale")
        else:
            self.move_bond_marker(c, "down", len(chosen), "forced_sale")

    def owed_sales(self, c):
        """5.3.4: "the company or system must immediately sell its common stock ... if
        space in the Stock Bank Pool becomes available during a Stock Round": the commons
        a forced sale could not put in the pool, as many as the pool now takes."""
        owed = c.owed_commons
        if not owed or c.cell is None:
            return
        chosen = self.pool_takes(c, certs.held(c, "treasury", "common")[:owed])
        self.sell_own(c, "common", chosen)
        c.owed_commons = (owed - len(chosen)) if certs.held(c, "treasury", "common") else 0

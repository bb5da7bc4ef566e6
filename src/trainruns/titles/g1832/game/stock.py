"""1832 stock rules as hooks of the generic stock turn ([5])."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.state import corp_key, player_key


class StockRules:
    # --- [5.4] certificate limits ------------------------------------------------------

    def cert_limit(self) -> int:
        """Table 2: by players and companies still active or available ([5.1.1] a
        closed company moves one column right)."""
        row = self.data["cert_limit"][str(len(self.state.players))]
        # [11.7] one column per shell taken over; [5.3] Sales Affecting Certificate
        # Limits: a company sold into the black area counts as closed at once (nobody is
        # assumed to protect it)
        closed = self.limit_columns() + sum(1 for c in self.state.corporations
                                            if not c.closed and c.cell is not None
                                            and self.market.zone(c.cell) == "closed")
        return row[min(closed, len(row) - 1)]

    def counts_for_limit(self, c) -> bool:
        """[5.1.1] shares of a company in the yellow, green or brown area do not count
        (:meth:`counts_for_cell`)."""
        return self.counts_for_cell(c.cell)

    def counts_for_cell(self, cell) -> bool:
        """[5.1.1] certificates of a company in the white area count toward the limit,
        in the yellow, green or brown area not; [5.3] Sales Affecting Certificate
        Limits: a company sold into the black area counts as closed, its certificates
        void ([5.1.1] Black area), as in :meth:`cert_limit`."""
        return cell is None or self.market.zone(tuple(cell)) == "white"

    def may_exceed_holding(self, c) -> bool:
        """[5.1.1] Green and brown areas: more than 60% may be bought."""
        return c.cell is not None and self.market.zone(c.cell) in ("green", "brown")

    def multiple_buys(self, c) -> bool:
        """[5.1.1] Brown area: any number of open-market shares in one turn."""
        return c.cell is not None and self.market.zone(c.cell) == "brown"

    def private_counts(self, x, name: str) -> bool:
        """[17.3] a mortgaged Southern Bank does not count toward its holder's limit."""
        m = self.mortgage()
        return not (m and m.player == name and x.id == self.data["southern_bank"]["id"])

    # --- [5.6] starting a company --------------------------------------------------------

    def can_par(self, c) -> bool:
        """Any unstarted company, except CoG, whose president's certificate comes with
        P7 ([16.2] P7)."""
        return super().can_par(c) and c.id != self.data["cog"]

    def par_prices(self, c) -> list[int]:
        return list(self.data["par"])

    def ipo_price(self, c) -> int:
        return c.reissue_par or c.par

    def start_corporation(self, c, name: str, price: int):
        """[5.6] the shared start, reported as ``par``; it may float the company."""
        super().start_corporation(c, name, price)
        self.state.event("par", corporation=c.id, player=name, price=price)
        self.check_float(c)

    def buy_shares(self, c, name: str, source: str, count: int, price: int):
        """The shared purchase; [5.11] the company keeps count of what its reissued
        shares raised."""
        if source == "ipo" and c.reissue_par:
            c.reissue_cash += price * count
        super().buy_shares(c, name, source, count, price)

    def share_payee(self, c, source: str) -> str:
        """[5.3] all money for shares goes to the bank; reissued shares pay the company
        ([5.11])."""
        return corp_key(c.id) if source == "ipo" and c.reissue_par else "bank"

    def check_float(self, c):
        """[5.6] six shares sold from the initial offering: the company will operate;
        its treasury is paid at the end of the stock round."""
        if not c.floated and c.sold_from_offering >= self.shares["float"]:
            c.floated = True

    def sell_shares(self, c, name: str, count: int, price: int | None = None, stock_round: bool = False):
        """[5.3] Selling Shares: the bank pays the price [now]; the token moves down one row
        per share ([5.8.1], the ledges); [5.5] presidency may change (a new president of
        a System trades his vice-president's certificates for the president's, [11.6]
        whole vice-president's certificates are sold as one transaction); [5.1.1]
        Black area closes the company."""
        s = self.state
        price = self.market.price(c.cell) if price is None else price
        after = self.president_after_sale(c, name, count)
        vps = self.vice_certs_sold(c, name, count, after)
        if vps is None:
            raise Refusal("stock.vice-president", f"{name} cannot sell {count} {c.id} share(s): a vice-president's "
                                                  "certificate is sold whole, as a single transaction [11.6]")
        s.pay("bank", player_key(name), price * count)
        s.move_shares(c, player_key(name), "market", count)
        extra = {"vice_presidents": vps} if vps else {}
        s.event("sell", corporation=c.id, player=name, count=count, price=price, **extra)
        new = self.market.down(c.cell, count)
        self.move_share_price(c, new, "sale")
        if after != c.president:
            s.event("president", corporation=c.id, player=after, previous=name)
            c.president = after
            self.trade_vice_certs(c, name, after)
        self.move_sold_vice_certs(c, vps)
        if self.market.zone(new) == "closed" and not stock_round:
            self.close_corporation(c)   # in a stock round, after price protection [5.9]

    def closing_assets(self, c):
        """[5.1.1] Black area: a closed company is never restarted; [6.5.2] its WVCF
        token goes back to the bank."""
        t = self.state.title_state
        if c.id in t.coal_holders:
            t.coal_holders.remove(c.id)
            t.coal_tokens_left += 1

    # --- [5.2.2] ending a stock round -----------------------------------------------------

    def stock_round_end_move(self, c):
        """[5.8.1] a company with no share in the initial offering or the open market
        moves up."""
        if not c.held("ipo") and not c.held("market"):
            self.move_share_price(c, self.market.up(c.cell), "all sold")

    def end_stock_round(self, last_actor):
        """[5.2.2] priority to the left of the last player who acted, the price moves;
        treasuries of floated companies paid ([5.6])."""
        super().end_stock_round(last_actor)
        s = self.state
        for c in s.corporations:
            if c.floated and not c.capitalised and not c.closed:
                cash = c.par * c.total_shares
                s.pay("bank", corp_key(c.id), cash)
                c.capitalised = True
                s.event("float", corporation=c.id, cash=cash)
            c.reissue_cash = 0

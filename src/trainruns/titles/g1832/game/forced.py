"""A president's forced share sales for a train and the protection that follows
(1832 [10] Presidential Stock Sales, [5.9]).

- [10]: "He may only sell enough shares to buy the train. Exception: if the president
  is forced to sell a share in a company that he owns more than 60% of and the stock is
  not in the coloured portion of the stock market (green or brown), he must sell down
  to the 60% limit" (the same duty as [5.9.8] in a stock round);
- [10], [5.9]: "After the president is through selling any shares, the presidents of
  any companies whose stock was sold may implement share price protection in the order
  they were sold"; then "the normal sequence of play resumes". The president is
  through selling when the train is bought (or when his sales closed the company
  needing it). A company sold into the black area by a forced sale stays open until its
  president has declined to protect it ([5.1.1] Black area: protection may prevent the
  closing); the company needing the train closes at once, its president being the
  seller, who cannot protect his own sale;
- [10]: "If stock sales close the company requiring the train, all money including that
  for all share sales and the president's personal funds are lost" (to the bank,
  [5.1.1] Black area).
"""

from __future__ import annotations

from trainruns.game.round import Step
from trainruns.game.state import player_key
from trainruns.game.steps.protect import ProtectStep
from trainruns.titles.g1832.game.steps.stock_turn import sell_back_minimum, sold_vice_certs


class ProtectStep1832(ProtectStep):
    """[5.9] the protecting president buys "all the shares sold", vice-president's
    certificates among them whole ([11.6])."""

    def certificates_bought(self) -> int:
        """A vice-president's certificate is 2 shares in one certificate ([11.6]), so
        each sold among the shares is one certificate less against his limit ([5.4])."""
        return self.sale["count"] - len(self.sale.get("vice_presidents", []))

    def process(self, a):
        out = super().process(a)
        if a["type"] == "protect":
            c = self.corp
            for comp in self.sale.get("vice_presidents", []):
                c.vice_presidents[comp] = player_key(c.president)
        return out


def close_unprotected(rules, sales):
    """[5.1.1] Black area: each company of ``sales`` whose token is still in the black
    area once its president declined to protect closes."""
    for sale in sales:
        c = rules.state.corp[sale["corporation"]]
        if not c.closed and c.cell is not None and rules.market.zone(c.cell) == "closed":
            rules.close_corporation(c)


class CloseUnprotected(Step):
    """After the protections: a company whose token is still in the black area closes
    ([5.1.1] Black area)."""

    def __init__(self, game, sales):
        super().__init__(game)
        self.sales = sales

    def enter(self):
        close_unprotected(self.game.rules, self.sales)
        self.done = True

    def active(self):
        return None

    def actions(self):
        return []


class ForcedSaleRules:
    def sell_back_minimum(self, d, name: str, most: int) -> int:
        return sell_back_minimum(self, d, name, most)

    def forced_sale_count(self, d, name: str, most: int):
        """The listed count of a forced sale of ``d``: 1..most, from the [10] exception's
        minimum when he holds more than 60% outside green and brown, without the counts
        that split a vice-president's certificate ([11.6]); None if none is left."""
        return self.sale_counts(d, name, sell_back_minimum(self, d, name, most), most)

    def forced_sell(self, step, c, d, name: str, count: int):
        """Sell ``count`` shares of ``d`` for ``c``'s train and remember the sale for
        protection; the company needing the train closes at once in the black area."""
        price = self.market.price(d.cell)
        sale = {"corporation": d.id, "player": name, "count": count, "price": price, "cell": d.cell,
                "depth": self.market.depth(d.id, d.cell)}
        self.sell_shares(d, name, count, price, stock_round=d is not c)
        sale["vice_presidents"] = sold_vice_certs(self.state)
        step.forced_sales.append(sale)
        if c.closed:
            self.lose_president_funds(c, name)
            self.offer_forced_protection(step)

    def lose_president_funds(self, c, name: str):
        """[10] Presidential Stock Sales: "If stock sales close the company requiring the
        train, all money including that for all share sales and the president's personal
        funds are lost"; [5.1.1] Black area: "as well as the president's personal money
        if the closure happens during emergency fund raising for the company closed) is
        returned to the bank". All of president ``name``'s cash goes to the bank, with a
        ``funds_lost`` event."""
        cash = self.state.player[name].cash
        if cash:
            self.state.pay(player_key(name), "bank", cash)
            self.state.event("funds_lost", player=name, corporation=c.id, amount=cash)

    def offer_forced_protection(self, step):
        """Queue the protections in the order sold, then the closing of what stays in
        the black area; the buying company's turn goes on after them."""
        sales, step.forced_sales = step.forced_sales, []
        if not sales or self.game.finished:
            return
        r = self.game.round
        r.queue.insert(0, CloseUnprotected(self.game, sales))
        for sale in reversed(sales):
            r.push(ProtectStep1832(self.game, sale))

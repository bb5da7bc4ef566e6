"""1832's stock turn: the shared turn ([5.3]; its [5.4] sale first over the certificate
limit: a price move in the operating rounds took a company out of the yellow, green or
brown area, a protection put the token back, a closing lowered the limit) plus what the
1832 rulebook adds:

- [11.6] a vice-president's certificate of a System is bought and sold whole;
- [5.9.8] (the eighth point of Share Price Protection): a player holding more than 60%
  of a company (after a protection) who sells any of it while its token is outside the
  green and brown areas sells down to 60% in that block: the listed count starts there
  (or at what the 50% market limit lets him sell, when that is less).
"""

from __future__ import annotations

from trainruns.game.action import bounds, free_amount
from trainruns.game.errors import Refusal
from trainruns.game.steps.stock import StockTurn


def sold_vice_certs(state) -> list[str]:
    """The vice-president's certificates of the last sale (its ``sell`` event)."""
    sale = next((e for e in reversed(state.events) if e["event"] == "sell"), {})
    return list(sale.get("vice_presidents", []))


def sell_back_minimum(rules, c, name: str, most: int) -> int:
    """[5.9.8] (and [10] Presidential Stock Sales for a forced sale): the fewest shares
    of ``c`` a sale by ``name`` may be, given that he may sell at most ``most``: what he
    holds above the 60% limit (:meth:`holding_room`, 12 of a System's 20 shares, [11.6]),
    unless the company's area lets him exceed it."""
    over = -rules.holding_room(c, name)
    return max(1, min(over, most))


class StockTurn1832(StockTurn):
    #: whether the protections of this turn's sales were offered ([5.9]); between the
    #: turns the round first offers them, then closes what stays in the black area
    protection_offered = False

    def extra_actions(self):
        """P4's exchange ([16.2] P4), a private bought from another player ([16.1]:
        listed with its price range; the logged action is the deal both agreed), and,
        before anything else this turn, redemption and reissue ([5.10], [5.11])."""
        rules = self.game.rules
        out = rules.london_offers(self) + rules.player_private_offers(self)
        if not self.acted:
            out += rules.redeem_offers(self) + rules.reissue_offers(self)
        return out

    def process_extra(self, a):
        rules = self.game.rules
        handlers = {"exchange": rules.london_exchange, "trade_private": rules.buy_private_from_player,
                    "redeem": rules.redeem, "reissue": rules.reissue}
        if a["type"] not in handlers:
            return super().process_extra(a)
        return handlers[a["type"]](self, a)

    def sales_of(self, c):
        """The shared listing, from the [5.9.8] minimum, without the counts that split a
        vice-president's certificate ([11.6])."""
        out = []
        r = self.game.rules
        for x in super().sales_of(c):
            most = bounds(x["count"])[1]
            count = r.sale_counts(c, self.player, sell_back_minimum(r, c, self.player, most), most)
            if count is not None:
                out.append(dict(x, count=count))
        return out

    def _buys(self):
        """The shared listing, where an open-market share of a System is one outside the
        vice-presidents' certificates, and those certificates, each one purchase of 2
        shares ([11.6])."""
        out = []
        r = self.game.rules
        for x in super()._buys():
            c = self.state.corp[x["corporation"]]
            if x["type"] == "buy_shares" and x["from"] == "market" and c.system:
                free = r.market_ordinary(c)
                if free < 1:
                    continue
                if isinstance(x["count"], dict) and x["count"]["max"] > free:
                    x = dict(x, count=free_amount(1, free))
            out.append(x)
        return out + (r.vice_cert_buys(self) if not self.bought else [])

    def process(self, a):
        if a.get("player") == self.player and a["type"] in ("buy_shares", "sell_shares"):
            self._check_vice(a)
        if a["type"] == "buy_shares" and a.get("vice_president") is not None and a.get("player") == self.player \
                and not self.forced_sales():
            return self.game.rules.buy_vice_cert(self, a)
        return super().process(a)

    def _check_vice(self, a):
        """[11.6] a vice-president's certificate is bought and sold as a single
        transaction."""
        r = self.game.rules
        c = self.state.corp.get(r.corporation_id(a.get("corporation")) or "")
        if c is None or not c.system or c.id in self.sold:
            return
        count = a.get("count", 1)
        # a count the shared limits allow ([5.4], [5.5]; beyond them their refusal says why)
        most = r.may_sell(c, self.player)
        if a["type"] == "sell_shares" and isinstance(count, int) and 1 <= count <= most \
                and not r.sale_ok(c, self.player, count):
            raise Refusal("stock.vice-president", f"{self.player} cannot sell {count} {c.id} share(s): a "
                                                  "vice-president's certificate is sold whole, as a single "
                                                  "transaction [11.6]")
        if a["type"] == "buy_shares" and a.get("vice_president") is None and a.get("from") == "market" \
                and isinstance(count, int) and count > r.market_ordinary(c):
            raise Refusal("stock.vice-president", f"the open market holds {r.market_ordinary(c)} {c.id} share(s) "
                                                  "outside vice-president's certificates, which are bought whole "
                                                  "('vice_president': the component) [11.6]")

    def sell(self, c, a):
        """[5.9.8] a sale is at least the listed minimum; [5.9] a protecting president
        buys the vice-president's certificates sold too."""
        listed = next(iter(self.sales_of(c)), None)
        low = listed and (listed["count"]["min"] if isinstance(listed["count"], dict) else listed["count"])
        if listed is not None and (isinstance(listed["count"], dict) and a["count"] < low
                                   or isinstance(listed["count"], int) and 1 < low != a["count"]):
            raise Refusal("stock.sell-back", f"{self.player} holds more than 60% of {c.id} outside the green "
                                             f"and brown areas: a sale of it is at least {low} share(s), down "
                                             "to 60% [5.9.8]")
        super().sell(c, a)
        self.sales[-1].setdefault("vice_presidents", sold_vice_certs(self.state))

"""1832's stock turn: the generic turn ([5.3]) plus two duties of the 1832 rulebook,
and a turn without a choice passed by rule.

- [5.4] Player Certificate Limits: "A player may never exceed his certificate limit at
  any time during his turn in a stock round." A player who starts his turn over the
  limit (a price move in the operating rounds took a company out of the yellow, green
  or brown area, a protection put the token back, a closing lowered the limit) sells
  before he may pass: ``pass`` is not listed, and is refused, while a sale of a
  company that counts could still bring him down ([5.3] Sales Affecting Certificate
  Limits: the seller assumes nobody protects, so the limit is read with the sale's
  price move).
- [5.9.8] (the eighth point of Share Price Protection): a player holding more than 60%
  of a company (after a protection) who sells any of it while its token is outside the
  green and brown areas sells down to 60% in that block: the listed count starts there
  (or at what the 50% market limit lets him sell, when that is less).
"""

from __future__ import annotations

from ....game.errors import Refusal
from ....game.steps.stock import StockTurn
from ....game.state import player_key


def sell_back_minimum(rules, c, name: str, most: int) -> int:
    """[5.9.8] (and [10] Presidential Stock Sales for a forced sale): the fewest shares
    of ``c`` a sale by ``name`` may be, given that he may sell at most ``most``."""
    held = c.held(player_key(name))
    over = held - rules.shares["player_limit"]
    if over <= 0 or rules.may_exceed_holding(c):
        return 1
    return max(1, min(over, most))


class StockTurn1832(StockTurn):
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
            raise Refusal("stock.action", f"{a['type']} is not a stock round action [5.3]")
        return handlers[a["type"]](self, a)

    def enter(self):
        """A turn whose only legal action is ``pass`` is passed by rule: no decision,
        so nothing is logged (docs/game-log.md: only decisions are logged); it counts
        toward the round's end like any pass ([5.2.2])."""
        if not self.done and self.only_pass():
            self.done = True
            self.round.passed(self.player)
            self.state.event("pass", player=self.player, reason="no legal action")

    def over_limit(self) -> bool:
        r = self.game.rules
        return r.player_certs(self.player) > r.cert_limit()

    def must_sell(self) -> bool:
        """[5.4] over the limit and a sale of a counting company still open to him."""
        if not self.over_limit() or not self.selling or (self.bought and self.sold_first):
            return False
        r = self.game.rules
        return any(r.counts_for_limit(self.state.corp[x["corporation"]]) for x in self._sells())

    def actions(self):
        out = super().actions()
        if self.must_sell():
            out = [x for x in out if x["type"] == "sell_shares"]
        return out

    def _sells(self):
        out = super()._sells()
        r = self.game.rules
        for x in out:
            c = self.state.corp[x["corporation"]]
            most = x["count"]["max"] if isinstance(x["count"], dict) else x["count"]
            low = sell_back_minimum(r, c, self.player, most)
            if low > 1:
                x["count"] = most if low == most else {"min": low, "max": most}
        return out

    def process(self, a):
        if a.get("player") == self.player and self.must_sell() and a["type"] != "sell_shares":
            limit = self.game.rules.cert_limit()
            raise Refusal("stock.cert-limit", f"{self.player} holds more than the certificate limit {limit}: "
                                              "he sells first [5.4] Player Certificate Limits")
        if a["type"] == "sell_shares" and a.get("player") == self.player and isinstance(a.get("count"), int):
            c = self.game.rules.corporation(a["corporation"])
            listed = next((x for x in self._sells() if x["corporation"] == c.id), None)
            if listed is not None and isinstance(listed["count"], dict) and a["count"] < listed["count"]["min"] \
                    or listed is not None and isinstance(listed["count"], int) and 1 < listed["count"] != a["count"]:
                low = listed["count"]["min"] if isinstance(listed["count"], dict) else listed["count"]
                raise Refusal("stock.sell-back", f"{self.player} holds more than 60% of {c.id} outside the green "
                                                 f"and brown areas: a sale of it is at least {low} share(s), down "
                                                 "to 60% [5.9.8]")
        return super().process(a)

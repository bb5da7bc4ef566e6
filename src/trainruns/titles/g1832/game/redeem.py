"""Redemption and reissue of shares (1832 [5.10], [5.11]), a president's action for his
company in a stock turn, excluding any action for himself that turn.

- redeem: one share per complete stock round, at the current price (not moved): from
  the open market if it holds one (paid to the bank), else from a player who consents
  (paid to him; the log's action is the agreement); never from the initial offering;
  the company holds at most 40% and players plus market keep at least 60%; no change of
  presidency; not by a company whose treasury was paid this stock round;
- reissue: once the original initial offering is sold out, once per stock round, all
  redeemed shares go back to the initial offering at the higher of the old par and the
  market value nearest 75% of the price ($68-$200; a tie takes the higher); the company
  gets the money as they sell but may not spend it before the round ends.
"""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.shares import scaled
from trainruns.game.state import corp_key, player_key


class RedeemRules:
    def _redeemer(self, turn, c) -> bool:
        # [11.6.9] a System redeems twice per stock round (one per turn: a redemption
        # ends the turn)
        done = turn.round.redeemed.get(c.id, 0)
        return (c.president == turn.player and not c.closed and c.capitalised
                and done < c.shells)

    def _spendable(self, c) -> int:
        return c.cash - c.reissue_cash

    def redeem_offers(self, turn) -> list[dict]:
        s = self.state
        out = []
        for c in s.corporations:
            if not self._redeemer(turn, c) or c.cell is None:
                continue
            if c.held("treasury") + 1 > scaled(self.shares, c, "redeem_limit") or \
                    c.sold_from_offering - 1 < scaled(self.shares, c, "float"):
                continue
            if self._spendable(c) < self.market.price(c.cell):
                continue
            # [11.6.9] a redeemed share is a 5% share, never a vice-president's certificate
            if self.market_ordinary(c):
                out.append({"type": "redeem", "player": turn.player, "corporation": c.id, "from": "market"})
                continue
            for p in s.players:
                n = c.held(player_key(p.name))
                if not n or self.ordinary_shares(c, player_key(p.name)) < 1:
                    continue
                if p.name == c.president:
                    others = max((c.held(player_key(q.name)) for q in s.players if q.name != p.name), default=0)
                    if n - 1 < max(scaled(self.shares, c, "president"), others):
                        continue
                out.append({"type": "redeem", "player": turn.player, "corporation": c.id, "from": p.name})
        return out

    def redeem(self, turn, a):
        offers = [x for x in self.redeem_offers(turn) if x["corporation"] == a["corporation"]]
        src = a.get("from", "market")
        if not any(x["from"] == src for x in offers):
            raise Refusal("redeem.illegal", f"{a['corporation']} may not redeem a share from {src} now: once per "
                                            "stock round by its president, from the market first, at most 40% "
                                            "held, 60% left out, no change of presidency, cash for the price [5.10]")
        s = self.state
        c = s.corp[a["corporation"]]
        price = self.market.price(c.cell)
        if src == "market":
            s.pay(corp_key(c.id), "bank", price)
            s.move_shares(c, "market", "treasury", 1)
        else:
            s.pay(corp_key(c.id), player_key(src), price)
            s.move_shares(c, player_key(src), "treasury", 1)
        turn.round.redeemed[c.id] = turn.round.redeemed.get(c.id, 0) + 1
        s.event("redeem", corporation=c.id, source=src, price=price)
        turn.note_action()
        turn.done = True
        return a

    def reissue_par(self, c) -> int:
        """[5.11] the higher of the old par and the value nearest 75% of the price."""
        values = sorted({p for row in self.market.rows for p, _k in row
                         if self.data["par"][0] <= p <= self.data["reissue_par_max"]})
        target = self.market.price(c.cell) * 3 / 4
        nearest = min(values, key=lambda v: (abs(v - target), -v))
        return min(self.data["reissue_par_max"], max(c.reissue_par or c.par, nearest))

    def reissue_offers(self, turn) -> list[dict]:
        out = []
        for c in self.state.corporations:
            if (c.president == turn.player and not c.closed and c.held("treasury") and not c.held("ipo")
                    and c.id not in turn.round.reissued):
                out.append({"type": "reissue", "player": turn.player, "corporation": c.id})
        return out

    def reissue(self, turn, a):
        if not any(x["corporation"] == a["corporation"] for x in self.reissue_offers(turn)):
            raise Refusal("reissue.illegal", "a president reissues all redeemed shares of his company once per stock "
                                             "round, after the original initial offering is sold out [5.11]")
        s = self.state
        c = s.corp[a["corporation"]]
        par = self.reissue_par(c)
        n = c.held("treasury")
        s.move_shares(c, "treasury", "ipo", n)
        c.reissue_par = par
        turn.round.reissued.add(c.id)
        s.event("reissue", corporation=c.id, count=n, par=par)
        turn.note_action()
        turn.done = True
        return a

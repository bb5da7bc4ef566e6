"""Share price protection (1832 [5.9]; the 1850 family).

After a player's stock turn (or a forced sale for a train, [10.6.2]), the president of
each company whose shares he sold may buy *all* of those shares from him at the price
he sold them for, as his only action; the share price then returns to where it was, as
if the sale never happened: its box, and its place in the box's stack. Companies are
offered in the order they were sold; a ``pass`` declines. The seller already has the
bank's money for the shares, so the president pays the bank: the same dollars end in
the same places as a direct payment.
"""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.round import Step
from trainruns.game.shares import update_president
from trainruns.game.state import player_key


class ProtectStep(Step):
    def __init__(self, game, sale: dict, on_protect=None):
        super().__init__(game)
        self.sale = sale          # {"corporation", "player", "count", "price", "cell", "depth"}
        self.on_protect = on_protect
        self.corp = game.state.corp[sale["corporation"]]

    def enter(self):
        # a president who cannot pay (or hold) the shares has no decision to make
        if not self._eligible() or not self._can_pay():
            self.done = True

    def _eligible(self):
        c, s = self.corp, self.sale
        return (not c.closed and c.president is not None and c.president != s["player"]
                and c.held("market") >= s["count"])

    def active(self):
        return {"player": self.corp.president}

    def _can_pay(self):
        r = self.game.rules
        c, s = self.corp, self.sale
        p = self.state.player[c.president]
        room = r.cert_room(c.president)
        counted = r.counts_for_cell(s["cell"])
        return p.cash >= s["count"] * s["price"] and (not counted or room >= self.certificates_bought())

    def certificates_bought(self) -> int:
        """The certificates the protection hands the president, against his certificate
        limit: one a share here; a title whose certificates hold several shares says
        how many."""
        return self.sale["count"]

    def actions(self):
        out = []
        if self._can_pay():
            out.append({"type": "protect", "player": self.corp.president, "corporation": self.corp.id})
        return out + [{"type": "pass", "player": self.corp.president}]

    def process(self, a):
        c, s, r = self.corp, self.sale, self.game.rules
        if a.get("player") != c.president:
            raise Refusal("turn.not-yours", f"{c.president}, the president of {c.id}, decides on "
                                            f"protection{r.cite('protection')}")
        if a["type"] == "pass":
            self.done = True
            return a
        if a["type"] != "protect" or a.get("corporation") != c.id:
            raise Refusal("protect.action", f"{c.president} may protect {c.id} or pass{r.cite('protection')}")
        if not self._can_pay():
            raise Refusal("protect.cash", f"protecting costs ${s['count'] * s['price']}{r.cite('protection')} "
                                          f"and must stay within the certificate limit{r.cite('limits')}")
        st = self.state
        st.pay(player_key(c.president), "bank", s["count"] * s["price"])
        st.move_shares(c, "market", player_key(c.president), s["count"])
        old = c.cell
        c.cell = tuple(s["cell"])
        self.game.rules.market.put_back(c.id, old, c.cell, s["depth"])
        st.event("protect", corporation=c.id, player=c.president, count=s["count"], price=s["price"])
        update_president(st, c)
        if self.on_protect:
            self.on_protect(c.president)
        self.done = True
        return a

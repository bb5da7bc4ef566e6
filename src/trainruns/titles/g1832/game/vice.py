"""A System's vice-president's certificates (1832 [11.6] System Presidency, [5.5]).

- [11.6]: a component company's president's certificate not exchanged for the System's
  president's certificate stays in play as a "vice-president's" certificate: 2 shares
  (10% of the System) in one certificate, "bought and sold as a single transaction".
  ``Corporation1832.vice_presidents`` maps the component to its holder (a player's key
  or ``"market"``); the holder's share count includes its 2 shares.
- A sale of ``n`` shares is ordinary shares first, then whole vice-president's
  certificates (docs/gaps.md: the rulebook does not say which certificates a sale is
  made of; this keeps the seller's certificates fewest); a count that could only be
  made by splitting a certificate is refused. A vice-president's certificate in the open
  market is bought as one purchase of 2 shares (``buy_shares`` with
  ``"vice_president": component``). A redemption takes a 5% share ([11.6.9]), never a
  vice-president's certificate.
- [5.5] Change of Presidency: "If the new president of a System has any vice-president's
  certificates, they must be included in the shares traded for the president's
  certificate": they go to the old president with the normal shares that make up 20%.
"""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.shares import presiding_after, scaled, update_president
from trainruns.game.state import player_key

MARKET = "market"


class VicePresidentRules:
    def vice_certs(self, c, holder: str) -> list[str]:
        """The components whose vice-president's certificate ``holder`` (a holder key)
        holds, in component order."""
        return [comp for comp in c.components if c.vice_presidents.get(comp) == holder]

    def ordinary_shares(self, c, holder: str) -> int:
        """Shares of ``c`` ``holder`` holds outside the president's and vice-presidents'
        certificates ([11.6])."""
        n = c.held(holder) - 2 * len(self.vice_certs(c, holder))
        if c.president is not None and holder == player_key(c.president):
            n -= scaled(self.shares, c, "president")
        return n

    def change_president(self, c) -> str | None:
        """[5.5] a player holding more than the president takes the certificate; in a
        System his vice-president's certificates are part of the 20% he trades for it."""
        old = c.president
        new = update_president(self.state, c)
        if new is not None:
            self.trade_vice_certs(c, old, new)
        return new

    def trade_vice_certs(self, c, old: str, new: str):
        """[5.5] the new president's vice-president's certificates (at most two: 20% is
        4 shares) go to the old president with the president's certificate trade."""
        if not c.system or old is None:
            return
        moved = self.vice_certs(c, player_key(new))[:scaled(self.shares, c, "president") // 2]
        for comp in moved:
            c.vice_presidents[comp] = player_key(old)
        if moved:
            self.state.event("vice_president", corporation=c.id, components=moved, player=old, previous=new,
                             reason="president's certificate traded [5.5]")

    def vice_certs_sold(self, c, name: str, count: int, president_after: str | None) -> list[str] | None:
        """Which vice-president's certificates a sale of ``count`` shares by ``name``
        includes: ordinary shares first, then whole certificates; None when the count
        would split one ([11.6]). ``president_after`` is who presides after the sale (a
        seller who loses the presidency sells from the shares traded to him, [5.5])."""
        if not c.system:
            return []
        key = player_key(name)
        vps = self.vice_certs(c, key)
        if c.president == name and president_after not in (None, name):
            # the new president's certificates come to him first
            vps = vps + self.vice_certs(c, player_key(president_after))[:scaled(self.shares, c, "president") // 2]
            vps = [comp for comp in c.components if comp in vps]
            ordinary = c.held(key) - 2 * len(vps)
        else:
            ordinary = c.held(key) - 2 * len(vps) - (scaled(self.shares, c, "president") if c.president == name else 0)
        rest = count - max(0, ordinary)
        if rest <= 0:
            return []
        whole = -(-rest // 2)
        if whole > len(vps) or count - 2 * whole < 0 or count - 2 * whole > max(0, ordinary):
            return None
        return vps[len(vps) - whole:]

    def president_after_sale(self, c, name: str, count: int) -> str | None:
        """[5.5] who presides ``c`` once ``name`` sold ``count`` shares: the player
        holding most, ties kept by the president, then closest to his left."""
        if c.president != name:
            return c.president
        return presiding_after(self.state, c, name, c.held(player_key(name)) - count)

    def sale_ok(self, c, name: str, count: int) -> bool:
        """A sale of ``count`` shares of ``c`` by ``name`` splits no vice-president's
        certificate ([11.6])."""
        return self.vice_certs_sold(c, name, count, self.president_after_sale(c, name, count)) is not None

    def sale_counts(self, c, name: str, low: int, most: int):
        """The listed count of a sale of ``c`` from ``low`` to ``most`` shares, without
        the counts that would split a vice-president's certificate: a number, a
        ``{"min", "max"}`` range, or one with ``"step": 2`` (only whole certificates
        left); None when no count is legal."""
        counts = [n for n in range(max(1, low), most + 1) if self.sale_ok(c, name, n)]
        if not counts:
            return None
        if len(counts) == 1:
            return counts[0]
        step = counts[1] - counts[0]
        # the longest run from the smallest count with one step: every listed count is legal
        run = [counts[0]]
        for n in counts[1:]:
            if n - run[-1] != step:
                break
            run.append(n)
        if len(run) == 1:
            return run[0]
        out = {"min": run[0], "max": run[-1]}
        if step != 1:
            out["step"] = step
        return out

    def largest_sale(self, c, name: str, most: int) -> int:
        """The most shares up to ``most`` that ``name`` may sell of ``c`` in one block
        without splitting a vice-president's certificate ([11.6])."""
        return next((n for n in range(most, 0, -1) if self.sale_ok(c, name, n)), 0)

    def move_sold_vice_certs(self, c, comps: list[str]):
        for comp in comps:
            c.vice_presidents[comp] = MARKET

    def vice_cert_buys(self, turn) -> list[dict]:
        """[11.6] a vice-president's certificate in the open market, bought as one
        certificate of 2 shares at twice the market price ([5.3]), within the certificate
        limit and the 60% holding limit ([5.4])."""
        r, s, name = self, self.state, turn.player
        out = []
        cash = s.player[name].cash
        room = r.cert_room(name)
        for c in s.corporations:
            if not c.system or c.closed or c.cell is None or r.market.zone(c.cell) == "closed":
                continue
            comps = self.vice_certs(c, MARKET)
            if not comps or c.id in turn.round.sold_by.get(name, set()):
                continue
            if r.counts_for_limit(c) and room < 1:
                continue
            if r.holding_room(c, name) < 2:
                continue
            if cash < 2 * r.market.price(c.cell):
                continue
            out.append({"type": "buy_shares", "player": name, "corporation": c.id, "from": "market", "count": 2,
                        "vice_president": comps[0]})
        return out

    def buy_vice_cert(self, turn, a):
        """Process a listed purchase of a vice-president's certificate ([11.6])."""
        listed = [x for x in self.vice_cert_buys(turn) if x["corporation"] == a["corporation"]]
        c = self.state.corp.get(a["corporation"])
        comp = a.get("vice_president")
        if turn.bought or not listed or c is None or c.vice_presidents.get(comp) != MARKET \
                or a.get("count", 2) != 2:
            raise Refusal("stock.vice-president", f"no vice-president's certificate {comp!r} of {a['corporation']} "
                                                  "may be bought now: one in the open market, bought as a single "
                                                  "purchase of 2 shares within the limits [11.6], [5.3], [5.4]")
        price = self.market.price(c.cell)
        s = self.state
        s.pay(player_key(turn.player), "bank", 2 * price)
        s.move_shares(c, MARKET, player_key(turn.player), 2)
        c.vice_presidents[comp] = player_key(turn.player)
        s.event("buy", corporation=c.id, player=turn.player, count=2, price=price, source=MARKET,
                vice_president=comp)
        self.change_president(c)
        turn._bought()
        return a

    def market_ordinary(self, c) -> int:
        """Shares in the open market outside vice-president's certificates."""
        return c.held(MARKET) - 2 * len(self.vice_certs(c, MARKET)) if c.system else c.held(MARKET)

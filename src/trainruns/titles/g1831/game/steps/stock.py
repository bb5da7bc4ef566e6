"""The 1831 stock round (4.2-4.8): turns from the FIRST STOCK OPTION holder; a turn
sells (4.6) and then buys one certificate, or a block of one company (4.7.3); the round
ends when every player in turn neither sold nor bought (4.8.1)."""

from __future__ import annotations

from trainruns.game.action import free_amount, within
from trainruns.game.errors import Refusal
from trainruns.game.round import Step
from trainruns.game.steps.stock import StockTurn
from trainruns.titles.g1831.game import certs

KINDS = ("preferred", "common", "bond")


class SeatStep(Step):
    """3.2.3.2: the player who drew GOVERNMENT INTERVENTION while the first player was
    drawn may, before the first stock round, swap seats with any player; swapping with
    the first player does not change who goes first."""

    def __init__(self, game, player):
        super().__init__(game)
        self.player = player

    def active(self):
        return {"player": self.player}

    def actions(self):
        return [{"type": "swap_seats", "player": self.player, "with": p.name}
                for p in self.state.players if p.name != self.player] + [{"type": "pass", "player": self.player}]

    def process(self, a):
        if a.get("player") != self.player:
            raise Refusal("turn.not-yours", f"{self.player} drew GOVERNMENT INTERVENTION and chooses a seat (3.2.3.2)")
        if a["type"] == "swap_seats":
            if a["with"] == self.player:
                raise Refusal("seat.self", "a seat is swapped with another player (3.2.3.2)")
            self.game.rules.swap_seats(self.player, a["with"])
        elif a["type"] != "pass":
            raise Refusal("seat.first", f"{self.player} swaps seats or passes first (3.2.3.2)")
        self.done = True
        return a


class BuyBackStep(Step):
    """4.6.4: commons or bonds just sold into the pool: the president may buy them at
    once for the company, with its own cash, within 4.6.5's holding limits."""

    def __init__(self, game, corp, kind, sold):
        super().__init__(game)
        self.corp, self.kind, self.sold = corp, kind, sold

    def enter(self):
        if not self.game.rules.buy_back_offer(self.corp, self.kind, self.sold):
            self.done = True

    def active(self):
        return {"player": self.corp.president, "corporation": self.corp.id}

    def actions(self):
        n = self.game.rules.buy_back_offer(self.corp, self.kind, self.sold)
        out = [{"type": "company_buy", "player": self.corp.president, "corporation": self.corp.id,
                "kind": self.kind, "count": free_amount(1, n)}] if n else []
        return out + [{"type": "pass", "player": self.corp.president}]

    def process(self, a):
        r = self.game.rules
        if a.get("player") != self.corp.president:
            raise Refusal("turn.not-yours", f"{self.corp.president}, {self.corp.id}'s president, decides (4.6.4)")
        if a["type"] == "company_buy":
            n = r.buy_back_offer(self.corp, self.kind, self.sold)
            if r.corporation_id(a["corporation"]) != self.corp.id or a["kind"] != self.kind or not 1 <= a["count"] <= n:
                raise Refusal("stock.buy-back", f"{self.corp.id} may buy 1 to {n} of the {self.kind} certificates "
                                                "just sold, with its own cash, holding at most 25% of its stock "
                                                "and four of its bonds (4.6.4, 4.6.5)")
            r.buy_back(self.corp, self.kind, a["count"])
        elif a["type"] != "pass":
            raise Refusal("stock.buy-back", f"{self.corp.id}'s president buys back or passes (4.6.4)")
        self.done = True
        return a


class StockTurn1831(StockTurn):
    """The shared turn with 1831's stock: preferred, common and bonds (4.1), sales
    before the purchase (4.5.1), a block of one company's certificates (4.7.3), the
    corrections a player owes first (4.2.2, 5.4.6) and a company's buy-back of what
    was just sold (4.6.4)."""

    buy_then_sell = False
    sales_listed_first = True

    block_corp = None   # the company of the block this turn buys (4.7.3.1)

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.kinds_sold: dict[str, list] = {}   # each company's kinds sold this turn (4.6.3.1)
        self.sale_cells: dict[str, tuple] = {}   # its Stock Marker's square before its sale

    def buys_per_turn(self):
        return self.game.rules.block_size()

    def _buys(self) -> list[dict]:
        r, s, name = self.game.rules, self.state, self.player
        cash = s.player[name].cash
        out = []
        for c in s.corporations:
            if self.block_corp is not None and c.id != self.block_corp:
                continue
            if c.id in self.round.sold_by.get(name, set()):
                continue   # 4.6.6, 4.7.4
            if c.closed:
                continue   # absorbed in a merger: its stock is retired (5.9.7.4)
            if c.par is None:
                if self.bought == 0 and r.for_sale(c, self.round.number) and r.cert_room(name) >= 1:
                    for v in r.par_values():
                        if v * certs.shares_of(certs.president_cert(c)) <= cash:
                            out.append({"type": "par", "player": name, "corporation": c.id, "price": v})
                continue
            gi = r.gi_room(c, name)
            for source in ("ipo", "market"):
                for kind in KINDS:
                    if kind == "bond" and (source == "ipo" or c.bond_cell is None):
                        continue
                    if source == "ipo" and kind == "common" and certs.held(c, "ipo", "preferred"):
                        continue   # 4.1.1.3: common only when no preferred is left there
                    cert = r.next_cert(c, kind, source)
                    if cert is None or not self.within_gi(cert, gi) or not self.within_limit(c, cert):
                        continue
                    if r.cert_price(c, cert, source) <= cash:
                        out.append({"type": "buy_shares", "player": name, "corporation": c.id, "from": source,
                                    "kind": kind, "count": 1})
        return out

    @staticmethod
    def within_gi(cert, room) -> bool:
        """4.2.2: under Government Intervention "players may own at most 70% of any one
        company's or system's preferred stock and common stock" (``room``: the units left
        of it, None without GI); bonds are neither."""
        return room is None or cert.kind == "bond" or cert.size <= room

    def within_limit(self, c, cert) -> bool:
        """4.7.7: a certificate that counts toward the limit only below it; 4.7.7.1: "Stock
        certificates of companies or systems in receivership ... may still be purchased",
        and their commons do not count (:meth:`cert_counts`)."""
        r = self.game.rules
        return r.cert_room(self.player) >= 1 or not r.cert_counts(c, cert)

    def sales_of(self, c) -> list[dict]:
        """4.6: each kind of ``c``'s certificates the player may sell (:meth:`max_sale`)
        and has not sold this turn (4.6.3.1)."""
        if c.cell is None:
            return []
        r, done = self.game.rules, self.kinds_sold.get(c.id, ())
        return [{"type": "sell_shares", "player": self.player, "corporation": c.id, "kind": kind,
                 "count": free_amount(1, n)}
                for kind in KINDS if kind not in done for n in [r.max_sale(c, self.player, kind)] if n]

    def forced_sales(self) -> list[dict]:
        """4.2.2: a player over GI's 70% corrects at his first opportunity; 5.4.6: so
        does a player over the certificate limit once a company left receivership."""
        if self.bought:
            return []
        r = self.game.rules
        return [x for x in r.gi_corrections(self.player) + r.limit_corrections(self.player)
                if x["kind"] not in self.kinds_sold.get(x["corporation"], ())]

    def meets_forced(self, a, forced):
        return any(a["type"] == "sell_shares" and a.get("corporation") == x["corporation"]
                   and a.get("kind") == x["kind"] and within(x["count"], a.get("count")) for x in forced)

    def why_forced(self, forced):
        r, x = self.game.rules, forced[0]
        if r.gi_corrections(self.player):
            return "stock.gi-correct", (f"{self.player} holds over 70% of {x['corporation']} under Government "
                                        f"Intervention and must sell {x['count']} {x['kind']} first (4.2.2)")
        return "stock.limit-correct", (f"{self.player} holds more than {r.cert_limit()} certificates and must sell "
                                       "to the limit first (5.4.6, 4.7.7)")

    def sold_already(self, c, a) -> bool:
        """4.6.3.1: "All stock sold in a company or system takes place at the same time.
        You may not sell your preferred stock first and then your common (or vice versa),
        but you may sell any combination of stock certificates": one sale of a company
        per turn, told kind by kind (one ``sell_shares`` each, each kind once), every
        certificate at the price posted when the sale began (:meth:`sell`)."""
        return a.get("kind", "common") in self.kinds_sold.get(c.id, ())

    def why_sold_already(self, c, a) -> str:
        return (f"{c.id}'s {a.get('kind', 'common')} stock is sold once per turn: all stock sold in a company "
                "takes place at the same time (4.6.3.1)")

    def note_sale(self, c, a):
        self.kinds_sold.setdefault(c.id, []).append(a.get("kind", "common"))

    def sell(self, c, a):
        r = self.game.rules
        kind = a.get("kind", "common")
        if kind not in KINDS:
            raise Refusal("stock.kind", "kind is 'preferred', 'common' or 'bond' (4.1)")
        n = r.max_sale(c, self.player, kind) if c.cell is not None else 0
        if not 1 <= a["count"] <= n:
            raise Refusal("stock.sell-limit", f"{self.player} may sell at most {n} {kind} certificate(s) of {c.id} "
                                              "now (pool limit 5 shares 4.6.1.1, president's certificate 4.6.2, "
                                              "receivership 4.6.9, GI 4.6.7-8, the bank's cash 4.6.3.4)")
        before = self.sale_cells.setdefault(c.id, c.cell)   # 4.6.3.1: the sale's start
        r.sell(c, self.player, *[a["count"] if kind == k else 0 for k in KINDS], before=before)

    def after_sale(self, c, a):
        if a.get("kind", "common") != "preferred" and c.cell is not None:
            self.round.push(BuyBackStep(self.game, c, a.get("kind", "common"), a["count"]))   # 4.6.4

    def _par(self, a):
        return self._buy(a)

    def _buy(self, a):
        r = self.game.rules
        c = r.corporation(a["corporation"])
        listed = [x for x in self._buys() if x["type"] == a["type"] and x["corporation"] == c.id
                  and x.get("from") == a.get("from") and x.get("kind", "preferred") == a.get("kind", "preferred")
                  and x.get("price") == (a.get("price") if a["type"] == "par" else x.get("price"))]
        if not listed or not self.buying_open() or a.get("count", 1) != 1:
            raise Refusal(*self._why_not(c, a))
        if a["type"] == "par":
            r.start_corporation(c, self.player, a["price"])
        else:
            r.buy_cert(c, self.player, a.get("kind", "preferred"), a["from"])
            if a["from"] == "market":
                r.owed_sales(c)   # 5.3.4: room in the pool: a company's owed sale happens now
        self.block_corp = c.id
        self.state.title_state.first_stock_option = self.player   # 4.7.12
        self._bought()
        return a

    def _why_not(self, c, a):
        r, name = self.game.rules, self.player
        if a.get("count", 1) != 1:
            return "stock.one-cert", "certificates are bought one by one (a block is several buys, 4.7.3)"
        if self.bought >= r.block_size():
            return "stock.block", f"at most {r.block_size()} certificate(s) this turn (4.7.3, GI 4.2.2)"
        if self.block_corp and c.id != self.block_corp:
            return "stock.block", "a block is of one company's stock (4.7.3.1)"
        if c.id in self.round.sold_by.get(name, set()):
            return "stock.rebuy", f"{name} sold {c.id} this round (4.6.6, 4.7.4)"
        cert = None if a["type"] == "par" else r.next_cert(c, a.get("kind", "preferred"), a.get("from"))
        if r.cert_room(name) < 1 and (cert is None or r.cert_counts(c, cert)):
            return "stock.cert-limit", f"{name} is at the certificate limit {r.cert_limit()} (4.7.7)"
        if a["type"] == "par":
            if c.par is not None:
                return "stock.started", f"{c.id} has a president already (4.1.1.1)"
            if not r.for_sale(c, self.round.number):
                return "stock.closed-out", (f"{c.id}'s stock went back to the initial offering this stock round; "
                                            "it is for sale from the next Stock Round (4.3.2)")
            return "stock.par", f"par is one of {r.par_values()} the player can pay (4.7.5)"
        if c.par is None:
            return "stock.not-started", f"{c.id}'s president's preferred must be bought first (4.1.1.1)"
        if a.get("kind") == "common" and a["from"] == "ipo" and certs.held(c, "ipo", "preferred"):
            return "stock.common", f"{c.id}'s common is sold once no preferred is left (4.1.1.3)"
        if r.gi_room(c, name) is not None and a.get("kind") != "bond":
            return "stock.gi-70", f"under Government Intervention at most 70% of {c.id} (4.2.2)"
        return "stock.none", f"no such {c.id} certificate to buy at a price {name} can pay (4.7)"

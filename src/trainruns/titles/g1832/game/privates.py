"""1832 privates' abilities and companies buying privates ([12], [16.2], [7.5], [6.5.2]).

- a company buys a private from a player during its operating turn in phases 3-4 for
  half to double its cost; P5 also in phase 2 for half to full cost; never P4, P6, P7
  ([12]); the deal's price is the log's (both parties agreed, docs/game-log.md "Deals");
- P5 (WVCF): the company buying it gets a WVCF token free; others buy one for $80 ($40
  to the company owning P5 while it is open), which counts as a yellow tile lay, only
  once P5 is owned by a company or closed; five tokens, one per company ([6.5.2]);
- P2 (Cotton) and P3 (Port): the owning company places the token as an extra token lay
  (Cotton on a non-coastal city, Port on an anchor city) ([16.2]);
- Key West: the FEC places it on Miami from phase 3 as its sole token placement of
  that operating round ([7.5]);
- P4 (London Investment): exchanged in a stock turn, as its purchase, for a share of a
  company whose president's certificate was bought this stock round and its owner has
  not sold this round ([16.2] P4, [5.3]).
"""

from __future__ import annotations

from trainruns.game.action import free_amount
from trainruns.game.errors import Refusal
from trainruns.game.state import corp_key, player_key
from trainruns.game.tile_lays import may_lay
from trainruns.titles.g1832.game.state import SpecialToken


class PrivateRules:
    # --- companies buying privates ([12]) ---------------------------------------------------

    def _private_price_range(self, x):
        phase = self.state.phase
        if x.id in self.data["no_company_sale"] or not x.open or not (x.owner or "").startswith("player:"):
            return None
        low = -(-x.cost // 2)
        if self.phases.has(phase, "private_sales"):
            return low, 2 * x.cost
        if self.phases.has(phase, "p5_sale_face") and x.id == self.data["wvcf"]["private"]:
            return low, x.cost
        return None

    def private_buys(self, c) -> list[dict]:
        out = []
        for x in self.state.privates:
            rng = self._private_price_range(x)
            if rng is None or c.cash < rng[0]:
                continue
            out.append({"type": "buy_private", "corporation": c.id, "private": x.id,
                        "price": free_amount(rng[0], min(rng[1], c.cash))})
        return out

    def buy_private_for(self, c, a):
        x = self.state.private[a["private"]]
        rng = self._private_price_range(x)
        if rng is None:
            raise Refusal("private.not-for-sale", f"{x.id} cannot be bought by a company now (phase "
                                                  f"{self.state.phase}; never P4, P6, P7) [12]")
        price = a.get("price")
        if not isinstance(price, int) or not rng[0] <= price <= rng[1]:
            raise Refusal("private.price", f"{x.id} sells to a company for ${rng[0]} to ${rng[1]} [12]")
        if price > c.cash:
            raise Refusal("private.cash", f"{c.id} has ${c.cash} [12]")
        s = self.state
        seller = x.owner
        s.pay(corp_key(c.id), seller, price)
        x.owner = corp_key(c.id)
        s.event("private_sold", private=x.id, corporation=c.id, player=seller.partition(":")[2], price=price)
        t = s.title_state
        if x.id == self.data["wvcf"]["private"] and c.id not in t.coal_holders and t.coal_tokens_left:
            t.coal_holders.append(c.id)
            t.coal_tokens_left -= 1
            s.event("coal_token", corporation=c.id, cost=0)
        return a

    # --- WVCF tokens ([6.5.2]) --------------------------------------------------------------

    def coal_token_offer(self, c, lays) -> dict | None:
        """[6.5.2] a WVCF token for $80, once P5 is owned by a company or closed, one per
        company, five in all; "Paying for the West Virginia Coal Fields counts as a
        yellow tile lay", so it is offered while ``c`` may still lay a yellow tile after
        ``lays`` ([6] a company's two yellow tiles or one upgrade, [11.6.8] a System's
        three yellow tiles or one yellow tile and an upgrade: :meth:`tile_allowance`)."""
        t = self.state.title_state
        w = self.data["wvcf"]
        p5 = self.state.private.get(w["private"])
        p5_ready = p5 is None or not p5.open or (p5.owner or "").startswith("corp:")
        if (not p5_ready or c.id in t.coal_holders or not t.coal_tokens_left or c.cash < w["price"]
                or not may_lay(self.tile_allowance(c), lays, False)):
            return None
        return {"type": "buy_token", "corporation": c.id, "kind": "coal"}

    def buy_coal_token(self, c, step):
        if self.coal_token_offer(c, step.lays) is None:
            raise Refusal("wvcf.token", "a WVCF token costs $80 and a yellow tile lay, once P5 is owned by a company "
                                        "or closed; one per company, five in all [6.5.2]")
        s, w = self.state, self.data["wvcf"]
        p5 = s.private.get(w["private"])
        to_owner = w["to_owner"] if p5 is not None and p5.open and (p5.owner or "").startswith("corp:") else 0
        if to_owner and p5.owner != corp_key(c.id):
            s.pay(corp_key(c.id), p5.owner, to_owner)
        else:
            to_owner = 0
        s.pay(corp_key(c.id), "bank", w["price"] - to_owner)
        s.title_state.coal_holders.append(c.id)
        s.title_state.coal_tokens_left -= 1
        step.lays.append({"coal": True, "upgrade": False})
        s.event("coal_token", corporation=c.id, cost=w["price"])

    # --- Cotton, Port, Key West ([16.2], [7.5]) ---------------------------------------------------

    def _cities(self, hex_id):
        from trainruns.titles.g1832 import TITLE

        tiled = TITLE.facts.tiled
        laid = [t for t in self.state.tiles if t.hex == hex_id]
        spec = tiled.tiles[laid[-1].tile] if laid else tiled.hexes.get(hex_id, {})
        return [k for k, st in enumerate(spec.get("stops", [])) if st.get("kind") == "city"]

    def special_tokens(self, c) -> list[dict]:
        s, t = self.state, self.state.title_state
        out = []
        for x in s.privates:
            if not x.open or x.owner != corp_key(c.id):
                continue
            if x.id == "P2" and t.cotton is None and not t.cotton_used:
                for h in self.data["cotton_hexes"]:
                    for k in self._cities(h):
                        out.append({"hex": h, "stop": k, "kind": "cotton"})
            if x.id == "P3" and t.port is None and not t.port_used:
                from trainruns.titles.g1832 import TITLE

                for h in TITLE.facts.port_hexes:
                    out.append({"hex": h, "kind": "port"})
        kw = self.data["key_west"]
        if c.id == self.key_west_holder() and t.key_west is None and not t.key_west_used and \
                self.phases.has(s.phase, "key_west"):
            out.append({"hex": kw["hex"], "kind": "key_west"})
        return out

    def place_special(self, c, m, step):
        s, t = self.state, self.state.title_state
        kind = m["kind"]
        if kind == "cotton":
            t.cotton = SpecialToken(m["hex"], c.id, m["stop"])
            t.cotton_used = True
        elif kind == "port":
            t.port = SpecialToken(m["hex"], c.id)
            t.port_used = True
        else:
            t.key_west = c.id
            t.key_west_used = True
            step.done = True   # [7.5] its sole token placement this operating round
        s.event("special_token", kind=kind, corporation=c.id, hex=m["hex"])

    # --- privates between players ([16.1]) -----------------------------------------------------

    def player_private_offers(self, turn) -> list[dict]:
        """[16.1] a player may buy a private from another player at any agreed price of
        at least $1 in place of his stock purchase (not P4 once used, [16.2] P4; not P6
        from phase 6, [17.3]); not in the initial stock round, where nobody sells a
        certificate ([5.7]). A player who sold a private may not buy it back in the same
        stock round: [5.3] Selling Shares read for a private company, "a company with
        only one certificate" (Glossary) (docs/gaps.md; it also bounds the deals)."""
        s = self.state
        if turn.bought or not turn.selling or self.cert_room(turn.player) < 1:
            return []
        sold = turn.round.sold_by.get(turn.player, set())
        cash = s.player[turn.player].cash
        out = []
        for x in s.privates:
            if not x.open or not (x.owner or "").startswith("player:") or x.owner == player_key(turn.player):
                continue
            if x.id in sold or x.id == "P4" and s.title_state.london is not None:
                continue
            if x.id == self.data["southern_bank"]["id"] and self.phases.index(s.phase) >= self.phases.index("6"):
                continue
            if cash >= 1:
                out.append({"type": "trade_private", "player": turn.player, "private": x.id,
                            "from": x.owner.partition(":")[2], "price": {"min": 1, "max": cash}})
        return out

    def buy_private_from_player(self, turn, a):
        x = self.state.private[a["private"]]
        offer = next((o for o in self.player_private_offers(turn) if o["private"] == x.id), None)
        price = a.get("price")
        if offer is None or a.get("from") != offer["from"] or not isinstance(price, int) or \
                not 1 <= price <= offer["price"]["max"]:
            raise Refusal("private.trade", "a private held by another player is bought at an agreed price of at "
                                           "least $1, in place of the turn's stock purchase [16.1]")
        s = self.state
        s.pay(player_key(turn.player), x.owner, price)
        s.event("private_sold", private=x.id, player=turn.player, seller=offer["from"], price=price)
        x.owner = player_key(turn.player)
        turn.round.sold_by.setdefault(offer["from"], set()).add(x.id)
        turn._bought()
        return a

    # --- P4 London Investment ([16.2] P4) ----------------------------------------------------------

    def london_offers(self, turn) -> list[dict]:
        """[16.2] P4: its owner exchanges it, once, for a share of a company whose
        president's certificate was bought this stock round; "Using the London Investment
        Company to acquire a share in this manner counts as a stock purchase", so it is
        the turn's purchase, within the limits ([5.4]), not of a company he sold this
        round ([5.3] "Once a player has sold a share of a company, that player may not
        buy another share in that company until after the next set of operating rounds"),
        and not a share the initial offering may not sell now (:meth:`ipo_refusal`:
        [17.4] a 6th share waits for the company's predecessors)."""
        s = self.state
        p4 = s.private.get("P4")
        if (p4 is None or not p4.open or p4.owner != player_key(turn.player) or turn.bought
                or s.title_state.london is not None):
            return []
        sold = turn.round.sold_by.get(turn.player, set())
        out = []
        for cid in sorted(turn.round.started_here):
            c = s.corp[cid]
            if cid in sold or self.ipo_refusal(c) is not None:
                continue
            if not c.closed and c.held("ipo") and self.holding_room(c, turn.player) >= 1:
                if not self.counts_for_limit(c) or self.cert_room(turn.player) >= 1:
                    out.append({"type": "exchange", "player": turn.player, "private": "P4", "corporation": cid})
        return out

    def london_exchange(self, turn, a):
        if a["private"] != "P4" or not any(x["corporation"] == a["corporation"] for x in self.london_offers(turn)):
            raise Refusal("london.exchange", "P4 buys one share of a company whose president's certificate was "
                                             "bought this stock round, as the turn's purchase, once, not of a "
                                             "company he sold this round [16.2] P4, [5.3]")
        s = self.state
        c = s.corp[a["corporation"]]
        s.move_shares(c, "ipo", player_key(turn.player), 1)
        s.title_state.london = c.id
        s.event("exchange", private="P4", player=turn.player, corporation=c.id)
        self.change_president(c)
        self.check_float(c)
        turn._bought()
        return a

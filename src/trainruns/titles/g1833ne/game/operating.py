"""1833NE operating rules as hooks of the generic operating steps: the position handed to
the route core (docs/rules-1833NE.md), track ("Game-specific mechanics": one yellow tile
plus a second yellow or an upgrade, each at least $20 plus the crossings it completes),
stations ("List of corporations": home and one more at $80, $40 for the B&W in Worcester,
the Sherbrooke joint token; the Worcester and Boston reservations are the route core's
token rule), runs, ferries, issuing and redeeming shares ("Comparison with 1830" item 3)
and corporations buying privates ("List of private companies")."""

from __future__ import annotations

from functools import cache

from trainruns.errors import InputError
from trainruns.game.action import bounds
from trainruns.game.errors import Refusal
from trainruns.game.issue import TYPES as ISSUE_TYPES
from trainruns.game.issue import issue_or_redeem, share_moves
from trainruns.game.state import corp_key
from trainruns.game.steps.consent import make_offer, was_declined
from trainruns.game.steps.track import check_rotation
from trainruns.game.tokens import carry_tokens
from trainruns.route.hexgrid import opposite


def _tiled():
    from trainruns.titles.g1833ne import TITLE

    return TITLE.facts.tiled


@cache
def _border_sides() -> dict:
    """(hex, side) -> (border key, cost) for the map's bridges, tunnels and passes."""
    tiled = _tiled()
    out = {}
    for b in tiled.base.get("cost_borders", []):
        a, z = b["hexes"]
        for side in range(6):
            if tiled.neighbour_of(a, side) == z:
                out[(a, side)] = (f"{a}-{z}", b["cost"])
                out[(z, opposite(side))] = (f"{a}-{z}", b["cost"])
    return out


class OperatingRules:
    # --- the position (docs/position-format.md; docs/rules-1833NE.md) ---------------------------------

    def operating_corporation(self):
        r = self.game.round
        if self.game.finished or r.kind != "operating" or r.turn is None:
            return None
        return r.turn.corporation   # also while another party answers its offer

    def position(self, cid=None, trains=None) -> dict:
        s = self.state
        pos = super().position(cid, trains)
        cid, t = pos["corporation"], s.title_state
        removed = set(self._removed_privates())
        pos.update(privates=[x.id for x in s.privates if x.open and x.owner == corp_key(cid) and x.id not in removed],
                   bonuses=[dict(b) for b in self.config.get("bonuses", [])],
                   lowell_merchants_bought=t.lowell_merchants_bought, privates_bought=list(t.privates_bought))
        if self._ferries_running():
            pos["ferries"] = self._ferry_entries(cid, "P5" in pos["privates"])
        return pos

    def _removed_privates(self):
        return self.phases.by_name[self.state.phase]["privates_removed"]

    # --- ferries ("Game-specific mechanics"; config) -----------------------------------------

    def _ferries_running(self) -> bool:
        return self.phases.index(self.state.phase) < self.phases.index(self.data["ferries_end"])

    def _ferry_entries(self, cid, luxury_allowed):
        """The corporation's ferries as the position takes them: the "New" bonus on the
        latest ferry bought, the "Last" bonus on the last of the config's ferries once all
        are sold ([?], docs/gaps.md), P5's doubling on its chosen ferry."""
        t = self.state.title_state
        order = t.ferry_order
        all_sold = order and len(order) == len(t.ferries)
        out = []
        for f in self.config.get("ferries", []):
            if t.ferries[f["id"]] != cid:
                continue
            e = {"hex": f["hex"], "value": f["value"]}
            if order and order[-1] == f["id"]:
                e["new"], e["new_bonus"] = True, self.config.get("new_ferry_bonus", 0)
            if all_sold and order[-1] == f["id"] and self.config.get("last_ferry_bonus"):
                e["last"], e["last_bonus"] = True, self.config["last_ferry_bonus"]
            if luxury_allowed and t.luxury_ferry == f["id"]:
                e["luxury"] = True
            out.append(e)
        return out

    def ferry_buys(self, c, turn) -> list[dict]:
        """Five ferries at $40 ("Game-specific mechanics"); when: [?], read as during the
        corporation's turn before it runs, one a turn, until phase IV (docs/gaps.md)."""
        t = self.state.title_state
        cost = self.config.get("ferry_cost", 40)
        if not self._ferries_running() or turn.ferry or c.cash < cost:
            return []
        return [{"type": "buy_ferry", "corporation": c.id, "ferry": f}
                for f, owner in t.ferries.items() if owner is None]

    def buy_ferry(self, c, turn, fid):
        t = self.state.title_state
        cost = self.config.get("ferry_cost", 40)
        self.state.pay(corp_key(c.id), "bank", cost)
        t.ferries[fid] = c.id
        t.ferry_order.append(fid)
        turn.ferry = True
        self.state.event("ferry", corporation=c.id, ferry=fid, cost=cost)
        self._assign_luxury(c)

    def _assign_luxury(self, c):
        """P5 doubles one ferry of its corporation and can't be reassigned: the first
        ferry it has when both meet (docs/gaps.md)."""
        t = self.state.title_state
        p5 = self.state.private.get("P5")
        if t.luxury_ferry or p5 is None or not p5.open or p5.owner != corp_key(c.id):
            return
        mine = [f for f in t.ferry_order if t.ferries[f] == c.id]
        if mine:
            t.luxury_ferry = mine[0]
            self.state.event("luxury_ferry", corporation=c.id, ferry=mine[0])

    # --- track ------------------------------------------------------------------------

    def blocked_hexes(self) -> set:
        """P1, P2 and P3 block their hexes until a corporation buys them."""
        s = self.state
        out = set()
        if self.phases.index(s.phase) >= self.phases.index(self.data["private_flip_phase"]):
            return out   # no player holds a private from phase III
        bought = s.title_state.privates_bought
        for x in s.privates:
            if x.id not in bought:
                out |= set(self.private_data[x.id]["blocks"])
        return out

    def _terrain(self, hex_id) -> int:
        return sum(t.get("cost", 0) for t in _tiled().hexes.get(hex_id, {}).get("terrain", []))

    def _new_borders(self, m) -> list:
        """Crossings the lay's track reaches that no earlier tile paid for."""
        tiled = _tiled()
        sides = tiled.track_sides(tiled.tiles[m["tile"]], m["rotation"])
        paid = self.state.title_state.borders_paid
        out = []
        for side in sorted(sides):
            key = _border_sides().get((m["hex"], side))
            if key and key[0] not in paid and key not in out:
                out.append(key)
        return out

    def legal_lay(self, m) -> bool:
        """Map: no track across an impassable border (the route core's check, asked
        for the one lay)."""
        from trainruns.titles.g1833ne import TITLE
        from trainruns.titles.g1833ne.route import hooks as rules

        try:
            rules.check_borders(TITLE.facts, {m["hex"]: (m["tile"], m["rotation"])}, "lay")
        except InputError:
            return False
        return True

    def lay_cost(self, c, m) -> int:
        """"every tile lay or upgrade costs at least $20, plus the cost of any bridge,
        tunnel or pass it completes" ([E]: the hex's terrain replaces the $20 when
        larger, first tile only)."""
        base = self.data["tile_cost_min"]
        if not m["upgrade"]:
            base = max(base, self._terrain(m["hex"]))
        return base + sum(cost for _k, cost in self._new_borders(m))

    def free_lay_hexes(self, c) -> set:
        """P2: the corporation that buys it may lay a free tile in Lowell that round."""
        ft = self.state.title_state.free_tile
        return {self.private_data["P2"]["free_tile"]} if ft and ft == c.id else set()

    def lowell_lays(self, c) -> list[dict]:
        """P2: "the corporation that buys it may lay a free tile there in that same round",
        also when it bought P2 once its track step was over (the B&L's turn in phase I
        opens past it): the free Lowell lays, any time in its turn (the track step lists
        them among its own lays: :class:`~.steps.track.TrackStep1833NE`)."""
        from trainruns.game import route_adapter

        if not self.free_lay_hexes(c):
            return []
        return [m for m in self.legal_lays(c, [], route_adapter.tile_lays) if m["free"] and "private" not in m]

    def _sides(self, tile, rotation) -> set:
        return _tiled().track_sides(_tiled().tiles[tile], rotation)

    def champlain_lays(self, c) -> list[dict]:
        """P3 Champlain & St. Lawrence: its corporation may lay two extra free tiles in
        C4 and C6, "connected to each other and with the C4 tile connected to Montreal,
        without needing to reach them from its own tokens" (data: companies.json)."""
        s = self.state
        p3 = s.private.get("P3")
        spec = self.data.get("champlain")
        if spec is None or p3 is None or not p3.open or p3.owner != corp_key(c.id):
            return []
        tiled = _tiled()
        laid = self.laid()
        used = self.tiles_used()   # on the map now: a tile upgraded away is back in the supply
        out = []
        for h in spec["hexes"]:
            if h["hex"] in laid:
                continue
            other = laid.get(h["other"])
            kind = tiled.hexes[h["hex"]].get("kind", "clear")
            for tile in tiled.manifest["first_tiles"].get(kind, []):
                if used.get(tile, 0) >= tiled.manifest["counts"].get(tile, 0):
                    continue
                seen = set()
                for rot in range(6):
                    sides = frozenset(self._sides(tile, rot))
                    if sides in seen:
                        continue
                    seen.add(sides)
                    if not set(h["must_reach"]) <= sides:
                        continue
                    if other and (h["toward_other"] not in sides
                                  or (h["toward_other"] + 3) % 6 not in self._sides(*other)):
                        continue
                    try:
                        tiled.check_lay(h["hex"], tile, rot, None, s.phase, "lay")
                    except InputError:
                        continue
                    m = {"hex": h["hex"], "tile": tile, "rotation": rot, "upgrade": False}
                    if self.legal_lay(m):
                        out.append(dict(m, cost=0, free=True, private="P3"))
        return out

    def legal_lays(self, c, lays, listing, extra_cash=0):
        """The shared lays, with P3's free and extra ones (:meth:`champlain_lays`) last."""
        if c.id == "B&L" and self.state.phase == "I" and not self.state.title_state.lowell_merchants_bought:
            return   # P2: the B&L lays no track in phase I until a corporation buys P2
        # a lay P3 makes free and extra is taken as P3's (the better for the corporation)
        free = {(m["hex"], m["tile"], m["rotation"] % 6): m for m in self.champlain_lays(c)}
        for m in super().legal_lays(c, lays, listing, extra_cash):
            if (m["hex"], m["tile"], m["rotation"] % 6) not in free:
                yield m
        yield from free.values()

    def lay_tile(self, c, m):
        s = self.state
        if not m.get("free"):
            s.title_state.borders_paid.extend(k for k, _c in self._new_borders(m))
        elif m.get("private") != "P3":
            s.title_state.free_tile = None
        before = self.place_tile(c, m)
        s.event("tile", corporation=c.id, hex=m["hex"], tile=m["tile"], cost=m["cost"])
        carry_tokens(self.state, m["hex"], self._stop_map(m["hex"], before, m["tile"], m["rotation"]))
        from trainruns.titles.g1833ne.route import hooks as rules
        if m["hex"] == rules.SHERBROOKE and before is None:
            s.event("joint_token", hex=m["hex"], corporations=list(rules.JOINT))

    def _stop_map(self, hex_id, before, tile, rotation):
        """Each city keeps its stations when upgraded: the new city reaching its sides."""
        return _tiled().city_map(hex_id, before, tile, rotation, kinds={"city"})

    def why_not_lay(self, c, a, lays):
        if a["hex"] in self.blocked_hexes():
            return "track.blocked", (f"{a['hex']} is blocked by a private company no corporation owns "
                                     '("List of private companies")')
        if c.id == "B&L" and self.state.phase == "I" and not self.state.title_state.lowell_merchants_bought:
            return "track.lowell", ("the B&L lays no track in phase I until a corporation buys P2 Lowell Merchants "
                                    '("List of private companies")')
        if len([x for x in lays if not x.get("free")]) >= 2:
            return "track.limit", 'one yellow tile plus a second yellow tile or an upgrade ("Game-specific mechanics")'
        return "track.illegal", (f"tile {a['tile']} rotation {a['rotation']} on {a['hex']} is not a legal lay for "
                                 f"{c.id} now: reach, upgrade chart, phase colours, its cost: at least $20 plus "
                                 'crossings ("Game-specific mechanics")')

    # --- stations -----------------------------------------------------------------------

    def keeps_home(self, d) -> bool:
        """The home slot of every corporation not yet launched is not for the others."""
        return not d.started and not d.closed

    def token_cost(self, c, hex_id) -> int:
        w = self.data["worcester"]
        if c.id == w["corporation"] and hex_id == w["hex"]:
            return w["cost"]   # "its token there always costs $40"
        return super().token_cost(c, hex_id)

    def token_placed(self, c, m, cost):
        self.state.event("token", corporation=c.id, hex=m["hex"], stop=m.get("stop", 0), cost=cost)

    def why_not_token(self, c, a):
        """"List of corporations": two stations, the second $80 ($40 for the B&W in
        Worcester), in a city it reaches with room. The B&W "has a reserved spot in
        Worcester until phase IV", the B&P one in Boston once green: until then the other
        corporations' tokens there leave one spot free for it, until it has its token in
        the hex (docs/gaps.md "Reservations"). That is the route core's rule for the token
        moves the step lists (route/hooks.py ``reservation_filled``), so the game keeps no
        reservation of its own."""
        if len(c.tokens) >= len(c.token_costs):
            return "token.none-left", f"{c.id} has both its stations (\"List of corporations\")"
        return "token.illegal", (f"{c.id} may not place a station on {a['hex']}.{a.get('stop', 0)}: it must reach a "
                                 "city with room and pay $80 ($40 for the B&W in Worcester); until phase IV the "
                                 "others leave a spot in Worcester for the B&W and one in green Boston for the B&P, "
                                 "until it has its token there (\"List of corporations\")")

    # --- issuing and redeeming ("Comparison with 1830" item 3) -------------------------------

    def issue_cash(self, c, turn) -> int:
        """[E] "one issue or redeem per turn, any time before dividends" (digest, step
        order): what the issue still open to ``c`` this turn would raise (all it may
        issue, at the issue price); 0 when none is open."""
        if not any(x["type"] == "issue_shares" for x in share_moves(self, c, turn)):
            return 0
        return self.issuable(c) * self.issue_price(c)

    def issuable(self, c) -> int:
        """"up to the number held by players minus those already in the market", within
        the treasury and the 50% market limit."""
        players = sum(n for k, n in c.shares.items() if k.startswith("player:"))
        return max(0, min(c.held("treasury"), players - c.held("market"),
                          self.shares["market_limit"] - c.held("market")))


    # --- corporations buying privates ------------------------------------------------------

    def private_buys(self, c, turn) -> list[dict]:
        """"Corporations may buy privates from players during phases I and II for
        anywhere between $1 and list price" (the D&H's buyer also pays $40 to the bank);
        a seller who declined is not asked again in the same turn (so a turn always
        ends)."""
        s = self.state
        if s.phase not in self.data["private_sales_phases"]:
            return []
        out = []
        for x in s.privates:
            if not x.open or not x.owner or not x.owner.startswith("player:"):
                continue
            if was_declined(turn, "private", x.id):
                continue
            fee = self.private_data[x.id].get("corporation_fee", 0)
            most = min(x.cost, c.cash - fee)
            if most >= 1:
                out.append({"type": "buy_private", "corporation": c.id, "private": x.id,
                            "player": x.owner.partition(":")[2],
                            "price": most if most == 1 else {"min": 1, "max": most}})
        return out

    def buy_private(self, c, pid, price):
        s = self.state
        x = s.private[pid]
        seller = x.owner
        fee = self.private_data[pid].get("corporation_fee", 0)
        s.pay(corp_key(c.id), seller, price)
        if fee:
            s.pay(corp_key(c.id), "bank", fee)
        x.owner = corp_key(c.id)
        s.title_state.privates_bought.append(pid)
        s.event("private_sold", private=pid, corporation=c.id, seller=seller.partition(":")[2], price=price, fee=fee)
        if pid == "P2":
            s.title_state.lowell_merchants_bought = True
            s.title_state.free_tile = c.id
        if pid == "P5":
            self._assign_luxury(c)

    # --- the extras of a corporation's turn ------------------------------------------------

    def turn_actions(self, c, turn) -> list[dict]:
        """Issuing or redeeming shares and buying a ferry come before the run; a private
        from a player, and P2's free Lowell tile in the round it was bought
        (:meth:`lowell_lays`), any time in the turn ("List of private companies")."""
        if c.closed:
            return []
        lowell = [{"type": "lay_tile", "corporation": c.id, "hex": m["hex"], "tile": m["tile"],
                   "rotation": m["rotation"]} for m in self.lowell_lays(c)]
        if turn.ran_routes():
            return self.private_buys(c, turn) + lowell
        return share_moves(self, c, turn) + self.ferry_buys(c, turn) + self.private_buys(c, turn) + lowell

    def turn_action(self, c, turn, a):
        t = a["type"]
        listed = [x for x in self.turn_actions(c, turn) if x["type"] == t]
        if t in ISSUE_TYPES:
            return issue_or_redeem(self, c, turn, a, listed, "one issue or redeem a turn, before the run; issues up "
                                   'to the shares players hold minus those in the Stock Market ("Comparison with 1830" '
                                   "item 3)")
        if t == "lay_tile":
            check_rotation(a)
            m = next((m for m in self.lowell_lays(c)
                      if (m["hex"], m["tile"], m["rotation"] % 6) == (a["hex"], str(a["tile"]), a["rotation"])), None)
            if m is None:
                raise Refusal(*self.why_not_lay(c, a, []))
            self.lay_tile(c, m)
            return a
        if t == "buy_ferry":
            if not any(x["ferry"] == a["ferry"] for x in listed):
                raise Refusal("ferry.buy", f"{c.id} may not buy ferry {a['ferry']} now: $40, unsold, one a turn, "
                                           "before phase IV (\"Game-specific mechanics\")")
            self.buy_ferry(c, turn, a["ferry"])
            return a
        if t == "buy_private":
            x = next((x for x in listed if x["private"] == a["private"]), None)
            most = bounds(x["price"])[1] if x else 0
            price = a.get("price")
            if x is None or not isinstance(price, int) or not 1 <= price <= most:
                raise Refusal("private.buy", f"{c.id} may buy {a['private']} from its owner in phases I-II for $1 "
                                             f"to its list price, if it can pay (\"List of private companies\")")
            seller = x["player"]
            if seller != c.president:
                # the seller answers (game/steps/consent.py)
                make_offer(self.game, seller, {"offer": "private", "corporation": c.id, "private": a["private"],
                                               "price": price}, lambda: self.buy_private(c, a["private"], price), turn)
            else:
                self.buy_private(c, a["private"], price)
            return dict(a, player=seller)
        return super().turn_action(c, turn, a)

"""The track step's hooks (:class:`~trainruns.game.steps.track.TrackStep`; 1832 [6], 1833NE
"Laying track", 1831 5.2.4): the lays the route core lists for a company's position, kept
within the turn's allowance (data ``tile_lays``), and a lay made."""

from __future__ import annotations

from trainruns.game.state import LaidTile, corp_key
from trainruns.game.tile_lays import may_lay


class TrackRules:
    """Laying track.
    A mixin of :class:`~trainruns.game.game_rules.GameRules`."""

    def tile_lays(self, c, lays: list) -> list[dict]:
        """TrackStep: every tile lay ``c`` may make now, given the lays ``lays`` made
        this turn: ``{"hex", "tile", "rotation", "upgrade", "cost", ...}`` (what
        :meth:`lay_tile` needs); empty when the turn's allowance is used up. [1832 [6],
        1833NE "Laying track": each lay the route core lists for ``c``'s position
        (reach, the tiles left, upgrades, the phase's colours) that fits the turn's
        :meth:`tile_allowance`, or is free (:meth:`free_lay_hexes`: no slot, $0); never
        on a hex of :meth:`blocked_hexes`, nor an upgrade of a hex laid this turn, nor
        one :meth:`legal_lay` refuses; at its :meth:`lay_cost`, which ``c`` can pay.]"""
        from trainruns.game import route_adapter

        return list(self.legal_lays(c, lays, route_adapter.tile_lays))

    def may_lay_tile(self, c, lays: list, extra_cash: int = 0) -> bool:
        """TrackStep: whether ``c`` may make any tile lay now (the step has something to
        do), always the answer of ``bool(tile_lays(c, lays))``: :meth:`legal_lays`
        stopped at the first, on the route core's lays walked one at a time. A title
        that lists its lays otherwise (its own :meth:`tile_lays`) answers it so too.
        ``extra_cash``: as :meth:`legal_lays`."""
        from trainruns.game import route_adapter

        return next(self.legal_lays(c, lays, route_adapter.each_tile_lay, extra_cash), None) is not None

    def legal_lays(self, c, lays: list, listing, extra_cash: int = 0):
        """The lays of :meth:`tile_lays`, one at a time, from ``listing`` (the route
        adapter's lays of a position: all at once, or one at a time; a lay on a city says
        so, ``"city": true``, where the allowance bounds the cities, 1831 5.2.4.3).
        ``extra_cash``: cash ``c`` could raise in its turn before paying (1833NE: an
        issue of shares), counted as paid in."""
        allowance, free_hexes = self.tile_allowance(c), self.free_lay_hexes(c)
        if not free_hexes and not (may_lay(allowance, lays, False) or may_lay(allowance, lays, True)):
            return
        blocked = self.blocked_hexes()
        laid = {x.get("hex") for x in lays}
        for m in listing(self.position(c.id)):
            free = m["hex"] in free_hexes
            if m["hex"] in blocked or m["upgrade"] and m["hex"] in laid or (
                    not free and not may_lay(allowance, lays, m["upgrade"], m.get("city", False))) \
                    or not self.legal_lay(m):
                continue
            cost = 0 if free else self.lay_cost(c, m)
            if self.affords(c, max(0, cost - extra_cash)):
                yield dict(m, cost=cost, free=free)

    def tile_allowance(self, c):
        """:meth:`tile_lays`: the tiles ``c`` lays in a turn, as data read by
        :func:`~.tile_lays.may_lay` [the title's ``tile_lays`` in its rules data]."""
        return self.data["tile_lays"]

    def free_lay_hexes(self, c) -> set:
        """:meth:`tile_lays`: the hexes where ``c`` may lay a tile free now, outside its
        allowance (1833NE P2: Lowell) [none]."""
        return set()

    def blocked_hexes(self) -> set:
        """:meth:`tile_lays`: the hexes no company may lay a tile on now (a private's
        hexes while a player holds it, 1832 [16.1]) [none]."""
        return set()

    def legal_lay(self, lay: dict) -> bool:
        """:meth:`tile_lays`: whether a lay the route core lists may be made after all
        (1833NE: no track across an impassable border) [it may]."""
        return True

    def lay_cost(self, c, lay: dict) -> int:
        """:meth:`tile_lays`: what ``c`` pays for ``lay`` (terrain, a minimum) [nothing]."""
        return 0

    def lay_tile(self, c, lay: dict):
        """TrackStep: make a lay that :meth:`tile_lays` listed (pay for it, carry tokens)."""
        raise NotImplementedError

    def why_not_lay(self, c, a: dict, lays: list) -> tuple[str, str]:
        """TrackStep: (rule id, message) refusing a lay that was not listed."""
        raise NotImplementedError

    def laid(self) -> dict:
        """The tile on each hex of the map now, ``hex -> (tile, rotation)``: the last one
        laid there."""
        return {t.hex: (t.tile, t.rotation) for t in self.state.tiles}

    def tiles_used(self) -> dict:
        """How many of each tile are on the map now (:meth:`laid`): a lay needs one left
        of the title's count of it (1832 [6], 1831 5.2.6)."""
        used = {}
        for tile, _rotation in self.laid().values():
            used[tile] = used.get(tile, 0) + 1
        return used

    def place_tile(self, c, lay: dict):
        """Lay tile ``lay`` (what :meth:`tile_lays` listed): ``c`` pays its ``cost`` to
        the bank and the tile goes on the map; returns the (tile, rotation) it replaced,
        None on an empty hex (for carrying the tokens of the cities it upgrades)."""
        s = self.state
        if lay["cost"]:
            s.pay(corp_key(c.id), "bank", lay["cost"])
        before = next(((t.tile, t.rotation) for t in reversed(s.tiles) if t.hex == lay["hex"]), None)
        s.tiles.append(LaidTile.of(lay))
        return before

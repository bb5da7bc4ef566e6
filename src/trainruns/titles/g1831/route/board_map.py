"""The 1831 board in a game: the config's map and tile manifest, the tiles laid, and
the operating corporation's 1831 position for the route core.

The map (config ``map``) lists the printed hexes: ``terrain`` (``plains``, ``river``,
``mountain``: 5.2.3.3-5; ``gray``/``red``: fixed, no tile, 5.2.3.2, 5.2.3.10), printed
cities (``city``: ``small``/``large``, 5.2.3.9, 5.2.3.12; ``stops`` with their typed
sites, black ones included), an optional ``label`` (the twelve named cities take only
their own tiles, 5.2.3.11), and fixed ``paths``. Hexes not on the map are off the board
(lakes are simply left out: no tile goes there, 5.2.3.1, 5.2.3.8).

The tile manifest (config ``tiles``) maps a tile number to its ``color``, ``paths``
(side numbers 0-5 and ``"s0"``), its city (``city`` size and ``stops`` with typed
sites and value), ``count``, and optionally ``label``, ``only_on`` (hexes, such as
#301/#401 between Baltimore and Washington, 5.2.6.9), ``connects`` (the two hexes its
double track must join, 5.2.6.9) and ``double_track``. A lay is a
tile and a rotation; the position's hex gets the tile's track turned by the rotation.

Which lays and tokens are legal reuses the route core's reach (:mod:`trainruns.route.reach`:
"a direct path from one of its Rail Yards or Station tokens", 5.2.4.1, read as track
connected and not blocked: ``loose_reach``) and :func:`trainruns.titles.moves.connects`.
"""

from __future__ import annotations

import copy
import json

from trainruns.errors import InputError
from trainruns.route.hexgrid import neighbour, parse_hex_id
from trainruns.titles.moves import TileRules, single_lays, track_key

COLORS = ("yellow", "green", "blue", "red")
POSITION_HEX_KEYS = ("id", "name", "stops", "paths", "part_of", "double_track", "revisit_after", "junctions")


class GameMap:
    def __init__(self, map_data: dict, tiles: dict):
        self.layout = map_data["layout"]
        self.axes = map_data.get("axes", {"x": "letter", "y": "number"})
        self.hexes = {h["id"]: h for h in map_data["hexes"]}
        self.commuter = map_data.get("commuter_runs")
        self.tiles = tiles["tiles"]
        at = {parse_hex_id(h, self.axes): h for h in self.hexes}
        self.neighbours = {}
        for hid in self.hexes:
            x, y = parse_hex_id(hid, self.axes)
            self.neighbours[hid] = {e: at.get(neighbour(x, y, e, self.layout)) for e in range(6)}

    # --- facts of a hex -----------------------------------------------------------------

    def fixed(self, hex_id) -> bool:
        return self.hexes[hex_id].get("terrain") in ("gray", "red") or "part_of" in self.hexes[hex_id]

    def city_of(self, hex_id) -> str:
        """The city a hex's sites belong to: a red extension's is its city's (5.2.3.10:
        "considered part of the same hex"), so 5.2.7.6's one token of each type per city
        counts them together."""
        return self.hexes[hex_id].get("part_of", hex_id)

    def is_city(self, hex_id) -> bool:
        return bool(self.hexes[hex_id].get("stops"))

    def sites(self, hex_id, laid: dict) -> list[str]:
        """The typed sites of the hex's city now (the tile's, else the printed ones)."""
        spec = self.spec(hex_id, laid)[0]
        stops = spec.get("stops") or []
        return list(stops[0].get("slot_types", [])) if stops else []

    def vacant(self, hex_id, laid: dict, taken) -> bool:
        """Whether the city ``laid`` shows on ``hex_id`` has a vacancy: a site no token
        stands on (``taken``: the indexes of its sites that hold one; tokens keep their
        sites across an upgrade, 5.2.6.5) that is not black (5.2.7.2: "not available
        for tokens")."""
        return any(t != "black" and i not in taken for i, t in enumerate(self.sites(hex_id, laid)))

    def stays_full(self, hex_id, laid: dict, tile, rot, taken) -> bool:
        """5.2.4.1: "If a city is fully tokenized, and further upgrading would not produce
        a vacancy, then only the corporations with tokens in the city may upgrade it
        further": the city on ``hex_id`` has no vacancy (:meth:`vacant`) and upgrading it
        to ``tile`` at ``rot`` opens none."""
        return not self.vacant(hex_id, laid, taken) and not self._vacant_after(hex_id, laid, tile, rot, taken)

    def opens_vacancy(self, hex_id, laid: dict, tile, rot, taken) -> bool:
        """5.2.4.1 "If a corporation upgrades a city to create a vacancy": the city on
        ``hex_id`` has no vacancy and upgrading it to ``tile`` at ``rot`` opens one."""
        return not self.vacant(hex_id, laid, taken) and self._vacant_after(hex_id, laid, tile, rot, taken)

    def _vacant_after(self, hex_id, laid, tile, rot, taken) -> bool:
        return self.vacant(hex_id, dict(laid, **{hex_id: (tile, rot)}), taken)

    def spec(self, hex_id, laid: dict):
        """``(spec, rotation)`` of what the hex shows: its tile, or the printed face."""
        if hex_id in laid:
            tile, rot = laid[hex_id]
            return self.tiles[tile], rot
        return self.hexes[hex_id], 0

    def cost(self, hex_id, upgrade: bool, costs: dict) -> int:
        """5.2.3.3-5: plains $10 / $5, river $50 / $25, mountain $90 / $45."""
        first, up = costs.get(self.hexes[hex_id].get("terrain", "plains"), costs["plains"])
        return up if upgrade else first

    # --- the position ------------------------------------------------------------------

    def hex_entry(self, hex_id, laid: dict) -> dict:
        """Hex ``hex_id`` of the position's map: the printed hex's keys the route core
        reads, and the tile laid there (``laid``: hex -> (tile, rotation)): its track
        turned by the rotation, its stops and ``tile``."""
        out = {k: v for k, v in self.hexes[hex_id].items() if k in POSITION_HEX_KEYS}
        if hex_id in laid:
            tile, rot = laid[hex_id]
            spec = self.tiles[tile]
            out["paths"] = [[(e + rot) % 6 if isinstance(e, int) else e for e in p] for p in spec["paths"]]
            if spec.get("stops"):
                out["stops"] = json.loads(json.dumps(spec["stops"]))
            if spec.get("double_track"):
                out["double_track"] = [[(e + rot) % 6 if isinstance(e, int) else e for e in p]
                                       for p in spec["double_track"]]
            out["tile"] = tile
        return out

    def laid_in(self, hexes: list[dict], where: str) -> dict:
        """The tiles laid on a position's map ``hexes`` (as :meth:`hex_entry` writes
        them): hex -> (tile, rotation), the rotation the one giving the hex's track. Bad
        input (InputError) when a hex is not on this map, names a tile the manifest
        lacks, or shows track that neither its tile nor its printed face has."""
        laid = {}
        for i, h in enumerate(hexes):
            w, hid, tile = f"{where}.map.hexes[{i}]", h.get("id"), h.get("tile")
            if hid not in self.hexes:
                raise InputError(f"hex {hid} is not on the tile set's map", w)
            track = track_key(h, 0)
            if tile is None:
                if track != track_key(self.hexes[hid], 0):
                    raise InputError(f"hex {hid} shows track its printed face lacks: name the tile laid there "
                                     "('tile')", w)
                continue
            if str(tile) not in self.tiles:
                raise InputError(f"hex {hid}: tile {tile} is not in the tile set's manifest", f"{w}.tile")
            rot = next((r for r in range(6) if track_key(self.tiles[str(tile)], r) == track), None)
            if rot is None:
                raise InputError(f"hex {hid}: tile {tile} at no rotation has the track the hex shows", f"{w}.paths")
            laid[hid] = (str(tile), rot)
        return laid

    def position_map(self, laid: dict) -> dict:
        hexes = [self.hex_entry(hid, laid) for hid in self.hexes]
        m = {"layout": self.layout, "axes": self.axes, "hexes": hexes}
        if self.commuter:
            m["commuter_runs"] = self.commuter
        return m

    # --- tile lays ---------------------------------------------------------------------

    def _options(self, hex_id, laid, colors) -> list[str]:
        """5.2.6: a first lay is yellow; an upgrade is the next colour; city tiles only on
        cities of their size (5.2.3.12) and named tiles only on their city (5.2.3.11)."""
        h = self.hexes[hex_id]
        if hex_id in laid:
            cur = self.tiles[laid[hex_id][0]]["color"]
            i = COLORS.index(cur)
            if i + 1 >= len(COLORS):
                return []       # 5.2.6.4: red tiles are permanent
            want = COLORS[i + 1]
        else:
            want = "yellow"
        if want not in colors:
            return []
        out = []
        for name, t in self.tiles.items():
            if t["color"] != want or t.get("city") != h.get("city") or t.get("label") != h.get("label"):
                continue
            if t.get("only_on") and hex_id not in t["only_on"]:
                continue
            out.append(name)
        return out

    def oriented(self, hex_id, tile, rot) -> bool:
        """5.2.6.9: #301 and #401 go "only in an orientation that connects Baltimore and
        Washington": a tile with ``connects`` (two hexes) is laid only turned so that one
        of its double tracks (else of its paths) runs from the side facing one to the
        side facing the other."""
        spec = self.tiles[tile]
        want = spec.get("connects")
        if not want:
            return True
        for p in spec.get("double_track") or spec["paths"]:
            if all(isinstance(e, int) for e in p):
                if {self.neighbours[hex_id][(e + rot) % 6] for e in p} == set(want):
                    return True
        return False

    def _off_board(self, hex_id, track) -> bool:
        """5.2.3.8: no tile may extend track to the map's border (or into a lake)."""
        for path in track:
            for end in path:
                if end[0] == "side" and self.neighbours[hex_id][end[1]] is None:
                    return True
        return False

    def tile_rules(self, laid: dict, colors, used_counts: dict, skip=()) -> Tiles1831:
        """1831's tile rules on this map with ``laid`` (hex -> (tile, rotation)), the
        phase's tile ``colors``, ``used_counts`` of each tile on the map and the hexes
        altered this turn (``skip``: 5.2.4, each hex altered once per track phase), for
        the titles' one generator (:func:`trainruns.titles.moves.single_lays`)."""
        return Tiles1831(self, laid, colors, used_counts, frozenset(skip))

    def home_lays(self, hex_id, laid: dict, colors, used_counts: dict) -> list[dict]:
        """5.2.5: "When a company operates for the first time, its first play will be to
        lay a tile on its home city if this is not already done": the yellow tiles of the
        printed, untiled home city ``hex_id``, one per distinct track (no reach asked:
        the company has no token yet, and the tile is laid in its own home); none when
        the city is tiled, printed with track, or fixed (5.2.3.2)."""
        h = self.hexes[hex_id]
        if hex_id in laid or self.fixed(hex_id) or h.get("paths") or not self.is_city(hex_id):
            return []
        rules = self.tile_rules(laid, colors, used_counts)
        # a city lay: "If it laid its home city tile this counts towards its total track lay"
        return [{"hex": hex_id, "tile": tile, "rotation": rot, "upgrade": False, "city": True}
                for _h, tile, rot, _before in single_lays(rules, None, None, hex_ids=[hex_id])]


class Tiles1831(TileRules):
    """1831's tile rules (:class:`trainruns.titles.moves.TileRules`) on a map: the colour
    and kind of tile a hex takes (:meth:`GameMap._options`: 5.2.6, 5.2.3.11-12), the
    manifest's count, track kept (5.2.6.5), no track to the border (5.2.3.8),
    #301/#401's orientation (5.2.6.9); no tile on fixed hexes (5.2.3.2, 5.2.3.10); a
    city with no track yet is reached when its stop is (5.2.4.1: a route "to the hex")."""

    def __init__(self, game_map: GameMap, laid: dict, colors, used_counts: dict, skip: frozenset):
        self.map, self.laid, self.colors, self.used, self.skip = game_map, laid, colors, used_counts, skip
        self.tiles = game_map.tiles

    def hex_ids(self, board):
        return [h for h in self.map.hexes if h not in self.skip and not self.map.fixed(h) and h in board.hexes]

    def now(self, hex_id):
        spec, rot = self.map.spec(hex_id, self.laid)
        return spec, rot, self.laid.get(hex_id)

    def options(self, hex_id, before):
        return self.map._options(hex_id, self.laid, self.colors)

    def left(self, tile):
        return self.used.get(tile, 0) < self.tiles[tile]["count"]

    def stands(self, hex_id, tile, rot, before, track, old_track):
        # 5.2.6.5: existing track is preserved; 5.2.3.8; 5.2.6.9
        return old_track <= track and not self.map._off_board(hex_id, track) and self.map.oriented(hex_id, tile, rot)

    def city_reached(self, hex_id):
        return self.map.is_city(hex_id)

    def variant(self, data, hex_id, tile, rot, before):
        """The position with ``hex_id`` showing the new tile as a game's position does
        (:meth:`GameMap.hex_entry`); tokens keep their sites (5.2.6.5)."""
        variant = copy.deepcopy(data)
        hexes = variant["map"]["hexes"]
        at = next(i for i, h in enumerate(hexes) if h.get("id") == hex_id)
        hexes[at] = self.map.hex_entry(hex_id, dict(self.laid, **{hex_id: (tile, rot)}))
        return variant

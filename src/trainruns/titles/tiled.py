"""A title played on a printed base map with a manifest of track tiles.

What every such title shares, whatever its rules: load the base map and the tiles from
the title's ``data/`` folder, lay a position's ``tiles`` ([{hex, tile, rotation}]) over
the map, check each lay (known hex and tile, rotation 0-5, a colour the phase allows,
a legal first tile or upgrade per the upgrade chart, existing track kept, no track
running off the map or into a printed hex's blank side, the manifest's counts), and
turn the result into core :class:`~trainruns.route.board.Hex` objects.

The title-specific facts come from JSON (``map.json``, ``tiles.json``,
``manifest.json``, see g1832/data for the shape); the title's own rules (bonuses,
restrictions) stay in its package.

A position may list one hex several times: the entries are then the successive tiles
laid there, each an upgrade of the one before. A hex listed once holds its current tile;
when that tile can only have come by upgrades, the chain is checked to exist but its
history cannot be, so its track-keeping is not checked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources

from trainruns.errors import InputError
from trainruns.position.reader import parse_paths, parse_stop
from trainruns.route.board import Board, Hex, Stop
from trainruns.route.hexgrid import neighbour, opposite, parse_hex_id
from trainruns.titles import moves
from trainruns.titles.base import Title

FIXED_COLOURS = ("gray", "red")  # printed hexes no tile goes on
KIND_WORDS = {"city": ("the city", "a city"), "town": ("the town", "a town"),
              "offboard": ("the off-board", "an off-board")}


def load_data(package: str, name: str) -> dict:
    """One JSON file of a title's ``data/`` folder (shipped as package data)."""
    with resources.files(package).joinpath("data", name).open(encoding="utf-8") as fh:
        return json.load(fh)


@dataclass
class Tiled:
    """The base map, tiles and manifest of one title, as read from its data files."""

    base: dict       # map.json
    tiles: dict      # tiles.json["tiles"]: name -> {color, stops, paths, labels}
    manifest: dict   # manifest.json
    hexes: dict = field(init=False)

    def __post_init__(self):
        self.hexes = {h["id"]: h for h in self.base["hexes"]}
        self.layout = self.base["layout"]
        self.axes = self.base["axes"]
        self.phases = self.base["phases"]
        self._coords = {parse_hex_id(h, self.axes): h for h in self.hexes}

    # --- laying tiles -----------------------------------------------------------------

    def lay(self, entries, phase: str, where: str) -> dict:
        """Check a position's ``tiles`` and return hex id -> (tile name, rotation) of the
        tile each hex now holds (hexes without an entry keep their printed face)."""
        if entries is None:
            entries = []
        if not isinstance(entries, list):
            raise InputError("field 'tiles' must be a list of {hex, tile, rotation}", where)
        current: dict[str, tuple[str, int]] = {}
        for i, e in enumerate(entries):
            w = f"{where}: tiles[{i}]"
            hex_id, tile, rot = self._read_entry(e, w)
            self.check_lay(hex_id, tile, rot, current.get(hex_id), phase, w)
            current[hex_id] = (tile, rot)
        self.check_counts(current, where)
        return current

    def _read_entry(self, e, w):
        if not isinstance(e, dict):
            raise InputError("a tile lay must be an object {hex, tile, rotation}", w)
        hex_id = e.get("hex")
        if hex_id not in self.hexes:
            raise InputError(f"unknown hex {hex_id!r} (not on the {self.base.get('title', '')} map)", w)
        tile = e.get("tile")
        if isinstance(tile, int) and not isinstance(tile, bool):
            tile = str(tile)
        if tile not in self.tiles:
            raise InputError(f"unknown tile {tile!r} (not in the tile manifest)", w)
        rot = e.get("rotation", 0)
        if isinstance(rot, bool) or not isinstance(rot, int) or not 0 <= rot <= 5:
            raise InputError(f"rotation must be a whole number 0-5, not {rot!r}", w)
        return hex_id, tile, rot

    def check_lay(self, hex_id, tile, rot, before, phase, w):
        """Upgrade chart and tile placement rules for one lay on ``hex_id``. Memoised
        (the outcome depends on the title's data and these arguments only): a game
        re-reads the same laid tiles and lists the same candidate lays hundreds of times."""
        memo = self.__dict__.setdefault("_lays", {})
        key = (hex_id, tile, rot, before, phase, w)
        if key not in memo:
            if len(memo) > 200_000:
                memo.clear()
            try:
                self._check_lay(hex_id, tile, rot, before, phase, w)
                memo[key] = None
            except InputError as e:
                memo[key] = (e.what, e.where)
        if memo[key] is not None:
            raise InputError(*memo[key])

    def _check_lay(self, hex_id, tile, rot, before, phase, w):
        printed = self.hexes[hex_id]
        kind = printed.get("kind", "clear")
        colour = self.tiles[tile]["color"]
        m = self.manifest
        if printed.get("color") in FIXED_COLOURS:
            raise InputError(f"hex {hex_id} is printed {printed['color']}; no tile may be laid there", w)
        if hex_id not in m.get("tile_only_on", {}).get(tile, [hex_id]):
            only = ", ".join(m["tile_only_on"][tile])
            raise InputError(f"tile {tile} may only be laid on {only}, not {hex_id}", w)
        if tile in m.get("hex_excludes", {}).get(hex_id, []):
            raise InputError(f"tile {tile} may not be laid on {hex_id} (see the upgrade chart)", w)
        if not self.phase_at_least(phase, m["colour_from_phase"][colour]):
            raise InputError(f"a {colour} tile ({tile}) may not be laid in phase {phase}", w)
        if before is None:
            firsts = m["first_tiles"].get(kind, [])
            printed_track = m.get("printed_upgrades", {}).get(kind)
            if printed_track is not None:  # printed track: the first tile is an upgrade
                self._need_upgrade_phase(tile, hex_id, phase, w)
                if tile not in printed_track and not self._reachable(printed_track, tile, kind):
                    raise InputError(f"tile {tile} is not an upgrade of {hex_id}'s printed track "
                                     f"(legal: {', '.join(printed_track)})", w)
                if tile in printed_track:
                    self._check_keeps_track(printed, None, tile, rot, hex_id, w)
            elif tile not in firsts:
                if not firsts:
                    raise InputError(f"no tile may be laid on {hex_id}", w)
                if not self._reachable(firsts, tile, kind):
                    raise InputError(f"tile {tile} cannot stand on {hex_id} (a {kind.replace('_', ' ')} hex "
                                     f"takes {', '.join(firsts)} and their upgrades)", w)
                self._need_upgrade_phase(tile, hex_id, phase, w)
        else:
            old, old_rot = before
            legal = self.upgrades_of(old, kind)
            if tile not in legal:
                raise InputError(f"tile {tile} is not an upgrade of tile {old} on {hex_id} "
                                 f"(legal: {', '.join(legal) or 'none'})", w)
            self._need_upgrade_phase(tile, hex_id, phase, w)
            self._check_keeps_track(self.tiles[old], old_rot, tile, rot, hex_id, w)
        self._check_track_ends(hex_id, tile, rot, w)

    def upgrades_of(self, tile, kind):
        extra = self.manifest.get("kind_upgrades", {}).get(kind, {}).get(tile, [])
        return list(self.manifest["upgrades"].get(tile, [])) + list(extra)

    def _reachable(self, starts, target, kind):
        seen, todo = set(starts), list(starts)
        while todo:
            t = todo.pop()
            if t == target:
                return True
            for u in self.upgrades_of(t, kind):
                if u not in seen:
                    seen.add(u)
                    todo.append(u)
        return False

    def _need_upgrade_phase(self, tile, hex_id, phase, w):
        first = self.manifest.get("upgrades_from_phase")
        if first and not self.phase_at_least(phase, first):
            raise InputError(f"tile {tile} on {hex_id} needs an upgrade, and no tile may be upgraded "
                             f"before phase {first}", w)

    def phase_at_least(self, phase, first):
        return self.phases.index(phase) >= self.phases.index(first)

    # --- track --------------------------------------------------------------------------

    def _shape(self, spec, rot):
        """(edge-edge paths, edge set of every stop) of a tile or printed hex, rotated
        (memoised: tiles and printed hexes never change; callers only read the sets)."""
        key = (id(spec), rot or 0)
        if key not in self.__dict__.setdefault("_shapes", {}):
            self._shapes[key] = self._shape_of(spec, rot)
        return self._shapes[key]

    def _shape_of(self, spec, rot):
        paths = parse_paths(spec.get("paths", []), len(spec.get("stops", [])), 0, "tile", rot or 0)
        edges, stops = set(), {}
        for a, b in paths:
            if a[0] == "side" and b[0] == "side":
                edges.add(frozenset((a[1], b[1])))
            else:
                side, stop = (a, b) if a[0] == "side" else (b, a)
                if side[0] == "side":
                    stops.setdefault(stop[1], set()).add(side[1])
        return edges, stops

    def _check_keeps_track(self, old_spec, old_rot, tile, rot, hex_id, w):
        """An upgrade only adds track ([6.3]): every old track section stays, the sides
        meeting at one old stop still meet at one new stop, and that stop is of the same
        kind when the new tile has a stop of that kind (a tile without one merges it:
        a medium city's town becomes a city, 1832 [6.4.2]; brown Boston is one city)."""
        old_edges, old_stops = self._shape(old_spec, old_rot)
        new_edges, new_stops = self._shape(self.tiles[tile], rot)
        lost = [f"{min(p)}-{max(p)}" for p in old_edges if p not in new_edges]
        old_kinds = [s["kind"] for s in old_spec["stops"]]
        new_kinds = [s["kind"] for s in self.tiles[tile]["stops"]]
        for k, sides in old_stops.items():
            at = [j for j, ns in new_stops.items() if sides <= ns]
            if not at:
                lost.append("stop at side(s) " + "/".join(map(str, sorted(sides))))
            elif new_kinds[at[0]] != old_kinds[k] and old_kinds[k] in new_kinds:
                # green Boston (1833NE) has an off-board of its own: the $0 node may not
                # become a city, which would move the cities (and whose home each is)
                lost.append(f"{KIND_WORDS[old_kinds[k]][0]} at side(s) {'/'.join(map(str, sorted(sides)))} "
                            f"would become {KIND_WORDS[new_kinds[at[0]]][1]}")
        if lost:
            raise InputError(f"tile {tile} at rotation {rot} does not keep the track already on {hex_id} "
                             f"({', '.join(lost)})", w)

    def track_sides(self, spec, rot):
        """The hex sides a tile (or printed hex) at ``rot`` has track on."""
        edges, stops = self._shape(spec, rot)
        return set().union(*stops.values(), *edges) if (stops or edges) else set()

    def city_map(self, hex_id, before, tile, rotation, kinds=None):
        """Where each stop of a hex goes when ``tile`` at ``rotation`` replaces what was
        there (``before``: the tile and rotation laid, or None for the printed hex):
        tokens stay in their city when it is upgraded (1832 [7.2]; 1833NE the same), so
        each old stop goes to the new stop (of ``kinds``, when given) reaching most of
        its sides, the nearest in number on a tie. ``tile`` None is the printed hex (a
        tile taken off the map, 1832 [17.5])."""
        old_spec, old_rot = (self.tiles[before[0]], before[1]) if before else (self.hexes[hex_id], 0)
        new_spec, rotation = (self.tiles[tile], rotation) if tile is not None else (self.hexes[hex_id], 0)
        old_sides = self._shape(old_spec, old_rot)[1]
        new_sides = self._shape(new_spec, rotation)[1]
        targets = [j for j, st in enumerate(new_spec.get("stops", [])) if kinds is None or st.get("kind") in kinds]
        return {k: max(targets, key=lambda j: (len(sides & new_sides.get(j, set())), -abs(j - k)), default=0)
                for k, sides in old_sides.items()}

    def neighbour_of(self, hex_id, side):
        """The hex of the map across ``side`` of ``hex_id``, or None at the map's edge."""
        x, y = parse_hex_id(hex_id, self.axes)
        return self._coords.get(neighbour(x, y, side, self.layout))

    def side_towards(self, hex_id, other):
        """The side of ``hex_id`` that ``other``, a neighbour, lies across."""
        return next(e for e in range(6) if self.neighbour_of(hex_id, e) == other)

    def _check_track_ends(self, hex_id, tile, rot, w):
        """[6.4] placement: no track may end at the map edge or against the blank side of
        a printed grey or red hex."""
        for side in sorted(self.track_sides(self.tiles[tile], rot)):
            other = self.neighbour_of(hex_id, side)
            if other is None:
                raise InputError(f"tile {tile} at rotation {rot} on {hex_id} runs track off the map "
                                 f"at side {side}", w)
            spec = self.hexes[other]
            if spec.get("color") in FIXED_COLOURS:
                if opposite(side) not in self.track_sides(spec, 0):
                    raise InputError(f"tile {tile} at rotation {rot} on {hex_id} runs track at side {side} "
                                     f"into a blank side of {other}", w)

    def check_counts(self, current, where):
        """The manifest's count of each tile bounds how many are on the map at once."""
        used = {}
        for tile, _ in current.values():
            used[tile] = used.get(tile, 0) + 1
        counts = self.manifest["counts"]
        for tile, n in sorted(used.items()):
            if n > counts.get(tile, 0):
                hexes = sorted(h for h, (t, _) in current.items() if t == tile)
                raise InputError(f"tile {tile} is laid {n} times ({', '.join(hexes)}) but the manifest "
                                 f"has {counts.get(tile, 0)}", f"{where}: tiles")

    # --- the board's hexes -------------------------------------------------------------

    def build_hexes(self, current, phase, where) -> dict[str, Hex]:
        """Core hexes of the map as it stands: laid tiles (rotated) over printed faces;
        values resolved for ``phase``. Each face is read from the title's data once
        (:meth:`_face`): a game builds a board of the same map on every action."""
        out = {}
        for hex_id, printed in self.hexes.items():
            name, rot = current.get(hex_id, (None, 0))
            x, y, stops, paths, extra = self._face(hex_id, name, rot, phase, where)
            out[hex_id] = Hex(id=hex_id, x=x, y=y, stops=[Stop(k, v, n, name=sn) for k, v, n, sn in stops],
                              paths=list(paths), name=printed.get("name"), tile=name, rotation=rot,
                              extra=dict(extra))
        return out

    def _face(self, hex_id, name, rot, phase, where):
        """Hex ``hex_id`` holding tile ``name`` at ``rot`` (None: its printed face) in
        ``phase``, read from the title's data: its coordinates, stops as (kind, value,
        slots, name), paths and drawing facts. Memoised (the title's data and these
        arguments decide it; a bad face raises and is not kept); the caller makes fresh
        Stops, lists and dicts of them, since a Board's stops take tokens."""
        memo = self.__dict__.setdefault("_faces", {})
        key = (hex_id, name, rot, phase)
        face = memo.get(key)
        if face is None:
            printed = self.hexes[hex_id]
            x, y = parse_hex_id(hex_id, self.axes)
            w = f"{where}: hex {hex_id}"
            spec = printed if name is None else self.tiles[name]
            colour = printed.get("color") if name is None else spec["color"]
            stops = [parse_stop(s, self.phases, phase, f"{w}.stops[{k}]") for k, s in enumerate(spec["stops"])]
            paths = parse_paths(spec.get("paths", []), len(stops), 0, w, rot)
            extra = {"color": colour, "kind": printed.get("kind")}
            for k in ("terrain", "labels", "port", "future_label"):
                if k in printed:
                    extra[k] = printed[k]
            if len(memo) > 200_000:
                memo.clear()
            face = memo[key] = (x, y, tuple((st.kind, st.value, st.slots, st.name) for st in stops),
                                tuple(paths), extra)
        return face


def read_tiled(package: str) -> Tiled:
    """The Tiled facts of a title package with data/map.json, tiles.json, manifest.json."""
    return Tiled(load_data(package, "map.json"), load_data(package, "tiles.json")["tiles"],
                 load_data(package, "manifest.json"))


class TiledTitle(Title):
    """What every title with a printed map and a tile manifest does to build a board:
    read its facts once (``facts_class()``, which has a ``tiled``), lay the position's
    tiles, and make the core Board; the title's rules are applied by the subclass. Its
    tile lays are the manifest's (:func:`.moves.tile_lays`)."""

    name = ""
    facts_class = None

    def __init__(self):
        self._facts = None

    @property
    def facts(self):
        if self._facts is None:
            self._facts = self.facts_class()
        return self._facts

    def lay_tiles(self, data, phase, where) -> dict:
        """The position's ``tiles`` laid over the printed map, every lay checked (the
        tile checks every tiled title shares, then the title's own :meth:`check_map`)."""
        laid = self.facts.tiled.lay(data.get("tiles", []), phase, where)
        self.check_map(data, laid, phase, where)
        return laid

    def check_map(self, data, laid, phase, where):
        """The title's own rules on where tiles stand (``laid``: hex -> (tile, rotation)),
        beyond the shared ones; raise InputError. None by default."""

    def board_of(self, laid, phase, corporation, trains, where) -> Board:
        """The core Board of the laid map (tokens and title rules still to come)."""
        tiled = self.facts.tiled
        return Board(layout=tiled.layout, hexes=tiled.build_hexes(laid, phase, where), phase=phase,
                     corporation=corporation, trains=trains, phases=list(self.facts.phase_names),
                     title=self.name, axes=dict(tiled.axes))

    # --- moves: what the operating company may do next (trainruns.services.whatif ranks them) ---

    def tile_rules(self, data, board):
        """The manifest's tile rules on the position (:class:`.moves.ManifestTiles`)."""
        return moves.ManifestTiles(self, data, board.phase)

    def tile_moves(self, data, board, reached):
        """Every legal tile lay or upgrade as a move (:func:`.moves.tile_moves`), none
        while :meth:`may_lay` says why not; ``reached``: the company's runs
        (:func:`trainruns.route.reach.reach`)."""
        if self.may_lay(data, board) is not None:
            return iter(())
        return super().tile_moves(data, board, reached)

    def may_lay(self, data, board):
        """Why the operating company may lay no tile at all now, or None."""
        return None

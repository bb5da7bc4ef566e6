"""Read an 1831 position: the custom-map format of docs/custom-map.md plus typed city slots.

The printed 1831 map is not available (docs/gaps.md), so an 1831 position carries its
own ``map``. The extensions (documented in docs/rules-1831.md):

- a city stop lists its open token sites, ``"slot_types": ["station", "yard"]``
  (5.2.3.9: circles are Stations, squares Rail Yards); ``slots`` defaults to its length;
- a token names its site, ``{"hex", "stop", "corporation", "slot": i}`` (or ``"type"``:
  the first free site of that type); ``"black"`` in ``slot_types`` is a black-filled
  site (5.2.7.2), where only a home token may stand, ``"home": true`` with its own
  ``"type"`` (5.2.5.1), which it keeps when an upgrade makes the site a Station or a
  Rail Yard of the other type (5.2.6.5: tokens stay on the new tile);
- a hex ``"part_of": "F20"`` is a red extension of that city (5.2.3.10);
- a hex ``"double_track": [[0, 3]]`` doubles those of its paths (5.6.2.4, tiles #301/#401);
- a hex ``"revisit_after": ["G21", "H22"]`` is the Delaware large city (5.6.2.1);
- the map's ``"commuter_runs"`` (5.6.7), the position's ``"track_rights"`` (5.5) and
  ``"home_sites"`` (5.2.5).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from trainruns.errors import InputError
from trainruns.position.reader import parse_axes, parse_corporation, parse_layout, parse_phase, parse_phases, require
from trainruns.route.board import CITY, OFFBOARD, Board
from trainruns.titles.typed_map import read_hexes

SLOT_TYPES = ("station", "yard")
BLACK = "black"  # a black-filled site (5.2.7.2): only a home token may stand there (5.2.5.1)


@dataclass
class Site:
    """One token site of a city: its type and who holds it (None: a vacancy). A black
    site (5.2.7.2) is no vacancy; a home token placed there (5.2.5.1) gives it its type."""

    type: str
    holder: str | None = None
    right: int = -1  # index into the position's track rights, when bought (5.5)
    black: bool = False

    @property
    def open(self):
        """A site a token stands on or may be placed on (an empty black site is neither)."""
        return not self.black or self.holder is not None

    @property
    def free(self):
        """A site a token may be placed on: no token, not black (5.2.7.2)."""
        return self.holder is None and not self.black


def count_free(sites, kind: str) -> int:
    """How many of a city's ``sites`` of type ``kind`` are free (:attr:`Site.free`)."""
    return sum(1 for s in sites if s.type == kind and s.free)


@dataclass
class Map1831:
    """1831 facts the core Board has no field for (kept beside it, see model.py)."""

    sites: dict = field(default_factory=dict)      # (hex, stop) -> [Site]
    group: dict = field(default_factory=dict)      # (hex, stop) -> city group (hex id)
    revisit: dict = field(default_factory=dict)    # group -> (group, group) run to between visits
    commuter: list = field(default_factory=list)   # [{"name", "cycle": [group], "any_start"}]
    rights: list = field(default_factory=list)     # [(hex, stop, slot)]
    kept: tuple = ()                               # home sites (5.2.5): ((hex, stop, type, corporation), ...)
    double_sides: set = field(default_factory=set) # {(hex, side)} where a double track ends


@dataclass(frozen=True)
class MapFacts1831:
    """The 1831 map facts as read, frozen (a snapshot's part): each city's site types
    in order, the city groups, the Delaware revisits, the commuter runs ``(name,
    cycle, any_start)``, the ends of double track. :meth:`facts` gives a fresh
    :class:`Map1831` with no token placed."""

    site_types: tuple
    group: tuple
    revisit: tuple
    commuter: tuple
    double_sides: frozenset

    @classmethod
    def of(cls, facts: Map1831) -> MapFacts1831:
        assert not facts.rights and all(s.holder is None for ss in facts.sites.values() for s in ss)
        return cls(tuple((ref, tuple(s.type for s in ss)) for ref, ss in facts.sites.items()),
                   tuple(facts.group.items()), tuple(facts.revisit.items()),
                   tuple((r["name"], tuple(r["cycle"]), r["any_start"]) for r in facts.commuter),
                   frozenset(facts.double_sides))

    def facts(self) -> Map1831:
        return Map1831(sites={ref: [Site(t, black=t == BLACK) for t in types] for ref, types in self.site_types},
                       group=dict(self.group), revisit=dict(self.revisit),
                       commuter=[{"name": n, "cycle": list(c), "any_start": a} for n, c, a in self.commuter],
                       double_sides=set(self.double_sides))


def read_map(data: dict, where: str):
    """The map, phase and corporation of an 1831 position: (Board without trains, Map1831)."""
    m = require(data, "map", dict, where)
    layout, axes = parse_layout(m, where), parse_axes(m, where)
    phases = parse_phases(m.get("phases"), where)
    phase = parse_phase(data, phases, where)
    by_id = {h.get("id"): h for h in require(m, "hexes", list, f"{where}: map") if isinstance(h, dict)}
    facts = Map1831()

    def prepare(h, w):
        return _with_slot_counts(_with_double_track(_fill_extension_values(h, by_id, w), w, facts), w)

    hexes, parsed = read_hexes(m, layout, axes, phases, phase, where, prepare)
    for h, hx in zip(parsed, hexes.values()):
        if isinstance(h.get("tile"), (str, int)) and not isinstance(h.get("tile"), bool):
            hx.tile = str(h["tile"])  # the tile laid (drawn, to check a typed board)
        for k, (stop, raw) in enumerate(zip(hx.stops, h.get("stops", []))):
            if stop.kind == CITY:
                facts.sites[(hx.id, k)] = [Site(t, black=t == BLACK) for t in raw.get("slot_types", [])]
    raw_hexes = m["hexes"]
    _no_track_past_a_city(hexes, where)
    _read_groups(raw_hexes, hexes, facts, where)
    facts.commuter = _read_commuter(m.get("commuter_runs", []), hexes, facts, where)
    board = Board(layout=layout, hexes=hexes, phase=phase, corporation=parse_corporation(data, where),
                  trains=[], phases=phases, title="1831", axes=axes)
    return board, facts


#: why track past a city is refused (:func:`track_past_city`)
PAST_A_CITY = ("passes the city without entering it: not supported, since 5.6.2.1 lets a train use a city "
               "hex once and the route search would not count that track as a use (docs/gaps.md)")


def track_past_city(paths) -> tuple | None:
    """5.6.2.1 "A train may not use the same city hex twice": the route search counts a
    city hex as used when a route enters its city, so track in a city's hex (or on a
    city tile) from side to side past the city (no such tile is in the configs shipped)
    would let a route use the hex twice. The first such path of ``paths`` (parsed, as
    ``Hex.paths``), or None; the caller refuses it (docs/gaps.md) rather than answer
    wrongly."""
    return next(((a, b) for a, b in paths if a[0] == b[0] == "side"), None)


def _no_track_past_a_city(hexes, where):
    """A position whose city hex has :func:`track_past_city` is refused."""
    for i, hx in enumerate(hexes.values()):
        past = track_past_city(hx.paths) if any(stop.kind == CITY for stop in hx.stops) else None
        if past:
            raise InputError(f"track from side {past[0][1]} to side {past[1][1]} of {hx.id} {PAST_A_CITY}",
                             f"{where}: map.hexes[{i}] ({hx.id}).paths")


def _fill_extension_values(h, by_id, where):
    """5.2.3.10: a red extension's sites count as the city's, so its stops take the
    city's value unless the map gives one."""
    if not isinstance(h, dict) or "part_of" not in h:
        return h
    main = by_id.get(h["part_of"])
    if main is None:
        raise InputError(f"part_of names hex {h['part_of']!r}, which is not on the map", where)
    main_city = next((s for s in main.get("stops", []) if isinstance(s, dict) and s.get("kind") == CITY), None)
    h = copy.deepcopy(h)
    for s in h.get("stops", []):
        if isinstance(s, dict) and "value" not in s and main_city is not None and "value" in main_city:
            s["value"] = main_city["value"]
    return h


def _with_double_track(h, where, facts):
    """``"double_track": [[a, b], ...]``: each listed path of the hex is two tracks side
    by side (tiles #301 and #401, 5.2.6.9). Each is track of its own (5.6.2: no two
    trains use the same track; 5.6.7: a commuter run passes on different track each
    time), and both meet whatever touches their hex edge (5.6.2.4: "A single track
    touching a double track is connected to both tracks"). The second track is written
    for the core as the same ends joined through a junction of its own."""
    if not isinstance(h, dict) or "double_track" not in h:
        return h
    double = h["double_track"]
    paths = h.get("paths", [])
    if not isinstance(double, list) or not isinstance(paths, list):
        raise InputError("double_track must be a list of paths of the hex, such as [[0, 3]]", where)
    h = copy.deepcopy(h)
    junctions = h.get("junctions", 0)
    if isinstance(junctions, bool) or not isinstance(junctions, int):
        return h  # parse_hex reports it
    extra = []
    for i, p in enumerate(double):
        if not isinstance(p, list) or len(p) != 2 or not any(q == p or q == p[::-1] for q in paths):
            raise InputError(f"double_track[{i}] {p!r} is not one of the hex's paths (list it in 'paths' "
                             "too: a double track is that path and a second one beside it)", where)
        j = f"j{junctions}"
        junctions += 1
        extra += [[p[0], j], [j, p[1]]]
        facts.double_sides |= {(h.get("id"), e) for e in p if isinstance(e, int) and not isinstance(e, bool)}
    h["paths"] = paths + extra
    h["junctions"] = junctions
    del h["double_track"]
    return h


def _with_slot_counts(h, where):
    """Check ``slot_types`` and give ``slots`` its default (the number of sites)."""
    if not isinstance(h, dict):
        return h
    # the hex and its stops copied, not their contents: only a stop's slots are written
    h = dict(h)
    stops = h.get("stops")
    if isinstance(stops, list):
        stops = h["stops"] = [dict(s) if isinstance(s, dict) else s for s in stops]
    for k, s in enumerate(stops if isinstance(stops, list) else []):
        w = f"{where} ({h.get('id')}).stops[{k}]"
        if not isinstance(s, dict):
            continue
        types = s.get("slot_types")
        if s.get("kind") != CITY:
            if types:
                raise InputError(f"only a city has token sites, not a {s.get('kind')}", w)
            continue
        if types is None:
            if s.get("slots", 1):
                raise InputError("an 1831 city needs 'slot_types', e.g. [\"station\", \"yard\"] "
                                 "(circles are Stations, squares Rail Yards: 5.2.3.9)", w)
            types = s["slot_types"] = []
        if not isinstance(types, list):
            raise InputError("slot_types must be a list of 'station' / 'yard' / 'black'", w)
        for t in types:
            if t not in SLOT_TYPES + (BLACK,):
                raise InputError(f"unknown slot type {t!r} (expected 'station', 'yard' or 'black')", w)
        if "slots" in s and s["slots"] != len(types):
            raise InputError(f"slots is {s['slots']!r} but slot_types lists {len(types)} site(s)", w)
        s["slots"] = len(types)
    return h


def _read_groups(raw_hexes, hexes, facts, where):
    """City groups: a city hex and its red extensions are one city (5.2.3.10); every
    other stop is its own group. The Delaware exception names two groups (5.6.2.1)."""
    for i, h in enumerate(raw_hexes):
        hid, w = h["id"], f"{where}: map.hexes[{i}] ({h['id']})"
        main = h.get("part_of", hid)
        if main != hid and "part_of" in raw_hexes[[x["id"] for x in raw_hexes].index(main)]:
            raise InputError(f"part_of names {main}, which is itself an extension", w)
        for k, stop in enumerate(hexes[hid].stops):
            facts.group[(hid, k)] = main if stop.kind == CITY else f"{hid}.{k}"
        if "revisit_after" in h:
            via = h["revisit_after"]
            if (not isinstance(via, list) or len(via) != 2
                    or not all(isinstance(v, str) and v in hexes for v in via) or via[0] == via[1]):
                raise InputError("revisit_after must name two other hexes of the map (the two cities "
                                 "south of the Delaware large city, 5.6.2.1)", w)
            if not any(s.kind == CITY for s in hexes[hid].stops):
                raise InputError("revisit_after is for a city hex (the Delaware large city)", w)
            facts.revisit[main] = (via[0], via[1])
    # name the two cities by their groups (a red extension answers for its city)
    for g, via in list(facts.revisit.items()):
        facts.revisit[g] = tuple(next(facts.group[(v, k)] for k, s in enumerate(hexes[v].stops) if s.kind == CITY)
                                 if any(s.kind == CITY for s in hexes[v].stops) else _no_city(v, where)
                                 for v in via)


def _no_city(hex_id, where):
    raise InputError(f"revisit_after names {hex_id}, which has no city", where)


def _read_commuter(raw, hexes, facts, where):
    """5.6.7: each commuter run is a cycle of city hexes, started at the first one
    (or at any of them with ``"any_start": true``: Baltimore - Washington)."""
    w = f"{where}: map.commuter_runs"
    if not isinstance(raw, list):
        raise InputError("commuter_runs must be a list", w)
    runs = []
    for i, r in enumerate(raw):
        wi = f"{w}[{i}]"
        if not isinstance(r, dict) or not isinstance(r.get("cycle"), list) or len(r["cycle"]) < 2:
            raise InputError("a commuter run needs a 'cycle' of at least two city hexes", wi)
        for hid in r["cycle"]:
            if hid not in hexes or not any(s.kind == CITY for s in hexes[hid].stops):
                raise InputError(f"commuter cycle names {hid!r}, which is not a city hex of the map", wi)
        any_start = r.get("any_start", False)
        if not isinstance(any_start, bool):
            raise InputError("any_start must be true or false", wi)
        cycle = [facts.group[(hid, next(k for k, s in enumerate(hexes[hid].stops) if s.kind == CITY))]
                 for hid in r["cycle"]]
        runs.append({"name": r.get("name", f"commuter {i}"), "cycle": cycle, "any_start": any_start})
    return runs


def _find_site(board, facts, t, w, want_free):
    """The (hex, stop, slot) a token or a track right names, checked."""
    if not isinstance(t, dict):
        raise InputError("expected an object with 'hex', 'stop' and 'slot'", w)
    hex_id = t.get("hex")
    if hex_id not in board.hexes:
        raise InputError(f"unknown hex {hex_id!r}", w)
    k = t.get("stop", 0)
    hx = board.hexes[hex_id]
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(hx.stops):
        raise InputError(f"hex {hex_id} has no stop {k!r} (it has {len(hx.stops)})", w)
    if hx.stops[k].kind != CITY:
        raise InputError(f"{hex_id}.{k} is a {hx.stops[k].kind}; tokens go on cities", w)
    sites = facts.sites[(hex_id, k)]
    ttype = t.get("type")
    if ttype is not None and ttype not in SLOT_TYPES:
        raise InputError(f"unknown slot type {ttype!r} (expected 'station' or 'yard')", w)
    if "slot" in t:
        j = t["slot"]
        if isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < len(sites):
            raise InputError(f"{hex_id}.{k} has no slot {j!r} (it has {len(sites)}: "
                             f"{', '.join(s.type for s in sites) or 'none'})", w)
        if sites[j].black and sites[j].holder is None:
            if not want_free:
                raise InputError(f"slot {j} of {hex_id}.{k} is a black site with no token", w)
            if t.get("home") is not True or ttype is None:
                raise InputError(f"slot {j} of {hex_id}.{k} is black-filled: only a home token may be "
                                 "placed there, marked \"home\": true with its own \"type\" (5.2.5.1, 5.2.7.2)", w)
            return hex_id, k, j
        if ttype is not None and sites[j].type != ttype and not (want_free and t.get("home") is True):
            raise InputError(f"slot {j} of {hex_id}.{k} is a {sites[j].type} site, not a {ttype}", w)
        return hex_id, k, j
    if ttype is None:
        raise InputError("give the token's 'slot' (index into slot_types) or its 'type'", w)
    for j, s in enumerate(sites):
        if s.type == ttype and not s.black and (s.holder is None) == want_free:
            return hex_id, k, j
        if s.black and s.holder is not None and s.type == ttype and not want_free:
            return hex_id, k, j
    raise InputError(f"{hex_id}.{k} has no {'free ' if want_free else 'taken '}{ttype} site", w)


def place_tokens(board: Board, facts: Map1831, phase: int, data, where) -> tuple:
    """Tokens on their typed sites (5.2.7.2), checked against 5.2.7.6: one token per
    corporation per city hex before the first 3-train, then at most one of each type.
    Returns the placements ``(hex, stop, slot, corporation, type)`` in the position's
    order (:func:`settle_token` puts one on a fresh board)."""
    tokens = data.get("tokens", [])
    if not isinstance(tokens, list):
        raise InputError("field 'tokens' must be a list", where)
    held, placed = {}, []  # (corp, group) -> [types]
    for i, t in enumerate(tokens):
        w = f"{where}: tokens[{i}]"
        hex_id, k, j = _find_site(board, facts, t, w, want_free=True)
        corp = t.get("corporation")
        if not isinstance(corp, str) or not corp:
            raise InputError("token has no 'corporation'", w)
        if not isinstance(t.get("home", False), bool):
            raise InputError("'home' must be true or false", w)
        site = facts.sites[(hex_id, k)][j]
        if site.holder is not None:
            raise InputError(f"slot {j} of {hex_id}.{k} already holds {site.holder}'s token", w)
        # a home token keeps its own type on a black site (5.2.5.1: "does not have to
        # match the correct type"), and still after an upgrade turns that site into one
        # of the other type (5.2.6.5: "all tokens that were on the old tile remain")
        ttype = t["type"] if site.black or (t.get("home") is True and t.get("type") in SLOT_TYPES) else site.type
        group = facts.group[(hex_id, k)]
        types = held.setdefault((corp, group), [])
        if ttype in types:
            raise InputError(f"{corp} would have two {ttype}s in city {group} (5.2.7.6)", w)
        if types and phase < 3:
            raise InputError(f"{corp} would have two tokens in city {group} before the first "
                             "3-train (5.2.7.6)", w)
        types.append(ttype)
        placed.append((hex_id, k, j, corp, ttype))
        settle_token(board, facts, placed[-1])
    return tuple(placed)


def settle_token(board: Board, facts: Map1831, placement):
    """Put a checked token ``(hex, stop, slot, corporation, type)`` on its site."""
    hex_id, k, j, corp, ttype = placement
    site = facts.sites[(hex_id, k)][j]
    site.type, site.holder = ttype, corp
    board.hexes[hex_id].stops[k].tokens.append(corp)


def read_rights(board: Board, facts: Map1831, data, where) -> tuple:
    """5.5: other corporations' tokens bought for this round, ``"track_rights": [{"hex",
    "stop", "slot"}]`` (or ``"type"`` instead of ``"slot"``). Returns them as ``(hex,
    stop, slot)`` (:func:`settle_right` marks one on a fresh board)."""
    raw = data.get("track_rights", [])
    if not isinstance(raw, list):
        raise InputError("field 'track_rights' must be a list", where)
    if raw and data.get("receivership") is True:
        raise InputError("a corporation in receivership may not buy track rights (5.4.7: it \"may not "
                         "pay Track Right Fees (Phase 5) to extend their runs\")", f"{where}: track_rights")
    corp = board.corporation
    for i, t in enumerate(raw):
        w = f"{where}: track_rights[{i}]"
        hex_id, k, j = _find_site(board, facts, t, w, want_free=False)
        site = facts.sites[(hex_id, k)][j]
        if site.holder is None:
            raise InputError(f"slot {j} of {hex_id}.{k} is empty: track rights are bought on "
                             "another corporation's token", w)
        if site.holder == corp:
            raise InputError(f"slot {j} of {hex_id}.{k} holds {corp}'s own token", w)
        if site.right >= 0:
            raise InputError(f"the token in slot {j} of {hex_id}.{k} is bought twice", w)
        if any(s.right >= 0 and s.type == site.type for s in facts.sites[(hex_id, k)]):
            raise InputError(f"two {site.type} rights in {hex_id}.{k}: a train runs to one token "
                             "per city, so this is not supported", w)
        settle_right(facts, (hex_id, k, j))
    return tuple(facts.rights)


def read_home_sites(board: Board, facts: Map1831, data, where) -> tuple:
    """5.2.5: "the 'home token' is not special in any way except that its location is
    reserved for exclusive use by the company": ``"home_sites": [{"hex", "stop", "type",
    "corporation"}]``, a free site of that type in that city kept for a corporation whose
    home token is not placed (no token of its on the map; the game writes them, see
    docs/gaps.md for which site). No token: it neither fills a city (5.2.4.1) nor
    earns; only the token moves of ``trainruns whatif`` read them. Checked after the
    tokens: the kept sites of a type in a city are at most its free ones. Returns them as
    ``(hex, stop, type, corporation)``."""
    raw = data.get("home_sites", [])
    if not isinstance(raw, list):
        raise InputError("field 'home_sites' must be a list", where)
    placed = {s.holder for ss in facts.sites.values() for s in ss if s.holder is not None}
    out = []
    for i, t in enumerate(raw):
        w = f"{where}: home_sites[{i}]"
        if not isinstance(t, dict) or not isinstance(t.get("corporation"), str) or t.get("type") is None:
            raise InputError("expected an object with 'hex', 'stop', 'type' and 'corporation'", w)
        hex_id, k, _ = _find_site(board, facts, {"hex": t.get("hex"), "stop": t.get("stop", 0), "type": t["type"]},
                                  w, want_free=True)
        corp = t["corporation"]
        if corp in placed:
            raise InputError(f"{corp} has a token on the map: its home token is placed, no site is kept "
                             "for it (5.2.5)", w)
        entry = (hex_id, k, t["type"], corp)
        out.append(entry)
        free = count_free(facts.sites[(hex_id, k)], t["type"])
        if sum(1 for e in out if e[:3] == entry[:3]) > free:
            raise InputError(f"more {t['type']} sites of {hex_id}.{k} kept for home tokens than are free ({free})", w)
    return tuple(out)


def settle_right(facts: Map1831, right):
    """Mark a checked track right ``(hex, stop, slot)`` as bought (5.5)."""
    hex_id, k, j = right
    facts.sites[(hex_id, k)][j].right = len(facts.rights)
    facts.rights.append(right)


def mark_blocks(board: Board, facts: Map1831):
    """5.2.4.1: a city hex full of other corporations' tokens blocks; fullness is over
    the whole city, red extensions included (5.2.3.10); an empty black site is no
    vacancy (5.2.7.2: "not available for tokens"). Off-boards end nothing in 1831
    (only tokens earn), so they are dead ends."""
    corp = board.corporation
    by_group = {}
    for ref, sites in facts.sites.items():
        by_group.setdefault(facts.group[ref], []).extend(s for s in sites if s.open)
    for (hex_id, k), group in facts.group.items():
        stop = board.hexes[hex_id].stops[k]
        if stop.kind == OFFBOARD:
            stop.passable = False
        elif stop.kind == CITY:
            sites = by_group[group]
            full = bool(sites) and all(s.holder is not None for s in sites)
            ours = any(s.holder == corp or s.right >= 0 for s in sites)
            stop.passable = not full or ours
        else:
            stop.passable = True

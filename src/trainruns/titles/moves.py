"""The moves a company may make next, as position variants: the hooks a title
declares (:class:`TitleMoves`), and what the titles share to answer them: tile lays and
token placements on a tiled map (1832 rulebook "Laying Track" and "Placing a Token";
1833NE follows the same 1830 rules), home spots, and the choices a purchase leaves when
the train limit forces a discard. ``trainruns.services.whatif`` ranks what the hooks return.

A move is ``(move, variant)``: the change itself (a dict) and the position dict after
it. The title's loader stays the last judge of every variant (counts, colours by
phase, track kept, train limits); what only the moving company's situation decides
(reach, reserved spots) is decided here.

Stops are numbered as the hex's current tile lists them, so an upgrade renumbers them.
Tokens never move ([7.3] "Once a token is placed, it cannot be moved"): a variant that
upgrades a hex carries each token (and each title field naming a stop of the hex) to
the new tile's stop on the same track, found by the stop's exits, which an upgrade
keeps ([6.3]).
"""

from __future__ import annotations

from itertools import combinations

from trainruns.errors import InputError
from trainruns.position.reader import parse_paths
from trainruns.route.board import CITY
from trainruns.route.track import hex_at, side_node


class TitleMoves:
    """The move hooks a title declares (``trainruns.services.whatif`` asks only these). A title
    class inherits them and overrides what its rules say; the defaults: no tile lays
    and no train data (None: the title cannot say), tokens by reach alone."""

    # True when no rule of the title reads a station token beyond making its city a
    # root of routes and unblocking it: whatif may then flip a compiled flag per token
    # instead of solving each variant.
    tokens_are_plain = False

    def tile_rules(self, data, board):
        """The title's tile rules on this position (:class:`TileRules`), or None: no tiles."""
        return None

    def tile_lays(self, data, board, reached):
        """Every legal tile lay or upgrade as ``(move, variant)``: the moves of
        :meth:`tile_moves`, each with the position after it (:meth:`TileRules.variant`),
        or None: no tiles."""
        rules = self.tile_rules(data, board)
        if rules is None:
            return None
        return [(m, rules.variant(data, m["hex"], m["tile"], m["rotation"], rules.now(m["hex"])[2]))
                for m in self.tile_moves(data, board, reached)]

    def tile_moves(self, data, board, reached):
        """Every legal tile lay or upgrade as a move ``{"hex", "tile", "rotation"}`` (and
        ``replaces``, the tile it upgrades), one at a time in the order :meth:`tile_lays`
        lists them, no variant built: a caller asking whether any is left stops at the
        first. :func:`tile_moves` with :meth:`tile_rules`; None: no tiles. A title's own
        lay rules override this, never :meth:`tile_lays`."""
        rules = self.tile_rules(data, board)
        return None if rules is None else tile_moves(rules, board, reached)

    def token_places(self, data, board, reached) -> list:
        """Every legal token placement as ``(move, variant)`` (:func:`token_places`)."""
        return token_places(self, data, board, reached)

    def token_refusal(self, data, board, ref):
        """Why the operating company may not put a token on ``ref`` although it reaches a
        free slot there (a reserved spot), or None. The title's rule."""
        return None

    def moved_stops(self, data, hex_id, mapping) -> dict:
        """Position fields (beyond ``tokens``) naming a stop of ``hex_id``, carried to the
        upgraded tile's stops by ``mapping`` (old index -> new): the fields that change."""
        return {}

    def train_purchases(self, data):
        """Each train the company could buy next as ``(move, variant)`` (the loader then
        drops the variants that are not legal), or None: no train data."""
        return None


def stop_sides(spec, rot):
    """Stop index -> set of hex sides its track leaves by, for a tile or printed hex."""
    out = {k: set() for k in range(len(spec.get("stops", [])))}
    for a, b in parse_paths(spec.get("paths", []), len(spec.get("stops", [])), 0, "tile", rot or 0):
        for end, other in ((a, b), (b, a)):
            if end[0] == "stop" and other[0] == "side":
                out[end[1]].add(other[1])
    return out


def track_sides(spec, rot):
    """The hex sides a tile (or printed hex) at ``rot`` has track on."""
    return {e[1] for p in parse_paths(spec.get("paths", []), len(spec.get("stops", [])), 0, "tile", rot or 0)
            for e in p if e[0] == "side"}


def stop_map(old_spec, old_rot, new_spec, new_rot):
    """Old stop index -> new stop index after an upgrade: the new stop whose exits
    include the old stop's exits; a stop without track keeps its number."""
    old, new = stop_sides(old_spec, old_rot), stop_sides(new_spec, new_rot)
    out = {}
    for k, sides in old.items():
        at = [j for j, ns in new.items() if sides and sides <= ns]
        if at:
            out[k] = at[0]
        elif k < len(new):
            out[k] = k
    return out


def current_stop(tiled, laid, hex_id, printed_k):
    """The stop that printed stop ``printed_k`` of ``hex_id`` is now (by its exits)."""
    if hex_id not in laid:
        return printed_k
    tile, rot = laid[hex_id]
    return stop_map(tiled.hexes[hex_id], 0, tiled.tiles[tile], rot).get(printed_k, printed_k)


def started(corporation_id, data):
    """Corporations with a token on the map (``corporation_id``: the title's reading of a
    name). A company places its home token when it first operates (1832 [7.1]), so one
    without any has not started (docs/gaps.md)."""
    out = set()
    for t in data.get("tokens", []) or []:
        if isinstance(t, dict) and isinstance(t.get("corporation"), str):
            out.add(corporation_id(t["corporation"]))
    return out


def home_refusal(tiled, data, board, ref, homes, going, rule):
    """The home spot of a company that has not started is kept for it: ``homes`` lists
    (company, hex, printed stop); a city keeps a free space for each company in
    ``homes`` not in ``going`` whose home it is now (the printed city followed through
    upgrades by its track). Returns ``rule`` with the companies named, or None."""
    hex_id, k = ref
    laid = tiled.lay(data.get("tiles", []), board.phase, "position")
    waiting = sorted(c for c, h, printed_k in homes if h == hex_id and c not in going
                     and current_stop(tiled, laid, hex_id, printed_k) == k)
    stop = board.stop(ref)
    if waiting and stop.slots - len(stop.tokens) <= len(waiting):
        return f"{hex_id}.{k} is the home city of {', '.join(waiting)}, not yet started: {rule}"
    return None


def relocate_tokens(tokens, hex_id, mapping):
    """The position's tokens with those on ``hex_id`` carried by ``mapping``; a company
    with two tokens in one city keeps one ([7.3]: "one of them is removed")."""
    out, seen = [], set()
    for t in tokens:
        if isinstance(t, dict) and t.get("hex") == hex_id and t.get("stop", 0) in mapping:
            t = dict(t, stop=mapping[t.get("stop", 0)])
            key = (t["stop"], t.get("corporation"))
            if key in seen:
                continue
            seen.add(key)
        out.append(t)
    return out


def lay_variant(title, data, hex_id, tile, rot, before):
    """The position after laying ``tile`` at ``rot`` on ``hex_id`` (``before``: the
    (tile, rotation) there now, or None for the printed face), tokens carried over."""
    tiled = title.facts.tiled
    old_spec, old_rot = (tiled.hexes[hex_id], 0) if before is None else (tiled.tiles[before[0]], before[1])
    mapping = stop_map(old_spec, old_rot, tiled.tiles[tile], rot)
    variant = dict(data, tiles=list(data.get("tiles", [])) + [{"hex": hex_id, "tile": tile, "rotation": rot}])
    if isinstance(data.get("tokens"), list):
        variant["tokens"] = relocate_tokens(data["tokens"], hex_id, mapping)
    variant.update(title.moved_stops(data, hex_id, mapping))
    return variant


_TRACKS = {}  # (id(spec), rot) -> (spec, key): tiles and printed hexes never change


def track_key(spec, rot):
    """A tile's track at a rotation as a set of paths (each a frozenset of two ends):
    two rotations with the same key lay the same track. Memoised: a game lists lays
    hundreds of times over the same title data (the spec is kept, so its id stays its own)."""
    memo = _TRACKS.get((id(spec), rot))
    if memo is not None and memo[0] is spec:
        return memo[1]
    key = frozenset(frozenset(p) for p in parse_paths(spec.get("paths", []), len(spec.get("stops", [])), 0,
                                                       "tile", rot))
    if len(_TRACKS) > 100_000:
        _TRACKS.clear()
    _TRACKS[(id(spec), rot)] = (spec, key)
    return key


_AT = []  # [(board, its hexes by (x, y))]: the board connects() last looked at


def _hexes_at(board):
    """Hex id by (x, y) of ``board``, built once per board (tile_lays asks for every
    candidate lay on the same board)."""
    if _AT and _AT[0][0] is board and len(_AT[0][1]) == len(board.hexes):
        return _AT[0][1]
    at = hex_at(board)
    _AT[:] = [(board, at)]
    return at


def connects(board, reached, hex_id, new_paths, old_stops_reached):
    """1832 rulebook "Laying Track": some new track on the tile continues a run of the
    company (a run arrives at a hex side of it on the neighbour's track, or at a stop of
    it it may pass), or, for an upgrade, a town or city of the tile is already on a run
    ("or a town or city on the new tile must be on a route of the company")."""
    if old_stops_reached:
        return True
    at = _hexes_at(board)
    stops = board.hexes[hex_id].stops
    for a, b in new_paths:
        for end in (a, b):
            if end[0] == "side":
                if reached.arrives_at_side(side_node(board, hex_id, end[1], at), hex_id):
                    return True
            elif end[0] == "stop" and (hex_id, end[1]) in reached.stops:
                stop = stops[end[1]] if end[1] < len(stops) else None
                if stop is None or board.is_passable(stop) or board.is_own_token(stop):
                    return True
    return False


def touched_hexes(reached) -> set:
    """The hexes :func:`connects` can say yes for: those with a stop on one of the
    company's runs, or a hex side at which a run arrives on a neighbour's track. A lay
    on any other hex continues no run, so the generator skips the hex unasked."""
    out = {ref[0] for ref in reached.stops}
    for node, via in reached.sides.items():
        for hex_id, _side in node[1]:
            if via - {hex_id}:
                out.add(hex_id)
    return out


class TileRules:
    """The declared hooks of a title's tile rules that the one generator of lays
    (:func:`single_lays`) asks; a title gives one for a position (``tile_rules``) or
    for its game's map. The generator owns what every title shares: each hex in
    order, each tile offered at each rotation giving distinct track, the company's
    reach (:func:`connects`); these hooks say what the title's rulebook says."""

    tiles: dict = {}  # tile name -> spec (its ``paths`` and ``stops``)

    def hex_ids(self, board) -> list:
        """The hexes a tile may go on, in the order the lays are listed."""
        raise NotImplementedError

    def now(self, hex_id):
        """What the hex shows now: ``(spec, rotation, before)``, ``before`` the
        ``(tile, rotation)`` laid there or None for the printed face."""
        raise NotImplementedError

    def options(self, hex_id, before) -> list:
        """The tiles that may replace what the hex shows (first tiles or upgrades)."""
        raise NotImplementedError

    def left(self, tile) -> bool:
        """Whether one of ``tile`` is left in the supply (the manifest's count)."""
        raise NotImplementedError

    def stands(self, hex_id, tile, rot, before, track, old_track) -> bool:
        """Whether ``tile`` at ``rot`` may stand on the hex (track kept, border, chart
        and phase: whatever the title's rules ask of the tile itself)."""
        raise NotImplementedError

    def city_reached(self, hex_id) -> bool:
        """Whether a stop of ``hex_id`` with no track yet on the hex counts as on the
        company's network (1831 5.2.4.1: a route "to the hex"); by default only stops
        of a hex with track do."""
        return False

    def variant(self, data, hex_id, tile, rot, before) -> dict:
        """The position ``data`` after the lay, tokens kept on their cities."""
        raise NotImplementedError


def single_lays(rules: TileRules, board, reached, hex_ids=None):
    """The one generator of single tile lays and upgrades every title uses (1832 rulebook
    "Laying Track", 1833NE as 1830, 1831 5.2.4-5.2.6): for each hex of ``hex_ids``
    (default ``rules.hex_ids(board)``) in order, each tile of ``rules.options`` with one
    left in the supply, at each rotation giving new track (rotations laying identical
    track are one lay) that the title's tile rules let stand (``rules.stands``) and that
    this company may lay: some new track continues one of its runs, or a town or city
    of the hex is on one already (:func:`connects`). ``reached`` None asks no reach (a
    home tile, 1831 5.2.5). Yields ``(hex_id, tile, rotation, before)``."""
    tiles = rules.tiles
    near = None if reached is None else touched_hexes(reached)
    for hex_id in rules.hex_ids(board) if hex_ids is None else hex_ids:
        if near is not None and hex_id not in near:
            continue  # no run arrives at the hex or stops on it: no lay there connects
        spec, rot, before = rules.now(hex_id)
        choices = rules.options(hex_id, before)
        if not choices:
            continue
        old_track = track_key(spec, rot)
        old_stops_reached = reached is not None and (bool(old_track) or rules.city_reached(hex_id)) and any(
            (hex_id, k) in reached.stops for k in range(len(board.hexes[hex_id].stops)))
        for tile in choices:
            if not rules.left(tile):
                continue  # none left in the supply
            seen_tracks = set()
            for r in range(6):
                track = track_key(tiles[tile], r)
                if track in seen_tracks:
                    continue  # a symmetric tile: this rotation is a lay already listed
                seen_tracks.add(track)
                if not rules.stands(hex_id, tile, r, before, track, old_track):
                    continue
                new_paths = [tuple(p) for p in track - old_track]
                # an upgrade adding no segment (town #4 -> city #57) is legal when its stop is on
                # the company's network: "or a town or city on the new tile must be on a route"
                if reached is not None and not connects(board, reached, hex_id, new_paths, old_stops_reached):
                    continue
                yield hex_id, tile, r, before


class ManifestTiles(TileRules):
    """The tile rules of a title with a tile manifest (1832, 1833NE: :class:`.tiled.Tiled`)
    on a position: hex kind, first tiles, upgrade chart, colours by phase, counts, track
    kept and placement restrictions (``Tiled.check_lay``), and the title's own
    (``title.check_map``)."""

    def __init__(self, title, data, phase):
        self.title, self.data, self.phase = title, data, phase
        self.tiled = tiled = title.facts.tiled
        self.tiles = tiled.tiles
        self.current = tiled.lay(data.get("tiles", []), phase, "position")
        self.used = {}
        for tile, _ in self.current.values():
            self.used[tile] = self.used.get(tile, 0) + 1

    def hex_ids(self, board):
        return [h for h, printed in self.tiled.hexes.items() if printed.get("color") not in ("gray", "red")]

    def now(self, hex_id):
        before = self.current.get(hex_id)
        if before is None:
            return self.tiled.hexes[hex_id], 0, None
        return self.tiled.tiles[before[0]], before[1], before

    def options(self, hex_id, before):
        tiled = self.tiled
        kind = tiled.hexes[hex_id].get("kind", "clear")
        if before is None:
            return (list(tiled.manifest["first_tiles"].get(kind, []))
                    + tiled.manifest.get("printed_upgrades", {}).get(kind, []))
        return tiled.upgrades_of(before[0], kind)

    def left(self, tile):
        return self.used.get(tile, 0) < self.tiled.manifest["counts"].get(tile, 0)

    def stands(self, hex_id, tile, rot, before, track, old_track):
        try:
            self.tiled.check_lay(hex_id, tile, rot, before, self.phase, "lay")
            self.title.check_map(self.data, {hex_id: (tile, rot)}, self.phase, "lay")
        except InputError:
            return False
        return True

    def variant(self, data, hex_id, tile, rot, before):
        return lay_variant(self.title, data, hex_id, tile, rot, before)


def tile_moves(rules: TileRules, board, reached):
    """Every legal single lay or upgrade for the operating company (:func:`single_lays`)
    as a move, lazily: the title's tile rules (``rules``) decide whether a tile may
    stand; ``reached`` (the company's runs) decides whether this company may lay it."""
    for hex_id, tile, rot, before in single_lays(rules, board, reached):
        move = {"hex": hex_id, "tile": tile, "rotation": rot}
        if before is not None:
            move["replaces"] = before[0]
        yield move


def token_places(title, data, board, reached):
    """Every legal token placement (1832 rulebook "Placing a Token": "trace a valid
    train route from one of its station tokens to the city ... The city must have space
    for the token and must not already contain a token of the company"), less those
    the title refuses (``title.token_refusal``: reserved spots)."""
    out = []
    order = {h: i for i, h in enumerate(board.hexes)}
    for ref in sorted(reached.stops, key=lambda r: (order[r[0]], r[1])):
        stop = board.stop(ref)
        if stop.kind != CITY or board.corporation in stop.tokens or len(stop.tokens) >= stop.slots:
            continue
        if title is not None and title.token_refusal(data, board, ref) is not None:
            continue
        move = {"hex": ref[0], "stop": ref[1]}
        name = stop.name or board.hexes[ref[0]].name
        if name:
            move["name"] = name
        token = {"hex": ref[0], "stop": ref[1], "corporation": data["corporation"]}
        out.append((move, dict(data, tokens=list(data.get("tokens", [])) + [token])))
    return out


def keep_choices(trains, room):
    """Each distinct way to keep ``room`` of ``trains`` (the president "decides which
    train is discarded"): a list of (kept, discarded), kept trains in their order."""
    if len(trains) <= room:
        return [(list(trains), [])]
    out, seen = [], set()
    for keep in combinations(range(len(trains)), max(room, 0)):
        kept = [trains[i] for i in keep]
        key = tuple(sorted(map(str, kept)))
        if key in seen:
            continue
        seen.add(key)
        out.append((kept, [trains[i] for i in range(len(trains)) if i not in keep]))
    return out

"""What each move is worth: rank every legal tile lay, token or train by the best run.

Each candidate move is a *position variant*: the position dict with one tile lay, one
token or one train added. It is loaded and solved like any position, so the title's
own checks (upgrade chart, counts, phase colours, track kept, no track off the map,
train limits) decide legality exactly as they do for a position file, and the value
is the proven best run of the variant. What the title's loader cannot know is whether
the *operating corporation* may make the move now; that is decided here:

- tiles: rules/1832.md "Laying Track": a lay must connect to track the company can
  reach from one of its tokens ("trace an unblocked (by other company tokens) train
  run of any length from one of its tokens to some of the new track"); for an upgrade,
  "either at least one new track segment ... must form part of a legal route of the
  company, or a town or city on the new tile must be on a route of the company";
- tokens: rules/1832.md "Placing a Token": a city reachable from one of its tokens,
  with space for a token, not already holding one of its tokens;
- trains: the train types that exist in the current phase (the title's train data),
  within the phase's train limit; for a custom map, the names the caller gives.

Reachability is traced over the current track: from the company's token cities,
through hex sides and stops, never through a stop a route may not pass (an off-board,
a city full of other companies' tokens, a stop the title closes to the company). It
lets a trace turn at a stop, which a single train route may not; the looseness only
matters on boards where a city is reachable by no unbranched run, which real maps
rarely have (see the module's report).
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field

from .board import CITY
from .errors import InputError
from .hexgrid import neighbour, opposite
from .position import load_position, parse_paths
from .result import Run


@dataclass
class Move:
    """One candidate move and the best run it allows.

    ``kind`` is ``"tile"``, ``"token"`` or ``"train"``; ``move`` the change itself
    (``{"hex", "tile", "rotation"}``, ``{"hex", "stop"}`` or ``{"train"}``);
    ``gain`` is ``revenue`` minus the best revenue of the position as it stands.
    """

    kind: str
    move: dict
    revenue: int
    gain: int
    optimal: bool
    run: Run | None = None
    note: str = ""

    def label(self):
        m = self.move
        if self.kind == "tile":
            up = f" (upgrade of {m['replaces']})" if m.get("replaces") else ""
            return f"tile {m['tile']} on {m['hex']} rotation {m['rotation']}{up}"
        if self.kind == "token":
            return f"token on {m['hex']}.{m['stop']}" + (f" {m['name']}" if m.get("name") else "")
        text = f"buy a {m['train']}-train"
        if m.get("starts_phase"):
            text += f" (the first: starts phase {m['starts_phase']}"
            text += f"; scraps {', '.join(m['scrapped'])})" if m.get("scrapped") else ")"
        return text

    def to_json(self):
        out = {"kind": self.kind, "move": dict(self.move), "revenue": self.revenue, "gain": self.gain,
               "optimal": self.optimal}
        if self.run is not None:
            out["routes"] = self.run.to_json(with_seconds=False)["routes"]
        return out


@dataclass
class Ranking:
    """The current best run and the moves, best first."""

    kind: str
    base: Run
    moves: list[Move] = field(default_factory=list)
    considered: int = 0   # legal variants solved
    rejected: int = 0     # candidates the title's loader refused
    seconds: float = 0.0

    def to_json(self, top=None):
        moves = self.moves if top is None else self.moves[:top]
        return {"kind": self.kind, "current_revenue": self.base.revenue, "current_optimal": self.base.optimal,
                "considered": self.considered, "rejected": self.rejected, "seconds": round(self.seconds, 6),
                "moves": [m.to_json() for m in moves]}


# --- solving variants ------------------------------------------------------------------


def _solve(variant, time_limit):
    from .board import Board
    from .search import solve

    return solve(variant if isinstance(variant, Board) else load_position(variant), time_limit=time_limit)


def _rank(kind, data, variants, time_limit, progress):
    """Solve the base position and every (move, variant) pair; best first, ties in the
    order given (so the ranking is deterministic)."""
    t0 = time.perf_counter()
    base = _solve(data, time_limit)
    ranking = Ranking(kind=kind, base=base)
    if progress:
        progress.start(len(variants))
    for move, variant in variants:
        try:
            run = _solve(variant, time_limit)
        except InputError:
            # The title's loader is the last judge of legality: a rule it checks that
            # the candidate filter does not know (1833NE's impassable borders) rejects
            # the move here instead of failing the whole ranking.
            ranking.rejected += 1
        else:
            ranking.moves.append(Move(kind, move, run.revenue, run.revenue - base.revenue, run.optimal, run))
        if progress:
            progress.advance()
    ranking.considered = len(ranking.moves)
    ranking.moves.sort(key=lambda m: -m.revenue)  # stable: ties keep candidate order
    ranking.seconds = time.perf_counter() - t0
    return ranking


def _title(data):
    if data.get("title") is None:
        return None
    from . import titles

    return titles.get(data["title"], "position")


# --- reachability --------------------------------------------------------------------


def _side_node(board, at, hex_id, e):
    """The node of hex side ``e`` of ``hex_id``: shared with the neighbour across it."""
    hx = board.hexes[hex_id]
    other = at.get(neighbour(hx.x, hx.y, e, board.layout))
    pair = [(hex_id, e)] + ([(other, opposite(e))] if other else [])
    return ("side", tuple(sorted(pair)))


def reach(board):
    """Where the company's track reaches (rules/1832.md "Laying Track": "an unblocked
    (by other company tokens) train run of any length from one of its tokens").

    Returns ``(stops, sides)``: the set of reached ``(hex, k)`` stops, and for each
    reached hex-side node the set of hexes whose track arrives at it (a run continues
    across a side only into the other hex, so new track at a side is runnable only if
    track of *another* hex reaches it).
    """
    at = {(hx.x, hx.y): hid for hid, hx in board.hexes.items()}
    incident = {}
    for hid, hx in board.hexes.items():
        for a, b in hx.paths:
            na, nb = (_node(board, at, hid, end) for end in (a, b))
            incident.setdefault(na, []).append((nb, hid))
            incident.setdefault(nb, []).append((na, hid))
    start = [("stop", ref) for ref in board.stop_refs()
             if board.is_own_token(board.stop(ref)) and board.stop(ref).enterable]
    stops, sides, seen = set(), {}, set()
    todo = [(n, None) for n in start]
    while todo:
        node, via_hex = todo.pop()
        if node[0] == "side":
            sides.setdefault(node, set()).add(via_hex)
        if node[0] == "stop":
            stop = board.stop(node[1])
            if not stop.enterable:
                continue
            stops.add(node[1])
            if via_hex is not None and not board.is_passable(stop) and not board.is_own_token(stop):
                continue  # a run may end here but not pass through
        key = (node, via_hex if node[0] == "side" else None)
        if key in seen:
            continue
        seen.add(key)
        for other, hid in incident.get(node, []):
            if node[0] == "side" and hid == via_hex:
                continue  # at a hex side track continues in the other hex only
            todo.append((other, hid))
    return stops, sides


def _node(board, at, hex_id, end):
    what, k = end
    if what == "side":
        return _side_node(board, at, hex_id, k)
    return (what, (hex_id, k))


def connects(board, reached, hex_id, new_paths, old_stops_reached):
    """rules/1832.md "Laying Track": some new track on the tile continues track the
    company reaches (a reached stop of the hex, or a hex side reached from the other
    hex), or, for an upgrade, a town or city of the tile is already on its network."""
    stops, sides = reached
    if old_stops_reached:
        return True
    at = {(hx.x, hx.y): hid for hid, hx in board.hexes.items()}
    for a, b in new_paths:
        for end in (a, b):
            if end[0] == "side":
                node = _side_node(board, at, hex_id, end[1])
                if sides.get(node, set()) - {hex_id}:
                    return True
            elif end[0] == "stop" and (hex_id, end[1]) in stops:
                stop = board.hexes[hex_id].stops[end[1]] if end[1] < len(board.hexes[hex_id].stops) else None
                if stop is None or board.is_passable(stop) or board.is_own_token(stop):
                    return True
    return False


# --- tiles ----------------------------------------------------------------------------


def _track(spec, rot):
    """A tile's track at a rotation as a set of paths (each a frozenset of two ends)."""
    return frozenset(frozenset(p) for p in parse_paths(spec.get("paths", []), len(spec.get("stops", [])), 0,
                                                        "tile", rot))


def tile_candidates(data, board=None, hexes=None):
    """Every legal single lay or upgrade for the operating company, per rules/1832.md
    "Laying Track": the title's tile checks (hex kind, first tiles, upgrade chart
    [23], colours by phase [4.2], counts, track kept, "Tile Placement Restrictions")
    decide whether a tile may stand; reachability from the company's tokens decides
    whether this company may lay it. Rotations giving identical track are one move.

    Returns a list of ``(move, variant position dict)``.
    """
    title = _title(data)
    tiled = getattr(getattr(title, "facts", None), "tiled", None) if title else None
    if tiled is None:
        raise InputError("tile lays need a title with a tile manifest (1832); "
                         "a custom map has no tiles to lay", "position")
    board = board or load_position(data)
    phase = board.phase
    current = tiled.lay(data.get("tiles", []), phase, "position")
    reached = reach(board)
    used = {}
    for tile, _ in current.values():
        used[tile] = used.get(tile, 0) + 1
    counts = tiled.manifest["counts"]
    out = []
    for hex_id, printed in tiled.hexes.items():
        if printed.get("color") in ("gray", "red") or (hexes is not None and hex_id not in hexes):
            continue
        kind = printed.get("kind", "clear")
        before = current.get(hex_id)
        if before is None:
            options = list(tiled.manifest["first_tiles"].get(kind, []))
            options += tiled.manifest.get("printed_upgrades", {}).get(kind, [])
            old_track = _track(printed, 0)
        else:
            options = tiled.upgrades_of(before[0], kind)
            old_track = _track(tiled.tiles[before[0]], before[1])
        old_stops_reached = bool(old_track) and any((hex_id, k) in reached[0]
                                                    for k in range(len(board.hexes[hex_id].stops)))
        for tile in options:
            if used.get(tile, 0) >= counts.get(tile, 0):
                continue  # the manifest's count: none left in the supply
            seen_tracks = set()
            for rot in range(6):
                track = _track(tiled.tiles[tile], rot)
                if track in seen_tracks:
                    continue  # a symmetric tile: this rotation is a lay already listed
                seen_tracks.add(track)
                try:
                    tiled.check_lay(hex_id, tile, rot, before, phase, "lay")
                except InputError:
                    continue
                new_paths = [tuple(p) for p in track - old_track]
                # an upgrade adding no segment (town #4 -> city #57) is legal when its stop is on
                # the company's network: "or a town or city on the new tile must be on a route"
                if not connects(board, reached, hex_id, new_paths, old_stops_reached):
                    continue
                move = {"hex": hex_id, "tile": tile, "rotation": rot}
                if before is not None:
                    move["replaces"] = before[0]
                variant = dict(data, tiles=list(data.get("tiles", [])) + [{"hex": hex_id, "tile": tile,
                                                                          "rotation": rot}])
                out.append((move, variant))
    return out


def rank_tiles(position, time_limit=None, progress=None) -> list[Move]:
    """Every legal tile lay or upgrade (rules/1832.md "Laying Track", see
    :func:`tile_candidates`) ranked by the best run it allows, best first."""
    return rank_tiles_full(position, time_limit, progress).moves


def rank_tiles_full(position, time_limit=None, progress=None) -> Ranking:
    data = _as_dict(position)
    return _rank("tile", data, tile_candidates(data), time_limit, progress)


# --- tokens ---------------------------------------------------------------------------


def token_candidates(data, board=None):
    """Every legal token placement (rules/1832.md "Placing a Token": "trace a valid
    train route from one of its station tokens to the city ... The city must have space
    for the token and must not already contain a token of the company")."""
    board = board or load_position(data)
    stops, _ = reach(board)
    out = []
    for ref in sorted(stops, key=lambda r: list(board.hexes).index(r[0]) * 100 + r[1]):
        stop = board.stop(ref)
        if stop.kind != CITY or board.corporation in stop.tokens or len(stop.tokens) >= stop.slots:
            continue
        move = {"hex": ref[0], "stop": ref[1]}
        name = stop.name or board.hexes[ref[0]].name
        if name:
            move["name"] = name
        token = {"hex": ref[0], "stop": ref[1], "corporation": data["corporation"]}
        out.append((move, dict(data, tokens=list(data.get("tokens", [])) + [token])))
    return out


def rank_tokens(position, time_limit=None, progress=None) -> list[Move]:
    """Every legal token placement (:func:`token_candidates`) ranked by best run."""
    return rank_tokens_full(position, time_limit, progress).moves


def rank_tokens_full(position, time_limit=None, progress=None, reuse=True) -> Ranking:
    """Rank token placements. Where a token only makes its city a root of routes (plain
    rules and 1832: no title rule reads station tokens), the base board is compiled
    once and each candidate flips that city's "own token" flag, which skips loading and
    compiling a variant; other titles (1831 runs token to token) solve each variant."""
    data = _as_dict(position)
    cands = token_candidates(data)
    board = load_position(data)
    if not (reuse and board.route_model is None and _tokens_are_plain(board)):
        return _rank("token", data, cands, time_limit, progress)
    from dataclasses import replace

    from .compile import compile_board
    from .search import assign_trains, enumerate_all

    t0 = time.perf_counter()
    base = _solve(board, time_limit)
    compiled = compile_board(board)
    ranking = Ranking(kind="token", base=base)
    if progress:
        progress.start(len(cands))
    for move, _variant in cands:
        s = compiled.stop_id((move["hex"], move["stop"]))
        stop = board.stop((move["hex"], move["stop"]))
        own, passable = compiled.stop_own.copy(), compiled.stop_passable.copy()
        own[s] = stop.enterable
        # with its own token a city is never blocked (Board.is_passable), unless a
        # title rule fixed it
        passable[s] = (True if stop.passable is None else stop.passable) and stop.enterable
        flipped = replace(compiled, stop_own=own, stop_passable=passable)
        t1 = time.perf_counter()
        deadline = None if time_limit is None else t1 + time_limit
        run = assign_trains(enumerate_all(flipped, deadline=deadline), deadline=deadline)
        run.seconds = time.perf_counter() - t1
        ranking.moves.append(Move("token", move, run.revenue, run.revenue - base.revenue, run.optimal, run))
        if progress:
            progress.advance()
    ranking.considered = len(ranking.moves)
    ranking.moves.sort(key=lambda m: -m.revenue)
    ranking.seconds = time.perf_counter() - t0
    return ranking


def _tokens_are_plain(board):
    """Custom maps, and titles that say so (``tokens_are_plain`` on the title object):
    no rule reads station tokens beyond the plain ones, so a token is a flag flip."""
    if not board.title:
        return True
    from . import titles

    return bool(getattr(titles.get(board.title), "tokens_are_plain", False))


# --- trains ---------------------------------------------------------------------------


def train_candidates(data, names=None):
    """The trains the company could buy next: for a title, every train type that exists
    in the current phase (rules/1832.md [10], Table 1: bought from the bank at the
    earliest in its own phase, not yet scrapped); for a custom map, ``names``. A
    variant over the phase's train limit is not a legal purchase and is left out (the
    title's loader says so)."""
    explicit = names is not None
    if not explicit:
        title = _title(data)
        trains = getattr(getattr(title, "facts", None), "trains", None) if title else None
        if not trains:
            raise InputError("no train data for this position: name the candidate trains (--train NAME)",
                             "position")
        names = list(trains)
        later = _next_phase_train(data, title)  # listed last: on a tie the plain buy ranks first
    else:
        later = []
    out = []
    for name in names:
        variant = dict(data, trains=list(data.get("trains", [])) + [name])
        try:
            load_position(variant)
        except InputError:
            if explicit:
                raise  # the caller named this train, so a bad name is bad input
            continue  # a title's train that does not exist in this phase
        out.append(({"train": str(name)}, variant))
    return out + later


def _next_phase_train(data, title):
    """rules/1832.md [4.2]: buying the first train of the next type starts its phase,
    which scraps older trains (Table 1) and changes off-board values; that purchase is a
    candidate too, as the variant in the new phase. (Whether the current type is sold
    out is not part of a position; the move says which phase it starts.)"""
    facts = title.facts
    phases = getattr(facts, "phase_names", None)
    if not phases or data.get("phase") not in phases:
        return []
    i = phases.index(str(data["phase"]))
    if i + 1 >= len(phases) or phases[i + 1] not in facts.trains:
        return []
    nxt = phases[i + 1]
    keep, scrapped = [], []
    for t in data.get("trains", []):
        gone = facts.trains.get(str(t), {}).get("scrapped_in")
        if gone is not None and phases.index(gone) <= i + 1:
            scrapped.append(str(t))
        else:
            keep.append(t)
    variant = dict(data, phase=nxt, trains=keep + [nxt])
    try:
        load_position(variant)
    except InputError:
        return []  # over the new phase's train limit, or state the new phase removes
    move = {"train": nxt, "starts_phase": nxt}
    if scrapped:
        move["scrapped"] = scrapped
    return [(move, variant)]


def rank_trains(position, names=None, time_limit=None, progress=None) -> list[Move]:
    """Each train the company could buy next (:func:`train_candidates`), ranked."""
    return rank_trains_full(position, names, time_limit, progress).moves


def rank_trains_full(position, names=None, time_limit=None, progress=None) -> Ranking:
    data = _as_dict(position)
    return _rank("train", data, train_candidates(data, names), time_limit, progress)


def _as_dict(position):
    """A position dict (a path is read); deep-copied so variants never alias it."""
    if isinstance(position, dict):
        return copy.deepcopy(position)
    from .position import read_json

    data = read_json(position)
    if not isinstance(data, dict):
        raise InputError("a position must be a JSON object", str(position))
    return data

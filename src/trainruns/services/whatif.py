"""What each move is worth: rank every legal tile lay, token or train by the best run.

Each candidate move is a *position variant*: the position dict with one tile lay, one
token or one train added. It is loaded and solved like any position, so the title's
own checks (upgrade chart, counts, phase colours, track kept, no track off the map,
train limits, blocked hexes, reserved spots) decide legality exactly as they do for a
position file, and the value is the proven best run of the variant.

Which moves the operating company may make is the title's to say (its move hooks,
:class:`~trainruns.titles.moves.TitleMoves`: ``tile_lays``, ``token_places``,
``train_purchases``); this module asks for them, solves and ranks. What is generic:

- reach (:mod:`trainruns.route.reach`): the stops and track a single legal run from one of
  the company's tokens reaches (1832 rulebook "Laying Track": "an unblocked (by other
  company tokens) train run of any length from one of its tokens"; "Placing a Token":
  "trace a valid train route"): one unbranched line, never reversing at a stop;
- tokens: a reached city with space, not already holding one of its tokens, not a spot
  the title reserves (1832: the last space of an unstarted company's home city);
- trains: for a custom map, the names the caller gives.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field

from trainruns.errors import InputError
from trainruns.route.reach import reach
from trainruns.route.result import Run
from trainruns.titles.load import load_position


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
            up += f" ({m['private']}'s lay)" if m.get("private") else ""
            return f"tile {m['tile']} on {m['hex']} rotation {m['rotation']}{up}"
        if self.kind == "token":
            kind = f" ({m['type']})" if m.get("type") else ""
            return f"token on {m['hex']}.{m['stop']}" + (f" {m['name']}" if m.get("name") else "") + kind
        text = f"buy a {m['train']}-train"
        notes = [f"the first: starts phase {m['starts_phase']}"] if m.get("starts_phase") else []
        notes += [f"scraps {', '.join(m['scrapped'])}"] if m.get("scrapped") else []
        notes += [f"discards {', '.join(m['discarded'])}"] if m.get("discarded") else []
        return text + (f" ({'; '.join(notes)})" if notes else "")

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
    reach_complete: bool = True  # False: the reach walk hit its budget; moves may be missing

    def to_json(self, top=None):
        moves = self.moves if top is None else self.moves[:top]
        out = {"kind": self.kind, "current_revenue": self.base.revenue, "current_optimal": self.base.optimal,
               "considered": self.considered, "rejected": self.rejected, "seconds": round(self.seconds, 6),
               "moves": [m.to_json() for m in moves]}
        if not self.reach_complete:
            out["reach_complete"] = False
        return out


# --- solving variants ------------------------------------------------------------------


def _solve(variant, time_limit):
    from trainruns.route.board import Board
    from trainruns.route.search import solve

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


# --- the title's moves -----------------------------------------------------------------


def _moves(data):
    """The title's move hooks (:class:`~trainruns.titles.moves.TitleMoves`, part of
    every :class:`~trainruns.titles.base.Title`; the custom map is a title too)."""
    from trainruns import titles

    return titles.of_position(data, "position")


def tile_candidates(data, board=None, reached=None, hexes=None):
    """Every legal single lay or upgrade for the operating company, as the title lays
    them (``tile_lays``: its tile checks say whether a tile may stand, the company's
    runs whether it may lay it; tokens stay on their cities across an upgrade).
    Returns a list of ``(move, variant position)``."""
    hooks = _moves(data)
    board = board or load_position(data)
    reached = reached or reach(board)
    lays = _tiled(hooks.tile_lays(data, board, reached))
    if hexes is not None:  # only the lays on these hexes (the web page asks per hex)
        lays = [(m, v) for m, v in lays if m["hex"] in hexes]
    return lays


def tile_moves(data, board, reached):
    """The moves of :func:`tile_candidates` one at a time in its order, no variant built
    (the title's ``tile_moves``): a caller asking whether any lay is left stops at the
    first."""
    return _tiled(_moves(data).tile_moves(data, board, reached))


def _tiled(lays):
    """A title's lays, or exit 2 where its hook answers None: a position with no tiles."""
    if lays is None:
        raise InputError("tile lays need a title with a tile manifest (1832, 1833NE); "
                         "this position has no tiles to lay", "position")
    return lays


def token_candidates(data, board=None, reached=None):
    """Every legal token placement (1832 rulebook "Placing a Token": "trace a valid
    train route from one of its station tokens to the city ... The city must have space
    for the token and must not already contain a token of the company"), less the spots
    the title reserves."""
    board = board or load_position(data)
    return _moves(data).token_places(data, board, reached or reach(board))


def rank_tiles(position, time_limit=None, progress=None) -> list[Move]:
    """Every legal tile lay or upgrade (1832 rulebook "Laying Track", see
    :func:`tile_candidates`) ranked by the best run it allows, best first."""
    return rank_tiles_full(position, time_limit, progress).moves


def rank_tiles_full(position, time_limit=None, progress=None) -> Ranking:
    data = _as_dict(position)
    board = load_position(data)
    reached = reach(board)
    ranking = _rank("tile", data, tile_candidates(data, board, reached), time_limit, progress)
    ranking.reach_complete = reached.complete
    return ranking


# --- tokens ---------------------------------------------------------------------------


def rank_tokens(position, time_limit=None, progress=None) -> list[Move]:
    """Every legal token placement (:func:`token_candidates`) ranked by best run."""
    return rank_tokens_full(position, time_limit, progress).moves


def rank_tokens_full(position, time_limit=None, progress=None, reuse=True) -> Ranking:
    """Rank token placements. Where a token only makes its city a root of routes (plain
    rules and 1832: no title rule reads station tokens), the base board is compiled
    once and each candidate flips that city's "own token" flag, which skips loading and
    compiling a variant; other titles (1831 runs token to token) solve each variant."""
    data = _as_dict(position)
    board = load_position(data)
    reached = reach(board)
    cands = token_candidates(data, board, reached)
    if not (reuse and board.route_model is None and _moves(data).tokens_are_plain):
        ranking = _rank("token", data, cands, time_limit, progress)
        ranking.reach_complete = reached.complete
        return ranking
    from dataclasses import replace

    from trainruns.route.assignment import assign_trains
    from trainruns.route.compile import compile_board
    from trainruns.route.enumeration import enumerate_all

    t0 = time.perf_counter()
    base = _solve(board, time_limit)
    compiled = compile_board(board)
    ranking = Ranking(kind="token", base=base, reach_complete=reached.complete)
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


# --- trains ---------------------------------------------------------------------------


def train_candidates(data, names=None):
    """The trains the company could buy next: for a title, its purchases
    (:meth:`~trainruns.titles.tiled.TiledTitle.train_purchases`: every train type, and
    the first train of the next phase with each discard the new limit forces); for a
    custom map, ``names``. A variant the title's loader refuses (a train not in the
    phase, over the limit) is not a legal purchase and is left out."""
    explicit = names is not None
    if explicit:
        cands = [({"train": str(name)}, dict(data, trains=list(data.get("trains", [])) + [name]))
                 for name in names]
    else:
        hooks = _moves(data)
        cands = hooks.train_purchases(data)
        if cands is None:
            raise InputError("no train data for this position: name the candidate trains (--train NAME)",
                             "position")
    out = []
    for move, variant in cands:
        try:
            load_position(variant)
        except InputError:
            if explicit:
                raise  # the caller named this train, so a bad name is bad input
            continue  # a title's train that does not exist in this phase
        out.append((move, variant))
    return out


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
    from trainruns.position.reader import read_json

    data = read_json(position)
    if not isinstance(data, dict):
        raise InputError("a position must be a JSON object", str(position))
    return data

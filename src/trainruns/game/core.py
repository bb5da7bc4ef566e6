"""The one adapter between the game engines and the route core (1832 and 1833NE).

Tile-lay legality (reach from the company's tokens, the tile manifest and upgrade
chart, phase colours, special cities, placement restrictions) and token reach live in
the route core (today :mod:`trainruns.whatif`); the game asks for them here only, so
the logic is never copied and can be repointed in one place when it moves behind a
title hook. Results are cached by position, since a step lists its moves and then
checks the one chosen against the same list; the Board of a position is read (schema,
title rules) once, however many of tile lays, token cities and the best run ask for it
(the route core only reads a Board).
"""

from __future__ import annotations

import json
from functools import lru_cache


def _key(position: dict) -> str:
    return json.dumps(position, sort_keys=True)


def _board(data: dict):
    """The position's Board: the game built the position, so the title checks its rules
    but not its JSON Schema again (:func:`trainruns.load.load_engine_position`)."""
    from ..load import load_engine_position

    return load_engine_position(data)


@lru_cache(maxsize=64)
def _board_of(key: str):
    """The Board of the position ``key`` (its JSON), read once."""
    return _board(json.loads(key))


@lru_cache(maxsize=256)
def _tile_moves(key: str) -> tuple:
    from ..whatif import reach, tile_candidates

    data = json.loads(key)
    board = _board_of(key)
    # the title's lays, from one legal run's reach (trainruns.reach), walked once
    return tuple((m["hex"], m["tile"], m["rotation"], bool(m.get("replaces")))
                 for m, _variant in tile_candidates(data, board, reach(board)))


@lru_cache(maxsize=256)
def _token_moves(key: str) -> tuple:
    from ..whatif import token_candidates

    data = json.loads(key)
    board = _board_of(key)
    out = []
    for m, _variant in token_candidates(data, board):
        stop = board.stop((m["hex"], m["stop"]))
        out.append((m["hex"], m["stop"], stop.slots - len(stop.tokens)))
    return tuple(out)


def tile_lays(position: dict) -> list[dict]:
    """Every tile lay or upgrade the operating company may make on this position
    ([6] Laying Track): ``{"hex", "tile", "rotation", "upgrade"}``."""
    return [{"hex": h, "tile": t, "rotation": r, "upgrade": u} for h, t, r, u in _tile_moves(_key(position))]


def token_cities(position: dict) -> list[tuple]:
    """Every city ``(hex, stop, free slots)`` the operating company reaches with room
    and none of its tokens ([7.2] Placing a Token)."""
    return list(_token_moves(_key(position)))


@lru_cache(maxsize=256)
def _run(key: str):
    """The proven best run of the position ``key``: revenue, routes (JSON), their count
    and the Run itself (which an audit of the same position reuses; never changed)."""
    from .. import solve

    run = solve(_board_of(key))
    routes = [{"train": r.train, "stops": r.stop_labels()} for r in run.routes]
    return run.revenue, json.dumps(routes), len(run.routes), run


def best_run(position: dict) -> tuple[int, list[dict]]:
    """The proven best run ([8]): revenue and routes ``{"train", "stops"}``."""
    revenue, routes, _n, _run_itself = _run(_key(position))
    return revenue, json.loads(routes)


def audit_run(position: dict, routes: list) -> tuple[list, int, int]:
    """A declared run checked as ``trainruns audit`` checks it: (problems as
    ``(rule, message)``, declared revenue, best revenue)."""
    from .. import audit

    # the Board and the best run of the position, shared with the game's other questions
    # about it (a replay audits every logged run: one read and one solve per position)
    key = _key(position)
    result = audit(_board_of(key), {"routes": routes}, best=_run(key)[3])
    return ([(p.rule, p.message) for p in result.problems], result.declared_revenue, result.best_revenue)


@lru_cache(maxsize=256)
def _reach(key: str) -> frozenset:
    from ..reach import reach

    return frozenset(reach(_board_of(key)).stops)


def reached_stops(position: dict) -> frozenset:
    """Every city ``(hex, stop)`` a run of unlimited length of the company reaches
    ([11] Merger Eligibility: one company reaches the other's token)."""
    return _reach(_key(position))


def has_route(position: dict) -> bool:
    """Whether the company has a legal route of any length ([10] Requirement to Own a
    Train): the position with one train of the smallest length in the phase finds a
    two-stop route iff any route exists."""
    return _run(_key(position))[2] > 0

"""The one boundary between the game engine and the route core.

A title's rules hand over the position of a company now (the route core's position
format, docs/position-format.md) and ask for what the game needs of the board: the tile
lays and token cities the company may choose (1832 [6], [7.2]; 1833NE; 1831 5.2), its
best run ([8]; 1831 5.6.6 within a counted budget of work, an option of the solve), an audit of a declared run, and what it
reaches. The position is read into a Board once (the title checks its rules, not the
JSON Schema again: :func:`trainruns.titles.load.load_engine_position`), and every answer about
it is kept, since a step lists its moves and then checks the one chosen against the
same list, and a replay asks again about every position of the game.

Answers are cached by the position's canonical text (:class:`Position`); the position
itself is what the route core reads, never a copy parsed back from that text. The
caches hold a thousand positions or more (a Board is some tens of kB): an advisor's turn
asks about hundreds of positions, and asks again about many of them (each plan's run,
its next run and its trains' runs alone; the next turn on an unchanged board).
"""

from __future__ import annotations

import json
from functools import lru_cache


class Position:
    """A position as a cache key: equal when their canonical JSON text is equal. The
    text of a position is kept in two parts, the position without its ``trains``
    (``map_key``: the key of its map, :class:`_Map`) and its trains: two positions'
    texts are equal exactly when both parts are, and the map's text is made once for
    every key asked of the position and for every set of trains asked on the same map
    (:meth:`with_trains`)."""

    __slots__ = ("data", "key", "map_key")

    def __init__(self, data: dict, map_key: str | None = None):
        self.data = data
        if not isinstance(data, dict):
            self.key, self.map_key = _text(data), None
            return
        self.map_key = _text(_without_trains(data)) if map_key is None else map_key
        self.key = (self.map_key, _text({k: data[k] for k in TRAIN_FIELDS if k in data}))

    def with_trains(self, trains: list) -> Position:
        """The position of the same map with ``trains`` (its map's text not made again),
        within the company's limit (no ``must_discard``)."""
        return Position({**_without_trains(self.data), "trains": trains}, self.map_key)

    def __hash__(self):
        return hash(self.key)

    def __eq__(self, other):
        return isinstance(other, Position) and self.key == other.key


def _text(data) -> str:
    """The canonical JSON text of ``data`` (never circular: a position is a tree)."""
    return json.dumps(data, sort_keys=True, check_circular=False)


# a position's fields about its company's trains; the others are its map
# (``must_discard``: the trains are over the limit until a discard, docs/rules-1832.md)
TRAIN_FIELDS = ("trains", "must_discard")


def _without_trains(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in TRAIN_FIELDS}


def _cached(size: int):
    """A function of a position dict (or of its :class:`Position`, made by the caller
    once for several questions), kept for the last ``size`` positions."""
    def wrap(fn):
        kept = lru_cache(maxsize=size)(fn)

        def call(position, *args):
            return kept(position if isinstance(position, Position) else Position(position), *args)

        call.cache_clear = kept.cache_clear
        call.keyed = kept   # for a caller that holds the Position already (its key made once)
        call.__doc__ = fn.__doc__
        _CACHES.append(kept)
        return call
    return wrap


_CACHES: list = []


def clear():
    """Forget every answer (a test that changes the route core's settings)."""
    for cache in _CACHES:
        cache.cache_clear()


@_cached(1024)
def board(p: Position):
    """The position's Board, read once; the route core only reads it. Where the title
    reads a company's trains apart from its map (:meth:`~trainruns.titles.base.Title.read_trains`),
    the map is read once for every position that differs from this one only in its
    trains, and this Board is that map's with these trains; else :func:`_fresh_board`."""
    from dataclasses import replace

    from trainruns.titles import of_position

    trains = of_position(p.data, WHERE).read_trains(p.data, WHERE) if isinstance(p.data, dict) else None
    if trains is None:
        return _fresh_board(p)
    return replace(_map_board(_Map(p)), trains=trains)


def _fresh_board(p: Position):
    """A Board of the position of its own (a search may leave marks on it): where the
    title reads a position apart from its trains (:meth:`~trainruns.titles.base.Title.read_apart`),
    built from its map's reading, read once for every position that differs from this
    one only in its trains; else read whole."""
    from trainruns.titles.load import load_engine_position, load_engine_position_from

    if isinstance(p.data, dict):
        reading = _map_reading(_Map(p))
        if reading is not None:
            return load_engine_position_from(reading, p.data, WHERE)
    return load_engine_position(p.data, WHERE)


WHERE = "game position"


class _Map(Position):
    """A position as a key of its map: equal when the positions are equal but for the
    company's trains (the key is the position without its :data:`TRAIN_FIELDS`). The
    route core reads and compiles a board's track, stops and bonuses
    (:func:`trainruns.route.compile.compile_board`) without its trains, and an advisor
    asks for runs of one map with many sets of trains (each plan's purchases, each train
    alone for a bound). ``board``, no part of the key, is a Board of the map read
    before, for :func:`_map_compiled`."""

    __slots__ = ("board",)

    def __init__(self, p: Position, b=None):
        self.data = _without_trains(p.data)
        self.key = self.map_key = p.map_key
        self.board = b


@lru_cache(maxsize=512)
def _map_reading(m: _Map):
    """The title's typed reading of the map of ``m`` apart from its trains, or None
    where the title does not read apart (:func:`_fresh_board`)."""
    from trainruns.titles.load import engine_map_reading

    return engine_map_reading(m.data, WHERE)


@lru_cache(maxsize=512)
def _map_board(m: _Map):
    """The Board of the map of ``m`` with no trains (a title whose trains are read
    apart: :func:`board`)."""
    from trainruns.titles.load import load_engine_position

    return load_engine_position(dict(m.data, trains=[]), WHERE)


@_cached(1024)
def _reached(p: Position):
    """One legal run's reach of the position (:mod:`trainruns.route.reach`), walked once
    for its lays, its token cities and the stops a merger asks about."""
    from trainruns.route.reach import reach

    return reach(board.keyed(p))


def _each_tile_move(p: Position):
    from trainruns.services.whatif import tile_moves

    for m in tile_moves(p.data, board.keyed(p), _reached.keyed(p)):
        # a lay a private grants beyond the company's reach (1833NE P3) is whatif's
        # reading of it; a game lists such lays by its own rules (the title's hooks),
        # never as an ordinary lay the company could not otherwise make
        if not m.get("private"):
            yield m["hex"], m["tile"], m["rotation"], bool(m.get("replaces"))


@_cached(1024)
def _tile_moves(p: Position) -> tuple:
    return tuple(_each_tile_move(p))


def tile_lays(position: dict) -> list[dict]:
    """Every tile lay or upgrade the operating company may make on this position
    ([6] Laying Track): ``{"hex", "tile", "rotation", "upgrade"}``."""
    return [_lay(*m) for m in _tile_moves(position)]


def _lay(hex_id, tile, rotation, upgrade) -> dict:
    return {"hex": hex_id, "tile": tile, "rotation": rotation, "upgrade": upgrade}


def each_tile_lay(position: dict):
    """The lays of :func:`tile_lays` one at a time, in its order, for a caller that stops
    at the first it can use (whether a company may lay at all, [6]): walked on the kept
    board and reach without listing the rest (nor keeping a partial list)."""
    for m in _each_tile_move(Position(position)):
        yield _lay(*m)


@_cached(1024)
def _token_moves(p: Position) -> tuple:
    from trainruns.services.whatif import token_candidates

    b = board.keyed(p)
    out = []
    for m, _variant in token_candidates(p.data, b, _reached.keyed(p)):
        stop = b.stop((m["hex"], m["stop"]))
        out.append((m["hex"], m["stop"], stop.slots - len(stop.tokens)))
    return tuple(out)


def token_cities(position: dict) -> list[tuple]:
    """Every city ``(hex, stop, free slots)`` the operating company reaches with room
    and none of its tokens ([7.2] Placing a Token) that its title's route rules allow
    (the title's ``token_refusal``: 1833NE's reserved spots)."""
    return list(_token_moves(position))


@_cached(2048)
def _solved(p: Position):
    """The proven best run of the position (never changed: an audit of the same
    position reuses it), on the track compiled once for every position of the same map
    (:func:`_compiled`)."""
    from trainruns import solve

    b = board.keyed(p)
    return solve(b, compiled=_compiled(p, b))


def _compiled(p: Position, b):
    """``b`` compiled as :func:`trainruns.route.search.solve` compiles it (no limits, the
    company's own track: a plain board), from the compiled board of the first position
    of its map, with ``b`` and so its trains; None for a title's route model (its search
    compiles for itself) or when the track was not compiled whole (the solve compiles
    again, and says so)."""
    from dataclasses import replace

    if b.route_model is not None:
        return None
    compiled = _map_compiled(_Map(p, b))
    if not compiled.complete:
        return None
    return compiled if compiled.board is b else replace(compiled, board=b)


@lru_cache(maxsize=512)
def _map_compiled(m: _Map):
    from trainruns.route.compile import compile_board
    from trainruns.route.limits import Limits

    return compile_board(m.board, Limits(None, None), own_only=True)


_CACHES.extend((_map_reading, _map_board, _map_compiled))


def _routes(run) -> list[dict]:
    return [{"train": r.train, "stops": r.stop_labels()} for r in run.routes]


def best_run(position: dict) -> tuple[int, list[dict]]:
    """The proven best run ([8]): revenue and routes ``{"train", "stops"}``."""
    run = _solved(position)
    return run.revenue, _routes(run)


def best_run_proof(position: dict) -> dict:
    """Whether :func:`best_run`'s run is proven best, and the search's upper bound on
    the best ({"proven", "bound"}): the same search, kept."""
    run = _solved(position)
    return {"proven": bool(run.optimal), "bound": int(run.bound)}


def audit_run(position: dict, routes: list, best: bool = True) -> tuple[list, int, int | None]:
    """A declared run checked as ``trainruns audit`` checks it: (problems as
    ``(rule, message)``, declared revenue, best revenue). With ``best=False`` the best
    run is not searched for (1831 5.6.6: any legal run may be declared) and the third
    is None."""
    from trainruns.route.result import Run
    from trainruns.services.audit import audit

    best_run_ = _solved(position) if best else Run(routes=[], revenue=0, optimal=False, bound=0)
    result = audit(board(position), {"routes": routes}, best=best_run_)
    return ([(p.rule, p.message) for p in result.problems], result.declared_revenue,
            result.best_revenue if best else None)


@_cached(1024)
def _reach(p: Position) -> frozenset:
    return frozenset(_reached.keyed(p).stops)


def reached_stops(position: dict) -> frozenset:
    """Every city ``(hex, stop)`` a run of unlimited length of the company reaches
    ([11] Merger Eligibility: one company reaches the other's token)."""
    return _reach(position)


@_cached(1024)
def _loose_reach(p: Position):
    from trainruns.route.reach import loose_reach

    return loose_reach(board.keyed(p))


def board_and_loose_reach(position: dict):
    """The Board and what the company's track connects to from its tokens, through
    cities not full of others' tokens (1831 5.2.4.1 "trace a direct path": the core's
    loose reach, not a single run's, whose exact walk grows exponentially with a late
    game's track)."""
    return board(position), _loose_reach(position)


def has_route(position: dict) -> bool:
    """Whether the company has a legal route of any length ([10] Requirement to Own a
    Train): the position with one train of the smallest length in the phase finds a
    two-stop route iff any route exists."""
    return len(_solved(position).routes) > 0


# --- a run searched within a counted budget (1831 5.6.6) ------------------------------------

@_cached(512)
def _bounded(p: Position, work):
    """The best run found within ``work`` (:class:`trainruns.route.limits.Work`: steps of
    the route listing from each token, branch and bound nodes, nodes of a run that must
    cover the bought track rights): no clock, so the answer is the same on any machine."""
    from trainruns.route.compile import compile_board
    from trainruns.route.kernels import warm_up
    from trainruns.route.limits import Limits
    from trainruns.route.search import assign_trains, enumerate_all
    b = _fresh_board(p)   # a Board of its own, as the search leaves it
    limits = Limits(None, None, work=work)
    compiled = compile_board(b, limits, own_only=False)
    warm_up()
    routes = enumerate_all(compiled, limits=limits)
    return assign_trains(routes, budget=work.nodes, max_nodes=work.nodes, limits=limits)


@_cached(512)
def _bounded_or_none(p: Position, work):
    from trainruns.errors import InputError

    try:
        return _bounded.keyed(p, work)
    except InputError:
        return None


def _answer(run):
    return run.revenue, _routes(run), {"proven": bool(run.optimal), "bound": int(run.bound)}


def bounded_run(position: dict, work):
    """The run of :func:`_bounded`: (revenue, routes, {"proven", "bound"}: whether it is
    proven best, and an upper bound on the best)."""
    return _answer(_bounded(position, work))


def bounded_run_or_none(position: dict, work):
    """:func:`bounded_run`, or None when the route core finds no run the board's rules
    allow (1831 5.6.5: every bought track right used); remembered either way."""
    run = _bounded_or_none(position, work)
    return None if run is None else _answer(run)


def bounded_most_run_to(position: dict, work) -> int:
    """The most tokens one route of :func:`bounded_run`'s run runs to (the route core's
    counted stops)."""
    run = _bounded(position, work)
    return max((sum(1 for x in r.counted if x) if r.counted else len(r.stops) for r in run.routes), default=0)

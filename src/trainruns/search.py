"""The Python face of the search: compile, enumerate routes, value them, assign trains.

``solve`` is the whole pipeline. Its stages are public too, so that audits and what-if
rankings can reuse a compiled board and its routes between candidates.

Two engines assign trains to the enumerated routes: ``assign_trains`` (the numba
branch and bound of :mod:`trainruns.kernels.assign`, the default) and ``assign_cpsat``
(the 0-1 program of :mod:`trainruns.cpsat`); ``solve(engine=...)`` chooses. The figures
behind the choice are in benchmarks/README.md.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import numpy as np

from .board import Board
from .compile import CompiledBoard, compile_board
from .greedy import greedy_run
from .limits import CHECK_SECONDS, Limits
from .kernels import loaded as kernels_loaded, warm_up
from .result import Route, Run
from .trains import UNLIMITED


@dataclass
class RouteSet:
    """Every legal route of the corporation, and what each train kind earns on it."""

    compiled: CompiledBoard
    ptr: np.ndarray      # int64 [n + 1]: stops of route r are stops[ptr[r]:ptr[r+1]]
    stops: np.ndarray    # int64 stop ids
    chains: np.ndarray   # int64 chain ids, aligned with stops (one fewer per route)
    split: np.ndarray    # int64: the first split[r] chains of route r run backwards
    bits: np.ndarray     # uint64 [n, words]
    kinds: list          # train kind names (distinct train names)
    values: np.ndarray   # int64 [n, len(kinds)], -1 where the kind may not run it
    complete: bool = True

    def __len__(self):
        return len(self.ptr) - 1

    # A title's route model may return a subclass that overrides the methods below
    # (1831 runs to some stops and passes others; 1833NE lines extend past their core).

    def counted_for(self, r: int, train_name: str) -> list:
        """Which stops of route ``r`` (in stored order) earn for that train: the plain
        rules' ``counts`` best, including a token city."""
        train = next(t for t in self.compiled.board.trains if t.name == train_name)
        ids = self.stops[self.ptr[r]:self.ptr[r + 1]]
        return counted_stops([int(self.compiled.stop_value[s]) for s in ids],
                             [bool(self.compiled.stop_own[s]) for s in ids], train.counts)

    def earned_for(self, r: int, train_name: str) -> list:
        """Per stop of route ``r`` (stored order), the parts of what it earns for that
        train, ``[(name, amount)]``: its value, named by its kind, where it is counted."""
        comp = self.compiled
        ids = self.stops[self.ptr[r]:self.ptr[r + 1]]
        return [[(comp.board.stop(comp.stop_refs[s]).kind, int(comp.stop_value[s]))] if c else []
                for s, c in zip(ids, self.counted_for(r, train_name))]

    def bonuses_for(self, r: int, train_name: str) -> list:
        """The bonuses ``(name, amount)`` route ``r`` earns for that train: those whose
        stop groups it all touches."""
        comp = self.compiled
        groups = 0
        for s in self.stops[self.ptr[r]:self.ptr[r + 1]]:
            groups |= int(comp.stop_groups[s])
        return [(name, int(amt)) for name, amt, req, trains in
                zip(comp.bonus_names, comp.bonus_amount, comp.bonus_required, comp.bonus_trains)
                if groups & int(req) == int(req) and (not trains or train_name in trains)]


class Progress:
    """Receives progress of a long search; the command prints it, the API ignores it.

    Stages: ``compile`` (chains, steps), ``quick`` (best, bound: the quick run),
    ``kernels`` (seconds the kernels took to load), ``routes`` (routes, roots_done,
    roots; seconds while a root is being listed), ``assign`` (nodes, best, bound: an
    upper bound valid for the whole board), ``cpsat`` (model, seconds)."""

    def update(self, stage: str, **info):  # pragma: no cover - interface
        pass


ENGINES = ("auto", "search", "cpsat", "flow")
# threads for route enumeration (one root each): this machine's cores, at most 2
WORKERS = max(1, min(2, os.cpu_count() or 1))

# Routes kept in memory at most (about 200 bytes each; the memory budget of
# :class:`trainruns.limits.Limits` may allow fewer): beyond this the route set is marked
# incomplete and the answer comes with an upper bound instead of a proof.
MAX_ROUTES = 6_000_000
# Seconds (at least; or as long as the enumeration took) for assigning trains when the
# route set had to be cut without a time limit: the result cannot be proven anyway.
INCOMPLETE_SECONDS = 5.0
# Seconds a new process takes to load the numba kernels (0.45 s measured, more on a
# busy machine): with less time left than this, the quick run is the answer.
WARM_UP_SECONDS = 0.5
# ``auto``: branch-and-bound nodes before the CP-SAT engine is asked to finish the proof.
AUTO_NODES = 3_000_000
# ``auto``: the CP-SAT fallback only when the program stays this small (columns).
AUTO_CPSAT_COLUMNS = 20_000
# Seconds (at least; or as long as the enumeration took) for the flow model of
# :mod:`trainruns.cpsat_flow` when the route set was cut without a time limit.
FLOW_SECONDS = 20.0


def solve(source, time_limit: float | None = None, progress: Progress | None = None,
          engine: str = "auto", memory: int | None = None, limits: Limits | None = None) -> Run:
    """The best run of a position (path, dict or Board) under its rules.

    With no time limit the answer is proven optimal, unless the board has more routes
    than the memory budget holds (or ``MAX_ROUTES``): then the best run over the routes
    listed (searched for at most ``INCOMPLETE_SECONDS`` or the enumeration's time) is
    improved by the flow model (:mod:`trainruns.cpsat_flow`, which lists no routes) and
    comes with an upper bound, proven when the flow model proves it. With a limit, the
    best run found when time runs out is returned with ``optimal=False`` and an upper
    bound in ``bound``.

    ``time_limit`` counts from this call (a command passes ``limits``, whose clock
    started with the process); ``memory`` is the budget in bytes of the search's arrays
    (2 GB by default). Both are kept as :mod:`trainruns.limits` says. Whatever stops the
    search, the answer is never below the quick run of :mod:`trainruns.greedy`, and its
    bound is the lowest upper bound any stage proved.

    ``engine`` chooses how trains are assigned to routes: ``search`` (the numba branch
    and bound), ``cpsat`` (the 0-1 program of :mod:`trainruns.cpsat`), ``flow`` (the
    CP-SAT model over the track graph alone) or ``auto`` (see :func:`assign_auto`).
    """
    from .position import load_position

    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, not {engine!r}")
    if limits is None:
        limits = Limits(time_limit, memory)
    board = source if isinstance(source, Board) else load_position(source)
    plain = board.route_model is None
    compiled = compile_board(board, limits, own_only=plain, progress=progress)
    quick = None
    if plain:
        quick = greedy_run(compiled, stop_value_bound(compiled))
        limits.offer(quick)
        if progress:
            progress.update("quick", best=quick.revenue, bound=quick.bound)
    short = limits.left() is not None and limits.left() < WARM_UP_SECONDS and not kernels_loaded()
    if quick is not None and (limits.expired() or short):
        # loading the kernels alone would take the time left: the quick run is the answer
        return _final(quick, quick, compiled, 0.0)
    try:
        return _search(board, compiled, quick, limits, progress, engine)
    except MemoryError:
        # the system gave less than the budget promised (a ulimit, other processes): the
        # best run found so far is the answer, not proven
        best = limits.best or Run(routes=[], revenue=0, optimal=False, bound=0,
                                  idle=[t.name for t in board.trains])
        best.bound = max(best.revenue, stop_value_bound(compiled))
        best.optimal = best.bound == best.revenue
        return best


def _search(board, compiled, quick, limits, progress, engine):
    """The stages of :func:`solve` after the quick run."""
    plain = board.route_model is None
    t0 = time.perf_counter()
    warm_up()
    if progress:
        progress.update("kernels", seconds=time.perf_counter() - t0)
    t0 = time.perf_counter()
    deadline = limits.deadline
    if quick is not None and limits.expired():
        return _final(quick, quick, compiled, 0.0)
    if engine == "flow" and plain:
        from .cpsat_flow import flow_run, solve_flow

        chains, bound, proven = solve_flow(compiled, board.trains, deadline=deadline,
                                           memory=limits.array_budget(), progress=progress)
        run = flow_run(compiled, chains or [], bound, proven)
        return _final(run, quick, compiled, time.perf_counter() - t0)
    routes = enumerate_all(compiled, deadline=deadline, progress=progress, limits=limits)
    flow_deadline = flow_seconds = None
    if not routes.complete and plain:
        # cut route set: the flow model (no routes listed) gets, after the assignment, as
        # long as the enumeration took (at least FLOW_SECONDS), or half the time left
        now = time.perf_counter()
        if deadline is None:
            flow_seconds = max(FLOW_SECONDS, now - t0)
        else:
            flow_deadline, deadline = deadline, now + (deadline - now) / 2
    if not routes.complete and deadline is None:
        # more routes than memory holds: no proof is possible, so the assignment over the
        # routes listed gets bounded effort, not an open-ended search
        deadline = time.perf_counter() + max(INCOMPLETE_SECONDS, time.perf_counter() - t0)
    if engine == "cpsat":
        run = assign_cpsat(routes, deadline=deadline, limits=limits, progress=progress)
    elif engine == "search":
        run = assign_trains(routes, deadline=deadline, progress=progress, limits=limits)
    else:
        run = assign_auto(routes, deadline=deadline, progress=progress, limits=limits)
    limits.offer(run)
    if quick is not None:
        # the quick run may be the answer: it reports the search's work
        quick.candidates, quick.nodes = run.candidates, run.nodes
    del routes  # (the flow model lists no routes: their memory is the model's now)
    if (flow_deadline is not None or flow_seconds is not None) and not run.optimal:
        from .cpsat_flow import improve

        if flow_seconds is not None:
            flow_deadline = time.perf_counter() + flow_seconds
        start = run if quick is None or run.revenue >= quick.revenue else _with_bound(quick, run.bound)
        run = improve(compiled, start, deadline=flow_deadline, memory=limits.array_budget(), progress=progress)
    return _final(run, quick, compiled, time.perf_counter() - t0)


def _with_bound(run: Run, bound: int) -> Run:
    """``run`` with the lower of its bound and ``bound`` (both upper bounds on the best)."""
    run.bound = max(run.revenue, min(run.bound, bound))
    run.optimal = run.optimal or run.bound == run.revenue
    return run


def _final(run: Run, quick: Run | None, compiled: CompiledBoard, seconds: float) -> Run:
    """The answer: the better of the search's run and the quick one, with the lowest
    upper bound either proved; a board compiled only in part proves nothing."""
    if quick is not None and quick is not run:
        bound = min(run.bound, quick.bound)
        if quick.revenue > run.revenue:
            quick.candidates, quick.nodes = run.candidates, run.nodes
            run = quick
        run = _with_bound(run, bound)
    if not compiled.complete:
        run.bound = max(run.revenue, stop_value_bound(compiled))
        run.optimal = run.bound == run.revenue
    run.seconds = seconds
    return run


def assign_auto(routes: RouteSet, deadline=None, progress=None, limits: Limits | None = None) -> Run:
    """``auto``: branch and bound first; if it has not finished after ``AUTO_NODES``
    nodes and the reduced 0-1 program has at most ``AUTO_CPSAT_COLUMNS`` columns, CP-SAT
    tries to finish the proof from the incumbent, for at most as long as the branch and
    bound ran; failing that the branch and bound runs to the end (benchmarks/README.md
    says why the branch and bound is the default)."""
    t_bb = time.perf_counter()
    run = assign_trains(routes, deadline=deadline, progress=progress, max_nodes=AUTO_NODES, limits=limits)
    if run.optimal or not routes.complete or (deadline is not None and time.perf_counter() >= deadline):
        return run
    from .cpsat import useful_columns

    # (more than twice the columns before merging identical track: too many after it)
    cols = useful_columns(routes, _kind_counts(routes), run.revenue, limit=2 * AUTO_CPSAT_COLUMNS)
    if cols is not None and sum(len(c) for c in cols.values()) <= AUTO_CPSAT_COLUMNS:
        # CP-SAT gets as long as the branch and bound has had, no more: it was the slower
        # engine on every benchmarked board, so it must not turn a long proof into an
        # endless one
        cp_deadline = time.perf_counter() + (time.perf_counter() - t_bb)
        if deadline is not None:
            cp_deadline = min(cp_deadline, deadline)
        tried = assign_cpsat(routes, deadline=cp_deadline, start=run, limits=limits, progress=progress)
        bound = min(run.bound, tried.bound)
        run = tried if tried.optimal or tried.revenue > run.revenue else run
        run = _with_bound(run, bound)
    if not run.optimal and (deadline is None or time.perf_counter() < deadline):
        again = assign_trains(routes, deadline=deadline, progress=progress, limits=limits)
        run = _with_bound(again if again.revenue >= run.revenue else run, min(run.bound, again.bound))
    return run


def train_kinds(board: Board):
    """Distinct train names in first-seen order, with their (visits, counts, nontowns)."""
    kinds = {}
    for t in board.trains:
        kinds.setdefault(t.name, t)
    return list(kinds.values())


def enumerate_all(compiled: CompiledBoard, deadline=None, progress=None, limits: Limits | None = None) -> RouteSet:
    """All legal routes from the corporation's tokens, for its longest train.

    Roots are enumerated one at a time so a deadline can stop between them (the set is
    then marked incomplete); within a root the listing stops at half the time left to
    ``deadline`` and at what the memory budget of ``limits`` holds (and ``MAX_ROUTES``).
    A board compiled only in part gives an incomplete set too."""
    board = compiled.board
    kinds = train_kinds(board)
    if board.route_model is not None:
        return board.route_model.routes(compiled, kinds, deadline, progress)
    if limits is None:
        limits = Limits()
    n_stops = compiled.n_stops
    max_visits = min(max((t.visits for t in kinds), default=0), n_stops, UNLIMITED)
    max_nontowns = min(max((t.nontowns for t in kinds), default=0), n_stops)
    roots = np.flatnonzero(compiled.stop_own).astype(np.int64)
    # bytes a listed route costs from here to the assignment, beyond its own arrays (and
    # their copy when parts are joined): its values and, per kind, its candidate entry
    # (the candidate blocks of ``kernels.assign.block_masks`` are filled only where the search looks)
    per_route_later = 24 * len(kinds)
    budget = limits.array_budget()
    parts, complete, total, held = [], compiled.complete, 0, 0
    # roots are independent: once one root has taken a while, enumerate WORKERS at a time
    # on threads (the kernel releases the GIL); parts are kept in root order, so the
    # route set is the same as serially. Small boards never pay for threads.
    step, i = 1, 0
    t_start = time.perf_counter()
    # with a deadline, listing gets half the time left (the assignment and the flow
    # model the rest): the kernel is told to stop then, even inside a root
    until = None if deadline is None else t_start + (deadline - t_start) / 2
    stop = np.zeros(1, dtype=np.int64)
    while i < len(roots):
        limit = (MAX_ROUTES - total) // step
        # what the memory budget still holds, at the bytes per route seen so far (or the
        # shortest a route can be: two stops, one chain)
        per_route = (held / total if total else 8 * 5 + 8 * compiled.words) * 2 + per_route_later
        limit = min(limit, int((budget - 2 * held - total * per_route_later) / per_route / step))
        if limit <= 0:
            complete = False
            break
        if until is not None and time.perf_counter() >= until:
            complete = False
            break
        batch = roots[i:i + step]
        t_batch = time.perf_counter()
        results = _in_threads([(compiled, np.array([root]), max_visits, max_nontowns, limit, stop,
                                (budget - 2 * held) // step) for root in batch],
                              lambda: progress and progress.update(
                                  "routes", roots_done=i, roots=len(roots), routes=total,
                                  seconds=time.perf_counter() - t_start),
                              stop, until)
        for part, cut in results:
            parts.append(part)
            total += len(part[0]) - 1
            held += sum(a.nbytes for a in part)
            if cut:
                complete = False
        i += len(batch)
        if progress:
            progress.update("routes", roots_done=i, roots=len(roots), routes=total)
        if not complete:
            break
        if step == 1 and WORKERS > 1 and time.perf_counter() - t_batch > 0.005:
            step = WORKERS
    ptr, stops, chains, split, bits = _concat(parts, compiled.words)
    del parts
    values = _value(compiled, ptr, stops, kinds)
    return RouteSet(compiled, ptr, stops, chains, split, bits, [k.name for k in kinds], values,
                    complete)


def _in_threads(calls, tick, stop, until=None):
    """``_enumerate_root(*args)`` for each args of ``calls``, each on its own daemon
    thread; the caller waits where Ctrl-C reaches it (a numba kernel holds off Python's
    signal handling while it runs on the main thread) and calls ``tick()`` every half
    second (progress). At ``until`` (a ``perf_counter`` time) or on Ctrl-C it sets
    ``stop[0]``, which the kernels see within 1,024 routes."""
    import threading

    out = [None] * len(calls)
    errors = []

    def work(k, args):
        try:
            out[k] = _enumerate_root(*args)
        except BaseException as e:  # re-raised below, on the caller's thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k, a), daemon=True) for k, a in enumerate(calls)]
    for t in threads:
        t.start()
    last = time.perf_counter()
    try:
        for t in threads:
            while t.is_alive():
                t.join(0.05)
                now = time.perf_counter()
                if until is not None and now >= until:
                    stop[0] = 1
                if t.is_alive() and now - last >= 0.5:
                    last = now
                    tick()
    except KeyboardInterrupt:
        stop[0] = 1
        raise
    if errors:
        raise errors[0]
    return out


def _enumerate_root(compiled, roots, max_visits, max_nontowns, limit, stop, max_bytes=None):
    """The routes of ``roots`` as arrays, at most ``limit`` of them; returns (arrays,
    cut) where ``cut`` says the limit was reached (more routes exist), or ``stop[0]``
    was set (see :func:`_in_threads`). The buffers never take more than ``max_bytes``:
    when that holds fewer routes than ``limit``, the routes that fit are kept and the
    set is cut.

    A big budget is allocated at once (pages are only taken as routes are written, so
    an unused tail costs nothing) to list the routes in one pass: growing a small buffer
    means listing everything again."""
    from .kernels.routes import enumerate_routes

    if max_visits < 2:
        return (np.zeros(1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
                np.zeros(0, np.int64), np.zeros((0, compiled.words), np.uint64)), False
    words = compiled.words
    avg = min(max_visits, 16)

    def room(avg):
        # route slots that fit in max_bytes with ``avg`` stops per route
        per_route = 8 * (3 + 2 * avg) + 8 * words
        return limit if max_bytes is None else max(1, min(limit, int(max_bytes // per_route)))

    cap = room(avg)
    while True:
        try:
            ptr = np.zeros(cap + 1, dtype=np.int64)
            stops = np.empty(cap * avg, dtype=np.int64)
            chains = np.empty(cap * avg, dtype=np.int64)
            split = np.empty(cap, dtype=np.int64)
            bits = np.empty((cap, words), dtype=np.uint64)
        except MemoryError:
            # the system has less than the budget says (a ulimit): ask for less
            if cap == 1:
                raise
            cap = max(1, cap // 4)
            limit = cap
            continue
        n = enumerate_routes(roots, compiled.adj_ptr, compiled.adj_chain, compiled.chain_to,
                             compiled.chain_bits, compiled.stop_passable, compiled.stop_own,
                             compiled.stop_town, max_visits, max_nontowns,
                             ptr, stops, chains, split, bits, cap, stop)
        cut = n > cap or stop[0] != 0
        n = min(n, cap)
        if ptr[n] == 0 and n > 0 and stop[0] != 0:
            # stopped with the buffers full: keep the routes written whole
            n = int(np.flatnonzero(ptr[1:n + 1])[-1]) + 1 if ptr[1] > 0 else 0
        if ptr[n] > 0 or n == 0:
            end = ptr[n]
            out = (ptr[: n + 1], stops[:end], chains[:end], split[:n], bits[:n])
            if 2 * n < cap:
                # a compact copy lets the buffer's unused address space go
                out = tuple(a.copy() for a in out)
            return out, cut
        # the routes are longer than ``avg`` stops on average: room for longer ones
        avg = min(avg * 2, max(max_visits, 2))
        cap = room(avg)


def _concat(parts, words):
    if not parts:
        return (np.zeros(1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
                np.zeros(0, np.int64), np.zeros((0, words), np.uint64))
    if len(parts) == 1:
        return parts[0]
    ptrs, offset = [np.zeros(1, np.int64)], 0
    for p in parts:
        ptrs.append(p[0][1:] + offset)
        offset += p[0][-1]
    return (np.concatenate(ptrs), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]), np.concatenate([p[3] for p in parts]),
            np.concatenate([p[4] for p in parts]))


# routes valued per kernel call: short enough for Ctrl-C to be seen between calls
VALUE_CHUNK = 250_000


def _value(compiled, ptr, stops, kinds):
    from .kernels.values import route_values

    kind_arr = np.array([[min(t.visits, UNLIMITED), min(t.counts, UNLIMITED), min(t.nontowns, UNLIMITED)]
                         for t in kinds], dtype=np.int64).reshape(-1, 3)
    ok = np.array([[not names or k.name in names for k in kinds] for names in compiled.bonus_trains],
                  dtype=np.bool_).reshape(len(compiled.bonus_trains), len(kinds))
    n = len(ptr) - 1

    def part(a, b):
        # ptr is absolute into stops, so a slice of it values routes a..b-1
        return route_values(ptr[a:b + 1], stops, b - a, compiled.stop_value, compiled.stop_town,
                            compiled.stop_own, compiled.stop_groups, compiled.bonus_required,
                            compiled.bonus_amount, ok, kind_arr)

    if n <= VALUE_CHUNK:
        return part(0, n)
    out = np.empty((n, len(kinds)), dtype=np.int64)
    bounds = list(range(0, n, VALUE_CHUNK)) + [n]
    pairs = list(zip(bounds, bounds[1:]))
    import threading

    for k in range(0, len(pairs), WORKERS):
        def fill(a, b):
            out[a:b] = part(a, b)

        threads = [threading.Thread(target=fill, args=ab, daemon=True) for ab in pairs[k:k + WORKERS]]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return out


def assign_trains(routes: RouteSet, deadline=None, progress=None, budget=1 << 16,
                  scan_cap=16, max_nodes=None, limits: Limits | None = None) -> Run:
    """The best disjoint choice of one route per train (branch and bound, see
    :mod:`trainruns.kernels.assign`). Proven optimal unless the deadline (or
    ``max_nodes``) stops it; then ``bound`` is an upper bound on the optimum (the lowest
    one seen while it ran).

    ``budget`` is the nodes per kernel call between deadline checks (halved while a call
    takes longer than ``CHECK_SECONDS``, so the deadline and Ctrl-C are seen in time);
    ``scan_cap`` how many blocks of 64 candidates a node's bound looks down each train's
    list for a compatible route (0: the static bound, each train at its best).

    Only so many trains of a name can run: each running train has a route of its own
    and takes at least one track bit, so beyond the number of its candidates, or of
    track bits, the rest of them idle in every run and are left out of the search (its
    arrays grow with the square of the trains searched)."""
    from .kernels.assign import block_masks, branch_and_bound, open_bound

    board = routes.compiled.board
    # bigger trains first: their routes are worth most, so the bound bites early
    order = sorted(range(len(board.trains)),
                   key=lambda i: (-board.trains[i].visits, -board.trains[i].counts, board.trains[i].name))
    all_trains = [board.trains[i] for i in order]
    kind_index = {name: k for k, name in enumerate(routes.kinds)}
    seg, cand_route, cand_value = {}, [], []
    offset = 0
    for t in all_trains:
        if t.name in seg:
            continue
        v = routes.values[:, kind_index[t.name]] if len(routes) else np.zeros(0, np.int64)
        idx = np.flatnonzero(v > 0)
        idx = idx[np.argsort(-v[idx], kind="stable")]
        seg[t.name] = (offset, offset + len(idx))
        cand_route.append(idx)
        cand_value.append(v[idx])
        offset += len(idx)
    n_bits = routes.bits.shape[1] * 64
    searched, seen = [], {}
    for t in all_trains:
        room = min(seg[t.name][1] - seg[t.name][0], n_bits)
        if seen.get(t.name, 0) < room:
            seen[t.name] = seen.get(t.name, 0) + 1
            searched.append(t)
    trains = searched
    cand_route = np.concatenate(cand_route) if cand_route else np.zeros(0, np.int64)
    cand_value = np.concatenate(cand_value) if cand_value else np.zeros(0, np.int64)
    n = len(trains)
    start = np.array([seg[t.name][0] for t in trains], dtype=np.int64)
    end = np.array([seg[t.name][1] for t in trains], dtype=np.int64)
    twin = np.array([i > 0 and trains[i].name == trains[i - 1].name for i in range(n)], dtype=np.bool_)
    words = routes.bits.shape[1]
    depth = np.array([-1], dtype=np.int64)
    pos = np.zeros(n + 1, dtype=np.int64)
    stage = np.zeros(n + 1, dtype=np.int64)
    used = np.zeros((n + 1, words), dtype=np.uint64)
    val = np.zeros(n + 1, dtype=np.int64)
    restb = np.zeros(n + 1, dtype=np.int64)
    nodebound = np.zeros(n + 1, dtype=np.int64)
    found = np.zeros((n + 1, n + 1), dtype=np.int64)
    bval = np.zeros((n + 1, n + 1), dtype=np.int64)
    choice = np.full(n + 1, -1, dtype=np.int64)
    best = np.zeros(1, dtype=np.int64)
    best_choice = np.full(max(n, 1), -1, dtype=np.int64)
    nodes = np.zeros(2, dtype=np.int64)  # expanded nodes, blocks of 64 candidates checked
    masks, built = block_masks(cand_route, routes.bits)
    ub = np.zeros((n + 1, words * 64), dtype=np.int64)
    nub = np.zeros(n + 1, dtype=np.int64)
    finished = False
    t_start = time.perf_counter()
    t_best, last_best = 0.0, 0
    # without a proof, the bound is the lowest seen: the open nodes' bound is valid at
    # every stop and only the incumbent moves between them
    low_bound = None
    slow = False
    while True:
        t_call = time.perf_counter()
        args = (start, end, twin, cand_route, cand_value, routes.bits, masks, built, ub, nub, restb, nodebound,
                found, bval, depth, pos, stage, used, val, choice, best, best_choice, budget, nodes, scan_cap)
        # once calls take a while, they run on a thread the caller waits on, where Ctrl-C
        # reaches it (a kernel on the main thread holds Python's signal handling off)
        status = _on_thread(branch_and_bound, args) if slow else branch_and_bound(*args)
        took = time.perf_counter() - t_call
        slow = slow or took > 0.02
        if took > CHECK_SECONDS and budget > 64:
            budget //= 2
        if best[0] != last_best:
            # when the final incumbent appeared (to the resolution of ``budget`` nodes)
            t_best, last_best = time.perf_counter() - t_start, int(best[0])
        if status == 0:
            finished = True
            break
        here = int(open_bound(depth, nodebound, best))
        low_bound = here if low_bound is None else min(low_bound, here)
        if limits is not None and (limits.best is None or best[0] > limits.best.revenue):
            # Ctrl-C under a time limit prints the best run so far: keep it at hand
            so_far = low_bound if routes.complete else stop_value_bound(routes.compiled)
            limits.offer(_run_of(routes, trains, all_trains, best_choice, cand_route, kind_index,
                                 int(best[0]), max(int(best[0]), so_far)))
        if progress:
            known = max(int(best[0]), limits.best.revenue if limits is not None and limits.best else 0)
            shown = low_bound if routes.complete else max(known, stop_value_bound(routes.compiled))
            progress.update("assign", nodes=int(nodes[0]), best=known, bound=max(shown, known))
        if deadline is not None and time.perf_counter() > deadline:
            break
        if max_nodes is not None and nodes[0] >= max_nodes:
            break

    revenue = int(best[0])
    if finished and routes.complete:
        bound = revenue
    elif routes.complete:
        bound = max(revenue, min(low_bound, int(open_bound(depth, nodebound, best))))
    else:
        bound = max(revenue, stop_value_bound(routes.compiled))
    run = _run_of(routes, trains, all_trains, best_choice, cand_route, kind_index, revenue, bound)
    run.nodes = int(nodes[0])
    run.checks = int(nodes[1])  # blocks checked: machine-independent work
    run.time_to_best = t_best
    return run


def _on_thread(kernel, args):
    """``kernel(*args)`` on a daemon thread; the caller waits where Ctrl-C reaches it."""
    import threading

    out = []
    thread = threading.Thread(target=lambda: out.append(kernel(*args)), daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(0.05)
    if not out:
        raise RuntimeError("the search kernel failed")
    return out[0]


def _run_of(routes, trains, all_trains, best_choice, cand_route, kind_index, revenue, bound) -> Run:
    """The branch and bound's incumbent as a :class:`Run` (``picks``: the (kind index,
    route index) of its routes)."""
    board = routes.compiled.board
    chosen, idle, picks = [], [], []
    for i, t in enumerate(trains):
        k = best_choice[i] if len(trains) else -1
        if k >= 0:
            chosen.append(describe_route(routes, int(cand_route[k]), t))
            picks.append((kind_index[t.name], int(cand_route[k])))
    # idle: every train without a route, in search order (the trains left out are the
    # last of their name, so they come after their twins that idle)
    running = [r.train for r in chosen]
    for t in all_trains:
        if t.name in running:
            running.remove(t.name)
        else:
            idle.append(t.name)
    # report trains in the order the position lists them
    chosen.sort(key=lambda r: [t.name for t in board.trains].index(r.train))
    run = Run(routes=chosen, revenue=revenue, optimal=bound == revenue, bound=bound,
              candidates=len(routes), idle=idle)
    run.picks = picks
    return run


def _kind_counts(routes: RouteSet):
    counts = [0] * len(routes.kinds)
    for t in routes.compiled.board.trains:
        counts[routes.kinds.index(t.name)] += 1
    return counts


def assign_cpsat(routes: RouteSet, deadline=None, start: Run | None = None, limits: Limits | None = None,
                 progress: Progress | None = None) -> Run:
    """The same assignment as :func:`assign_trains`, by the CP-SAT 0-1 program of
    :mod:`trainruns.cpsat`. ``start`` (a run already found on these routes) gives the
    lower bound that prunes columns and the solution hint; ``limits`` the memory budget
    the program must fit in."""
    from .cpsat import solve_cpsat

    board = routes.compiled.board
    if start is None:
        # a few thousand branch-and-bound nodes give a good incumbent to prune columns
        start = assign_trains(routes, max_nodes=2000, budget=2000)
    hint = list(getattr(start, "picks", []))
    value, picks, bound, _ = solve_cpsat(routes, board.trains, lower=start.revenue,
                                         hint=hint, deadline=deadline,
                                         memory=None if limits is None else limits.array_budget(),
                                         progress=progress)
    if not routes.complete:
        bound = max(value, bound, stop_value_bound(routes.compiled))
    elif start.optimal:
        bound = value
    chosen, idle = [], []
    left = list(board.trains)
    for k, r in sorted(picks, key=lambda p: -int(routes.values[p[1], p[0]])):
        t = next(t for t in left if t.name == routes.kinds[k])
        left.remove(t)
        chosen.append(describe_route(routes, r, t))
    idle = [t.name for t in left]
    names = [t.name for t in board.trains]
    chosen.sort(key=lambda r: names.index(r.train))
    bound = max(bound, value)
    # a valid upper bound equal to the value found is a proof, whatever the solver status
    return Run(routes=chosen, revenue=value, optimal=bound == value, bound=bound,
               candidates=len(routes), nodes=start.nodes, idle=idle, engine="cpsat")


def stop_value_bound(compiled: CompiledBoard) -> int:
    """An upper bound that needs no routes: each train earns at most its ``counts`` best
    stops plus every bonus (only stops joined to a token by track, when the board was
    compiled for its routes alone). A title's route model that values routes its own way
    gives its own (``upper_bound(compiled)``)."""
    model_bound = getattr(compiled.board.route_model, "upper_bound", None)
    if model_bound is not None:
        return int(model_bound(compiled))
    values = compiled.stop_value if compiled.stop_reach is None else compiled.stop_value[compiled.stop_reach]
    values = np.sort(values[values > 0])[::-1]
    bonus = int(compiled.bonus_amount[compiled.bonus_amount > 0].sum())
    each = sorted((int(values[: min(t.counts, len(values))].sum()) + bonus for t in compiled.board.trains),
                  reverse=True)
    # every running train takes a track bit of its own: at most that many run
    return sum(each[: max(compiled.n_bits, 1)])


def describe_route(routes: RouteSet, r: int, train) -> Route:
    """A route of the set as the result type: stops, counted stops, track, bonuses."""
    comp = routes.compiled
    a, b = routes.ptr[r], routes.ptr[r + 1]
    stop_ids = routes.stops[a:b]
    refs = [comp.stop_refs[s] for s in stop_ids]
    track = []
    for i in range(b - a - 1):
        c = routes.chains[a + i]
        ps = comp.chain_paths[comp.chain_path_ptr[c]:comp.chain_path_ptr[c + 1]]
        ps = ps[::-1] if i < routes.split[r] else ps
        track.extend(comp.paths[p] for p in ps)
    counted = list(routes.counted_for(r, train.name))
    earned = list(routes.earned_for(r, train.name))
    if routes.split[r] == len(stop_ids) - 1:
        # the route ends at its root token: list it from the token outwards
        refs, track, counted, earned = refs[::-1], track[::-1], counted[::-1], earned[::-1]
    bonuses = routes.bonuses_for(r, train.name)
    kind = routes.kinds.index(train.name)
    return Route(train=train.name, stops=refs, revenue=int(routes.values[r, kind]),
                 counted=counted, track=track, bonuses=bonuses, earned=earned)


def counted_stops(values, own, counts):
    """Which stops earn: the ``counts`` best, including at least one token city."""
    n = len(values)
    if counts >= n:
        return [True] * n
    order = sorted(range(n), key=lambda i: -values[i])
    chosen = set(order[:counts])
    if not any(own[i] for i in chosen):
        best_own = max((i for i in range(n) if own[i]), key=lambda i: values[i])
        chosen.discard(order[counts - 1])
        chosen.add(best_own)
    return [i in chosen for i in range(n)]

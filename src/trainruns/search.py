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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from .board import Board
from .compile import CompiledBoard, compile_board
from .kernels import warm_up
from .kernels.assign import block_masks, branch_and_bound, open_bound
from .kernels.routes import enumerate_routes
from .kernels.values import route_values
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
    """Receives progress of a long search; the command prints it, the API ignores it."""

    def update(self, stage: str, **info):  # pragma: no cover - interface
        pass


ENGINES = ("auto", "search", "cpsat", "flow")
# threads for route enumeration (one root each): this machine's cores, at most 2
WORKERS = max(1, min(2, os.cpu_count() or 1))

# Routes kept in memory at most (about 200 bytes each): beyond this the route set is
# marked incomplete and the answer comes with an upper bound instead of a proof.
MAX_ROUTES = 6_000_000
# Enumeration speed assumed to turn a deadline into a route budget (routes per second,
# a busy machine's figure, including valuing them: the budget must not overshoot the
# deadline much, and half the time left is kept for the assignment).
ROUTES_PER_SECOND = 1_000_000
# Seconds (at least; or as long as the enumeration took) for assigning trains when the
# route set had to be cut without a time limit: the result cannot be proven anyway.
INCOMPLETE_SECONDS = 5.0
# ``auto``: branch-and-bound nodes before the CP-SAT engine is asked to finish the proof.
AUTO_NODES = 3_000_000
# ``auto``: the CP-SAT fallback only when the program stays this small (columns).
AUTO_CPSAT_COLUMNS = 20_000
# Seconds (at least; or as long as the enumeration took) for the flow model of
# :mod:`trainruns.cpsat_flow` when the route set was cut without a time limit.
FLOW_SECONDS = 20.0


def solve(source, time_limit: float | None = None, progress: Progress | None = None,
          engine: str = "auto") -> Run:
    """The best run of a position (path, dict or Board) under its rules.

    With no time limit the answer is proven optimal, unless the board has more than
    ``MAX_ROUTES`` routes: then the best run over the routes listed (searched for at
    most ``INCOMPLETE_SECONDS`` or the enumeration's time) is improved by the flow model
    (:mod:`trainruns.cpsat_flow`, which lists no routes) and comes with an upper bound,
    proven when the flow model proves it. With a limit, the best run found when time
    runs out is returned with ``optimal=False`` and an upper bound in ``bound``.

    ``engine`` chooses how trains are assigned to routes: ``search`` (the numba branch
    and bound), ``cpsat`` (the 0-1 program of :mod:`trainruns.cpsat`), ``flow`` (the
    CP-SAT model over the track graph alone) or ``auto`` (see :func:`assign_auto`).
    """
    from .position import load_position

    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, not {engine!r}")
    board = source if isinstance(source, Board) else load_position(source)
    warm_up()
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    compiled = compile_board(board)
    if engine == "flow" and board.route_model is None:
        from .cpsat_flow import flow_run, solve_flow

        chains, bound, proven = solve_flow(compiled, board.trains, deadline=deadline)
        run = flow_run(compiled, chains or [], bound, proven)
        run.seconds = time.perf_counter() - t0
        return run
    routes = enumerate_all(compiled, deadline=deadline, progress=progress)
    flow_deadline = flow_seconds = None
    if not routes.complete and board.route_model is None:
        # cut route set: the flow model (no routes listed) gets, after the assignment, as
        # long as the enumeration took (at least FLOW_SECONDS), or half the time left
        now = time.perf_counter()
        if deadline is None:
            flow_seconds = max(FLOW_SECONDS, now - t0)
        else:
            flow_deadline, deadline = deadline, now + (deadline - now) / 2
    if not routes.complete and deadline is None:
        # more routes than memory holds (MAX_ROUTES): no proof is possible, so the
        # assignment over the routes listed gets bounded effort, not an open-ended search
        deadline = time.perf_counter() + max(INCOMPLETE_SECONDS, time.perf_counter() - t0)
    if engine == "cpsat":
        run = assign_cpsat(routes, deadline=deadline)
    elif engine == "search":
        run = assign_trains(routes, deadline=deadline, progress=progress)
    else:
        run = assign_auto(routes, deadline=deadline, progress=progress)
    if (flow_deadline is not None or flow_seconds is not None) and not run.optimal:
        from .cpsat_flow import improve

        if flow_seconds is not None:
            flow_deadline = time.perf_counter() + flow_seconds
        run = improve(compiled, run, deadline=flow_deadline)
    run.seconds = time.perf_counter() - t0
    return run


def assign_auto(routes: RouteSet, deadline=None, progress=None) -> Run:
    """``auto``: branch and bound first; if it has not finished after ``AUTO_NODES``
    nodes and the reduced 0-1 program has at most ``AUTO_CPSAT_COLUMNS`` columns, CP-SAT
    tries to finish the proof from the incumbent, for at most as long as the branch and
    bound ran; failing that the branch and bound runs to the end (benchmarks/README.md
    says why the branch and bound is the default)."""
    t_bb = time.perf_counter()
    run = assign_trains(routes, deadline=deadline, progress=progress, max_nodes=AUTO_NODES)
    if run.optimal or not routes.complete or (deadline is not None and time.perf_counter() >= deadline):
        return run
    from .cpsat import useful_columns

    cols = useful_columns(routes, _kind_counts(routes), run.revenue)
    if sum(len(c) for c in cols.values()) <= AUTO_CPSAT_COLUMNS:
        # CP-SAT gets as long as the branch and bound has had, no more: it was the slower
        # engine on every benchmarked board, so it must not turn a long proof into an
        # endless one
        cp_deadline = time.perf_counter() + (time.perf_counter() - t_bb)
        if deadline is not None:
            cp_deadline = min(cp_deadline, deadline)
        tried = assign_cpsat(routes, deadline=cp_deadline, start=run)
        run = tried if tried.optimal or tried.revenue > run.revenue else run
    if not run.optimal and (deadline is None or time.perf_counter() < deadline):
        run = assign_trains(routes, deadline=deadline, progress=progress)
    return run


def train_kinds(board: Board):
    """Distinct train names in first-seen order, with their (visits, counts, nontowns)."""
    kinds = {}
    for t in board.trains:
        kinds.setdefault(t.name, t)
    return list(kinds.values())


def enumerate_all(compiled: CompiledBoard, deadline=None, progress=None) -> RouteSet:
    """All legal routes from the corporation's tokens, for its longest train.

    Roots are enumerated one at a time so a deadline can stop between them (the set is
    then marked incomplete)."""
    board = compiled.board
    kinds = train_kinds(board)
    if board.route_model is not None:
        return board.route_model.routes(compiled, kinds, deadline, progress)
    n_stops = compiled.n_stops
    max_visits = min(max((t.visits for t in kinds), default=0), n_stops, UNLIMITED)
    max_nontowns = min(max((t.nontowns for t in kinds), default=0), n_stops)
    roots = np.flatnonzero(compiled.stop_own).astype(np.int64)
    parts, complete, total = [], True, 0
    # roots are independent: once one root has taken a while, enumerate WORKERS at a time
    # on threads (the kernel releases the GIL); parts are kept in root order, so the
    # route set is the same as serially. Small boards never pay for a thread pool.
    pool, step, i = None, 1, 0
    try:
        while i < len(roots):
            limit = (MAX_ROUTES - total) // step
            if deadline is not None:
                left = deadline - time.perf_counter()
                if left <= 0:
                    complete = False
                    break
                # one root can hold millions of routes: give it a budget it can enumerate
                # in the time left, so the deadline holds inside a root too
                limit = min(limit, max(1000, int(left / 2 * ROUTES_PER_SECOND / step)))
            batch = roots[i:i + step]
            args = [(compiled, np.array([root]), max_visits, max_nontowns, limit) for root in batch]
            t_batch = time.perf_counter()
            results = list(pool.map(lambda a: _enumerate_root(*a), args)) if pool else [_enumerate_root(*args[0])]
            for part, cut in results:
                parts.append(part)
                total += len(part[0]) - 1
                if cut:
                    complete = False
            i += len(batch)
            if progress:
                progress.update("routes", roots_done=i, roots=len(roots), routes=total)
            if not complete:
                break
            if pool is None and WORKERS > 1 and time.perf_counter() - t_batch > 0.005:
                pool, step = ThreadPoolExecutor(WORKERS), WORKERS
    finally:
        if pool:
            pool.shutdown()
    ptr, stops, chains, split, bits = _concat(parts, compiled.words)
    values = _value(compiled, ptr, stops, kinds)
    return RouteSet(compiled, ptr, stops, chains, split, bits, [k.name for k in kinds], values,
                    complete)


def _enumerate_root(compiled, roots, max_visits, max_nontowns, limit, cap=1 << 14):
    """The routes of ``roots`` as arrays, at most ``limit`` of them; returns (arrays,
    cut) where ``cut`` says the limit was reached (more routes exist)."""
    if max_visits < 2:
        return (np.zeros(1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
                np.zeros(0, np.int64), np.zeros((0, compiled.words), np.uint64)), False
    cap = max(1, min(cap, limit))
    avg = min(max_visits, 8)
    while True:
        ptr = np.zeros(cap + 1, dtype=np.int64)
        stops = np.empty(cap * avg, dtype=np.int64)
        chains = np.empty(cap * avg, dtype=np.int64)
        split = np.empty(cap, dtype=np.int64)
        bits = np.empty((cap, compiled.words), dtype=np.uint64)
        n = enumerate_routes(roots, compiled.adj_ptr, compiled.adj_chain, compiled.chain_to,
                             compiled.chain_bits, compiled.stop_passable, compiled.stop_own,
                             compiled.stop_town, max_visits, max_nontowns,
                             ptr, stops, chains, split, bits, limit)
        cut = n > limit
        n = min(n, limit)
        if n <= cap and (ptr[n] > 0 or n == 0):
            end = ptr[n]
            return (ptr[: n + 1], stops[:end], chains[:end], split[:n], bits[:n]), cut
        # too small: grow to what was counted (stops per route at most max_visits)
        cap = max(min(cap * 2, limit), n)
        avg = max_visits if max_visits <= 16 else avg * 2


def _concat(parts, words):
    if not parts:
        return (np.zeros(1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
                np.zeros(0, np.int64), np.zeros((0, words), np.uint64))
    ptrs, offset = [np.zeros(1, np.int64)], 0
    for p in parts:
        ptrs.append(p[0][1:] + offset)
        offset += p[0][-1]
    return (np.concatenate(ptrs), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]), np.concatenate([p[3] for p in parts]),
            np.concatenate([p[4] for p in parts]))


def _value(compiled, ptr, stops, kinds):
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

    if WORKERS < 2 or n < 200_000:
        return part(0, n)
    mid = n // 2
    with ThreadPoolExecutor(2) as pool:
        halves = list(pool.map(lambda ab: part(*ab), [(0, mid), (mid, n)]))
    return np.concatenate(halves)


def assign_trains(routes: RouteSet, deadline=None, progress=None, budget=1 << 16,
                  scan_cap=16, max_nodes=None) -> Run:
    """The best disjoint choice of one route per train (branch and bound, see
    :mod:`trainruns.kernels.assign`). Proven optimal unless the deadline (or
    ``max_nodes``) stops it; then ``bound`` is an upper bound on the optimum.

    ``budget`` is the nodes per kernel call between deadline checks; ``scan_cap`` how
    many blocks of 64 candidates a node's bound looks down each train's list for a
    compatible route (0: the static bound, each train at its best)."""
    board = routes.compiled.board
    # bigger trains first: their routes are worth most, so the bound bites early
    order = sorted(range(len(board.trains)),
                   key=lambda i: (-board.trains[i].visits, -board.trains[i].counts, board.trains[i].name))
    trains = [board.trains[i] for i in order]
    kind_index = {name: k for k, name in enumerate(routes.kinds)}
    seg, cand_route, cand_value = {}, [], []
    offset = 0
    for t in trains:
        if t.name in seg:
            continue
        v = routes.values[:, kind_index[t.name]] if len(routes) else np.zeros(0, np.int64)
        idx = np.flatnonzero(v > 0)
        idx = idx[np.argsort(-v[idx], kind="stable")]
        seg[t.name] = (offset, offset + len(idx))
        cand_route.append(idx)
        cand_value.append(v[idx])
        offset += len(idx)
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
    while True:
        status = branch_and_bound(start, end, twin, cand_route, cand_value, routes.bits, masks, built, ub, nub,
                                  restb, nodebound, found, bval, depth, pos, stage, used, val, choice,
                                  best, best_choice, budget, nodes, scan_cap)
        if best[0] != last_best:
            # when the final incumbent appeared (to the resolution of ``budget`` nodes)
            t_best, last_best = time.perf_counter() - t_start, int(best[0])
        if status == 0:
            finished = True
            break
        if progress:
            progress.update("assign", nodes=int(nodes[0]), best=int(best[0]),
                            bound=int(open_bound(depth, nodebound, best)))
        if deadline is not None and time.perf_counter() > deadline:
            break
        if max_nodes is not None and nodes[0] >= max_nodes:
            break

    revenue = int(best[0])
    if finished and routes.complete:
        bound = revenue
    elif routes.complete:
        bound = int(open_bound(depth, nodebound, best))
    else:
        bound = max(revenue, stop_value_bound(routes.compiled))
    chosen, idle, picks = [], [], []
    for i, t in enumerate(trains):
        k = best_choice[i] if n else -1
        if k < 0:
            idle.append(t.name)
        else:
            chosen.append(describe_route(routes, int(cand_route[k]), t))
            picks.append((kind_index[t.name], int(cand_route[k])))
    # report trains in the order the position lists them
    chosen.sort(key=lambda r: [t.name for t in board.trains].index(r.train))
    run = Run(routes=chosen, revenue=revenue, optimal=bound == revenue, bound=bound,
              candidates=len(routes), nodes=int(nodes[0]), idle=idle)
    run.checks = int(nodes[1])  # blocks checked: machine-independent work
    run.time_to_best = t_best
    run.picks = picks  # (kind index, route index) of the chosen routes  # candidate checks: a machine-independent work figure
    return run


def _kind_counts(routes: RouteSet):
    counts = [0] * len(routes.kinds)
    for t in routes.compiled.board.trains:
        counts[routes.kinds.index(t.name)] += 1
    return counts


def assign_cpsat(routes: RouteSet, deadline=None, start: Run | None = None) -> Run:
    """The same assignment as :func:`assign_trains`, by the CP-SAT 0-1 program of
    :mod:`trainruns.cpsat`. ``start`` (a run already found on these routes) gives the
    lower bound that prunes columns and the solution hint."""
    from .cpsat import solve_cpsat

    board = routes.compiled.board
    if start is None:
        # a few thousand branch-and-bound nodes give a good incumbent to prune columns
        start = assign_trains(routes, max_nodes=2000, budget=2000)
    hint = list(getattr(start, "picks", []))
    value, picks, bound, _ = solve_cpsat(routes, board.trains, lower=start.revenue,
                                         hint=hint, deadline=deadline)
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
    stops plus every bonus. A title's route model that values routes its own way gives
    its own (``upper_bound(compiled)``)."""
    model_bound = getattr(compiled.board.route_model, "upper_bound", None)
    if model_bound is not None:
        return int(model_bound(compiled))
    values = np.sort(compiled.stop_value[compiled.stop_value > 0])[::-1]
    bonus = int(compiled.bonus_amount[compiled.bonus_amount > 0].sum())
    total = 0
    for t in compiled.board.trains:
        total += int(values[: min(t.counts, len(values))].sum()) + bonus
    return total


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

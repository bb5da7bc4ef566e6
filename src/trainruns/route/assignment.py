"""Assigning trains to enumerated routes: the best disjoint choice of one route per
train. ``assign_trains`` is the numba branch and bound of :mod:`trainruns.route.kernels.assign`
(the default), ``assign_cpsat`` the 0-1 program of :mod:`trainruns.route.cpsat`; which one runs
is the engine policy of :mod:`trainruns.route.search`."""

from __future__ import annotations

import time

import numpy as np

from trainruns.route.describe import describe_route
from trainruns.route.limits import CHECK_SECONDS, Limits, on_thread
from trainruns.route.progress import Progress
from trainruns.route.result import Run
from trainruns.route.routeset import RouteSet
from trainruns.route.value import stop_value_bound

# nodes of the one kernel call made when the search starts past its deadline
LATE_BUDGET = 256


def assign_trains(routes: RouteSet, deadline=None, progress=None, budget=1 << 16,
                  scan_cap=16, max_nodes=None, limits: Limits | None = None, lower: int = 0) -> Run:
    """The best disjoint choice of one route per train (branch and bound, see
    :mod:`trainruns.route.kernels.assign`). Proven optimal unless the deadline (or
    ``max_nodes``) stops it; then ``bound`` is an upper bound on the optimum (the lowest
    one seen while it ran).

    ``budget`` is the nodes per kernel call between deadline checks (halved while a call
    takes longer than ``CHECK_SECONDS``, so the deadline and Ctrl-C are seen in time);
    ``scan_cap`` how many blocks of 64 candidates a node's bound looks down each train's
    list for a compatible route (0: the static bound, each train at its best).

    Only so many trains of a name can run: each running train has a route of its own
    and takes at least one track bit, so beyond the number of its candidates, or of
    track bits, the rest of them idle in every run and are left out of the search (its
    arrays grow with the square of the trains searched).

    ``lower``: a revenue already reached elsewhere; only runs earning more are looked
    for. When none is found the run returned has no routes and earns ``lower`` (its
    ``picks`` are empty): with ``optimal`` set, nothing beats ``lower``."""
    from trainruns.route.kernels import branch_and_bound, open_bound  # (compiled ahead of time when built)
    from trainruns.route.kernels.blocks import block_masks

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
    best = np.full(1, lower, dtype=np.int64)
    best_choice = np.full(max(n, 1), -1, dtype=np.int64)
    nodes = np.zeros(2, dtype=np.int64)  # expanded nodes, blocks of 64 candidates checked
    masks, built = block_masks(cand_route, routes.bits)
    ub = np.zeros((n + 1, words * 64), dtype=np.int64)
    nub = np.zeros(n + 1, dtype=np.int64)
    finished = False
    t_start = time.perf_counter()
    if deadline is not None and t_start >= deadline:
        # past the deadline already (a title's listing used the time): one short call
        # for a run, not a full budget's (seconds on a million candidates)
        budget = min(budget, LATE_BUDGET)
    t_best, last_best = 0.0, lower
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
        status = on_thread(branch_and_bound, args, what="the search kernel") if slow else branch_and_bound(*args)
        took = time.perf_counter() - t_call
        slow = slow or took > 0.02
        if took > CHECK_SECONDS and budget > 64:
            budget //= 2
        if best[0] != last_best:
            # when the final incumbent appeared (to the resolution of ``budget`` nodes)
            t_best, last_best = time.perf_counter() - t_start, int(best[0])
        if status == 0 or (routes.upper is not None and best[0] >= routes.upper):
            finished = True  # (the search ended, or its run reached the route set's bound)
            break
        here = int(open_bound(depth, nodebound, best))
        low_bound = here if low_bound is None else min(low_bound, here)
        if limits is not None and best[0] > lower and (limits.best is None or best[0] > limits.best.revenue):
            # Ctrl-C under a time limit prints the best run so far: keep it at hand
            so_far = low_bound if routes.complete else stop_value_bound(routes.compiled)
            limits.offer(_run_of(routes, trains, all_trains, best_choice, cand_route, kind_index,
                                 int(best[0]), max(int(best[0]), so_far)))
        if progress:
            # (a ``lower`` not reached here is no run: it is not shown as one)
            known = max(int(best[0]) if best[0] > lower else 0,
                        limits.best.revenue if limits is not None and limits.best else 0)
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
        bound = max(revenue, min(low_bound, int(open_bound(depth, nodebound, best)), _upper(routes)))
    else:
        bound = max(revenue, stop_value_bound(routes.compiled))
    run = _run_of(routes, trains, all_trains, best_choice, cand_route, kind_index, revenue, bound)
    run.nodes = int(nodes[0])
    run.checks = int(nodes[1])  # blocks checked: machine-independent work
    run.time_to_best = t_best
    return run


def _upper(routes: RouteSet) -> float:
    """The route set's own bound (``RouteSet.upper``), infinite when it has none."""
    return float("inf") if routes.upper is None else routes.upper


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


def assign_cpsat(routes: RouteSet, deadline=None, start: Run | None = None, limits: Limits | None = None,
                 progress: Progress | None = None) -> Run:
    """The same assignment as :func:`assign_trains`, by the CP-SAT 0-1 program of
    :mod:`trainruns.route.cpsat`. ``start`` (a run already found on these routes) gives the
    lower bound that prunes columns and the solution hint; ``limits`` the memory budget
    the program must fit in."""
    from trainruns.route.cpsat import solve_cpsat

    board = routes.compiled.board
    if start is None:
        # a few thousand branch-and-bound nodes give a good incumbent to prune columns
        start = assign_trains(routes, max_nodes=2000, budget=2000)
    hint = list(start.picks)
    value, picks, bound, _ = solve_cpsat(routes, board.trains, lower=start.revenue,
                                         hint=hint, deadline=deadline,
                                         memory=None if limits is None else limits.array_budget(),
                                         progress=progress)
    if not routes.complete:
        bound = max(value, bound, stop_value_bound(routes.compiled))
    elif start.optimal:
        bound = value
    else:
        bound = max(value, min(bound, _upper(routes)))
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

"""The CP-SAT engine: the whole multi-train assignment as one 0-1 program (OR-Tools).

Given the enumerated routes (:class:`trainruns.route.search.RouteSet`), choose for each train
kind ``k`` (with ``m_k`` trains of that name) a set of routes:

    maximise   sum v[r, k] x[r, k]
    subject to sum_r x[r, k] <= m_k                 for every kind k
               sum_{(r, k): bit b in route r} x[r, k] <= 1   for every track bit b
               x[r, k] in {0, 1}

Any route has at least one bit, so the bit rows also forbid one route for two trains.
Identical trains share one column per route, so there is no symmetry between them.
The bit rows are "at most one" constraints, which CP-SAT turns into clique cuts; its
linear relaxation is far tighter than a branch and bound that bounds each remaining
train on its own, which is where this engine pays: many trains whose best routes share
track.

The program only needs the columns that could beat a known run: a column whose value
plus the best value of every other train is no better than ``lower`` is dropped (an
exact reduction), and of routes with identical bits only the most valuable is kept per
kind. The known run is also given as a solution hint.
"""

from __future__ import annotations

import time

import numpy as np

# Building the model from Python costs about this much per column (measured: 40,000
# columns in 7 s on a busy 2-core machine); used to keep a deadline.
SECONDS_PER_COLUMN = 2e-4
# bytes a column costs: its Python variable and CP-SAT's copies of it, a generous figure
BYTES_PER_COLUMN = 4096


_CP_MODEL = "ortools.sat.python.cp_model"
_loading = None   # the thread importing it, once started


def preload_cp_model() -> None:
    """Start importing OR-Tools' ``cp_model`` on a thread of its own and return at once:
    the import takes 0.8-1.3 s (pandas, which it imports, half of it), which a caller
    that will need CP-SAT spends meanwhile on work that releases the GIL (the numba
    kernels). :func:`load_cp_model` then waits for that thread."""
    import importlib
    import sys
    import threading

    global _loading
    if _CP_MODEL in sys.modules or _loading is not None:
        return
    _loading = threading.Thread(target=lambda: importlib.import_module(_CP_MODEL), daemon=True)
    _loading.start()


def load_cp_model():
    """OR-Tools' ``cp_model`` module. The first import takes a second or two of native
    start-up; it runs on a thread the caller waits on (:func:`preload_cp_model`'s, when
    started), so that Ctrl-C meanwhile neither waits for it nor breaks it (a
    KeyboardInterrupt inside it comes out as ImportError)."""
    import importlib

    preload_cp_model()   # (nothing to start once it is imported)
    # (the module is in sys.modules while its import runs: the thread is waited for)
    while _loading is not None and _loading.is_alive():
        _loading.join(0.05)
    return importlib.import_module(_CP_MODEL)  # (loaded now; or its error, raised here)


def run_solver(solver, model, progress=None, what="CP-SAT", memory=None):
    """``solver.solve(model)`` where Ctrl-C can stop it: the solve runs on a daemon
    thread (CP-SAT's own SIGINT handler is switched off: it would end the search and
    return a partial answer as if nothing happened) and the caller waits where Python
    sees the signal; on Ctrl-C the search is told to stop and KeyboardInterrupt goes on.
    ``progress`` hears how long it has run, every half second. With ``memory`` (the
    bytes the model may still take), CP-SAT stops its search when the process outgrows
    what it holds now plus that (its ``max_memory_in_mb`` counts the whole process);
    the best solution found is then kept as on a time limit."""
    import threading

    _guard(solver, memory)
    out = {}

    def work():
        try:
            out["status"] = solver.solve(model)
        except BaseException as e:  # re-raised on the caller's thread
            out["error"] = e

    thread = threading.Thread(target=work, daemon=True)
    t0 = time.perf_counter()
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.5)
            if progress and thread.is_alive():
                progress.update("cpsat", model=what, seconds=time.perf_counter() - t0)
    except KeyboardInterrupt:
        solver.stop_search()
        raise
    if "error" in out:
        raise out["error"]
    return out["status"]


def _guard(solver, memory):
    """:func:`run_solver`'s terms for a solve: CP-SAT's own SIGINT handler off, and with
    ``memory`` its search stopped once the process outgrows what it holds now plus that."""
    from trainruns.route.limits import resident

    solver.parameters.catch_sigint_signal = False
    if memory is not None:
        solver.parameters.max_memory_in_mb = max(64, ((resident() or 0) + memory) >> 20)


def run_with_rival(solver, model, rival, progress=None, what="CP-SAT", memory=None):
    """:func:`run_solver` for ``solver`` while ``rival`` (a second solver with other
    parameters) searches a copy of ``model`` on a thread of its own: two searches side
    by side, one on each of the machine's two cores, that share nothing. Whichever
    proves first (OPTIMAL or INFEASIBLE) stops the other. Returns ``(status, solver)``
    of the answer to take: the proof, else the one whose solution is worth more (the
    objective, maximised), else ``solver``'s. Ctrl-C stops both."""
    import threading

    cp_model = load_cp_model()
    proved = (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    _guard(rival, memory)
    copy = model.clone()
    out = {}
    done = threading.Event()   # the solver's search is over

    def work():
        try:
            out["status"] = rival.solve(copy)
        except BaseException as e:  # re-raised on the caller's thread
            out["error"] = e
            return
        # (a stop asked before a search has begun is lost: asked again until it ends)
        while out["status"] in proved and not done.wait(0.01):
            solver.stop_search()

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    try:
        status = run_solver(solver, model, progress, what, memory)
    finally:
        done.set()
        while thread.is_alive():
            rival.stop_search()
            thread.join(0.01)
    if "error" in out:
        raise out["error"]
    other = out["status"]
    if status in proved:
        return status, solver
    if other in proved:
        return other, rival
    if other == cp_model.FEASIBLE and (status != cp_model.FEASIBLE
                                       or rival.objective_value > solver.objective_value):
        return other, rival
    return status, solver


def _trivial_bound(routes, count, lower):
    """Every train at its best route: a bound that needs no solver (the solver's own is
    not trusted when it stops early)."""
    total = 0
    for k, c in enumerate(count):
        v = routes.values[:, k]
        total += int(np.sort(v[v > 0])[::-1][:c].sum()) if len(v) else 0
    return max(total, lower)


def useful_columns(routes, kinds_count, lower, limit=None):
    """Per kind, the routes that could take part in a run worth more than ``lower``:
    ``{kind index: int64 route indices}`` (the exact reduction of the module docstring).
    None when more than ``limit`` columns are left before routes of identical track are
    merged (that merge sorts copies of their masks: a program so big is not built)."""
    n_kinds = len(routes.kinds)
    tops = []
    for k in range(n_kinds):
        v = routes.values[:, k] if len(routes) else np.zeros(0, np.int64)
        pos = np.sort(v[v > 0])[::-1]
        tops.append(pos[: kinds_count[k]])
    total_top = sum(int(t.sum()) for t in tops)
    cols = {}
    for k in range(n_kinds):
        if kinds_count[k] == 0:
            continue
        v = routes.values[:, k]
        # the others: every other train at its best (for this kind, its m_k - 1 best)
        others = total_top - (int(tops[k][-1]) if len(tops[k]) == kinds_count[k] else 0)
        cols[k] = np.flatnonzero((v > 0) & (v + others > lower))
    if limit is not None and sum(len(idx) for idx in cols.values()) > limit:
        return None
    for k, idx in cols.items():
        v = routes.values[:, k]
        if len(idx):
            # identical track: keep the most valuable (first after a stable sort by -value)
            idx = idx[np.argsort(-v[idx], kind="stable")]
            _, first = np.unique(routes.bits[idx], axis=0, return_index=True)
            idx = np.sort(idx[first])
        cols[k] = idx
    return cols


def solve_cpsat(routes, trains, lower=0, hint=None, deadline=None, workers=2, memory=None, progress=None):
    """Solve the program of the module docstring.

    ``trains`` are the board's trains; ``lower`` a revenue already reached (by ``hint``,
    a list of ``(kind index, route index)``). Returns ``(value, picks, bound, proven)``
    where picks lists ``(kind index, route index)``; when no column can beat ``lower``
    it returns ``(lower, hint, lower, True)`` without building a model. A program that
    would take more than ``memory`` bytes is not built either (the known run is kept,
    with the trivial bound)."""
    kind_of = {name: k for k, name in enumerate(routes.kinds)}
    count = [0] * len(routes.kinds)
    for t in trains:
        count[kind_of[t.name]] += 1
    words = routes.bits.shape[1]
    cols = useful_columns(routes, count, lower,
                          None if memory is None else memory // (BYTES_PER_COLUMN + 64 * words))
    if cols is None:
        return lower, list(hint or []), _trivial_bound(routes, count, lower), False
    n_cols = sum(len(c) for c in cols.values())
    if n_cols == 0:
        return lower, list(hint or []), lower, True
    too_big = memory is not None and n_cols * (BYTES_PER_COLUMN + 64 * words) > memory
    if too_big or (deadline is not None and n_cols * SECONDS_PER_COLUMN > deadline - time.perf_counter()):
        # building the model alone would overrun the deadline: keep the known run and
        # the bound of every train at its best route
        return lower, list(hint or []), _trivial_bound(routes, count, lower), False

    # (OR-Tools loads in about a second: only once the model is sure to be built)
    cp_model = load_cp_model()

    model = cp_model.CpModel()
    col_kind, col_route, col_var = [], [], []
    for k, idx in cols.items():
        xs = [model.new_bool_var("") for _ in range(len(idx))]
        model.add(cp_model.LinearExpr.sum(xs) <= count[k])
        col_kind.extend([k] * len(idx))
        col_route.extend(idx.tolist())
        col_var.extend(xs)
    col_route_arr = np.array(col_route, dtype=np.int64)
    col_kind_arr = np.array(col_kind, dtype=np.int64)
    # bit rows: unpack the masks of the columns' routes to (column, bit) pairs
    masks = routes.bits[col_route_arr]
    unpacked = np.unpackbits(masks.view(np.uint8), axis=1, bitorder="little")
    col_ids, bit_ids = np.nonzero(unpacked)
    order = np.argsort(bit_ids, kind="stable")
    col_ids, bit_ids = col_ids[order], bit_ids[order]
    cuts = np.flatnonzero(np.diff(bit_ids)) + 1
    for group in np.split(col_ids, cuts):
        if len(group) > 1:
            model.add_at_most_one([col_var[i] for i in group])
    values = routes.values[col_route_arr, col_kind_arr]
    model.maximize(cp_model.LinearExpr.weighted_sum(col_var, values.tolist()))
    if hint:
        chosen = set(hint)
        for i, (k, r) in enumerate(zip(col_kind, col_route)):
            model.add_hint(col_var[i], (k, r) in chosen)
    # a run worth ``lower`` is known: ask only for better ones (an empty program then
    # proves the known run optimal)
    model.add(cp_model.LinearExpr.weighted_sum(col_var, values.tolist()) >= lower + 1)

    trivial = _trivial_bound(routes, count, lower)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if deadline is not None:
        solver.parameters.max_time_in_seconds = max(0.01, deadline - time.perf_counter())
    status = run_solver(solver, model, progress, "0-1 program", memory)
    if status == cp_model.INFEASIBLE:
        return lower, list(hint or []), lower, True
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        picks = [(k, r) for k, r, x in zip(col_kind, col_route, col_var) if solver.boolean_value(x)]
        value = int(round(solver.objective_value))
        # only a finished search's bound is trusted (see the unknown case below)
        bound = value if status == cp_model.OPTIMAL else trivial
        return value, picks, max(bound, value), status == cp_model.OPTIMAL
    # unknown (time out before a better run or a proof): the solver's objective bound is
    # not a bound on the program then (it reports values below known runs), so only the
    # trivial one holds
    return lower, list(hint or []), trivial, False

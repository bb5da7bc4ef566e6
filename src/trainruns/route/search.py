"""The Python face of the search: compile, enumerate routes, value them, assign trains.

``solve`` is the whole pipeline and this module its engine policy: which stages run, in
what order, with what share of the time, and how their answers and bounds combine. The
stages live by concept: enumeration (:mod:`trainruns.route.enumeration`), assignment
(:mod:`trainruns.route.assignment`), route description (:mod:`trainruns.route.describe`); audits and
what-if rankings call them directly to reuse a compiled board and its routes.

Two engines assign trains to the enumerated routes: ``assign_trains`` (the numba
branch and bound of :mod:`trainruns.route.kernels.assign`, the default) and ``assign_cpsat``
(the 0-1 program of :mod:`trainruns.route.cpsat`); ``solve(engine=...)`` chooses. The figures
behind the choice are in benchmarks/README.md.
"""

from __future__ import annotations

import time

from trainruns.route.assignment import assign_cpsat, assign_trains
from trainruns.route.board import Board
from trainruns.route.compile import CompiledBoard, compile_board
from trainruns.route.enumeration import enumerate_all
from trainruns.route.greedy import greedy_run
from trainruns.route.kernels import ready_at_once as kernels_ready_at_once
from trainruns.route.kernels import ready_by as kernels_ready_by
from trainruns.route.kernels import warm_up
from trainruns.route.limits import Limits
from trainruns.route.progress import Progress
from trainruns.route.proof import tighten
from trainruns.route.result import Run
from trainruns.route.routeset import RouteSet
from trainruns.route.value import stop_value_bound

ENGINES = ("auto", "search", "cpsat", "flow")
# Seconds (at least; or as long as the enumeration took) for assigning trains when the
# route set had to be cut without a time limit: the result cannot be proven anyway.
INCOMPLETE_SECONDS = 5.0
# Seconds a new process takes to load the numba kernels (about 0.45 s, more on a busy
# machine): with less time left than this, the quick run is the answer, unless the
# kernels compiled ahead of time are built (kernels.aot: they load in a millisecond).
WARM_UP_SECONDS = 0.5
# ``auto``: branch-and-bound nodes before the CP-SAT engine is asked to finish the proof.
AUTO_NODES = 3_000_000
# ``auto``: the CP-SAT fallback only when the program stays this small (columns).
AUTO_CPSAT_COLUMNS = 20_000
# Seconds (at least; or as long as the enumeration took) for the flow model of
# :mod:`trainruns.route.cpsat_flow` when the route set was cut without a time limit.
FLOW_SECONDS = 20.0
# routes (estimated: enumeration.estimated_routes) above which a board that the listing
# would hold is first handed to the proof of trainruns.route.proof (the quick run, the prices,
# the routes that may beat it), for PROOF_FIRST_SECONDS at most, and listed only if that
# does not prove it: beyond a million routes the proof is faster and far smaller than
# the listing (benchmarks/README.md, "Constants of the search")
PROOF_FIRST_ROUTES = 1_000_000
PROOF_FIRST_SECONDS = 5.0
# with a time limit, the proof's share of the time left after the assignment over a cut
# route set (the flow model gets the rest, or all of it when the proof ends early)
PROOF_SHARE = 0.85


def solve(source, time_limit: float | None = None, progress: Progress | None = None,
          engine: str = "auto", memory: int | None = None, limits: Limits | None = None,
          compiled: CompiledBoard | None = None) -> Run:
    """The best run of a Board under its rules (:func:`trainruns.solve` also takes a
    position file or dict: :func:`trainruns.titles.load.solve`).

    With no time limit the answer is proven optimal, unless the board has more routes
    than the memory budget holds (or ``MAX_ROUTES``): then the best run over the routes
    listed (searched for at most ``INCOMPLETE_SECONDS`` or the enumeration's time; the
    quick run, with no listing at all, when the routes are estimated at far more than
    fit: :data:`trainruns.route.enumeration.HUGE_FACTOR`) is improved by
    :mod:`trainruns.route.proof` (prices on the track bound the run, as in
    :mod:`trainruns.route.lagrange`; the routes that may beat the run are listed and searched,
    from high targets down, for ``PROOF_SECONDS``), then, unless proven, by the flow model
    (:mod:`trainruns.route.cpsat_flow`, which lists no routes) and comes with an upper bound,
    proven when either proves it. A board of more than ``PROOF_FIRST_ROUTES`` routes
    (estimated) that the memory would hold goes to :mod:`trainruns.route.proof` first, and is
    listed as above only if that does not prove its run. With a limit, the
    best run found when time runs out is returned with ``optimal=False`` and an upper
    bound in ``bound``.

    ``time_limit`` counts from this call (a command passes ``limits``, whose clock
    started with the process); ``memory`` is the budget in bytes of the search's arrays
    (2 GB by default). Both are kept as :mod:`trainruns.route.limits` says. Whatever stops the
    search, the answer is never below the quick run of :mod:`trainruns.route.greedy`, and its
    bound is the lowest upper bound any stage proved.

    ``engine`` chooses how trains are assigned to routes: ``search`` (the numba branch
    and bound), ``cpsat`` (the 0-1 program of :mod:`trainruns.route.cpsat`), ``flow`` (the
    CP-SAT model over the track graph alone) or ``auto`` (see :func:`assign_auto`).

    ``compiled``: this board compiled ahead by the caller, complete, as this call would
    compile it (:func:`trainruns.route.compile.compile_board`, the same ``own_only``;
    the daemon's spare prepares one for a position it read ahead).
    """
    if not isinstance(source, Board):
        raise TypeError("search.solve takes a Board; trainruns.solve takes a position file or dict too")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, not {engine!r}")
    if limits is None:
        limits = Limits(time_limit, memory)
    board = source
    plain = board.route_model is None
    if compiled is None or compiled.board is not board or not compiled.complete:
        compiled = compile_board(board, limits, own_only=plain, progress=progress)
    quick = None
    if plain and (limits.deadline is not None or progress is not None):
        # (without a deadline or anyone watching, the quick run is needed only if the
        # search ends unproven: _search makes it then, and a proven answer is the same)
        quick = _quick(compiled, limits, progress)
    short = limits.left() is not None and limits.left() < WARM_UP_SECONDS and not kernels_ready_at_once()
    if quick is not None and (limits.expired() or short):
        # loading the kernels alone would take the time left: the quick run is the answer
        return _final(quick, quick, compiled, 0.0)
    try:
        return _search(board, compiled, quick, limits, progress, engine)
    except MemoryError:
        # the system gave less than the budget promised (a ulimit, other processes): the
        # best run found so far is the answer, not proven
        if plain and quick is None:
            _quick(compiled, limits, progress)
        best = limits.best or Run(routes=[], revenue=0, optimal=False, bound=0,
                                  idle=[t.name for t in board.trains])
        best.bound = max(best.revenue, stop_value_bound(compiled))
        best.optimal = best.bound == best.revenue
        return best


def _quick(compiled, limits, progress):
    """The quick run of :mod:`trainruns.route.greedy` (offered to ``limits``, reported)."""
    quick = greedy_run(compiled, stop_value_bound(compiled))
    limits.offer(quick)
    if progress:
        progress.update("quick", best=quick.revenue, bound=quick.bound)
    return quick


def _search(board, compiled, quick, limits, progress, engine):
    """The stages of :func:`solve` after the quick run (``quick``: None for a title's
    route model, and for a plain board without a deadline until the search ends
    unproven)."""
    plain = board.route_model is None
    t0 = time.perf_counter()
    if quick is None:
        # a title's route model has no quick run to fall back on: with a deadline and a
        # bound of its own, the kernels' first compilation on a machine is waited for
        # until the deadline only, and then the answer is no run, not proven (the
        # compilation goes on behind, for the next call)
        first_use = not plain and limits.deadline is not None and not kernels_ready_at_once()
        early = board.route_model.bound_at_once(compiled) if first_use else None
        if early is not None and not kernels_ready_by(limits.deadline):
            if progress:
                progress.update("kernels", seconds=time.perf_counter() - t0, ready=False)
            none = Run(routes=[], revenue=0, optimal=early == 0, bound=early, idle=[t.name for t in board.trains])
            return _final(none, None, compiled, time.perf_counter() - t0)
        warm_up()
    elif not kernels_ready_by(limits.deadline):
        # the first use on this machine compiles the kernels, past the deadline: the
        # quick run is the answer, not proven (the kernels go on loading for the next call)
        return _final(quick, quick, compiled, 0.0)
    if progress:
        progress.update("kernels", seconds=time.perf_counter() - t0)
    t0 = time.perf_counter()
    deadline = limits.deadline
    if quick is not None and limits.expired():
        return _final(quick, quick, compiled, 0.0)
    if engine == "flow" and not plain:
        # the flow model knows the plain rules only, not a title's route model: the branch
        # and bound assigns the model's routes, and the Run says so (engine "search")
        engine = "search"
    if engine == "flow":
        from trainruns.route.cpsat_flow import flow_run, solve_flow

        if plain and quick is None:
            quick = _quick(compiled, limits, progress)

        chains, bound, proven = solve_flow(compiled, board.trains, deadline=deadline,
                                           memory=limits.array_budget(), progress=progress)
        run = flow_run(compiled, chains or [], bound, proven)
        return _final(run, quick, compiled, time.perf_counter() - t0)
    # a plain board with far more routes than fit (enumeration.HUGE_FACTOR) is not
    # listed; one with more than PROOF_FIRST_ROUTES that fit, only if the proof fails
    info = {}
    routes = enumerate_all(compiled, deadline=deadline, progress=progress, limits=limits,
                           skip_above=PROOF_FIRST_ROUTES if plain else None, info=info)
    unlisted = plain and not routes.complete and len(routes) == 0
    if unlisted and info.get("fits"):
        # the proof of :mod:`trainruns.route.proof` lists tens of thousands of routes where the
        # listing keeps millions (seconds, hundreds of MB): it goes first, for
        # PROOF_FIRST_SECONDS (or a quarter of the time left) at most; unproven, its run
        # and bound are kept and the routes listed after all
        from trainruns.route.proof import prove

        if quick is None:
            quick = _quick(compiled, limits, progress)
        now = time.perf_counter()
        first_deadline = now + PROOF_FIRST_SECONDS if deadline is None else \
            now + min(PROOF_FIRST_SECONDS, (deadline - now) / 4)
        first = prove(compiled, quick, limits, deadline=first_deadline, progress=progress)
        if first.optimal:
            return _final(first, quick, compiled, time.perf_counter() - t0)
        if first is not quick:  # (a better run: the bound, a true one, may be the quick run's)
            first.bound = min(first.bound, quick.bound)
            quick = first
        limits.offer(quick)
        routes = enumerate_all(compiled, deadline=deadline, progress=progress, limits=limits)
        unlisted = False
    flow_deadline = flow_seconds = None
    if not routes.complete and plain:
        # cut route set: the flow model (no routes listed) gets, after the assignment, as
        # long as the enumeration took (at least FLOW_SECONDS), or half the time left
        now = time.perf_counter()
        if deadline is None:
            flow_seconds = max(FLOW_SECONDS, now - t0)
        else:
            # the assignment over the cut set, the proof of :mod:`trainruns.route.proof` and
            # the flow model share the time left: a quarter (at most INCOMPLETE_SECONDS),
            # then PROOF_SHARE of the rest, then the rest
            left = deadline - now
            flow_deadline, deadline = deadline, now + min(INCOMPLETE_SECONDS, left / 4)
    if not routes.complete and deadline is None:
        # more routes than memory holds: no proof is possible, so the assignment over the
        # routes listed gets bounded effort, not an open-ended search
        deadline = time.perf_counter() + max(INCOMPLETE_SECONDS, time.perf_counter() - t0)
    if unlisted:
        # nothing listed, nothing to assign: the quick run goes to the proof below, which
        # lists only the routes that may beat it
        quick = quick if quick is not None else _quick(compiled, limits, progress)
        run = quick
    elif engine == "cpsat":
        run = assign_cpsat(routes, deadline=deadline, limits=limits, progress=progress)
    elif engine == "search":
        run = assign_trains(routes, deadline=deadline, progress=progress, limits=limits)
    else:
        run = assign_auto(routes, deadline=deadline, progress=progress, limits=limits)
    limits.offer(run)
    if plain and quick is None and not (run.optimal and routes.complete):
        # unproven: the quick run may earn more, or bound lower, or start the flow model
        quick = _quick(compiled, limits, progress)
    if quick is not None:
        # the quick run may be the answer: it reports the search's work
        quick.candidates, quick.nodes = run.candidates, run.nodes
    del routes  # (the flow model lists no routes: their memory is the model's now)
    if flow_deadline is None and flow_seconds is None:
        return _final(run, quick, compiled, time.perf_counter() - t0)
    from trainruns.route.cpsat_flow import improve
    from trainruns.route.proof import PROOF_SECONDS, prove

    # the routes that may beat the best run found, listed by the track prices of
    # :mod:`trainruns.route.lagrange` and searched: first, since it proves the boards the flow
    # model does not; the flow model gets the time left (PROOF_SHARE of it to the proof)
    if quick is not None and quick.revenue > run.revenue:
        run = tighten(quick, run.bound)
    if limits.deadline is not None:
        proof_deadline = time.perf_counter() + PROOF_SHARE * max(0.0, limits.deadline - time.perf_counter())
    else:
        proof_deadline = time.perf_counter() + PROOF_SECONDS
    run = prove(compiled, run, limits, deadline=proof_deadline, progress=progress)
    if not run.optimal:
        flow_deadline = limits.deadline if limits.deadline is not None else time.perf_counter() + flow_seconds
        run = improve(compiled, run, deadline=flow_deadline, memory=limits.array_budget(), progress=progress)
    return _final(run, quick, compiled, time.perf_counter() - t0)


def _final(run: Run, quick: Run | None, compiled: CompiledBoard, seconds: float) -> Run:
    """The answer: the better of the search's run and the quick one, with the lowest
    upper bound either proved; a board compiled only in part proves nothing."""
    if quick is not None and quick is not run:
        bound = min(run.bound, quick.bound)
        if quick.revenue > run.revenue:
            quick.candidates, quick.nodes = run.candidates, run.nodes
            run = quick
        run = tighten(run, bound)
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
    from trainruns.route.cpsat import useful_columns

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
        run = tighten(run, bound)
    if not run.optimal and (deadline is None or time.perf_counter() < deadline):
        again = assign_trains(routes, deadline=deadline, progress=progress, limits=limits)
        run = tighten(again if again.revenue >= run.revenue else run, min(run.bound, again.bound))
    return run


def _kind_counts(routes: RouteSet):
    counts = [0] * len(routes.kinds)
    for t in routes.compiled.board.trains:
        counts[routes.kinds.index(t.name)] += 1
    return counts

"""Boards left unlisted (the hard family's monsters have 10^8 routes): when the
estimate of :mod:`trainruns.route.kernels.estimate` says the routes are far more than the
listing keeps, ``solve`` lists none and hands the quick run to the proof of
:mod:`trainruns.route.proof`, which lists only the routes that may beat it.

Forced here on small boards (``enumeration.INLINE_ROUTES`` 1 and ``HUGE_FACTOR`` 0: every
board with a root of two routes or more goes unlisted), with the flow model left out so
that the proof alone must close the gap. Plain rules (docs/custom-map.md): the answer must be
the independent brute force's optimum (tests/bruteforce.py), and the full listing's on
boards too big for the brute force; time limit and memory budget kept, a bound never
below the best (the BRIEF: a bounded answer says it is not proven)."""

import numpy as np
import pytest
from boards import random_position
from bruteforce import best_run
from test_bruteforce import bonus_case, check_run
from test_proof_prices import _mixed

from trainruns import load_position, solve
from trainruns.route.compile import compile_board
from trainruns.route.routeset import train_kinds
from trainruns.services.generate import hard_board


def _force(monkeypatch):
    """Every board with a root of more than one route goes unlisted, and the flow model
    is left out; returns the list of ``(routes listed, complete)`` of each enumeration,
    to check that it did."""
    import trainruns.route.cpsat_flow as cpsat_flow
    import trainruns.route.enumeration as enumeration

    monkeypatch.setattr(enumeration, "INLINE_ROUTES", 1)
    monkeypatch.setattr(enumeration, "HUGE_FACTOR", 0)
    monkeypatch.setattr(cpsat_flow, "improve", lambda compiled, run, **kw: run)
    return _recorded(monkeypatch)


def _recorded(monkeypatch):
    """The search's enumerations recorded as ``(routes listed, complete)``."""
    import trainruns.route.search as search

    seen = []
    real = search.enumerate_all

    def recorded(*args, **kw):
        routes = real(*args, **kw)
        seen.append((len(routes), routes.complete))
        return routes

    monkeypatch.setattr(search, "enumerate_all", recorded)
    return seen


@pytest.fixture
def unlisted(monkeypatch):
    return _force(monkeypatch)


def test_plain_and_mixed_trains_match_brute_force(unlisted):
    """Plain trains, N/M, "+" and unlimited trains on random boards."""
    for seed in range(40):
        pos = _mixed(seed) if seed % 2 else random_position(seed)
        check_run(pos, solve(pos))
    skipped = sum(1 for n, complete in unlisted if n == 0 and not complete)
    assert skipped >= 30, unlisted


def test_bonuses_match_brute_force(unlisted):
    """Bonuses (board.Bonus: a route reaching a stop of every group earns the amount)."""
    for seed in range(3000, 3030):
        board, best = bonus_case(seed)
        run = solve(board)
        assert run.optimal and run.revenue == best
        assert sum(r.revenue for r in run.routes) == run.revenue
    assert sum(1 for n, complete in unlisted if n == 0 and not complete) >= 20


def test_proof_first_then_the_listing_match_brute_force(monkeypatch):
    """Routes that the listing would hold, but many (``search.PROOF_FIRST_ROUTES``, here
    every board with a root of two routes or more): the proof goes first and its answer
    stands when proven; when it is not (here: the proof gives up at once, its run as it
    came), the routes are listed after all and searched, with the same exact answer."""
    import trainruns.route.enumeration as enumeration
    import trainruns.route.proof as proof
    import trainruns.route.search as search

    monkeypatch.setattr(enumeration, "INLINE_ROUTES", 1)
    monkeypatch.setattr(search, "PROOF_FIRST_ROUTES", 0)
    seen = _recorded(monkeypatch)
    for seed in range(100, 120):
        pos = _mixed(seed) if seed % 2 else random_position(seed)
        check_run(pos, solve(pos))
    assert sum(1 for n, complete in seen if n == 0 and not complete) >= 15
    assert all(complete for n, complete in seen if n > 0)
    del seen[:]
    gave_up = []

    def give_up(compiled, run, *args, **kw):
        gave_up.append(run.optimal)  # (a quick run may be proven by its own bound)
        return run

    monkeypatch.setattr(proof, "prove", give_up)
    for seed in range(100, 120):
        pos = _mixed(seed) if seed % 2 else random_position(seed)
        check_run(pos, solve(pos))
    # each board whose proof gave up unproven was listed after all, in full
    assert gave_up.count(False) >= 15
    assert sum(1 for n, complete in seen if complete) >= 20 - len(gave_up) + gave_up.count(False)


def test_descent_cut_short_matches_brute_force(monkeypatch):
    """The proof's targets on the way down searched for one node at most
    (``proof.DESCENT_NODES``, ``RELIST_NODES``): a target not ruled out is passed
    over for a lower one, and the search at the run found must still prove it."""
    import trainruns.route.proof as proof

    hard = [hard_board(seed, n_hexes=hexes) for seed, hexes in ((0, 30), (2, 40))]
    full = [solve(pos).revenue for pos in hard]
    _force(monkeypatch)
    monkeypatch.setattr(proof, "DESCENT_NODES", 1)
    monkeypatch.setattr(proof, "RELIST_NODES", 1)
    for seed in range(40, 70):
        pos = _mixed(seed) if seed % 2 else random_position(seed)
        check_run(pos, solve(pos))
    for pos, best in zip(hard, full):
        run = solve(pos)
        assert run.optimal and run.revenue == best


def test_search_on_two_threads_matches_brute_force(monkeypatch):
    """A whole search shared between two threads (``proof.search_whole``: the lead
    train's routes dealt out by rank) finds what one search finds: the brute force's
    best above each ``lower`` below it, and nothing (proven) above it."""
    import threading

    import trainruns.route.assignment as assignment
    import trainruns.route.enumeration as enumeration
    import trainruns.route.proof as proof
    from trainruns.route.enumeration import enumerate_all

    monkeypatch.setattr(proof, "SHARED_CANDIDATES", 0)
    monkeypatch.setattr(enumeration, "WORKERS", 2)
    on_threads = []
    inner = assignment.assign_trains

    def counted(routes, *args, **kw):
        if threading.current_thread() is not threading.main_thread():
            on_threads.append(len(routes))
        return inner(routes, *args, **kw)

    monkeypatch.setattr(assignment, "assign_trains", counted)
    cases = [(random_position(seed) if seed % 2 else _mixed(seed), None) for seed in range(70, 100)]
    cases += [bonus_case(seed) for seed in range(3030, 3045)]
    for pos, best in cases:
        board = pos if best is not None else load_position(pos)
        if best is None:
            best, _ = best_run(pos)
        routes = enumerate_all(compile_board(board))
        for lower in sorted({0, best // 2, max(best - 1, 0), best}):
            run = proof.search_whole(routes, lower)
            assert run.optimal
            assert run.revenue == (best if best > lower else lower)
            assert sum(r.revenue for r in run.routes) == (best if best > lower else 0)
    assert len(on_threads) >= 100  # (a half on each thread, for most of them)


@pytest.mark.parametrize("seed,hexes", [(0, 30), (1, 30), (2, 30), (0, 40), (2, 40)])
def test_hard_boards_match_the_full_listing(seed, hexes, monkeypatch):
    """The hard family's smaller boards (10^4 routes): the same answer, proven, with
    the routes listed in full and with none listed."""
    pos = hard_board(seed, n_hexes=hexes)
    full = solve(pos)
    assert full.optimal
    seen = _force(monkeypatch)
    none = solve(pos)
    assert none.optimal and none.revenue == full.revenue == none.bound
    assert sum(r.revenue for r in none.routes) == none.revenue
    assert seen == [(0, False)]


def test_time_limit_and_memory_budget_keep_a_true_bound(monkeypatch):
    """Stopped by the time limit, or with a budget too small for the proof's lists: the
    best found, and a bound at or above the optimum (never a false proof)."""
    pos = hard_board(2, n_hexes=40)
    best = solve(pos).revenue
    _force(monkeypatch)
    for run in [solve(pos, time_limit=limit) for limit in (0.05, 0.3, 1.0)] + [solve(pos, memory=1 << 16)]:
        assert run.revenue <= best <= run.bound
        assert run.optimal == (run.revenue == run.bound)


@pytest.mark.parametrize("seed,hexes", [(0, 30), (1, 30), (2, 30), (0, 40), (1, 40), (2, 40), (0, 50)])
def test_estimate_is_near_the_count(seed, hexes):
    """The estimate (a choice of policy only, never an answer) is within a factor of 2
    of the routes the listing writes, root by root summed."""
    from trainruns.route.enumeration import enumerate_all, estimated_routes
    from trainruns.route.trains import UNLIMITED

    compiled = compile_board(load_position(hard_board(seed, n_hexes=hexes)))
    kinds = train_kinds(compiled.board)
    visits = min(max(t.visits for t in kinds), compiled.n_stops, UNLIMITED)
    nontowns = min(max(t.nontowns for t in kinds), compiled.n_stops)
    roots = np.flatnonzero(compiled.stop_own)
    count = len(enumerate_all(compiled))
    estimate = estimated_routes(compiled, roots, visits, nontowns)
    assert count / 2 <= estimate <= 2 * count
    # and the same every time (seeded): a board always gets the same policy
    assert estimated_routes(compiled, roots, visits, nontowns) == estimate

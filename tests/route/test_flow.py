"""The flow engine (trainruns.route.cpsat_flow: CP-SAT over the chain graph, no routes listed)
against the route search, and the route search handing over to it when the route set is
cut."""

import random

import pytest
from boards import random_position

from trainruns import load_position, solve
from trainruns.route import enumeration
from trainruns.route.board import Bonus
from trainruns.route.compile import compile_board
from trainruns.route.cpsat_flow import flow_run, solve_flow
from trainruns.services.audit import audit
from trainruns.services.generate import random_board

TRAINS = ["2", "3", "4", "99", "3", "2", "3/5", "2+2", "4/6", "2+1", "5"]


def _with_bonuses(board, rng):
    """Add one or two random bonuses (a stop bonus, a connection bonus, maybe for one
    train name only)."""
    refs = [ref for ref in board.stop_refs() if board.stop(ref).enterable]
    if len(refs) < 2:
        return board
    names = sorted({t.name for t in board.trains})
    for j in range(rng.randint(1, 2)):
        n_groups = rng.randint(1, 2)
        groups = tuple(frozenset(rng.sample(refs, rng.randint(1, 2))) for _ in range(n_groups))
        only = frozenset([rng.choice(names)]) if rng.random() < 0.3 else frozenset()
        board.bonuses.append(Bonus(f"b{j}", rng.choice([10, 30, 50]), groups, only))
    return board


def _board(seed):
    rng = random.Random(seed)
    trains = rng.sample(TRAINS, rng.randint(1, 3))
    if seed % 3 == 2:
        pos = random_board(seed, n_hexes=rng.randint(10, 22), trains=trains, dense=seed % 2 == 0)
    else:
        pos = random_position(seed, trains=trains)
    board = load_position(pos)
    if seed % 4 == 1:
        _with_bonuses(board, rng)
    return board


@pytest.mark.parametrize("seed", range(60))
def test_flow_matches_search(seed):
    board = _board(seed)
    best = solve(board, engine="search")
    assert best.optimal
    comp = compile_board(board)
    routes, bound, proven = solve_flow(comp, board.trains)
    assert proven
    run = flow_run(comp, routes, bound, proven)
    assert run.optimal and run.revenue == best.revenue == bound
    if run.routes:
        declared = {"routes": [{"train": r.train, "stops": r.stop_labels()} for r in run.routes]}
        verdict = audit(board, declared, best=best)
        assert verdict.legal, verdict.problems
        assert verdict.declared_revenue == run.revenue


def test_flow_with_hint_and_lower():
    board = _board(7)
    best = solve(board, engine="search")
    comp = compile_board(board)
    routes, bound, proven = solve_flow(comp, board.trains, lower=best.revenue, hint_run=best)
    assert proven and flow_run(comp, routes, bound, proven).revenue == best.revenue


def test_cut_route_set_is_proven_by_the_flow_model(monkeypatch):
    board = load_position(random_board(3, n_hexes=25, trains=["4", "3"], dense=True))
    exact = solve(board, engine="search")
    assert exact.optimal and exact.candidates > 50
    monkeypatch.setattr(enumeration, "MAX_ROUTES", 20)
    cut = solve(board)
    assert cut.optimal and cut.revenue == exact.revenue and cut.bound == exact.revenue


def test_flow_engine_chosen_explicitly():
    board = _board(9)
    best = solve(board, engine="search")
    run = solve(board, engine="flow")
    assert run.optimal and run.revenue == best.revenue


def test_route_model_boards_are_out_of_scope():
    board = _board(0)
    comp = compile_board(board)
    board.route_model = object()
    assert solve_flow(comp, board.trains) == (None, None, False)


def test_flow_stopped_early_keeps_a_true_bound():
    # stopped before any run (even inside presolve, where CP-SAT reports a bound of 0)
    board = load_position(random_board(3, n_hexes=25, trains=["4", "3"], dense=True))
    exact = solve(board, engine="search")
    comp = compile_board(board)
    import time

    for seconds in (0.001, 0.05):
        routes, bound, proven = solve_flow(comp, board.trains, lower=10,
                                           deadline=time.perf_counter() + seconds)
        assert bound >= exact.revenue
        if routes is not None:
            assert flow_run(comp, routes, bound, proven).revenue <= exact.revenue

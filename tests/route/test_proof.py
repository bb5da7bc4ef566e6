"""The proof over the routes that may beat a known run (trainruns.route.proof), against
the independent brute force of tests/bruteforce.py and against the full route search.

Plain rules (docs/custom-map.md): a train earns its counted stops plus its bonuses on a route
of at most ``visits`` stops; trains of a run share no track. The proof lists only the
routes a better run could use, so whatever run it starts from, it must end at the
brute force's optimum, proven."""

import random

import pytest
from boards import random_position
from bruteforce import best_run, train_value
from test_bruteforce import check_run

from trainruns import load_position, solve
from trainruns.route.compile import compile_board
from trainruns.route.greedy import greedy_run
from trainruns.route.limits import Limits
from trainruns.route.proof import kind_bounds, prove, routes_above, run_bound
from trainruns.route.result import Run
from trainruns.route.value import stop_value_bound
from trainruns.services.generate import hard_board


def _start(board, revenue):
    """A stand-in for a run found elsewhere, earning ``revenue`` (no routes: the proof
    only reads its revenue)."""
    return Run(routes=[], revenue=revenue, optimal=False, bound=10 ** 9, idle=[t.name for t in board.trains])


def _mixed(seed):
    rng = random.Random(seed)
    trains = rng.sample(["2", "3", "4", "99", "3/5", "2+1", "4/6", "2+2", "3"], rng.randint(1, 3))
    return random_position(seed, trains=trains, size=(4, 4))


@pytest.mark.parametrize("seed", range(60))
def test_kind_bounds_hold_every_route(seed):
    """B_k (the best a train of kind k earns on one route) is the brute force's best
    route for that train, and the sum over the trains bounds the best run."""
    pos = _mixed(seed)
    board = load_position(pos)
    compiled = compile_board(board, Limits(), own_only=True)
    bounds = kind_bounds(compiled)
    best, routes = best_run(pos)
    for name in pos["trains"]:
        values = [v for r in routes if (v := train_value(name, r[3])) is not None]
        # N/M trains: the gain counts every stop, an upper bound on the counted ones
        if "/" in name:
            assert bounds[name] >= max(values, default=0)
        else:
            assert bounds[name] == max(values, default=0)
    assert best <= run_bound(compiled, bounds) <= stop_value_bound(compiled)


@pytest.mark.parametrize("seed", range(80))
def test_proof_from_any_start_reaches_the_brute_force(seed):
    """From the quick run, from nothing, and from one below the optimum the proof ends
    at the brute force's optimum, proven, with legal disjoint routes; from the optimum
    itself it proves that revenue."""
    pos = _mixed(seed) if seed % 2 else random_position(seed)
    board = load_position(pos)
    compiled = compile_board(board, Limits(), own_only=True)
    best, _ = best_run(pos)
    quick = greedy_run(compiled, stop_value_bound(compiled))
    for start in (quick, _start(board, 0), _start(board, max(best - 1, 0))):
        if start.revenue >= best:
            continue
        run = prove(compiled, start, Limits())
        check_run(pos, run)
    run = prove(compiled, _start(board, best), Limits())
    assert run.optimal and run.revenue == run.bound == best


@pytest.mark.parametrize("seed", range(3000, 3040))
def test_proof_with_bonuses(seed):
    """Bonuses count in every route's gain: the proof still reaches the brute force."""
    from test_bruteforce import bonus_case

    board, best = bonus_case(seed)
    compiled = compile_board(board, Limits(), own_only=True)
    run = prove(compiled, _start(board, 0), Limits())
    assert run.optimal and run.revenue == best
    assert sum(r.revenue for r in run.routes) == run.revenue


@pytest.mark.parametrize("n_hexes,seed", [(30, 0), (30, 1), (30, 2), (40, 0), (40, 1)])
def test_hard_boards_proven_from_below(n_hexes, seed):
    """The hard family (8 + 6 + 5 trains on dense track), too big for the brute force:
    against the full route search, from starts 100 and 1 below its optimum; the routes
    listed are a fraction of all of them."""
    board = load_position(hard_board(seed, n_hexes=n_hexes))
    exact = solve(board, engine="search")
    assert exact.optimal
    compiled = compile_board(board, Limits(), own_only=True)
    for below in (100, 1):
        run = prove(compiled, _start(board, exact.revenue - below), Limits())
        assert run.optimal and run.revenue == exact.revenue
        assert sum(r.revenue for r in run.routes) == run.revenue
    few = routes_above(compiled, exact.revenue - 1, kind_bounds(compiled), 1 << 30)
    assert len(few) < exact.candidates


def test_cut_route_set_is_proven(monkeypatch):
    """A board whose route listing is cut (MAX_ROUTES) is still proven by solve, with
    the flow model left out: the proof alone closes it."""
    import trainruns.route.cpsat_flow as cpsat_flow
    import trainruns.route.enumeration as enumeration

    pos = hard_board(2, n_hexes=30)
    exact = solve(pos)
    monkeypatch.setattr(enumeration, "MAX_ROUTES", 100)
    monkeypatch.setattr(cpsat_flow, "improve", lambda compiled, run, **kw: run)
    cut = solve(load_position(pos))
    assert cut.optimal and cut.revenue == exact.revenue == cut.bound
    assert sum(r.revenue for r in cut.routes) == cut.revenue


def test_targets_too_big_for_memory_keep_an_honest_bound(monkeypatch):
    """When the routes above a target do not fit (here: any target below the optimum),
    the proof tries higher targets and ends with a true bound, never a false proof."""
    import trainruns.route.proof as proof

    pos = hard_board(2, n_hexes=40)
    board = load_position(pos)
    exact = solve(board, engine="search")
    compiled = compile_board(board, Limits(), own_only=True)
    real = proof.priced_routes
    tried = []

    def only_high(pricing, joint, target, *args):
        tried.append(target)
        return None if target < exact.revenue else real(pricing, joint, target, *args)

    monkeypatch.setattr(proof, "priced_routes", only_high)
    quick = greedy_run(compiled, stop_value_bound(compiled))
    before = quick.bound
    run = prove(compiled, quick, Limits())
    assert run.revenue <= exact.revenue <= run.bound < before
    assert not run.optimal or run.revenue == exact.revenue
    assert any(t < exact.revenue for t in tried)

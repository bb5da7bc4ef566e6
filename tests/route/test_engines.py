"""Both assignment engines (numba branch and bound, CP-SAT) give the same optimum, on
the shipped positions and on seeded random boards, and time limits keep a true bound."""

import glob
import itertools
import json
import os

import numpy as np
import pytest

from trainruns import solve
from trainruns.route.assignment import assign_cpsat, assign_trains
from trainruns.route.compile import compile_board
from trainruns.route.enumeration import enumerate_all
from trainruns.services.generate import hard_board, random_board
from trainruns.titles.load import load_position

HERE = os.path.dirname(__file__)
# every shipped position, the real boards of fixtures/real included
# (fixtures/games holds game logs, not positions)
FIXTURES = sorted(p for p in glob.glob(os.path.join(HERE, "..", "..", "fixtures", "**", "*.json"), recursive=True)
                  if os.sep + "games" + os.sep not in p)


def brute_force(routes, trains):
    """Every choice of one route (or none) per train, checked pairwise: the plain
    definition of the optimum, for tiny route sets."""
    kind = [routes.kinds.index(t.name) for t in trains]
    bits = [int.from_bytes(routes.bits[r].tobytes(), "little") for r in range(len(routes))]
    options = [[-1] + [r for r in range(len(routes)) if routes.values[r, k] > 0] for k in kind]
    best = 0
    for combo in itertools.product(*options):
        used, total, ok = 0, 0, True
        for k, r in zip(kind, combo):
            if r < 0:
                continue
            if used & bits[r]:
                ok = False
                break
            used |= bits[r]
            total += int(routes.values[r, k])
        if ok:
            best = max(best, total)
    return best


@pytest.mark.parametrize("path", FIXTURES, ids=os.path.basename)
def test_engines_agree_on_real_positions_and_fixtures(path):
    expected = json.load(open(path)).get("expected_revenue")
    board = load_position(path)
    routes = enumerate_all(compile_board(board))
    a = assign_trains(routes)
    b = assign_cpsat(routes)
    assert a.optimal and b.optimal
    assert a.revenue == b.revenue
    if expected is not None:
        assert a.revenue == expected


@pytest.mark.parametrize("seed", range(12))
def test_engines_agree_on_random_boards(seed):
    trains = [("2", "2"), ("3", "2"), ("4", "3", "2"), ("2+2", "3"), ("3/5", "4")][seed % 5]
    pos = random_board(seed, n_hexes=8 + seed % 5, trains=trains, dense=seed % 2 == 1)
    board = load_position(pos)
    routes = enumerate_all(compile_board(board))
    a = assign_trains(routes)
    b = assign_cpsat(routes)
    assert a.optimal and b.optimal and a.revenue == b.revenue
    if len(routes) <= 60:
        assert a.revenue == brute_force(routes, board.trains)
    # the chosen routes really are disjoint and earn what is claimed
    picks = a.picks
    used = np.zeros(routes.bits.shape[1], np.uint64)
    for k, r in picks:
        assert not (used & routes.bits[r]).any()
        used |= routes.bits[r]
    assert sum(int(routes.values[r, k]) for k, r in picks) == a.revenue


@pytest.mark.parametrize("seed", range(3))
def test_engines_agree_on_hard_boards(seed):
    pos = hard_board(seed, n_hexes=22, trains=("5", "4", "3"), own_tokens=2)
    board = load_position(pos)
    routes = enumerate_all(compile_board(board))
    a = assign_trains(routes)
    b = assign_cpsat(routes)
    assert a.optimal and b.optimal and a.revenue == b.revenue
    assert solve(pos, engine="auto").revenue == a.revenue


def test_time_limit_gives_run_and_true_bound():
    pos = hard_board(2, n_hexes=40)
    exact = solve(pos)
    assert exact.optimal
    quick = solve(pos, time_limit=0.02)
    assert quick.revenue <= exact.revenue <= quick.bound
    assert quick.optimal == (quick.revenue == quick.bound)


def test_route_budget_cuts_enumeration_and_keeps_a_bound(monkeypatch):
    import trainruns.route.enumeration as enumeration

    pos = hard_board(1, n_hexes=30)
    exact = solve(pos)
    monkeypatch.setattr(enumeration, "MAX_ROUTES", 100)
    routes = enumerate_all(compile_board(load_position(pos)))
    assert not routes.complete and 0 < len(routes) <= 100
    cut = assign_trains(routes)
    assert not cut.optimal and cut.revenue <= exact.revenue <= cut.bound


def test_generator_is_deterministic():
    assert hard_board(7) == hard_board(7)
    assert random_board(3, n_hexes=20) == random_board(3, n_hexes=20)
    assert hard_board(7) != hard_board(8)


def test_unknown_engine_is_refused():
    with pytest.raises(ValueError):
        solve(random_board(0, n_hexes=8), engine="magic")


def test_cpsat_stopped_early_keeps_a_true_bound():
    pos = hard_board(2, n_hexes=40)
    exact = solve(pos, engine="search")
    quick = solve(pos, engine="cpsat", time_limit=0.3)
    assert quick.revenue <= exact.revenue <= quick.bound
    assert quick.optimal == (quick.revenue == quick.bound)


def test_auto_falls_back_to_cpsat_and_stays_exact(monkeypatch):
    import trainruns.route.search as search

    monkeypatch.setattr(search, "AUTO_NODES", 20)
    for seed in range(3):
        pos = hard_board(seed, n_hexes=24, trains=("5", "4", "3"), own_tokens=2)
        auto, plain = solve(pos, engine="auto"), solve(pos, engine="search")
        assert auto.optimal and auto.revenue == plain.revenue

"""A search stopped early returns the best run found, says it is not proven, and gives
an upper bound that is never below the true optimum (docs/position-format.md, --time-limit).

Deterministic: the stop is forced by a deadline already past and a tiny node budget,
not by the clock."""

import json

import pytest
from boards import random_position

from trainruns import load_position, solve
from trainruns.cli.main import main
from trainruns.route.assignment import assign_trains
from trainruns.route.compile import compile_board
from trainruns.route.enumeration import enumerate_all


def big_board(seed):
    return random_position(seed, trains=["4", "3", "3"], size=(6, 5), density=0.85)


@pytest.mark.parametrize("seed", range(5))
def test_stopped_assignment_bounds_the_optimum(seed):
    pos = big_board(seed)
    best = solve(pos)
    routes = enumerate_all(compile_board(load_position(pos)))
    stopped = assign_trains(routes, deadline=0.0, budget=1)
    assert stopped.revenue <= best.revenue <= stopped.bound
    if stopped.revenue < best.revenue:
        assert not stopped.optimal
    # a stopped run is still a legal run: its routes add up
    assert sum(r.revenue for r in stopped.routes) == stopped.revenue


@pytest.mark.parametrize("seed", range(5))
def test_stopped_enumeration_bounds_the_optimum(seed):
    pos = big_board(seed)
    best = solve(pos)
    stopped = solve(pos, time_limit=1e-9)
    assert stopped.revenue <= best.revenue <= stopped.bound
    # a claim of optimality is checked against the unstopped search, not against the
    # bound it was computed from
    if stopped.optimal:
        assert stopped.revenue == best.revenue
    else:
        assert stopped.bound > stopped.revenue
    assert sum(r.revenue for r in stopped.routes) == stopped.revenue


def test_command_reports_bound_when_not_proven(tmp_path, capsys):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(big_board(1)))
    assert main(["solve", str(path), "--json", "--time-limit", "0.000000001"]) == 0
    out = json.loads(capsys.readouterr().out)
    # a nanosecond is over before the first token's routes are listed
    assert out["optimal"] is False
    assert out["bound"] >= solve(str(path)).revenue >= out["revenue"]
    assert main(["solve", str(path), "--time-limit", "0.000000001"]) == 0
    assert "not proven optimal: upper bound" in capsys.readouterr().out

"""A search stopped before any route is listed still returns an upper bound that is
never below the true optimum, also for titles that value routes their own way (1831's
token values and commuter runs, 1833NE's A12 and interconnection bonuses)."""


import pytest
from conftest import ROOT

from trainruns import load_position, solve

POSITIONS = sorted((ROOT / "fixtures" / "1831").glob("*.json")) + sorted((ROOT / "fixtures" / "1833NE").glob("*.json"))


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_stopped_search_bounds_the_optimum(path):
    best = solve(load_position(path))
    stopped = solve(load_position(path), time_limit=1e-9)
    # only the quick run (trainruns.route.greedy) is found in no time: proven only when it
    # reaches the bound
    assert stopped.optimal == (stopped.bound == stopped.revenue)
    assert stopped.bound >= best.revenue > 0


def test_1833ne_bound_counts_a12_and_interconnection():
    from _1833ne import fixture

    pos = fixture("boston_montreal", trains=["2"],
                  bonuses=[{"name": "Boston-Montreal", "between": ["G22", "B3"],
                            "amount": {"I": 150, "II": 150, "III": 200, "IV": 200}, "interconnection": True}])
    best = solve(load_position(pos))
    assert best.revenue == 200
    assert solve(load_position(pos), time_limit=1e-9).bound >= 200


def test_1831_rights_assignment_stopped_by_its_budget(monkeypatch):
    """The 1831 assignment that must cover bought track rights (5.6.5) honours a time
    limit through a node budget; stopped at once, the run is not claimed optimal and
    the bound still covers the optimum."""
    from trainruns.titles.g1831.route import model

    path = ROOT / "fixtures" / "1831" / "example.json"
    best = solve(load_position(path))
    monkeypatch.setattr(model, "_node_budget", lambda deadline: 0)
    stopped = solve(load_position(path), time_limit=60)
    assert not stopped.optimal
    assert stopped.bound >= best.revenue >= stopped.revenue

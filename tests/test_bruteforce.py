"""The solver against an independent brute force (tests/bruteforce.py) on hundreds of
seeded random boards: every answer must be the brute force's optimum, proven, and its
routes legal, disjoint and adding up (CONTRACT.md, plain rules)."""

import random

import pytest

from boards import random_position
from bruteforce import all_routes, best_run, train_value
from trainruns import solve


def check_run(pos, run):
    best, routes = best_run(pos)
    assert run.revenue == best
    assert run.optimal and run.bound == best
    by_track = {frozenset(r[1]): r for r in routes}
    used_paths, used_sides = set(), set()
    total = 0
    for route in run.routes:
        key = frozenset(route.track)
        assert key in by_track, f"route {route.stop_labels()} is not a legal route"
        stops, paths, sides, infos = by_track[key]
        assert route.stops in (stops, stops[::-1])
        assert train_value(route.train, infos) == route.revenue
        assert not (paths & used_paths) and not (sides & used_sides), "trains share track"
        used_paths |= paths
        used_sides |= sides
        total += route.revenue
    assert total == run.revenue
    assert sorted([r.train for r in run.routes] + run.idle) == sorted(pos["trains"])


@pytest.mark.parametrize("seed", range(300))
def test_plain_trains_match_brute_force(seed):
    pos = random_position(seed)
    check_run(pos, solve(pos))


@pytest.mark.parametrize("seed", range(1000, 1150))
def test_mixed_train_kinds_match_brute_force(seed):
    rng = random.Random(seed)
    trains = rng.sample(["2", "3", "4", "99", "3/5", "2+1", "4/6", "2+2", "3"], rng.randint(1, 3))
    pos = random_position(seed, trains=trains, size=(5, 4))
    check_run(pos, solve(pos))


def test_generator_covers_the_rules():
    """The random boards do exercise what they are meant to (else the comparison above
    proves little): blocked cities, off-boards, towns, shared sides, phase values."""
    seen = set()
    for seed in range(300):
        pos = random_position(seed)
        for h in pos["map"]["hexes"]:
            kinds = [s["kind"] for s in h["stops"]]
            seen.update(kinds)
            if kinds.count("city") == 2:
                seen.add("two cities")
            sides = [e for p in h["paths"] for e in p if isinstance(e, int)]
            if len(sides) != len(set(sides)):
                seen.add("shared side")
            if any(isinstance(s["value"], dict) for s in h["stops"]):
                seen.add("phase value")
        slots = {(h["id"], k): s.get("slots") for h in pos["map"]["hexes"] for k, s in enumerate(h["stops"])}
        for key, n in slots.items():
            corps = [t["corporation"] for t in pos["tokens"] if (t["hex"], t["stop"]) == key]
            if n and len(corps) >= n and "A" not in corps:
                seen.add("blocked")
        if len(all_routes(pos)) > 100:
            seen.add("many routes")
    assert {"city", "town", "offboard", "two cities", "shared side", "phase value", "blocked",
            "many routes"} <= seen

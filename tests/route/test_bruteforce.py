"""The solver against an independent brute force (tests/bruteforce.py) on hundreds of
seeded random boards: every answer must be the brute force's optimum, proven, and its
routes legal, disjoint and adding up (docs/custom-map.md, plain rules)."""

import random

import pytest
from boards import random_position
from bruteforce import all_routes, best_run, train_value

from trainruns import Bonus, load_position, solve


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


def with_junctions(pos, seed):
    """The board with junctions (docs/custom-map.md: "jK" path ends): some hexes of
    plain track become one junction every side runs to (a star), and some cities are
    reached through a junction their sides meet at first."""
    rng = random.Random(seed)
    for h in pos["map"]["hexes"]:
        sides = sorted({e for p in h["paths"] for e in p if isinstance(e, int)})
        if not h["stops"] and len(sides) >= 3 and rng.random() < 0.7:
            h["junctions"] = 1
            h["paths"] = [[e, "j0"] for e in sides]
        elif [s["kind"] for s in h["stops"]] == ["city"] and len(sides) >= 3 and rng.random() < 0.5:
            h["junctions"] = 1
            h["paths"] = [[e, "j0"] for e in sides[:-1]] + [["j0", "s0"], [sides[-1], "s0"]]
    return pos


@pytest.mark.parametrize("seed", range(2000, 2150))
def test_junctions_match_brute_force(seed):
    pos = with_junctions(random_position(seed, size=(4, 4), density=0.7), seed)
    check_run(pos, solve(pos))


def random_bonuses(pos, seed):
    """One to three bonuses on random stops of the board: a stop bonus (one group) or a
    connection bonus (two groups), some for one train name only."""
    rng = random.Random(seed)
    stops = [(h["id"], k) for h in pos["map"]["hexes"] for k in range(len(h["stops"]))]
    out = []
    for _ in range(rng.randint(1, 3)):
        groups = [frozenset(rng.sample(stops, min(len(stops), rng.randint(1, 2))))
                  for _ in range(rng.randint(1, 2))]
        trains = frozenset([rng.choice(pos["trains"])]) if rng.random() < 0.3 else frozenset()
        out.append((rng.choice([10, 20, 50]), groups, trains))
    return out


def bonus_case(seed):
    """A random board with random bonuses (board.Bonus) and the brute force's best
    total on it: ``(board, best)``."""
    rng = random.Random(seed)
    trains = rng.sample(["2", "3", "4", "3/5", "2+1", "2+2", "3"], rng.randint(1, 3))
    pos = random_position(seed, trains=trains, size=(4, 4))
    bonuses = random_bonuses(pos, seed)
    board = load_position(pos)
    board.bonuses = [Bonus(f"b{i}", amount, tuple(groups), trains) for i, (amount, groups, trains) in enumerate(bonuses)]
    best, _ = best_run(pos, bonuses=bonuses)
    return board, best


@pytest.mark.parametrize("seed", range(3000, 3150))
def test_bonuses_match_brute_force(seed):
    """Bonuses (board.Bonus: "extra revenue for a route that visits at least one stop
    of every group", for the trains named) on random boards, against the brute force
    adding each bonus a route reaches to its stops' value."""
    board, best = bonus_case(seed)
    run = solve(board)
    assert run.optimal and run.revenue == best
    # each route's revenue is its stops plus the bonuses it reaches
    assert sum(r.revenue for r in run.routes) == run.revenue


def test_bonus_boards_earn_bonuses():
    """The bonus boards above do earn bonuses (else they prove little)."""
    earned = 0
    for seed in range(3000, 3150):
        rng = random.Random(seed)
        trains = rng.sample(["2", "3", "4", "3/5", "2+1", "2+2", "3"], rng.randint(1, 3))
        pos = random_position(seed, trains=trains, size=(4, 4))
        with_bonus, _ = best_run(pos, bonuses=random_bonuses(pos, seed))
        earned += with_bonus > best_run(pos)[0]
    assert earned >= 50


def test_junction_boards_route_through_junctions():
    """The junction boards above do run through junctions (else they prove little)."""
    through = 0
    for seed in range(2000, 2150):
        routes = all_routes(with_junctions(random_position(seed, size=(4, 4), density=0.7), seed))
        through += any(p[0] == "junction" for r in routes for p in r[2] if isinstance(p, tuple))
    assert through >= 75


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

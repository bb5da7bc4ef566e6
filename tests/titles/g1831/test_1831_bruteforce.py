"""The 1831 route model against a plain-Python brute force (tests/boards1831.py) on
seeded random typed boards: Station and Rail Yard sites, other corporations' tokens,
track rights (5.5), a Delaware-style revisit (5.6.2.1), red extensions (5.2.3.10), the
strict option, phases 2-9, S / YD / MX trains (5.6.2-5.6.3)."""

import pytest
from boards1831 import brute_force, random_commuter_position, random_position

from trainruns import solve
from trainruns.errors import InputError

SEEDS = range(300)


@pytest.mark.parametrize("chunk", range(6))
def test_random_boards_match_brute_force(chunk):
    checked = 0
    for seed in SEEDS[chunk::6]:
        pos = random_position(seed)
        expected = brute_force(pos)
        if expected is None:
            with pytest.raises(InputError):
                solve(pos)
            continue
        run = solve(pos)
        assert run.optimal
        assert run.revenue == expected, (seed, run.revenue, expected)
        checked += 1
    assert checked > 30


@pytest.mark.parametrize("chunk", range(4))
def test_commuter_runs_match_brute_force(chunk):
    """5.6.7 commuter runs on random typed boards, against the brute force's own walk
    round the cycle (tests/boards1831.py ``commuter_runs``)."""
    checked = 0
    for seed in range(500, 700)[chunk::4]:
        pos = random_commuter_position(seed)
        expected = brute_force(pos)
        if expected is None:
            with pytest.raises(InputError):
                solve(pos)
            continue
        run = solve(pos)
        assert run.optimal
        assert run.revenue == expected, (seed, run.revenue, expected)
        checked += 1
    assert checked > 20


def test_commuter_boards_are_won_by_commuter_runs():
    """The boards above do exercise commuter runs: on many of them the best run is
    worth more than it would be without the commuter run on the map."""
    gained = 0
    for seed in range(500, 700):
        pos = random_commuter_position(seed)
        if "commuter_runs" not in pos["map"]:
            continue
        without = {**pos, "map": {k: v for k, v in pos["map"].items() if k != "commuter_runs"}}
        with_run, plain = brute_force(pos), brute_force(without)
        if with_run is not None and plain is not None and with_run > plain:
            gained += 1
    assert gained >= 10

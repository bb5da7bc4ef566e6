"""The 1831 route model against a plain-Python brute force (tests/boards1831.py) on
seeded random typed boards: Station and Rail Yard sites, other corporations' tokens,
track rights (5.5), a Delaware-style revisit (5.6.2.1), red extensions (5.2.3.10), the
strict option, phases 2-9, S / YD / MX trains (5.6.2-5.6.3)."""

import pytest

from boards1831 import brute_force, random_position
from trainruns.errors import InputError
from trainruns import solve

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

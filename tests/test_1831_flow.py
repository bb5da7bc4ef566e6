"""The 1831 flow model (titles/g1831/flow.py), which finds the run without listing
token-to-token paths, against the plain-Python brute force of tests/boards1831.py and
against the path-listing engine.

The flow model takes over from listing only on boards with more than ``PATH_LIMIT``
paths (or too long a commuter walk); here ``PATH_LIMIT`` is set to 0 so that it answers
every board. The random boards carry every rule the model states: typed sites and S /
YD / MX trains with given mixed counts (5.6.2.3), other corporations' tokens that block
(5.6.2), red extensions (5.2.3.10), the Delaware revisit in both readings (5.6.2.1),
``pass_own_tokens: false``, bought track rights (5.5, 5.6.5) and commuter runs (5.6.7).
"""

import pytest

from boards1831 import brute_force, random_commuter_position, random_position
from trainruns import solve
from trainruns.errors import InputError
from trainruns.generate import board_1831
from trainruns.titles.g1831 import model as model_1831


@pytest.fixture
def flow_only(monkeypatch):
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)


def _check(pos):
    expected = brute_force(pos)
    if expected is None:
        # 5.6.5: no run uses every bought right
        with pytest.raises(InputError):
            solve(pos)
        return False
    run = solve(pos)
    assert run.optimal
    assert run.revenue == expected
    return True


@pytest.mark.parametrize("chunk", range(4))
def test_5_6_flow_model_matches_brute_force(flow_only, chunk):
    checked = sum(_check(random_position(seed)) for seed in range(chunk, 160, 4))
    assert checked > 20


@pytest.mark.parametrize("chunk", range(2))
def test_5_6_7_flow_model_matches_brute_force_on_commuter_runs(flow_only, chunk):
    checked = sum(_check(random_commuter_position(seed)) for seed in range(chunk, 60, 2))
    assert checked > 20


def test_5_6_7_flow_model_runs_a_commuter_run(flow_only):
    # boards where the best run has a commuter run (a city run to twice): the model
    # must find them, not only plain paths
    repeated = 0
    for seed in range(60):
        pos = random_commuter_position(seed)
        if brute_force(pos) is None:
            continue
        run = solve(pos)
        repeated += any(len(set(r.stops)) < len(r.stops) for r in run.routes)
    assert repeated >= 2


def _legal(run, board):
    """Trains share no track (5.6.2) and each runs to 2..size tokens (5.6.2.3, 5.6.2.5)."""
    used = set()
    for r in run.routes:
        track = {tuple(p) for p in r.track}
        assert not track & used, "two trains share track"
        used |= track
        size = int("".join(ch for ch in r.train if ch.isdigit()))
        assert 2 <= sum(r.counted) <= size
        assert sum(v for parts in r.earned for _, v in parts) == r.revenue
    assert sum(r.revenue for r in run.routes) == run.revenue


@pytest.mark.parametrize("seed", [1, 2])
def test_flow_model_on_a_small_invented_map_agrees_with_listing(seed, monkeypatch):
    # a board_1831 map cut down to 20 hexes: listing proves it; the flow model, given a
    # time limit, never claims more than the optimum and its bound holds
    pos = board_1831(seed, n_hexes=20, own_tokens=8)
    listed = solve(pos)
    assert listed.optimal
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)
    flowed = solve(pos, time_limit=10)
    assert flowed.revenue <= listed.revenue <= flowed.bound
    if flowed.optimal:
        assert flowed.revenue == listed.revenue
    _legal(flowed, None)


def test_full_size_board_gets_a_legal_run_and_an_honest_bound():
    # 48 hexes, 11-13 tokens, both commuter runs, the Delaware: about 10^7 paths, too
    # many to list; the flow model answers within the time limit with a legal run
    pos = board_1831(1, n_hexes=48)
    run = solve(pos, time_limit=8)
    assert run.revenue > 0
    assert run.bound >= run.revenue
    _legal(run, None)

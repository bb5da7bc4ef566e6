"""The listed paths cut by the track prices before the core's search
(titles/g1831/route/priced_listing.py): a (route, kind) pair whose value less its
price is at or below its train's floor is in no run earning more than a run already
found (5.6.2: a run's routes share no track, so their prices add up to at most the
track's), the pairs the packing relaxation's reduced costs rule out likewise, and the
bound carried is the lower of the track prices' and the relaxation's. Checked against
the plain-Python brute force of tests/boards1831.py on seeded random typed boards and
boards with commuter runs (every rule of 5.6.2-5.6.7), the cut forced on every board
(``MIN_ROUTES`` 0, the first run from 3 nodes)."""

import pytest
from boards1831 import brute_force, random_position, with_best

from trainruns import solve
from trainruns.route import assignment, search
from trainruns.titles.g1831.route import priced_listing


def _watch(monkeypatch):
    """Every call of the cut noted, as (pairs handed in, pairs handed on, bound carried)."""
    handed = []
    cut = priced_listing.cut_by_prices

    def watched(model, found, flat, keep, deadline=None):
        out = cut(model, found, flat, keep, deadline)
        handed.append((int((flat >= 0).sum()), int((out.values >= 0).sum()), out.upper))
        return out

    monkeypatch.setattr(priced_listing, "cut_by_prices", watched)
    return handed


@pytest.mark.parametrize("chunk", range(2))
def test_5_6_the_cut_listing_keeps_the_brute_force_best(monkeypatch, chunk):
    monkeypatch.setattr(priced_listing, "MIN_ROUTES", 0)
    # (a first run from a few nodes: on boards this small a longer search proves it
    # best, and nothing is cut)
    monkeypatch.setattr(priced_listing, "FIRST_NODES", 3)
    handed = _watch(monkeypatch)
    checked = 0
    for pos, expected in with_best(range(chunk, 120, 2), range(500 + chunk, 560, 2)):
        run = solve(pos)
        assert run.revenue == expected, pos
        assert run.optimal and run.bound == expected, pos
        checked += 1
    # the cut ran on most boards, and dropped pairs on some: not a pass-through
    assert checked > 40 and len(handed) > checked // 2 and sum(after < before for before, after, _ in handed) >= 3


def test_5_6_the_track_prices_bound_a_listed_board_the_search_does_not_finish(monkeypatch):
    # a listed board whose search is stopped at once: its bound is the lower of the
    # track prices' and the packing relaxation's, never below the brute force's best
    # (before, the search's own bound: each train at its best route, sharing track)
    monkeypatch.setattr(priced_listing, "MIN_ROUTES", 0)
    stopped = assignment.assign_trains

    def one_node(routes, *args, **kwargs):
        kwargs["max_nodes"] = 1
        kwargs["budget"] = 1
        return stopped(routes, *args, **kwargs)

    monkeypatch.setattr(assignment, "assign_trains", one_node)
    monkeypatch.setattr(search, "assign_trains", one_node)
    seen = 0
    for seed in range(40):
        pos = random_position(seed)
        expected = brute_force(pos)
        if expected is None or expected == 0:
            continue
        run = solve(pos, engine="search")
        assert run.revenue <= expected <= run.bound, seed
        seen += 1
    assert seen > 10


def test_5_6_past_max_routes_the_listing_goes_uncut_with_the_track_prices_bound(monkeypatch):
    # more routes than MAX_ROUTES: none dropped (the cut set would be a copy), the
    # track prices' bound carried, never below the brute force's best
    monkeypatch.setattr(priced_listing, "MIN_ROUTES", 0)
    monkeypatch.setattr(priced_listing, "MAX_ROUTES", 0)
    handed = _watch(monkeypatch)
    bounded = 0
    for pos, expected in with_best(range(0, 40, 2)):
        handed.clear()
        run = solve(pos)
        assert run.revenue == expected and run.optimal, pos
        for before, after, upper in handed:
            assert before == after and (upper is None or upper >= expected), pos
            bounded += upper is not None
    assert bounded > 5


def test_no_packing_program_in_time_keeps_the_track_prices_bound(monkeypatch):
    # route/packing.py answers an infinite bound when its deadline came before a program
    # was solved: the set keeps the track prices' bound and drops nothing more
    from trainruns.route import packing

    monkeypatch.setattr(priced_listing, "MIN_ROUTES", 0)
    monkeypatch.setattr(priced_listing, "FIRST_NODES", 3)
    monkeypatch.setattr(packing, "_generate", lambda *args: None)
    for pos, expected in with_best(range(1, 40, 2)):
        run = solve(pos)
        assert run.revenue == expected and run.optimal, pos

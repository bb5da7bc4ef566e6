"""The packing relaxation's bound and its reduced-cost fixing (trainruns.route.packing)
against a brute force over every run of random candidate sets.

The rule it relaxes (1831 5.6.2, plain maps' "no track twice" alike): the trains of a run
share no track, and a train kind runs at most as many routes as the corporation has
trains of it. The bound must never fall below the best run (a false proof), and the
routes it keeps for a target must include every route of every run above that target
(a route dropped from one would hide the better run)."""

import itertools
import random

import numpy as np
import pytest

from trainruns.route.packing import MARGIN, packing_bound


def _instance(seed, n_routes=12, n_bits=70, n_kinds=2):
    rng = random.Random(seed)
    values = [rng.randrange(1, 30) * 10 for _ in range(n_routes)]
    kinds = [rng.randrange(n_kinds) for _ in range(n_routes)]
    caps = [rng.randint(1, 2) for _ in range(n_kinds)]
    bits = np.zeros((n_routes, 2), np.uint64)
    for r in range(n_routes):
        for b in rng.sample(range(n_bits), rng.randint(1, 8)):
            bits[r, b // 64] |= np.uint64(1 << (b % 64))
    return values, kinds, caps, bits


def _runs(values, kinds, caps, bits):
    """Every run (5.6.2): routes sharing no bit, at most ``caps[k]`` of kind ``k``, with
    its revenue."""
    n = len(values)
    for size in range(sum(caps) + 1):
        for run in itertools.combinations(range(n), size):
            if any(sum(kinds[r] == k for r in run) > cap for k, cap in enumerate(caps)):
                continue
            used = np.zeros(bits.shape[1], np.uint64)
            clash = False
            for r in run:
                if (used & bits[r]).any():
                    clash = True
                    break
                used |= bits[r]
            if not clash:
                yield run, sum(values[r] for r in run)


@pytest.mark.parametrize("seed", range(40))
def test_bound_and_fixing_against_brute_force(seed):
    values, kinds, caps, bits = _instance(seed)
    runs = list(_runs(values, kinds, caps, bits))
    best = max(revenue for _, revenue in runs)
    assert packing_bound(values, kinds, caps, bits).bound >= best - MARGIN
    for target in sorted({revenue for _, revenue in runs} | {best - 1}):
        packed = packing_bound(values, kinds, caps, bits, target=target)
        above = [run for run, revenue in runs if revenue > target]
        if packed.bound < target + 1 - MARGIN:
            assert not above
        for run in above:
            assert all(packed.keep[r] for r in run), (target, run)


def test_trains_seen_together():
    """Three routes pairwise sharing track, two trains: one price a bit with each train
    at its best route says 2 x 100 less the prices (at least 150); the packing's bound
    is its linear optimum, 150 (each route half run), and at a target of 150 it proves
    that no run earns more (the best earns 100)."""
    bits = np.zeros((3, 1), np.uint64)
    for r, bs in enumerate([(0, 1), (1, 2), (2, 0)]):
        for b in bs:
            bits[r, 0] |= np.uint64(1 << b)
    packed = packing_bound([100, 100, 100], [0, 0, 0], [2], bits, target=149)
    assert abs(packed.bound - 150) < 1e-6
    assert packing_bound([100, 100, 100], [0, 0, 0], [2], bits, target=150).bound < 151 - MARGIN


def test_fixing_drops_a_route_no_good_run_takes():
    """A cheap route on the very track of the best route: no run with it reaches the
    best's value, whatever the duals (here degenerate) are."""
    bits = np.array([[0b0011], [0b0011], [0b0100]], np.uint64)
    packed = packing_bound([100, 10, 50], [0, 0, 0], [2], bits, target=140)
    assert packed.keep.tolist() == [True, False, True]

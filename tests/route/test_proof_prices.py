"""The joint bound of track prices (trainruns.route.lagrange) and the routes listed by their
priced value (trainruns.route.kernels.prices, trainruns.route.proof), against the independent brute
force of tests/bruteforce.py and against the full route listing.

Plain rules (docs/custom-map.md): a train earns its counted stops plus its bonuses on a route
of at most ``visits`` stops; trains of a run share no track, and no route uses a piece
of track twice. Every price put on the track must leave a bound at or above the best
run (the Lagrangian relaxation of that rule), and the priced listing must give exactly
the routes whose gain less price passes the floor: one missing route would be a false
proof."""

import random

import numpy as np
import pytest
from boards import random_position
from bruteforce import best_run

from trainruns import load_position
from trainruns.route.compile import compile_board
from trainruns.route.enumeration import enumerate_all
from trainruns.route.lagrange import SCALE, Pricing, gains, lagrangian_bound, reduced_floors
from trainruns.route.limits import Limits
from trainruns.route.proof import _priced_listing, priced_routes
from trainruns.route.routeset import train_kinds
from trainruns.services.generate import hard_board


def _mixed(seed):
    rng = random.Random(seed)
    trains = rng.sample(["2", "3", "4", "99", "3/5", "2+1", "4/6", "2+2", "3"], rng.randint(1, 3))
    return random_position(seed, trains=trains, size=(4, 4))


def _random_prices(compiled, seed):
    """Prices on a random half of the bits, up to a few stops' worth (scaled)."""
    rng = np.random.default_rng(seed)
    price = rng.integers(0, 40 * SCALE, compiled.n_bits).astype(np.int64)
    price[rng.random(compiled.n_bits) < 0.5] = 0
    return price


def _route_key(stops, bits):
    """A route the same whichever end it is told from."""
    stops = tuple(int(s) for s in stops)
    return (min(stops, stops[::-1]), tuple(int(w) for w in bits))


def _gains_of(compiled, routes, pricing, kind):
    """Each listed route's gain (its stops' values, negatives as 0, at most the kind's
    ``counts`` best, plus every bonus; scaled) less nothing: what the priced listing
    bounds a route's value by."""
    stop_gain, _, extra = gains(compiled)
    out = []
    for r in range(len(routes)):
        ids = routes.stops[routes.ptr[r]:routes.ptr[r + 1]]
        out.append(min(int(stop_gain[ids].sum()) * SCALE, pricing.cap[kind.name]) + extra * SCALE)
    return np.array(out, np.int64)


def _price_of(bits, n_bits, price):
    unpacked = np.unpackbits(bits.view(np.uint8), axis=1, bitorder="little")[:, :n_bits]
    return unpacked.astype(np.int64) @ price


@pytest.mark.parametrize("seed", range(60))
def test_joint_bound_is_above_the_brute_force(seed):
    """Whatever the prices come to, the bound is never below the brute force's best run,
    and never above the bound at no prices (every train at its best line)."""
    pos = _mixed(seed) if seed % 2 else random_position(seed)
    board = load_position(pos)
    compiled = compile_board(board, Limits(), own_only=True)
    best, _ = best_run(pos)
    joint = lagrangian_bound(compiled, lower=0)
    if joint is None:
        assert best == 0
        return
    at_zero = lagrangian_bound(compiled, lower=0, iterations=1)
    assert best <= joint.value <= at_zero.value
    # the pieces add up: sum of prices plus each train's best priced line
    assert joint.total == int(joint.price.sum()) + sum(joint.best[t.name] for t in board.trains)


def _listed(pos):
    """``(board, compiled, every route, Pricing)`` of a position; compiled is None when
    the board has no track."""
    board = load_position(pos)
    compiled = compile_board(board, Limits(), own_only=True)
    if compiled.n_chains == 0:
        return board, None, None, None
    return board, compiled, enumerate_all(compiled), Pricing(compiled)


@pytest.mark.parametrize("seed", range(40))
def test_best_priced_line_is_above_every_route(seed):
    """At random prices, each kind's best priced line earns at least the gain less the
    price of every real route the full listing has (the relaxation may do better: two
    chains of one line may share track there, never on a route)."""
    board, compiled, routes, pricing = _listed(_mixed(seed))
    if compiled is None:
        return
    price = _random_prices(compiled, seed)
    cost, _ = pricing.arc_costs(price)
    priced = _price_of(routes.bits, compiled.n_bits, price)
    for kind in train_kinds(board):
        m, stops = pricing.best(kind, cost)
        runnable = routes.values[:, routes.kinds.index(kind.name)] >= 0
        if runnable.any():
            reduced = _gains_of(compiled, routes, pricing, kind) - priced
            assert m >= reduced[runnable].max()
        assert m >= 0 and (m == 0 or len(stops) >= 2)


@pytest.mark.parametrize("seed", range(50))
def test_priced_listing_is_exactly_the_routes_above_the_floor(seed):
    """The priced listing gives every route whose gain less its price is above the
    floor, once, and no other (the full listing, filtered, is the reference)."""
    board, compiled, routes, pricing = _listed(_mixed(seed) if seed % 2 else random_position(seed))
    if compiled is None:
        return
    price = _random_prices(compiled, seed + 1000)
    priced = _price_of(routes.bits, compiled.n_bits, price)
    rng = random.Random(seed)
    for kind in train_kinds(board):
        col = routes.values[:, routes.kinds.index(kind.name)]
        reduced = _gains_of(compiled, routes, pricing, kind) - priced
        floor = rng.choice([-1, 0, int(np.median(reduced)) if len(reduced) else 0])
        want = {_route_key(routes.stops[routes.ptr[r]:routes.ptr[r + 1]], routes.bits[r])
                for r in range(len(routes)) if col[r] >= 0 and reduced[r] > floor}
        part = _priced_listing(pricing, kind, price, floor, 1 << 26)
        ptr, stops, _, _, bits = part
        got = [_route_key(stops[ptr[r]:ptr[r + 1]], bits[r]) for r in range(len(ptr) - 1)]
        assert len(got) == len(set(got))  # once each
        assert set(got) == want


@pytest.mark.parametrize("n_hexes,seed", [(30, 0), (30, 2), (40, 1)])
def test_priced_routes_hold_the_best_run(n_hexes, seed):
    """On the hard family, against the full route search: at a target just below the
    optimum, the best run's routes are all listed for their trains at their values, and
    far fewer routes than the full listing; at the optimum itself the floors leave no
    run above it."""
    from trainruns import solve
    from trainruns.route.assignment import assign_trains

    board = load_position(hard_board(seed, n_hexes=n_hexes))
    exact = solve(board, engine="search")
    assert exact.optimal
    compiled = compile_board(board, Limits(), own_only=True)
    pricing = Pricing(compiled)
    joint = lagrangian_bound(compiled, lower=exact.revenue, pricing=pricing)
    assert joint.value >= exact.revenue
    floors = reduced_floors(joint, board.trains, exact.revenue - 1)
    assert all(f > 0 for f in floors.values())
    below = priced_routes(pricing, joint, exact.revenue - 1, 1 << 30)
    assert len(below) < exact.candidates
    found = assign_trains(below, lower=exact.revenue - 1)
    assert found.optimal and found.revenue == exact.revenue
    above = priced_routes(pricing, joint, exact.revenue, 1 << 30)
    none = assign_trains(above, lower=exact.revenue)
    assert none.optimal and none.revenue == exact.revenue and not none.routes

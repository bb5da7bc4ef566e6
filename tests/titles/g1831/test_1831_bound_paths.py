"""The track prices' bound refined with real paths (titles/g1831/route/bound.py
``best_path`` and ``refined``): a train's best priced route taken over token-to-token
paths that use no track bit twice (5.6.2) and enter no city twice but the Delaware
(5.6.2.1), not over lines whose walks may. ``best_path`` is compared with every listed
path valued by hand (its tokens' gains at most the kind's cap, less its chains' prices);
``refined`` with the plain-Python brute force of tests/boards1831.py (every rule of
5.6.2-5.6.7) and with the proven listing on the full-size generator cut down."""

import numpy as np
import pytest
from boards1831 import random_position, with_best

from trainruns import solve
from trainruns.route.compile import compile_board
from trainruns.route.routeset import train_kinds
from trainruns.services.generate import board_1831
from trainruns.titles.g1831.route import bound
from trainruns.titles.g1831.route.trains import parse_train_name
from trainruns.titles.load import load_position


def _priced(pos):
    board = load_position(pos)
    model = board.route_model
    compiled = compile_board(board)
    arrays = model._arrays(compiled)
    return board, model, arrays, bound.priced(arrays)


def _listed(model, arrays, pricing, price, board):
    """Per kind, over every listed path (kernels.token_paths, no cut): ``(paths,
    real, loose)``: each path's stops and chains, its value by the rules
    (kernels.best_counts: one token a city, 5.6.2.3, 5.2.3.10) less its chains'
    prices, and its tokens' gains summed (at most the kind's cap) less its prices;
    scaled as the prices are."""
    from trainruns.route.lagrange import SCALE

    names = [k.name for k in train_kinds(board)]
    valuer = model._valuer(arrays, [parse_train_name(n) for n in names], 1)
    chain_price, gains, _, caps, _, _ = bound.priced_cut(pricing, price, names, 0)
    ptr, stops, chains, _, values, _ = model._paths(arrays, valuer, None, None)
    paths = [(tuple(stops[ptr[i]:ptr[i + 1]]), tuple(chains[ptr[i]:ptr[i + 1] - 1])) for i in range(len(ptr) - 1)]
    paid = np.array([int(chain_price[list(c)].sum()) for _, c in paths], np.int64)
    out = {}
    for k, name in enumerate(names):
        real = values[:, k, :].max(axis=1) * SCALE - paid
        loose = np.array([min(int(caps[k]), int(gains[k][list(p)].sum())) for p, _ in paths], np.int64) - paid
        out[name] = (paths, real, loose)
    return out


@pytest.mark.parametrize("chunk", range(2))
def test_5_6_2_the_best_path_bounds_every_listed_path_and_is_one(chunk):
    # at the bound's prices and at random ones: never below the best real route's
    # value less its price (every path is walked unless the cut proves it worth less),
    # and it is the loose worth of a listed path, its chains (5.6.2: no bit twice)
    rng = np.random.default_rng(chunk)
    checked = exact = 0
    for pos in [random_position(s) for s in range(chunk, 80, 4)] + \
            [board_1831(s, n_hexes=16, own_tokens=5) for s in range(chunk, 4, 2)]:
        pos["track_rights"] = []
        board, model, arrays, out = _priced(pos)
        if out is None:
            continue
        b, pricing = out
        kinds = {k.name: k for k in pricing.kinds}
        for price in (b.price, rng.integers(0, 40 * 64, len(b.price))):
            listed = _listed(model, arrays, pricing, price, board)
            for name, kind in kinds.items():
                paths, real, loose = listed[name]
                got = bound.best_path(pricing, price, kind, steps=1 << 40)
                assert got is not None and got[0] >= max(0, real.max(initial=0)), (name, got)
                assert got[0] <= max(0, loose.max(initial=0))
                if got[0] > 0:
                    # (listed from either end: a chain and its reverse share an undirected id)
                    und = arrays.chain_und
                    hits = [i for i, (_, c) in enumerate(paths) if set(und[list(c)]) == set(und[got[1]])]
                    assert hits and loose[hits[0]] == got[0]
                exact += got[0] == max(0, real.max(initial=0))
                checked += 1
    # (and on most it is the best real route's worth itself)
    assert checked > 40 and exact > checked // 2


@pytest.mark.parametrize("chunk", range(2))
def test_5_6_the_refined_bound_is_never_below_the_brute_force_best(chunk):
    checked = lower = 0
    for pos, expected in with_best(range(chunk, 160, 2), range(500 + chunk, 600, 2)):
        _, _, _, out = _priced(pos)
        if out is None:
            continue  # no track
        b, pricing = out
        r = bound.refined(pricing, b)
        assert expected <= r.value <= b.value, pos
        # its own prices and best routes give the bound it says (the priced proof's floors)
        assert r.value == r.total // 64 and r.total == int(r.price.sum()) + sum(
            r.best[t.name] for t in pricing.compiled.board.trains)
        checked += 1
        lower += r.value < b.value
    assert checked > 60 and lower >= 1


@pytest.mark.parametrize("seed", range(3))
def test_5_6_the_refined_bound_holds_on_cut_down_full_size_maps(seed):
    pos = board_1831(seed, n_hexes=16 + seed, own_tokens=6 + seed % 3)
    run = solve(pos)
    assert run.optimal
    _, _, _, (b, pricing) = _priced(pos)
    assert run.revenue <= bound.refined(pricing, b).value <= b.value

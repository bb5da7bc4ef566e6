"""The listed paths of an 1831 board cut down by the track prices before the core's
search assigns them: every route of a run that earns more than a run already found,
and that run's own, no other.

The track prices of bound.py bound every run (5.6.2: the routes of a run share no
track, so their prices add up to at most the prices of all the track):
``revenue <= sum_t (v_t - p(r_t)) + sum_b p_b``, each train's term at most its kind's
best priced route ``M``. A run earning more than ``L`` therefore gives each of its
trains a route with ``v - p(r)`` above that train's floor (``lagrange.reduced_floors``:
the other trains at their ``M``), so a (route, kind) pair below it is in no such run
and is dropped (its value for that kind set to -1, "may not run it"). The run that
earns ``L`` (the core's branch and bound stopped after a few thousand nodes) keeps its
pairs, so the best run of what is left is the best run of the board: complete, as the
full listing is, and bounded by the track prices (``RouteSet.upper``), which the
core's search reports when it stops early and stops at when its run reaches it.

The listing of a full-size board with 60% of its hex sides laid (255,373 paths) left
the core's search unfinished at 30 s with a bound of 2,180 (each train at its best
route, sharing track), where the track prices bound it at 1,534 (benchmarks/README.md,
"1831 family: the bound of the listed boards").
"""

from __future__ import annotations

import time

import numpy as np

# Paths listed at least for the prices to be worked out (fewer: the core's search ends
# at once, and the track prices would cost more than it does: 0.1-0.9 s of CPU)
MIN_ROUTES = 10_000
# ... and cut at most (the cut set is a copy: a million routes of a full-size map, about
# 300 MB beside the listing's own arrays, which the memory budget already holds)
MAX_ROUTES = 1_000_000
# The share of the time left the track prices may take (BOUND_SECONDS at most)
PRICES_SHARE = 0.25
# ... and the linear relaxation of packing the routes left (route/packing.py)
PACKING_SHARE = 0.25
# Nodes of the core's branch and bound that find the run to cut against
FIRST_NODES = 2000


def cut_by_prices(model, found, flat, keep, deadline=None):
    """The route set of ``found``'s routes ``keep`` (valued ``flat``, one row each, a
    column per kind) for the core's search, cut as the module docstring says and
    carrying the track prices' bound; the uncut set where there are fewer than
    ``MIN_ROUTES`` routes or no prices in time, and with their bound alone where there
    are more than ``MAX_ROUTES`` or the first run is already proven best."""
    from trainruns.route.assignment import assign_trains
    from trainruns.route.lagrange import SCALE, reduced_floors
    from trainruns.route.packing import MARGIN as PACKING_MARGIN
    from trainruns.route.packing import packing_bound

    whole = model._subset(found, flat, keep)
    if len(keep) < MIN_ROUTES or not found.complete:
        return whole
    arrays = found.arrays
    until = None if deadline is None else time.perf_counter() + PRICES_SHARE * max(0.0, deadline - time.perf_counter())
    out = model._priced(arrays.compiled, arrays, until)
    if out is None:
        return whole
    bound, pricing = out
    whole.upper = int(bound.value)
    if len(keep) > MAX_ROUTES:
        return whole
    first = assign_trains(whole, max_nodes=FIRST_NODES, budget=FIRST_NODES)
    if first.optimal or not first.picks:
        return whole
    trains = list(model.board.trains)
    floors = reduced_floors(bound, trains, first.revenue)
    # each route's price: its chains' (a route takes no track twice, 5.6.2)
    chain_price = pricing.chain_prices(bound.price)
    ptr, chains = found.ptr, found.chains
    lens = ptr[keep + 1] - ptr[keep]
    starts = np.zeros(len(keep), np.int64)
    np.cumsum(lens[:-1], out=starts[1:])
    idx = np.repeat(ptr[keep] - starts, lens) + np.arange(int(lens.sum()), dtype=np.int64)
    ch = chains[idx]
    paid = np.where(ch >= 0, chain_price[np.maximum(ch, 0)], 0)
    price = np.add.reduceat(paid, starts) if len(keep) else np.zeros(0, np.int64)
    values = flat.copy()
    for k, name in enumerate(found.kind_names):
        values[(flat[:, k] < 0) | (flat[:, k] * SCALE - price <= floors[name]), k] = -1
    # the trains together (route/packing.py): the linear relaxation of packing the pairs
    # left bounds every run above the first, and its reduced costs drop more of them
    upper = whole.upper
    pair_route, pair_kind = np.nonzero(values >= 0)
    caps = [sum(t.name == name for t in trains) for name in found.kind_names]
    until = None if deadline is None else time.perf_counter() + PACKING_SHARE * max(0.0, deadline - time.perf_counter())
    packed = packing_bound(values[pair_route, pair_kind], pair_kind, caps, whole.bits[pair_route], first.revenue,
                           until)
    if np.isfinite(packed.bound):
        # (a run above the first earns at most the relaxation's bound, one not above it
        # at most the first's revenue; infinite: no program solved in time)
        upper = min(upper, max(first.revenue, int(np.floor(packed.bound + PACKING_MARGIN))))
    values[pair_route[~packed.keep], pair_kind[~packed.keep]] = -1
    for k, r in first.picks:
        values[r, k] = flat[r, k]
    rows = np.flatnonzero((values >= 0).any(axis=1))
    cut = model._subset(found, values[rows], keep[rows])
    cut.upper = upper
    return cut

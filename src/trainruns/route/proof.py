"""Proving a run best on boards with more routes than memory holds.

Any run earning more than a known revenue ``lower`` gives each running train a route
on which it earns more than ``lower`` less the most the other trains could earn. With
``B_k`` an upper bound on what a train of kind ``k`` earns on any one route, a train of
kind ``k`` in such a run earns more than

    floor_k = lower - (sum of B over the other trains)

so only routes earning more than ``min floor_k`` can take part. Those are listed by
:func:`trainruns.route.kernels.routes.enumerate_valued_routes`, which does not even walk a
line of track that cannot grow into one (its stops' values plus the best values left
for the stops it may still add are not enough), and the branch and bound then looks
for runs above ``lower`` among them, each kind keeping only its routes above its own
floor. That is exact: it finds the best run when it earns more than ``lower``, and
when it finds none, nothing earns more than ``lower``.

``B_k`` is the best *gain* of a route the kind may run (its stops' values, negatives
as 0, plus every bonus: never less than what a train earns on it), found by the same
kernel with a floor that rises to each route it lists, so it lists few; and never more
than the kind's ``counts`` best stops plus every bonus (:func:`trainruns.route.value.stop_value_bound`).
The sum of the ``B`` of the trains is itself an upper bound on the run, usually far
below the stop-value bound.

The same argument with prices on the track (:mod:`trainruns.route.lagrange`) is far
stronger, and is what :func:`prove` uses whenever the board has track: with ``p`` the
prices, ``M_t`` the most train ``t`` makes on a route less its price and ``L`` the
joint bound, a train's route in a run above ``lower`` has its value less its price
above ``lower - (L - M_t)`` (:func:`trainruns.route.lagrange.reduced_floors`). Those routes
are listed by :func:`trainruns.route.kernels.prices.list_priced_routes` (a line is cut where
its stops' gains less its track's price, plus the best the stops after it could add at
these prices, cannot get above the floor) and the branch and bound searches them.
Where the best routes fight over track that leaves a few thousand routes where the
bound of the kinds' bests leaves millions (hard-60hex-s2: 88,000 against more than 6
million).

A weak ``lower`` lets many routes through. :func:`prove` therefore first asks for runs
above a *target* between ``lower`` and the bound: a run found there is the best (the
same argument, with the target in place of ``lower``); with none, the best earns at most
the target, which becomes the bound, and the target steps down towards ``lower``. A run
found above the target by a first look at the routes raises the target to it, and the
routes are listed again above it, fewer, for the rest of the search.
"""

from __future__ import annotations

import time

import numpy as np

from trainruns.route.compile import CompiledBoard
from trainruns.route.enumeration import join_parts
from trainruns.route.lagrange import SCALE, Bound, Pricing, gains, lagrangian_bound, reduced_floors
from trainruns.route.limits import Limits, on_thread
from trainruns.route.result import Run
from trainruns.route.routeset import RouteSet, train_kinds
from trainruns.route.trains import UNLIMITED

# where between the known revenue and the bound the next target is (module docstring):
# high first, since the routes above a high target are few and listed fast (hard-60hex-s2
# under load: the first target halfway down was not listed in 45 s)
TARGET_SHARE = 0.7


def kind_bounds(compiled: CompiledBoard, known: dict | None = None, deadline=None) -> dict | None:
    """``{train name: B}``: the most a train of that kind can earn on one route (module
    docstring), by listing routes with a rising floor. ``known``: ``{train name:
    revenue}`` a train of that kind earns on some route: the floor starts just below
    it (a route's gain is never below what it earns), so few routes are listed. None
    when ``deadline`` (a ``time.perf_counter`` time) comes first."""
    from trainruns.route.kernels.routes import enumerate_valued_routes, no_rest

    stop_gain, top_gain, extra = gains(compiled)
    roots = np.flatnonzero(compiled.stop_own).astype(np.int64)
    n_stops = compiled.n_stops
    # the kind's ``counts`` best stops that a route may reach (as stop_value_bound)
    reach = stop_gain if compiled.stop_reach is None else stop_gain[compiled.stop_reach]
    reach_top = np.concatenate([[0], np.cumsum(np.sort(reach)[::-1])])
    out = {}
    for t in train_kinds(compiled.board):
        visits = min(t.visits, n_stops, UNLIMITED)
        cap = int(reach_top[min(t.counts, len(reach_top) - 1)]) + extra
        if visits < 2 or not len(roots):
            out[t.name] = 0
            continue
        floor = np.array([(known or {}).get(t.name, 0) - 1, 1], dtype=np.int64)
        # one route's room in the buffers: only the floor is wanted
        ptr = np.zeros(2, np.int64)
        z = np.zeros(0, np.int64)
        stop = np.zeros(1, np.int64)
        on_thread(enumerate_valued_routes, (
            roots, compiled.adj_ptr, compiled.chain_to,
            compiled.chain_bits, compiled.stop_passable, compiled.stop_own,
            compiled.stop_town, visits, min(t.nontowns, n_stops),
            ptr, z, z.copy(), z.copy(), np.zeros((0, compiled.words), np.uint64),
            1 << 62, stop, stop_gain, top_gain, extra, floor,
            *no_rest(compiled.n_chains, compiled.words)), stop, deadline, "the listing kernel")
        if stop[0] != 0:
            return None  # stopped: the floor is only a route found, not the best
        out[t.name] = max(0, min(int(floor[0]), cap))
    return out


def run_bound(compiled: CompiledBoard, bounds: dict) -> int:
    """Every train at its kind's ``B``: an upper bound on the run (at most one train per
    track bit runs)."""
    each = sorted((bounds[t.name] for t in compiled.board.trains), reverse=True)
    return sum(each[: max(compiled.n_bits, 1)])


def floors(compiled: CompiledBoard, bounds: dict, lower: int) -> dict:
    """``{train name: floor_k}`` for runs above ``lower`` (module docstring)."""
    total = run_bound(compiled, bounds)
    return {name: lower - (total - b) for name, b in bounds.items()}


def _chain_bit_lists(compiled: CompiledBoard):
    """Each chain's track bits as a CSR list (``ptr``, ``idx``)."""
    unpacked = np.unpackbits(compiled.chain_bits.view(np.uint8), axis=1, bitorder="little")
    rows, bits = np.nonzero(unpacked)
    ptr = np.zeros(compiled.n_chains + 1, dtype=np.int64)
    np.add.at(ptr, rows + 1, 1)
    return np.cumsum(ptr), bits.astype(np.int64)


def _listing(compiled, kind, floor, budget, deadline=None, lower=None, rest=None, chain_bits=None):
    """The routes a train of ``kind`` may run whose gain is above ``floor`` (and, with
    ``rest``, that may be part of a run above ``lower``) as the arrays of a route set,
    or None when more than ``budget`` bytes would hold them or ``deadline`` came first."""
    from trainruns.route.kernels.routes import enumerate_valued_routes, no_rest

    n_stops = compiled.n_stops
    visits = min(kind.visits, n_stops, UNLIMITED)
    roots = np.flatnonzero(compiled.stop_own).astype(np.int64)
    words = compiled.words
    per_route = 8 * (3 + 2 * visits) + 8 * words
    # (half the budget: the routes kept are copied out of the buffers)
    cap = max(1, int(budget // 2 // per_route))
    stop_gain, top_gain, extra = gains(compiled)
    ptr = np.zeros(cap + 1, np.int64)
    stops = np.empty(cap * visits, np.int64)
    chains = np.empty(cap * visits, np.int64)
    split = np.empty(cap, np.int64)
    bits = np.empty((cap, words), np.uint64)
    if rest is None:
        rest_args = no_rest(compiled.n_chains, words)
    else:
        rest_args = (*rest, lower, *chain_bits, 16, np.zeros(2, np.int64))
    stop = np.zeros(1, np.int64)
    if visits >= 2 and len(roots):
        n = on_thread(enumerate_valued_routes, (
            roots, compiled.adj_ptr, compiled.chain_to,
            compiled.chain_bits, compiled.stop_passable, compiled.stop_own,
            compiled.stop_town, visits, min(kind.nontowns, n_stops),
            ptr, stops, chains, split, bits, cap, stop,
            stop_gain, top_gain, extra, np.array([floor, 0], np.int64), *rest_args), stop, deadline, "the listing kernel")
    else:
        n = 0
    if n > cap or stop[0] != 0:
        return None
    end = ptr[n]
    return ptr[:n + 1].copy(), stops[:end].copy(), chains[:end].copy(), split[:n].copy(), bits[:n].copy()


def routes_above(compiled: CompiledBoard, lower: int, bounds: dict, budget: int, deadline=None):
    """The route set of every route that may be part of a run earning more than
    ``lower`` (module docstring), each valued only for the kind it was listed for, or
    None when it does not fit in ``budget`` bytes or is not done by ``deadline``.

    The first train of the branch and bound's order (the longest: it has by far the
    most routes) is the *lead*: the other kinds are listed first, above their floors,
    and the lead's routes are then listed with the conditional bound of those others
    around each line's track."""
    from trainruns.route.enumeration import _value
    from trainruns.route.kernels.assign import block_masks

    board = compiled.board
    kinds = train_kinds(board)
    names = [k.name for k in kinds]
    floor = floors(compiled, bounds, lower)
    order = sorted(board.trains, key=lambda t: (-t.visits, -t.counts, t.name))
    lead, rest = order[0], order[1:]
    rest_kinds = [k for k in kinds if any(t.name == k.name for t in rest)]
    parts, part_kind, left = [], [], budget
    for k in rest_kinds:
        part = _listing(compiled, k, floor[k.name], left, deadline)
        if part is None:
            return None
        parts.append(part)
        part_kind.append(k.name)
        left -= sum(a.nbytes for a in part)
    words = compiled.words
    ptr, stops, chains, split, bits = join_parts(parts, words)
    values = _value(compiled, ptr, stops, kinds) if len(ptr) > 1 else np.zeros((0, len(kinds)), np.int64)
    rows = np.concatenate([np.full(len(p[0]) - 1, names.index(n), np.int64) for p, n in zip(parts, part_kind)]) \
        if parts else np.zeros(0, np.int64)
    _keep_own_kind(values, rows, floor, names)
    # the rest's candidates, in the branch and bound's train order
    start, end, twin, cand = [], [], [], []
    offset, seg = 0, {}
    for t in rest:
        if t.name not in seg:
            v = values[:, names.index(t.name)]
            idx = np.flatnonzero(v > 0)
            idx = idx[np.argsort(-v[idx], kind="stable")]
            seg[t.name] = (offset, offset + len(idx))
            cand.append(idx)
            offset += len(idx)
    cand_route = np.concatenate(cand) if cand else np.zeros(0, np.int64)
    cand_value = np.concatenate([values[c, names.index(t)] for c, t in zip(cand, seg)]) if cand \
        else np.zeros(0, np.int64)
    for i, t in enumerate(rest):
        start.append(seg[t.name][0])
        end.append(seg[t.name][1])
        twin.append(i > 0 and rest[i - 1].name == t.name)
    masks, built = block_masks(cand_route, bits)
    rest_args = (np.array(start, np.int64), np.array(end, np.int64), np.array(twin, np.bool_),
                 cand_route, cand_value.astype(np.int64), bits, masks, built)
    lead_kind = next(k for k in kinds if k.name == lead.name)
    part = _listing(compiled, lead_kind, floor[lead.name], left - masks.nbytes, deadline, lower=lower,
                    rest=rest_args if rest else None, chain_bits=_chain_bit_lists(compiled))
    if part is None:
        return None
    del masks, built
    lead_values = _value(compiled, part[0], part[1], kinds)
    lead_rows = np.full(len(part[0]) - 1, names.index(lead.name), np.int64)
    _keep_own_kind(lead_values, lead_rows, floor, names)
    ptr, stops, chains, split, bits = join_parts([(ptr, stops, chains, split, bits), part], words)
    return RouteSet(compiled, ptr, stops, chains, split, bits, names,
                    np.concatenate([values, lead_values]), True)


def _priced_listing(pricing: Pricing, kind, price, floor: int, budget: int, deadline=None):
    """The routes a train of ``kind`` may run whose gain less price (scaled) is above
    ``floor``, as route-set arrays ``(ptr, stops, chains, split, bits)``; None when more
    than ``budget`` bytes would hold them or ``deadline`` came first."""
    from trainruns.route.kernels.prices import list_priced_routes, walk_bounds

    c = pricing.compiled
    visits = min(kind.visits, c.n_stops, UNLIMITED)
    words = c.words
    empty = (np.zeros(1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
             np.zeros((0, words), np.uint64))
    if visits < 2:
        return empty
    cost, _ = pricing.arc_costs(price)
    chain_price = pricing.chain_prices(price)
    h = walk_bounds(pricing.nbr_ptr, pricing.nbr, cost, pricing.stop_gain, c.stop_passable, visits)
    per_route = 8 * (1 + 2 * visits) + 8 * words
    cap = max(1, int(budget // 2 // per_route))
    ptr = np.zeros(cap + 1, np.int64)
    stops = np.empty(cap * visits, np.int64)
    chains = np.empty(cap * visits, np.int64)
    bits = np.empty((cap, words), np.uint64)
    stop = np.zeros(1, np.int64)
    n = on_thread(list_priced_routes, (
        c.adj_ptr, c.chain_to, c.chain_bits, chain_price, pricing.chain_arc, h, pricing.stop_gain, c.stop_town,
        c.stop_passable, c.stop_own, visits, min(kind.nontowns, c.n_stops), pricing.cap[kind.name],
        pricing.extra, floor, ptr, stops, chains, bits, cap, stop), stop, deadline, "the listing kernel")
    if n > cap or stop[0] != 0:
        return None
    end = ptr[n]
    return ptr[:n + 1].copy(), stops[:end].copy(), chains[:end].copy(), np.zeros(n, np.int64), bits[:n].copy()


def priced_routes(pricing: Pricing, bound: Bound, target: int, budget: int, deadline=None):
    """The route set of every route that may be part of a run earning more than
    ``target`` by the prices of ``bound`` (:func:`reduced_floors`), each valued only for
    the kind it was listed for, and only where its value less its price passes that
    kind's floor; None when they do not fit in ``budget`` bytes or ``deadline`` comes
    first."""
    from trainruns.route.enumeration import _value

    c = pricing.compiled
    board = c.board
    kinds = pricing.kinds
    names = [k.name for k in kinds]
    floor = reduced_floors(bound, board.trains, target)
    parts, left = [], budget
    for k in kinds:
        part = _priced_listing(pricing, k, bound.price, floor[k.name], left, deadline)
        if part is None:
            return None
        parts.append(part)
        left -= sum(a.nbytes for a in part)
    ptr, stops, chains, split, bits = join_parts(parts, c.words)
    values = _value(c, ptr, stops, kinds) if len(ptr) > 1 else np.zeros((0, len(kinds)), np.int64)
    rows = np.concatenate([np.full(len(p[0]) - 1, i, np.int64) for i, p in enumerate(parts)])
    # each route's price: its bits (one route never uses a bit twice) at the prices
    price = np.zeros(len(rows), np.int64)
    for a in range(0, len(rows), 8192):
        unpacked = np.unpackbits(bits[a:a + 8192].view(np.uint8), axis=1, bitorder="little")
        price[a:a + 8192] = unpacked[:, :pricing.n_bits] @ bound.price
    for i, name in enumerate(names):
        col = values[:, i]
        col[(rows != i) | (col * SCALE - price <= floor[name])] = 0
    return RouteSet(c, ptr, stops, chains, split, bits, names, values, True)


def _keep_own_kind(values, rows, floor, names):
    """Each route earns only for the kind it was listed for, and only above that kind's
    floor (a route listed for two kinds is two rows: one candidate each)."""
    for k, name in enumerate(names):
        col = values[:, k]
        col[(rows != k) | (col <= floor[name])] = 0


# how much further below the bound each target is than the last, when the routes are
# listed by their prices (hard-80hex-s2: halfway between the 10 of the first step and
# a doubling, the second target is 942, not 932, and lists a quarter of the routes)
PRICED_GROWTH = 1.5
# the first step below the bound, as a share of it: small, since the routes above a
# target close to the best run are few and ruled out fast (hard-80hex-s2, best 950 under
# a bound of 962: targets 959, 955, 949 list 1,209, 6,919 and 31,870 routes and prove it
# in 6 s; a first step of a hundredth went to 953, then 940, 160,495 routes, 24 s)
PRICED_FIRST_STEP = 0.004
# branch-and-bound nodes of a first look over the routes of a target: a run found above
# it lets the routes be listed again above that run, far fewer
RELIST_NODES = 1 << 16
# branch-and-bound nodes, at most, of the search ruling out runs above a target on the
# way down (prices only): a target just above the best run takes as long to rule out as
# the best run takes to prove (hard-80hex-s0: 7 million nodes at 1,011 and at 1,010),
# and a lower target finds the run, whose proof then rules out everything above it
# (once per proof; smaller caps pass over targets that a little more search rules out)
DESCENT_NODES = 1 << 20
# seconds the proof gets after a cut route set when the solve has no time limit
PROOF_SECONDS = 60.0


def prove(compiled: CompiledBoard, run: Run, limits: Limits, deadline=None, progress=None) -> Run:
    """``run`` (the best found over a cut route set) with the joint bound of
    :mod:`trainruns.route.lagrange` (or the bound of the kinds' best routes), and proven best, or bettered, by the branch and bound over the routes that
    may beat it, when those fit in the memory budget and the search ends by ``deadline``.
    Returns the better run with the lowest bound known."""
    from trainruns.route.assignment import assign_trains

    board = compiled.board
    if board.route_model is not None or not compiled.complete or run.optimal:
        return run
    # the joint bound of track prices (trainruns.route.lagrange): far below the kinds' bests
    # where the best routes fight over track, and its prices pick the routes to list;
    # the kinds' bests (and the lists above their floors) only when it has no answer
    pricing = Pricing(compiled)
    # (a third of the time at most: the listing and the search need the rest)
    joint = lagrangian_bound(compiled, lower=run.revenue, pricing=pricing,
                             deadline=None if deadline is None else
                             time.perf_counter() + (deadline - time.perf_counter()) / 3)
    bounds = None
    if joint is not None:
        run = tighten(run, joint.value)
    else:
        known = {}
        for r in run.routes:
            known[r.train] = max(known.get(r.train, 0), r.revenue)
        bounds = kind_bounds(compiled, known, deadline)
        if bounds is None:
            return run
        run = tighten(run, run_bound(compiled, bounds))
    if progress:
        progress.update("proof", best=run.revenue, bound=run.bound)
    # targets from high to low: above a high target few routes are left, and a search
    # that finds nothing there lowers the bound to the target
    # (with prices, the routes listed grow fast as the target drops: the targets step
    # down from the bound, by PRICED_FIRST_STEP of it, then PRICED_GROWTH times as far each time)
    step = max(1, int(run.bound * PRICED_FIRST_STEP))
    target = max(run.revenue, run.bound - step) if joint is not None else _next_target(run.revenue, run.bound)
    relisted = skipped = False
    while not run.optimal and (deadline is None or time.perf_counter() < deadline):
        if joint is not None:
            routes = priced_routes(pricing, joint, target, limits.array_budget(), deadline)
        else:
            routes = routes_above(compiled, target, bounds, limits.array_budget(), deadline)
        if routes is None:
            # too many routes above the target for the memory budget: a higher one
            higher = target + (run.bound - target) // 2
            if (deadline is not None and time.perf_counter() >= deadline) or higher >= run.bound - 10:
                return run
            target = higher
            continue
        # a first look, cut at RELIST_NODES: a run above the target found then is kept
        # and the routes listed again above it, fewer, before the search goes on
        # (the routes searched: the candidates a run reports, when more than it had)
        listed = max(run.candidates, len(routes))
        if joint is None or relisted:
            found = search_whole(routes, target, deadline, progress, limits)
        else:
            found = assign_trains(routes, deadline=deadline, progress=progress, limits=limits, lower=target,
                                  max_nodes=RELIST_NODES)
        if found.revenue > target and not found.optimal and not relisted and \
                (deadline is None or time.perf_counter() < deadline):
            found.candidates = listed
            run, target, relisted = tighten(found, run.bound), found.revenue, True
            continue
        if not found.optimal and found.revenue <= target and not relisted and \
                (deadline is None or time.perf_counter() < deadline):
            # nothing yet: the whole search over these routes; with prices, at most
            # DESCENT_NODES while the target is above the run known (a lower target lists
            # the runs above this one too, and a run found there ends the descent)
            relisted = True
            # (once per proof: passing over targets unproven, the routes listed grow
            # fast and the bound stays; hard-80hex-s2 with a cap of 65,536 nodes passed
            # 949, 940, ... and ended unproven at the memory budget)
            capped = joint is not None and target > run.revenue and not skipped
            if capped:
                found = assign_trains(routes, deadline=deadline, progress=progress, limits=limits, lower=target,
                                      max_nodes=DESCENT_NODES)
            else:
                found = search_whole(routes, target, deadline, progress, limits)
            if capped and not found.optimal and (deadline is None or time.perf_counter() < deadline):
                del routes
                if found.revenue > target:
                    # a run above the target: the routes above it listed again, searched whole
                    found.candidates = listed
                    run, target = tighten(found, run.bound), found.revenue
                    continue
                # too long to rule out: the bound stays, the target goes down
                relisted, skipped = False, True
                step = max(step + 1, int(step * PRICED_GROWTH))
                target = max(run.revenue, target - step)
                continue
        del routes
        relisted = False
        if found.revenue > target:
            # a run above the target: every route of a run above it was listed, so the
            # best of them is the best run when the search finished
            found.candidates = listed
            return tighten(found, run.bound)
        if not found.optimal:
            # stopped: nothing above the target was found, the open nodes bound the rest
            return tighten(run, max(target, found.bound))
        run = tighten(run, target)
        if progress:
            progress.update("proof", best=run.revenue, bound=run.bound)
        if joint is not None:
            step = max(step + 1, int(step * PRICED_GROWTH))
            target = max(run.revenue, min(run.bound, target) - step)
        else:
            target = _next_target(run.revenue, run.bound)
    return run


# candidates at least, for a whole search to be shared between two threads (search_whole)
SHARED_CANDIDATES = 20_000


def search_whole(routes: RouteSet, lower: int, deadline=None, progress=None, limits: Limits | None = None) -> Run:
    """``assign_trains(routes, lower=lower)`` to the end (or ``deadline``), on two
    threads when the machine has two cores and the list is long: the lead train's
    routes (the first of the branch and bound's order; alone of its name) dealt out by
    rank, every other one to each half, each half searched with every route of the
    other trains. Every run gives the lead train one route, of one half, or none: each
    half holds the runs whose lead route is its own, and both those where the lead
    idles, so the better half's run is the best above ``lower`` when both finish, and
    the higher of their bounds bounds every run when either stops.

    The halves' kernels release the GIL (numba ``nogil``): one proof uses both cores,
    as the route listing does (:data:`trainruns.route.enumeration.WORKERS`)."""
    import threading

    from trainruns.route.assignment import assign_trains
    from trainruns.route.enumeration import WORKERS

    board = routes.compiled.board
    order = sorted(board.trains, key=lambda t: (-t.visits, -t.counts, t.name))
    lead = order[0] if order else None
    col = routes.kinds.index(lead.name) if lead is not None else 0
    v = routes.values[:, col] if len(routes) else np.zeros(0, np.int64)
    idx = np.flatnonzero(v > 0)
    if WORKERS < 2 or lead is None or sum(t.name == lead.name for t in board.trains) > 1 or \
            np.count_nonzero(routes.values > 0) < SHARED_CANDIDATES:
        return assign_trains(routes, deadline=deadline, progress=progress, limits=limits, lower=lower)
    idx = idx[np.argsort(-v[idx], kind="stable")]
    halves = []
    for part in (idx[1::2], idx[0::2]):
        values = routes.values.copy()
        values[part, col] = 0  # the other half's lead routes
        halves.append(RouteSet(routes.compiled, routes.ptr, routes.stops, routes.chains, routes.split,
                               routes.bits, routes.kinds, values, routes.complete))
    out = [None, None]
    errors = []

    def work(k):
        try:
            # (one half reports progress and offers its runs: the other's are offered below)
            out[k] = assign_trains(halves[k], deadline=deadline, progress=progress if k == 0 else None,
                                   limits=limits if k == 0 else None, lower=lower)
        except BaseException as e:  # re-raised below, on the caller's thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,), daemon=True) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        while t.is_alive():
            t.join(0.05)  # (Ctrl-C reaches the caller here)
    if errors:
        raise errors[0]
    a, b = out
    best = a if a.revenue >= b.revenue else b
    best.optimal = a.optimal and b.optimal
    best.bound = best.revenue if best.optimal else max(a.bound, b.bound, best.revenue)
    best.nodes = a.nodes + b.nodes
    best.candidates = len(routes)
    if limits is not None:
        limits.offer(best)
    return best


def _next_target(lower: int, bound: int) -> int:
    """The next revenue to look above: ``TARGET_SHARE`` of the way from ``lower`` to
    ``bound``, ``lower`` itself once the gap is small."""
    gap = bound - lower
    return lower if gap <= 20 else lower + int(gap * TARGET_SHARE)


def tighten(run: Run, bound: int) -> Run:
    """``run`` with the lower of its bound and ``bound`` (both upper bounds on the best)."""
    run.bound = max(run.revenue, min(run.bound, bound))
    run.optimal = run.optimal or run.bound == run.revenue
    return run

"""A first run of an 1831 board too big to list, found with a counted amount of work
before the flow model (flow.py) starts, so that a busy machine never leaves a board
without a run.

Trains take turns, the one that can earn most first (its ``size`` best tokens). Each
takes the best token-to-token path (5.6.2, 5.6.2.5) on the track the trains before it
left free, valued as the listing values it (the model's valuer: 5.6.2.3, 5.6.3): a
branch and bound over the same walk (kernels.token_paths, the track already taken
marked used, so no two trains share track, 5.6.2), its cut the most the rest of a path
can still add (kernels.token_reach over the free track), its floor the best path found
so far. Then rounds in which each train in turn takes the best path around the others'
track, if that earns more, and two trains of different kinds exchange their paths if
that earns more (the larger train on the path with more tokens, 5.6.2.3). Where the
corporation bought track rights (5.6.5), a path that runs to a right no train runs to
yet scores a great deal more, so the rights are covered first; a run that leaves one
uncovered is no run.

Greedy by value, a long train takes the track two others would earn more on. Where the
track prices of bound.py are known, one more start is tried: each train in turn claims
the track of its best path at those prices (its value less its track's prices: the
price of a piece of track is what the other trains would lose without it; track
claimed before is priced out), then each takes its best path by value around the
others' claims. On the full-size family this start earns 16-31% more on the five boards
where greedy by value stops far below the bound (benchmarks/README.md).

Work is counted in steps of the walk (``FIRST_STEPS`` in all; the priced start as many
again, and ``PRICED_STEPS`` a train for a claim), never by the clock: the same board
and prices get the same first run under any load. Commuter runs (5.6.7) are left to
the flow model: a run of paths alone is a legal run.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

from trainruns.route.lagrange import SCALE
from trainruns.titles.g1831.route import bound as bound_1831
from trainruns.titles.g1831.route import kernels

# steps of the walk in all (first pass and rounds together); and the improving rounds
FIRST_STEPS = 4_000_000
ROUNDS = 2
# orders of the trains tried for the first pass at most
ORDERS = 24
# paths the walk hands over at a time: each batch is valued and raises the floor
BATCH = 256
# steps of the walk for one train's claim at the track prices (bound.best_path): past
# them the train claims nothing and takes its path by value
PRICED_STEPS = 200_000
# a right not yet run to scores this much more (above any run's revenue)
RIGHT_SCORE = 1 << 20
# the price of a track bit already taken (bound.INF: no walk over it)
TAKEN = bound_1831.INF


class FirstRun(NamedTuple):
    """``chosen``: ``[(train index, stops, chains, rights mask run to, value)]`` for the
    running trains; ``revenue``; ``steps``: the walk's steps spent."""

    chosen: list
    revenue: int
    steps: int


class _Searcher:
    """The per-board parts of the search: the stop graph priced (bound.Pricing1831),
    the token bits of the reach tables, the walk's buffers."""

    def __init__(self, arrays, trains, valuer, kind_names):
        self.arrays, self.trains, self.valuer = arrays, trains, valuer
        self.kind_index = {name: k for k, name in enumerate(kind_names)}
        self.pricing = bound_1831.Pricing1831(arrays)
        self.kind_of = {k.name: k for k in self.pricing.kinds}
        comp = arrays.compiled
        self.n = comp.n_stops
        self.bit, self.n_bits = bound_1831.token_bits(self.pricing, 1)
        # per node (the Delaware's twin nodes too), the rights of its tokens
        right = np.maximum(arrays.st_right, arrays.yd_right)[self.pricing.twin_of]
        self.node_right = np.where(right >= 0, 1 << np.maximum(right, 0), 0).astype(np.int64)
        # (the walk keeps a path from its end with the lower stop id: the first root
        # keeps paths to every other token, so the floor rises from the start)
        self.roots = np.flatnonzero(arrays.stop_own)
        longest = self.n + 2
        self.out_ptr = np.zeros(BATCH + 1, np.int64)
        self.out_stops = np.empty(BATCH * min(longest, 24) + longest, np.int64)
        self.out_chains = np.empty_like(self.out_stops)
        self.out_bits = np.empty((BATCH, comp.words), np.uint64)
        self.status = np.zeros(1, np.int64)
        self.no_price = np.zeros(comp.n_chains, np.int64)

    def best_path(self, ti, taken, need, floor, budget):
        """The best path of train ``ti`` on track not in ``taken`` (words) scoring more
        than ``floor`` (value, plus RIGHT_SCORE per right of ``need`` it runs to):
        ``(score, (stops, chains, bits, mask, value))`` or ``(floor, None)``, and the
        steps spent (at most ``budget``)."""
        arrays, comp = self.arrays, self.arrays.compiled
        name = self.trains[ti].name
        kind, k = self.kind_of[name], self.kind_index[name]
        gain, cap = self.pricing._gains[name]
        if need:
            gain = gain + SCALE * RIGHT_SCORE * ((self.node_right & need) != 0)
            cap = int(gain.sum())
        price = np.zeros(self.pricing.n_bits, np.int64)
        price[_bit_flags(taken, self.pricing.n_bits)] = TAKEN
        reach, stop_gain = bound_1831.reach(self.pricing, price, kind, self.bit, self.n_bits, gain=gain)
        kind_gain = np.ascontiguousarray(stop_gain[None, :], np.int64)
        reach = np.ascontiguousarray(reach[None], np.int64)
        caps = np.array([cap], np.int64)
        floors = np.array([floor * SCALE], np.int64)
        best, spent = None, 0
        masks = np.arange(self.valuer_masks(), dtype=np.int64)
        bonus = RIGHT_SCORE * np.array([bin(m & need).count("1") for m in masks.tolist()], np.int64)
        # a path starts and ends at tokens the train runs to (5.6.2.5): only those roots
        for root in self.roots[stop_gain[self.roots] > 0]:
            if spent >= budget:
                break
            state = kernels.walk_state(comp.n_stops, len(arrays.rev_a), comp.words, int(root), 1)
            state[6][:] = taken
            meta = state[-1]
            while spent < budget:
                before = meta[1]
                got = kernels.token_paths(comp.adj_ptr, arrays.walk_to, arrays.chain_bits, arrays.chain_und,
                                          arrays.stop_group, arrays.stop_pass, arrays.stop_own, arrays.rev_a,
                                          arrays.rev_b, self.out_ptr, self.out_stops, self.out_chains,
                                          self.out_bits, 1 << 62, before + (budget - spent), self.no_price,
                                          kind_gain, reach, caps, floors, self.bit, *state, self.status)
                spent += int(meta[1] - before)
                if got:
                    end = self.out_ptr[got]
                    ptr, stops = self.out_ptr[:got + 1], self.out_stops[:end]
                    values = self.valuer(ptr, stops)[:, k, :]
                    score = np.where(values >= 0, values + bonus[None, :], -1)
                    r, m = np.unravel_index(int(np.argmax(score)), score.shape)
                    if score[r, m] > floor:
                        floor = int(score[r, m])
                        floors[0] = floor * SCALE
                        a, b = int(ptr[r]), int(ptr[r + 1])
                        bits = self.out_bits[r] & ~taken
                        best = ([int(s) for s in stops[a:b]], [int(c) for c in self.out_chains[a:b - 1]],
                                bits.copy(), int(m), int(values[r, m]))
                if self.status[0] != kernels.FULL:
                    break
        return floor, best, spent

    def as_route(self, route, ti, all_rights):
        """``route`` (another train's) as train ``ti``'s: the same stops, chains and track,
        the rights mask that scores most for ``ti`` (value, RIGHT_SCORE more per right
        of ``all_rights``); None where ``ti`` earns nothing there (5.6.2.5)."""
        if route is None:
            return None
        stops = np.array(route[0], np.int64)
        values = self.valuer(np.array([0, len(stops)], np.int64), stops)[0, self.kind_index[self.trains[ti].name]]
        masks = np.arange(len(values), dtype=np.int64)
        score = [v + RIGHT_SCORE * bin(m & all_rights).count("1") if v >= 0 else -1
                 for v, m in zip(values.tolist(), masks.tolist())]
        m = int(np.argmax(score))
        if values[m] <= 0:
            return None
        return route[0], route[1], route[2], m, int(values[m])

    def valuer_masks(self):
        return 1 << len(self.arrays.facts.rights)


def first_run(arrays, trains, valuer, kind_names, steps=FIRST_STEPS, priced=None):
    """The run of the module docstring for ``trains`` (the board's) on the board of
    ``arrays`` (model.StopArrays), paths valued by ``valuer`` (model's, columns
    ``kind_names``), in at most ``steps`` steps of the walk; None when no train found a
    path, or a bought right is left uncovered. ``priced``: the track prices'
    ``(bound, pricing)`` (bound.priced), for the priced start, or None."""
    if not trains or not arrays.stop_own.any():
        return None
    search = _Searcher(arrays, trains, valuer, kind_names)
    all_rights = search.valuer_masks() - 1
    # the trains' orders for the first pass: those whose best tokens earn most first,
    # then every other order of the kinds (a long train first may take the track two
    # others would earn more on), ORDERS at most
    first = sorted(range(len(trains)), key=lambda i: (-search.pricing._gains[trains[i].name][1], i))
    orders, seen = [], set()
    for perm in itertools.permutations(first):
        key = tuple(trains[i].name for i in perm)
        if key not in seen:
            seen.add(key)
            orders.append(list(perm))
        if len(orders) >= ORDERS:
            break
    share = steps // (2 * len(orders))
    best, spent = None, 0
    for order in orders:
        routes, used = _improve(search, [None] * len(trains), order, all_rights, 1, share)
        spent += used
        if best is None or _score(routes, all_rights) > _score(best, all_rights):
            best = routes
    # each start improved on its own (the better start need not end the better run):
    # the start by value with the steps left, the priced start with as many again
    left = steps - spent
    starts = [best]
    if priced is not None:
        start, used = _priced_start(search, priced, first, all_rights, share)
        spent += used
        starts.append(start)
    routes = None
    for start in starts:
        got, used = _improve(search, start, first, all_rights, ROUNDS, left // 2)
        spent += used
        got, more = _pairs(search, got, first, all_rights, left - used)
        spent += more
        got = _swaps(search, got, all_rights)
        if routes is None or _score(got, all_rights) > _score(routes, all_rights):
            routes = got
    if _need_but(routes, -1, all_rights) or all(r is None for r in routes):
        return None
    chosen = [(i, r[0], r[1], r[3], r[4]) for i, r in enumerate(routes) if r is not None]
    return FirstRun(chosen, sum(c[4] for c in chosen), spent)


def _priced_start(search, priced, order, all_rights, steps):
    """The priced start of the module docstring: each train of ``order`` claims the
    track of its best path at the prices of ``priced`` (bound.best_path, in
    ``PRICED_STEPS``; the track claimed before priced out), then takes its best path by
    value around the others' claims and paths (``_improve``, at most ``steps`` steps).
    A claim is a route of no value, so any path of the train's replaces it; one that no
    path replaced is dropped. Returns (routes, steps spent)."""
    bound, pricing = priced
    kind_of = {k.name: k for k in pricing.kinds}
    price = bound.price.copy()
    claims = [None] * len(search.trains)
    for i in order:
        out = bound_1831.best_path(pricing, price, kind_of[search.trains[i].name], PRICED_STEPS)
        if out is None or not out[1]:
            continue
        bits = search.arrays.track_bits(out[1])
        claims[i] = ([], [], bits, 0, 0)
        price[_bit_flags(bits, pricing.n_bits)] = TAKEN
    routes, spent = _improve(search, claims, order, all_rights, 1, steps)
    return [None if r is not None and not r[0] else r for r in routes], spent


def _bit_flags(words, n_bits):
    """The track bits set in ``words`` (a bit set in uint64 words) as ``n_bits`` flags."""
    return np.unpackbits(words.view(np.uint8), bitorder="little")[:n_bits].astype(bool)


def _score(routes, all_rights):
    """A run's revenue, RIGHT_SCORE more per right it runs to."""
    covered = 0
    for r in routes:
        if r is not None:
            covered |= r[3]
    return sum(r[4] for r in routes if r is not None) + RIGHT_SCORE * bin(covered & all_rights).count("1")


def _need_but(routes, i, all_rights):
    """The rights no train but train ``i`` runs to."""
    covered = 0
    for j, r in enumerate(routes):
        if r is not None and j != i:
            covered |= r[3]
    return all_rights & ~covered


def _improve(search, routes, order, all_rights, rounds, steps):
    """Rounds in which each train of ``order`` in turn takes the best path around the
    others' track if it scores more than its own (a train without a route: any path);
    at most ``steps`` steps in all. Returns (routes, steps spent)."""
    routes = list(routes)
    words = search.arrays.compiled.words
    spent, done, searches = 0, 0, rounds * len(order)
    for _ in range(rounds):
        better = False
        for i in order:
            budget = (steps - spent) // max(1, searches - done)
            done += 1
            taken = np.zeros(words, np.uint64)
            for j, r in enumerate(routes):
                if r is not None and j != i:
                    taken |= r[2]
            need = _need_but(routes, i, all_rights)
            own = routes[i]
            floor = 0 if own is None else own[4] + RIGHT_SCORE * bin(own[3] & need).count("1")
            _, found, used = search.best_path(i, taken, need, floor, budget)
            spent += used
            if found is not None:
                routes[i], better = found, True
        if not better:
            break
    return routes, spent


def _swaps(search, routes, all_rights):
    """Each two trains of different kinds in turn exchange their paths (a train without
    one takes the other's, which then stops), each path valued for its new train
    (5.6.2.3: a 9S runs to nine Stations of a path where a 7S runs to seven), kept if
    the run scores more. Greedy by value gives the larger train the first good path,
    not the one with the most tokens, and ``_pairs`` re-routes two trains one after
    the other, each on its best path around the other's: neither moves a path whole
    from one train to the other. No walk: the paths are valued again."""
    for a, b in itertools.combinations(range(len(routes)), 2):
        if search.trains[a].name == search.trains[b].name or routes[a] is None and routes[b] is None:
            continue
        trial = list(routes)
        trial[a], trial[b] = search.as_route(routes[b], a, all_rights), search.as_route(routes[a], b, all_rights)
        if _score(trial, all_rights) > _score(routes, all_rights):
            routes = trial
    return routes


def _pairs(search, routes, order, all_rights, steps):
    """Each two trains in turn give up their routes and take the best paths around the
    others' track, one then the other, in both orders: kept if the two score more
    than before (a train's single re-routing cannot move two trains off each other's
    track); at most ``steps`` steps in all. Returns (routes, steps spent)."""
    pairs = [(a, b) for x, a in enumerate(order) for b in order[x + 1:]]
    spent, done = 0, 0
    for a, b in pairs:
        for i, j in ((a, b), (b, a)):
            budget = (steps - spent) // max(1, 2 * (2 * len(pairs) - done))
            done += 1
            trial = list(routes)
            trial[i] = trial[j] = None
            for t in (i, j):
                got, used = _improve(search, trial, [t], all_rights, 1, budget)
                spent += used
                trial = got
            if _score(trial, all_rights) > _score(routes, all_rights):
                routes = trial
    return routes, spent

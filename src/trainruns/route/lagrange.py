"""A joint upper bound on a run: the Lagrangian relaxation of "no track twice".

A run gives each running train ``t`` a route ``r_t``; no piece of track (a bit of
:mod:`trainruns.route.compile`) is used twice, by two trains or by one route. Put a price
``p_b >= 0`` on every bit. Since the routes of a run use each bit at most once,

    revenue = sum_t v_t(r_t) <= sum_t (v_t(r_t) - p(r_t)) + sum_b p_b
                             <= sum_t M_t(p) + sum_b p_b = L(p)

where ``p(r)`` is the price of the bits ``r`` uses and ``M_t(p)`` the most train ``t``
can make, its route's value less its price, over every route, or 0 idle. ``M_t`` is
taken over a larger set still, to be quick: lines of distinct stops where each pair of
stops is joined by any one chain between them (the cheapest, at these prices), even
when two chains of the line share track (:mod:`trainruns.route.kernels.prices`); a route's
value is bounded by its stops' gains (negatives as 0, at most its kind's ``counts``
best stops) plus every bonus, as :mod:`trainruns.route.proof` does. Every ``p >= 0`` gives a
valid bound; with ``p = 0`` it is the sum of each train at its best route, and prices
on the track the best routes fight over bring it down: the subgradient method below
raises the price of a bit more than one train's best route uses and lowers the others.

Arithmetic is in integers (values times ``SCALE``, whole prices), so the bound is
exact: ``floor(L(p) / SCALE)``.

The prices also tell which routes can be part of a run above a target ``T``: the
train's route ``r`` must have ``v(r) - p(r) > T - sum_b p_b - sum over the other trains
of M`` (:func:`reduced_floor`), since each other train makes at most its ``M``.
"""

from __future__ import annotations

import numpy as np

from trainruns.route.compile import CompiledBoard
from trainruns.route.limits import on_thread
from trainruns.route.routeset import train_kinds
from trainruns.route.trains import UNLIMITED


def gains(compiled: CompiledBoard):
    """``(stop_gain, top_gain, extra)`` for the kernel: each stop's value (negatives as 0:
    a train need not count them), the sums of the ``j`` best of them, every bonus."""
    stop_gain = np.maximum(compiled.stop_value, 0).astype(np.int64)
    top = np.sort(stop_gain)[::-1]
    top_gain = np.concatenate([[0], np.cumsum(top)]).astype(np.int64)
    extra = int(compiled.bonus_amount[compiled.bonus_amount > 0].sum())
    return stop_gain, top_gain, extra


# values are multiplied by this, so whole prices can be fine
SCALE = 64
# subgradient iterations at most, and without a better bound for this many the step halves
ITERATIONS = 400
PATIENCE = 8


class ChainBits:
    """Each chain's track bits as a CSR list (``bit_idx``, ``bit_ptr``; a dense matrix
    would take 8 bytes a bit a chain) and the chains' prices at given bit prices: what
    the subgradient method (:func:`subgradient_bound`) asks of a pricing. Shared by the
    core's :class:`Pricing` and 1831's (titles/g1831/route/bound.py)."""

    def _set_chain_bits(self, chain_bits, n_chains: int) -> int:
        """Read the packed ``chain_bits`` (one row a chain); the width of its rows in bits."""
        unpacked = np.unpackbits(np.ascontiguousarray(chain_bits).view(np.uint8), axis=1, bitorder="little")
        rows, bits = np.nonzero(unpacked)
        self.bit_idx = bits.astype(np.int64)
        counts = np.bincount(rows, minlength=n_chains)
        self.n_chains = n_chains
        self.bit_ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self._has_bits = counts > 0
        return unpacked.shape[1]

    def chain_prices(self, price):
        """Each chain's price: the sum of its bits' prices."""
        out = np.zeros(self.n_chains, np.int64)
        if len(self.bit_idx):
            out[self._has_bits] = np.add.reduceat(price[self.bit_idx], self.bit_ptr[:-1][self._has_bits])
        return out

    def bits_of(self, chain):
        """The track bits of one chain."""
        return self.bit_idx[self.bit_ptr[chain]:self.bit_ptr[chain + 1]]

    def line_bits(self, line, cheapest):
        """The track bits of a best line (``best``'s stops), each arc on its ``cheapest``
        chain; a bit the line uses twice is listed twice."""
        arcs = self.arcs_of(line)
        if not arcs:
            return np.zeros(0, np.int64)
        return np.concatenate([self.bits_of(cheapest[a]) for a in arcs])


class Pricing(ChainBits):
    """The stop graph of a compiled board, the bits of each chain, and each train kind's
    best route at given prices (module docstring)."""

    def __init__(self, compiled: CompiledBoard):
        self.compiled = compiled
        stop_gain, top_gain, extra = gains(compiled)
        self.stop_gain = stop_gain * SCALE
        self.extra = extra * SCALE
        n_chains = compiled.n_chains
        self.n_bits = compiled.n_bits
        self._set_chain_bits(compiled.chain_bits, n_chains)
        # chains grouped by (from, to): one arc of the stop graph per group
        pair = compiled.chain_from.astype(np.int64) * compiled.n_stops + compiled.chain_to.astype(np.int64)
        self.order = np.argsort(pair, kind="stable")
        sp = pair[self.order]
        self.starts = np.flatnonzero(np.concatenate([[True], sp[1:] != sp[:-1]])) if n_chains else \
            np.zeros(0, np.int64)
        arc_pair = sp[self.starts]
        self.arc_from = arc_pair // compiled.n_stops
        self.nbr = (arc_pair % compiled.n_stops).astype(np.int64)
        self.nbr_ptr = np.searchsorted(self.arc_from, np.arange(compiled.n_stops + 1)).astype(np.int64)
        # the arc of each chain
        self.chain_arc = np.empty(n_chains, np.int64)
        self.chain_arc[self.order] = np.repeat(np.arange(len(self.starts)),
                                               np.diff(np.append(self.starts, n_chains)))
        self.kinds = train_kinds(compiled.board)
        reach = stop_gain if compiled.stop_reach is None else stop_gain[compiled.stop_reach]
        reach_top = np.concatenate([[0], np.cumsum(np.sort(reach)[::-1])])
        self.cap = {k.name: int(reach_top[min(k.counts, len(reach_top) - 1)]) * SCALE for k in self.kinds}
        self.path = np.empty(compiled.n_stops + 1, np.int64)

    def arc_costs(self, price):
        """Each arc's price (its cheapest chain's) and that chain, at bit prices ``price``."""
        chain_price = self.chain_prices(price)
        sorted_price = chain_price[self.order]
        if not len(sorted_price):
            return sorted_price, self.order
        cost = np.minimum.reduceat(sorted_price, self.starts)
        # the cheapest chain of each arc (the first of its group at that price)
        group = np.repeat(np.arange(len(self.starts)), np.diff(np.append(self.starts, len(sorted_price))))
        cheapest = np.full(len(self.starts), -1, np.int64)
        hit = np.flatnonzero(sorted_price == cost[group])
        cheapest[group[hit][::-1]] = self.order[hit][::-1]
        return cost.astype(np.int64), cheapest

    def best(self, kind, cost, floor=-1, stop=None):
        """``(M, stops)``: the most a train of ``kind`` makes at these arc costs (0 and no
        stops when idle is best), as for :func:`trainruns.route.kernels.prices.best_priced_route`;
        ``(None, [])`` when ``stop[0]`` was set (another thread) before the walk ended."""
        from trainruns.route.kernels.prices import best_priced_route

        c = self.compiled
        visits = min(kind.visits, c.n_stops, UNLIMITED)
        if visits < 2:
            return 0, []
        value, length = best_priced_route(self.nbr_ptr, self.nbr, cost, self.stop_gain, c.stop_town,
                                          c.stop_passable, c.stop_own, visits,
                                          min(kind.nontowns, c.n_stops), self.cap[kind.name], self.extra,
                                          max(floor, 0), self.path,
                                          np.zeros(1, np.int64) if stop is None else stop)
        if length < 0:
            return None, []
        return max(value, 0), self.path[:length].tolist()

    def arcs_of(self, stops):
        """The arc ids of a line of stops."""
        out = []
        for s, u in zip(stops, stops[1:]):
            a = self.nbr_ptr[s] + int(np.searchsorted(self.nbr[self.nbr_ptr[s]:self.nbr_ptr[s + 1]], u))
            out.append(a)
        return out


class Bound:
    """The result of :func:`lagrangian_bound`: ``value`` (a bound on the run's revenue),
    the bit prices it came from, and each kind's ``M`` at them (scaled by ``SCALE``);
    ``next_price`` and ``theta``, where the method stopped (the prices it would have
    tried next and its step's share), for :func:`subgradient_bound` to go on from."""

    def __init__(self, value, price, best, total, next_price=None, theta=None):
        self.value, self.price, self.best, self.total = value, price, best, total
        self.next_price, self.theta = next_price, theta


def lagrangian_bound(compiled: CompiledBoard, lower: int = 0, deadline=None,
                     iterations: int = ITERATIONS, pricing: Pricing | None = None) -> Bound | None:
    """The lowest ``L(p)`` the subgradient method finds (module docstring), starting at
    ``p = 0``; ``lower``: a revenue a run is known to reach (the method aims the step at
    it, and stops once the bound gets there). None when the board has no track, or when
    ``deadline`` comes before the first prices are through (long trains on many stops:
    the walk of the lines can take long, and is stopped then).

    The method runs on a daemon thread; the caller waits where Ctrl-C reaches it and
    stops the walk at ``deadline`` or on Ctrl-C."""
    board = compiled.board
    if board.route_model is not None or compiled.n_chains == 0:
        return None
    pricing = pricing or Pricing(compiled)
    stop = np.zeros(1, np.int64)
    return on_thread(_subgradient, (pricing, lower, iterations, stop), stop, deadline, "the subgradient method")


def subgradient_bound(pricing, lower: int = 0, deadline=None, iterations: int = ITERATIONS, start=None,
                      theta: float = 2.0) -> Bound | None:
    """:func:`lagrangian_bound` for any ``pricing`` with :class:`Pricing`'s interface
    (``compiled``, ``kinds``, ``n_bits``, ``arc_costs``, ``best``, ``line_bits``): a
    title's route model prices its own routes (1831:
    :mod:`trainruns.titles.g1831.route.bound`) and shares the method. ``start``: the
    prices to begin at (None: 0), ``theta`` the first step's share (the step halves
    when the bound stops falling)."""
    stop = np.zeros(1, np.int64)
    return on_thread(_subgradient, (pricing, lower, iterations, stop, start, theta), stop, deadline,
                     "the subgradient method")


def _subgradient(pricing: Pricing, lower: int, iterations: int, stop, start=None, theta: float = 2.0) -> Bound | None:
    """:func:`lagrangian_bound`'s rounds, until ``stop[0]`` is set."""
    board = pricing.compiled.board
    n_bits = pricing.n_bits
    trains = list(board.trains)
    kinds = {k.name: k for k in pricing.kinds}
    price = np.zeros(n_bits, np.int64) if start is None else np.array(start, np.int64)
    best_value, best_price, best_m = None, price.copy(), None
    since = 0
    target = lower * SCALE
    for it in range(iterations):
        if stop[0] != 0:
            break
        cost, cheapest = pricing.arc_costs(price)
        m, lines = {}, {}
        for name, kind in kinds.items():
            m[name], stops = pricing.best(kind, cost, stop=stop)
            lines[name] = stops
        if any(v is None for v in m.values()):
            break  # stopped inside a walk: these prices gave no bound
        total = int(price.sum()) + sum(m[t.name] for t in trains)
        if best_value is None or total < best_value:
            best_value, best_price, best_m = total, price.copy(), dict(m)
            since = 0
        else:
            since += 1
            if since >= PATIENCE:
                theta, since = theta / 2, 0
        if best_value // SCALE <= lower or theta < 1e-3:
            break
        # the subgradient: how often each bit is used by the trains' best lines, less 1
        use = np.zeros(n_bits, np.int64)
        for t in trains:
            stops = lines[t.name]
            if len(stops) and m[t.name] > 0:
                np.add.at(use, pricing.line_bits(stops, cheapest), 1)
        g = use - 1
        g[(price == 0) & (g < 0)] = 0  # a price at 0 cannot go lower
        norm = int((g * g).sum())
        if norm == 0:
            break  # no bit is over-used: the best lines form a run, the bound is reached
        step = theta * max(total - target, SCALE) / norm
        price = np.maximum(0, price + np.rint(step * g).astype(np.int64))
    if best_value is None:
        return None  # the deadline came before the first prices were tried
    return Bound(best_value // SCALE, best_price, best_m, best_value, price, theta)


def reduced_floors(bound: Bound, trains, target: int) -> dict:
    """``{train name: f}``: a run earning more than ``target`` gives a train of that name
    a route whose gain less its price (scaled) is above ``f`` (module docstring; the
    other trains, of any name, at their ``M``)."""
    total = bound.total  # sum_b p_b + sum_t M_t, scaled
    return {t.name: (target + 1) * SCALE - (total - bound.best[t.name]) - 1 for t in trains}


"""An upper bound on an 1831 run without listing its paths: the Lagrangian relaxation of
"no track twice" (5.6.2), as the core's :mod:`trainruns.route.lagrange` does for the plain
rules, with the 1831 route's own relaxation.

Put a price ``p_b >= 0`` on every track bit (a hex path, a side of double track:
5.6.2.4). The routes of a run share no bit, so its revenue is at most
``sum_t M_t(p) + sum_b p_b`` where ``M_t(p)`` is the most train ``t`` makes on any route,
its value less its bits' prices (0 idle). ``M_t`` is taken over a larger set of routes,
to be quick (every real route is in it, valued no lower):

- a token-to-token path (5.6.2.5) is a line of distinct stops over the *stop graph*
  (one arc per pair of stops joined by a chain, at its cheapest chain's price), every
  stop but its ends passable; a city passed (5.6.2.3) is a stop that earns nothing. The
  Delaware large city, which a path may enter twice (5.6.2.1), has a twin stop with its
  track and its value. The line's value is its stops' gains (what the kind earns at a
  token there: city plus token value, 5.6.3; a mixed train the better of its Station
  and Rail Yard), at most the kind's ``size`` best gains (5.6.2.3), at most one token a
  city (a city and its red extension one city, 5.2.3.10); a mixed train's line holds a
  Station and a Rail Yard at two of its tokens (5.6.2.3). This is the core's
  priced line (:func:`trainruns.route.kernels.prices.best_priced_route`) with these gains.
- a commuter run (5.6.7, Station trains of size 5 or more) is its visits' Station
  values less, for each leg between two visits, the cheapest walk between the two
  Stations at these prices (legs share no track within a run, so the run pays at
  least that); every visit count up to the train's size, every start.

The prices come from the core's subgradient method
(:func:`trainruns.route.lagrange.subgradient_bound`). Exact: every ``p >= 0`` gives a valid
bound, computed in integers.

:func:`refined` goes on from those prices with ``M_t`` taken nearer the real routes:
the lower of the line above and the most a real token-to-token path makes (no track
bit twice, 5.6.2; no city entered twice but the Delaware, 5.6.2.1; its tokens' gains
at most the kind's ``cap``, less its chains' prices), found by the listing's walk
(kernels.token_paths) with its priced cut, the floor raised to each better path found
(branch and bound). The relaxed line's walks between tokens may run a bit twice or pass
a city twice; a real path may not, so where the relaxed lines did that the prices can
fall further. Each ``M_t`` is still at least every real route's value less its price,
so every bound is valid.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from trainruns.route.lagrange import SCALE, ChainBits, subgradient_bound
from trainruns.titles.g1831.route.commuter import station_cycles
from trainruns.titles.g1831.route.trains import MIXED, STATION, YARD, may_commute, parse_train_name

# subgradient iterations at most (each finds one priced route per train kind)
ITERATIONS = 200
# commuting_bound from the board's prices and from 0 by turns: (from the board's prices?,
# share of the iterations). A start at the board's prices settles the commuter runs
# within a few iterations or not for long; one from 0 within a few dozen or, seldom,
# past a hundred; and where neither does, the iterations in all are as many as from one
# start (benchmarks/README.md, "the commuter bound from two starts")
COMMUTING_SLICES = ((True, 0.05), (False, 0.2), (True, 0.25), (False, 0.5))
# tokens a kind earns at, at most, for the dynamic program over their subsets (2^n of
# them); beyond, the kind's unpriced best stands in
MAX_TOKENS = 18
INF = np.int64(1) << 50
# the priced listing's reach tables (kinds x stops x sets of token bits) at most
REACH_BYTES = 64 << 20
# refined(): subgradient iterations at most, the first step's share (small: it starts
# at converged prices), steps of the walk per train kind and iteration at most (past
# them that kind's relaxed line stands in: 48hex-s2's walk takes millions), and the
# reach tables' bytes of its priced cut
REFINE_ITERATIONS = 60
REFINE_THETA = 0.25
REFINE_STEPS = 200_000
REFINE_REACH_BYTES = 1 << 20


@dataclass(frozen=True)
class _Kind:
    name: str
    type: str
    size: int


class Pricing1831(ChainBits):
    """The stop graph of an 1831 board (the Delaware's twin stops added), the track bits
    of each chain (double track included), and each train kind's best priced route
    (module docstring). The interface of :class:`trainruns.route.lagrange.Pricing` that the
    subgradient method uses: ``compiled``, ``kinds``, ``n_bits``, ``arc_costs``,
    ``best``, ``arcs_of``, ``bits_of``."""

    def __init__(self, arrays):
        comp = arrays.compiled
        self.arrays = arrays
        self.compiled = comp
        n = comp.n_stops
        sg = arrays.stop_group
        dela = [s for s in range(n) if arrays.rev_a[sg[s]] >= 0]
        self.twin_of = np.concatenate([np.arange(n), np.array(dela, np.int64)]).astype(np.int64)
        twin = {s: n + i for i, s in enumerate(dela)}
        self.n_nodes = n_nodes = n + len(dela)
        # the stop graph's edges: (from node, to node, chain), a chain touching a
        # Delaware stop also as touching its twin
        ef, et, ec = [], [], []
        for c in range(comp.n_chains):
            a, b = int(comp.chain_from[c]), int(comp.chain_to[c])
            if a == b:
                continue
            for x in ((a, twin[a]) if a in twin else (a,)):
                for y in ((b, twin[b]) if b in twin else (b,)):
                    ef.append(x)
                    et.append(y)
                    ec.append(c)
        ef, et, ec = (np.array(v, np.int64) for v in (ef, et, ec))
        order = np.lexsort((ec, et, ef))
        self.edge_from, self.edge_to, self.edge_chain = ef[order], et[order], ec[order]
        pair = self.edge_from * n_nodes + self.edge_to
        self.starts = np.flatnonzero(np.r_[True, pair[1:] != pair[:-1]]) if len(pair) else np.zeros(0, np.int64)
        arc_pair = pair[self.starts]
        self.arc_from = arc_pair // n_nodes
        self.nbr = (arc_pair % n_nodes).astype(np.int64)
        self.nbr_ptr = np.searchsorted(self.arc_from, np.arange(n_nodes + 1)).astype(np.int64)
        self.edge_arc = np.repeat(np.arange(len(self.starts)), np.diff(np.append(self.starts, len(pair))))
        self.arc_index = {(int(u), int(v)): i for i, (u, v) in enumerate(zip(self.arc_from, self.nbr))}
        # each chain's bits as a CSR list
        self.n_bits = self._set_chain_bits(arrays.chain_bits, comp.n_chains)
        # per node, passable and the values of a Station and a Rail Yard there (-1: none)
        self.passable = arrays.stop_pass[self.twin_of].astype(np.bool_)
        self.st_val = arrays.st_val[self.twin_of]
        self.yd_val = arrays.yd_val[self.twin_of]
        self.no_town = np.zeros(n_nodes, np.bool_)
        self.kinds = []
        self._gains = {}
        for t in arrays.model.board.trains:
            if t.name in self._gains:
                continue
            tt = parse_train_name(t.name)
            self.kinds.append(_Kind(t.name, tt.type, tt.size))
            self._gains[t.name] = self._kind_gains(tt)
        self._dist_key, self._dist = None, None
        self._clashes = {}  # clash(): per set of tokens
        self._via = np.flatnonzero(self.passable).astype(np.int64)
        self._commuter = self._commuter_cycles()
        # the same as flat arrays for kernels.best_commuter_run: per sequence its first
        # position and how many; per position its nodes
        self._seq_len = np.array([len(seq) for seq in self._commuter], np.int64)
        self._seq_start = (np.cumsum(self._seq_len) - self._seq_len).astype(np.int64)
        positions = [nodes for seq in self._commuter for nodes in seq]
        self._pos_ptr = np.cumsum([0] + [len(nodes) for nodes in positions]).astype(np.int64)
        self._pos_nodes = (np.concatenate(positions) if positions else np.zeros(0)).astype(np.int64)
        self._st_scaled = (self.st_val * SCALE).astype(np.int64)
        self.step = revenue_step(arrays)  # every run's revenue is a multiple of it

    def _kind_gains(self, tt):
        """(gain per node, scaled; cap: the most ``size`` stops can earn) for train type ``tt``."""
        st, yd = np.maximum(self.st_val, 0), np.maximum(self.yd_val, 0)
        if tt.type == STATION:
            gain = st
        elif tt.type == YARD:
            gain = yd
        else:
            gain = np.maximum(st, yd)
        top = np.sort(gain)[::-1]
        cap = int(top[:tt.size].sum())
        if tt.type == MIXED:
            max_s, max_y = self.arrays.type_caps(tt)
            cap = min(cap, int(np.sort(st)[::-1][:max_s].sum() + np.sort(yd)[::-1][:max_y].sum()))
        return (gain * SCALE).astype(np.int64), cap * SCALE

    def _commuter_cycles(self):
        """5.6.7: per commuter run the corporation may run (commuter.station_cycles), its
        visit sequences' Station stops, one per start: [[stops of visit 0], [of visit 1], ...]."""
        out = []
        for _, cycle, starts, stations in station_cycles(self.arrays):
            for rot in starts:
                out.append([np.array(stations[cycle[(rot + i) % len(cycle)]], np.int64) for i in range(len(cycle))])
        return out

    # --- the interface of the subgradient method ---------------------------------------

    def arc_costs(self, price):
        """Each arc's price (its cheapest chain's) and that chain."""
        edge_price = self.chain_prices(price)[self.edge_chain]
        if not len(edge_price):
            return edge_price, self.edge_chain
        cost = np.minimum.reduceat(edge_price, self.starts)
        cheapest = np.full(len(self.starts), -1, np.int64)
        hit = np.flatnonzero(edge_price == cost[self.edge_arc])
        cheapest[self.edge_arc[hit][::-1]] = self.edge_chain[hit][::-1]
        return cost.astype(np.int64), cheapest

    def best(self, kind, cost, floor=-1, stop=None):
        """``(M, nodes)``: the most a train of ``kind`` makes at these arc costs, on a
        path or (a Station train of size 5 or more) a commuter run, and the nodes of that
        route's cheapest walks (for the subgradient)."""
        from trainruns.titles.g1831.route.kernels import best_token_line

        dist, nxt = self._distances(cost)
        gain, cap = self._gains[kind.name]
        tokens = np.flatnonzero(gain > 0)
        value, nodes = 0, []
        if len(tokens) > MAX_TOKENS:
            value = cap  # too many for the dynamic program: the kind's best, unpriced
        elif len(tokens) >= 2:
            order = np.empty(len(tokens), np.int64)
            sub = np.ascontiguousarray(dist[np.ix_(tokens, tokens)])
            need_a, need_b = self.need(kind, tokens)
            value, length = best_token_line(sub, gain[tokens], kind.size, cap, order, self.clash(tokens),
                                            need_a, need_b)
            value = int(value)
            if length:
                nodes = self._walk([int(tokens[i]) for i in order[:length]], nxt)
        if may_commute(kind) and self._commuter:
            v, run = self._best_commuter(kind.size, dist, nxt)
            if v > value:
                value, nodes = v, run
        return value, nodes

    def need(self, kind, tokens):
        """(Station tokens, Rail Yard tokens) among ``tokens`` (nodes) as bits, of which a
        line of a mixed train holds one each at two tokens (5.6.2.3: a mixed train runs
        to at least one Station and one Rail Yard, one token a city visit); (0, 0) for
        the other types."""
        if kind.type != MIXED:
            return 0, 0
        bits = 1 << np.arange(len(tokens), dtype=np.int64)
        return int(bits[self.st_val[tokens] >= 0].sum()), int(bits[self.yd_val[tokens] >= 0].sum())

    def clash(self, tokens):
        """Per token of ``tokens`` (nodes), the bits of the others in its city: a route
        enters a city once and runs to one token there (5.6.2.1, 5.6.2.3), a city and
        its red extension being one city (5.2.3.10). The Delaware, entered twice
        (5.6.2.1), clashes with nothing (its twin node is its second visit). Worked out
        once per set of tokens: a kind's tokens are the same at every price."""
        key = tokens.tobytes()
        out = self._clashes.get(key)
        if out is not None:
            return out
        group = self.arrays.stop_group[self.twin_of[tokens]]
        single = self.arrays.rev_a[group] < 0
        out = np.zeros(len(tokens), np.int64)
        for i in range(len(tokens)):
            for j in range(len(tokens)):
                if i != j and single[i] and group[i] == group[j]:
                    out[i] |= 1 << j
        self._clashes[key] = out
        return out

    def _distances(self, cost):
        """The cheapest walk's price between every two nodes at these arc costs, passing
        only passable stops (5.6.2.3), and the next node on it (Floyd and Warshall)."""
        key = cost.tobytes()
        if self._dist_key == key:
            return self._dist
        from trainruns.titles.g1831.route.kernels import cheapest_walks

        n = self.n_nodes
        dist = np.full((n, n), INF, np.int64)
        nxt = np.full((n, n), -1, np.int64)
        dist[self.arc_from, self.nbr] = cost
        nxt[self.arc_from, self.nbr] = self.nbr
        dist[np.arange(n), np.arange(n)] = 0
        nxt[np.arange(n), np.arange(n)] = np.arange(n)
        cheapest_walks(dist, nxt, self._via)
        self._dist_key, self._dist = key, (dist, nxt)
        return dist, nxt

    def arcs_of(self, nodes):
        return [self.arc_index[(int(u), int(v))] for u, v in zip(nodes, nodes[1:])]

    # --- commuter runs -----------------------------------------------------------------

    def _best_commuter(self, size, dist, nxt):
        """The most a commuter run of up to ``size`` visits makes at the walks' prices
        ``dist``: its Station values less the cheapest walk of each leg (module
        docstring), and the nodes of those walks end to end; ``-INF`` and no nodes when
        there is none. (Below 0 too: a floor a better run's train must pass may be
        negative, and the priced proof compares this to it.)"""
        from trainruns.titles.g1831.route.kernels import best_commuter_run

        stations = np.zeros(max(size, 1), np.int64)
        best, length = best_commuter_run(self._st_scaled, dist, self._seq_start,
                                         self._seq_len, self._pos_ptr, self._pos_nodes, size, stations)
        return int(best), (self._walk(stations[:length].tolist(), nxt) if length else [])

    @staticmethod
    def _walk(stations, nxt):
        """The nodes of the cheapest walks between consecutive ``stations``, end to end."""
        nodes = [stations[0]]
        for a, b in zip(stations, stations[1:]):
            u = a
            while u != b:
                u = int(nxt[u, b])
                nodes.append(u)
        return nodes


def lagrangian_bound(arrays, lower=0, deadline=None, iterations=ITERATIONS):
    """The lowest bound the subgradient method finds for the run of ``arrays`` (a
    :class:`~trainruns.titles.g1831.route.model.StopArrays`), or None when there is no track
    or ``deadline`` came before the first prices were through. ``lower``: a revenue a run
    is known to reach (the method stops once the bound gets there)."""
    out = priced(arrays, lower, deadline, iterations)
    return None if out is None else int(out[0].value)


class _Commuting:
    """``pricing`` with the train kinds ``names`` held to commuter runs (5.6.7): their
    best priced routes are their best priced commuter runs, the others' as before (the
    interface the subgradient method uses, see :class:`Pricing1831`)."""

    def __init__(self, pricing, names):
        self._pricing, self._names = pricing, frozenset(names)

    def __getattr__(self, attr):
        return getattr(self._pricing, attr)

    def best(self, kind, cost, floor=-1, stop=None):
        if kind.name not in self._names:
            return self._pricing.best(kind, cost, floor, stop)
        dist, nxt = self._pricing._distances(cost)
        return self._pricing._best_commuter(kind.size, dist, nxt)


def commuting_bound(pricing, names, lower=0, deadline=None, iterations=ITERATIONS, board_prices=None):
    """A bound on the runs in which the trains ``names`` (a kind's name once per train of
    it) each run a commuter run (5.6.7): the track prices' bound
    (:func:`lagrangian_bound`) with those trains held to commuter runs, the prices found
    anew, rounded down to :func:`revenue_step`; at most ``lower`` once it gets there.
    With two trains held it bounds the runs with two commuter runs at once, the prices
    making both pay for the track they would share. None when a kind has a train not
    held (a kind's trains share one best priced route) or the deadline came first.

    With ``board_prices`` (the board's own track prices) the method goes two ways by
    turns (``COMMUTING_SLICES`` of the ``iterations``), one from those prices, one from
    0, each going on where it stopped, and the lower bound is kept (each is one)."""
    names = tuple(names)
    board_names = [t.name for t in pricing.compiled.board.trains]
    if any(board_names.count(name) != names.count(name) for name in names):
        return None
    step = pricing.step
    enough = lower + step - 1  # a bound below lower + step holds the runs to lower
    if board_prices is None:
        slices = ((False, iterations),)
    else:
        slices = tuple((at_board, max(1, round(share * iterations))) for at_board, share in COMMUTING_SLICES)
    held = _Commuting(pricing, names)
    going = {True: (board_prices, 2.0), False: (None, 2.0)}
    best = None
    for at_board, its in slices:
        start, theta = going[at_board]
        out = subgradient_bound(held, enough, deadline, its, start=start, theta=theta)
        if out is None:
            break  # the deadline came first
        best = int(out.value) if best is None else min(best, int(out.value))
        if best <= enough:
            break
        going[at_board] = (out.next_price, out.theta)
    return None if best is None else best - best % step


def revenue_step(arrays):
    """The step every revenue of ``arrays``' board is a multiple of: the greatest common
    divisor of what its tokens earn (5.6.3: a run earns the sum of its cities' values
    with their Station or Rail Yard values, ``st_val``/``yd_val``), 1 with none. A bound
    rounded down to it still bounds every run."""
    values = np.concatenate([arrays.st_val, arrays.yd_val])
    values = values[values > 0]
    return int(np.gcd.reduce(values)) if len(values) else 1


def priced(arrays, lower=0, deadline=None, iterations=ITERATIONS):
    """``(bound, pricing)``: :func:`lagrangian_bound`'s :class:`trainruns.route.lagrange.Bound`
    (its value, the prices, each kind's best priced route ``M``) and the
    :class:`Pricing1831` it priced; None as for :func:`lagrangian_bound`."""
    if arrays.compiled.n_chains == 0 or not arrays.model.board.trains:
        return None
    pricing = Pricing1831(arrays)
    if not len(pricing.starts):
        return None
    out = subgradient_bound(pricing, lower, deadline, iterations)
    return None if out is None else (out, pricing)


def token_bits(pricing, n_kinds, budget=REACH_BYTES):
    """Per stop, the bit of its token in the priced listing's cut (kernels.token_reach),
    or -1: as many of the corporation's tokens as ``n_kinds`` reach tables of ``budget``
    bytes hold (a table has a row per stop and a column per set of bits), those whose
    best gain is highest first. Returns ``(bit per stop, number of bits)``."""
    n = pricing.compiled.n_stops
    best = np.zeros(n, np.int64)
    for gain, _cap in pricing._gains.values():
        best = np.maximum(best, gain[:n])
    tokens = np.flatnonzero(best > 0)
    n_bits = 0
    while n_bits < len(tokens) and max(1, n_kinds) * n * (2 << n_bits) * 8 <= budget:
        n_bits += 1
    bit = np.full(n, -1, np.int64)
    chosen = tokens[np.argsort(-best[tokens], kind="stable")[:n_bits]]
    bit[np.sort(chosen)] = np.arange(n_bits)
    return bit, n_bits


def priced_cut(pricing, price, names, budget=REACH_BYTES):
    """kernels.token_paths' priced cut at bit prices ``price`` for the train kinds
    ``names`` (in that order), but for the floors, each target's own (None here):
    ``(chain prices, gains per kind and stop, reach tables, caps, None, token bits)``. A
    path's tokens entered are not counted again by its cut (:func:`token_bits`, at most
    ``budget`` bytes of tables)."""
    kind_of = {k.name: k for k in pricing.kinds}
    n = pricing.compiled.n_stops
    bit, n_bits = token_bits(pricing, len(names), budget)
    reaches, gains = zip(*(reach(pricing, price, kind_of[name], bit, n_bits) for name in names))
    return (pricing.chain_prices(price), np.array(gains, np.int64).reshape(len(names), n),
            np.array(reaches, np.int64).reshape(len(names), n, 1 << n_bits),
            np.array([pricing._gains[name][1] for name in names], np.int64), None, bit)


def reach(pricing, price, kind, bit=None, n_bits=0, gain=None):
    """Per stop and per set of allowed token bits (``bit``, ``n_bits``: :func:`token_bits`;
    none: one set), the most a path of a train of ``kind`` at that stop can still add at
    bit prices ``price`` (kernels.token_reach), scaled as the prices are; and its gain
    per stop. ``gain``: per node, the gains to use instead of the kind's own (scaled)."""
    from trainruns.titles.g1831.route.kernels import token_reach

    cost, _ = pricing.arc_costs(price)
    dist, _ = pricing._distances(cost)
    dist = np.minimum(dist, dist.T)  # (a chain and its reverse share their track: equal anyway)
    if gain is None:
        gain, _ = pricing._gains[kind.name]
    tokens = np.flatnonzero(gain > 0)
    n = pricing.compiled.n_stops
    if bit is None:
        bit, n_bits = np.full(n, -1, np.int64), 0
    if len(tokens) > MAX_TOKENS:
        out = np.full((pricing.n_nodes, 1 << n_bits), int(np.sort(gain)[::-1][:kind.size].sum()), np.int64)
    else:
        token_of = np.full(pricing.n_nodes, -1, np.int64)
        token_of[tokens] = np.arange(len(tokens))
        # (a Delaware twin node has no bit: always allowed, its real stop's bit aside)
        bit_of = np.array([bit[j] if j < n else -1 for j in tokens], np.int64)
        out = token_reach(np.ascontiguousarray(dist[:, tokens]), np.ascontiguousarray(dist[np.ix_(tokens, tokens)]),
                          gain[tokens], kind.size, token_of, bit_of, n_bits, pricing.clash(tokens))
    return out[:n], gain[:n]


class _Paths:
    """``pricing`` whose best priced route of a kind is the lower of its relaxed best
    (:meth:`Pricing1831.best`) and its best real path (:func:`best_path`), for
    :func:`refined` (the interface the subgradient method uses)."""

    def __init__(self, pricing, steps=REFINE_STEPS):
        self._pricing, self._steps = pricing, steps
        self._price = None
        self._too_long = set()  # kinds whose walk passed ``steps``: not walked again

    def __getattr__(self, attr):
        return getattr(self._pricing, attr)

    def arc_costs(self, price):
        self._price = price  # (the walk prices chains, not arcs)
        return self._pricing.arc_costs(price)

    def best(self, kind, cost, floor=-1, stop=None):
        value, line = self._pricing.best(kind, cost, floor, stop)
        if value is None or value <= 0 or kind.name in self._too_long:
            return value, line
        exact = best_path(self._pricing, self._price, kind, self._steps, stop)
        if exact is None and (stop is None or stop[0] == 0):
            self._too_long.add(kind.name)
        if exact is None or exact[0] >= value:
            return value, line
        if may_commute(kind) and self._pricing._commuter:
            # (the relaxed best may be a commuter run, 5.6.7, which is no path)
            run = self._pricing._best_commuter(kind.size, *self._pricing._distances(cost))
            if run[0] >= exact[0]:
                return run
        return exact[0], _ChainLine(exact[1])

    def line_bits(self, line, cheapest):
        if isinstance(line, _ChainLine):
            return np.concatenate([self._pricing.bits_of(c) for c in line])
        return self._pricing.line_bits(line, cheapest)


class _ChainLine(list):
    """A best path's chains (not a line of nodes): its bits are its chains' own."""


def best_path(pricing, price, kind, steps=REFINE_STEPS, stop=None):
    """``(M, chains)``: the most a real token-to-token path of ``kind`` makes at bit
    prices ``price`` (its tokens' gains, at most the kind's cap, less its chains'
    prices: module docstring), at least 0, and its chains (none: no path makes more
    than 0); None when the walk took more than ``steps`` steps or ``stop[0]`` was set.
    The walk (kernels.token_paths) keeps a path only above the floor, so each path it
    stops at is better than the last, and the floor is raised to it."""
    from trainruns.titles.g1831.route import kernels

    arrays = pricing.arrays
    comp = arrays.compiled
    chain_price, gain, reach_table, cap, _, token_bit = priced_cut(pricing, price, [kind.name], REFINE_REACH_BYTES)
    floor = np.zeros(1, np.int64)
    chains = []
    none = np.zeros(1, np.int64)
    no_bits = np.zeros((1, comp.words), np.uint64)
    status = np.zeros(1, np.int64)
    walked = 0
    for root in np.flatnonzero(arrays.stop_own):
        if stop is not None and stop[0] != 0:
            return None
        state = kernels.walk_state(comp.n_stops, len(arrays.rev_a), comp.words, int(root), 1)
        meta = state[-1]
        while True:
            # count only (no buffers), stopping at the first path kept past those found
            kernels.token_paths(comp.adj_ptr, arrays.walk_to, arrays.chain_bits, arrays.chain_und,
                                arrays.stop_group, arrays.stop_pass, arrays.stop_own, arrays.rev_a, arrays.rev_b,
                                none, none, none, no_bits, int(meta[2]), steps - walked, chain_price, gain,
                                reach_table, cap, floor, token_bit, *state, status)
            if status[0] != kernels.OVER:
                break
            depth = int(meta[0])
            floor[0] = min(int(cap[0]), int(state[7][depth - 1, 0])) - int(state[8][depth - 1])
            chains = state[1][:depth - 1].tolist()
        walked += int(meta[1])
        if status[0] == kernels.CUT or walked >= steps:
            return None
    return int(floor[0]), chains


def refined(pricing, bound, lower=0, deadline=None, iterations=REFINE_ITERATIONS, steps=REFINE_STEPS):
    """The track prices' bound ``bound`` (a :class:`trainruns.route.lagrange.Bound` of
    :func:`priced` for ``pricing``) lowered further: the subgradient method goes on from
    its prices with each kind's best priced route the lower of the relaxed one and its
    best real path (:class:`_Paths`, module docstring). Returns the lower of the two
    bounds (a Bound whose ``best`` are each kind's ``M`` at its prices, as the priced
    proof's floors need)."""
    if deadline is not None and time.perf_counter() >= deadline:
        return bound
    out = subgradient_bound(_Paths(pricing, steps), lower, deadline, iterations, start=bound.price,
                            theta=REFINE_THETA)
    return bound if out is None or out.total >= bound.total else out

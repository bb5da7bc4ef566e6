"""List only the routes that can matter: those that earn at least a threshold for some
train kind (plain rules, CONTRACT.md). The walk is :mod:`trainruns.kernels.routes`'
(each route once, from its lowest own token, as two arms), with one more test at every
step: a route is grown further only while some kind could still earn its threshold on
it, counting every stop it may still add at the board's best stop value.

Which threshold is safe is :mod:`trainruns.threshold`'s business: this kernel only
keeps its promise that no route earning at least ``threshold[k]`` for a kind ``k`` is
left out (what it earns is computed exactly afterwards; the kernel may keep some that
earn less).
"""

import numba as nb
import numpy as np

from .routes import _emit, _extend, _next_chain, _retract


@nb.njit(cache=True, inline="always")
def _alive(length, nontowns, total, kinds, bonus, threshold, vmax, emit):
    """Whether some kind may still earn its threshold on this route (``emit``: on the
    route as it is now) or on a longer one. ``kinds`` rows are (visits, counts,
    nontowns); ``bonus[k]`` is the most bonuses kind ``k`` can earn."""
    for k in range(kinds.shape[0]):
        visits, counts, most = kinds[k, 0], kinds[k, 1], kinds[k, 2]
        if length > visits or nontowns > most:
            continue
        more = 0 if emit else visits - length
        # every stop counts at most once and at most ``counts`` of them count
        bound = min(total + more * vmax, counts * vmax) if counts < visits else total + more * vmax
        if bound + bonus[k] >= threshold[k]:
            return True
    return False


@nb.njit(cache=True, nogil=True)  # nogil: roots run on both cores
def enumerate_bounded(roots, adj_ptr, adj_chain, chain_to, chain_bits, stop_passable, stop_own,
                      stop_town, stop_value, kinds, bonus, threshold, vmax,
                      route_ptr, route_stops, route_chains, route_split, route_bits, limit, stop):
    """As :func:`trainruns.kernels.routes.enumerate_routes`, keeping only routes on which
    some kind ``k`` (a row of ``kinds``: visits, counts, nontowns) may earn
    ``threshold[k]``: at most the sum of its stops (or ``counts * vmax``) plus
    ``bonus[k]``. A branch is left as soon as no longer route can reach a threshold."""
    n_stops = stop_own.shape[0]
    words = chain_bits.shape[1]
    max_visits = 0
    max_nontowns = 0
    for k in range(kinds.shape[0]):
        max_visits = max(max_visits, kinds[k, 0])
        max_nontowns = max(max_nontowns, kinds[k, 2])
    depth_cap = min(max_visits, n_stops) + 1
    on_route = np.zeros(n_stops, dtype=np.bool_)
    used = np.zeros(words, dtype=np.uint64)
    arm1 = np.empty(depth_cap, dtype=np.int64)
    arm2 = np.empty(depth_cap, dtype=np.int64)
    it1 = np.empty(depth_cap, dtype=np.int64)
    it2 = np.empty(depth_cap, dtype=np.int64)
    n = 0
    seen = 0
    overflow = False
    route_ptr[0] = 0
    for root in roots:
        if not _alive(1, 0 if stop_town[root] else 1, stop_value[root], kinds, bonus, threshold, vmax, False):
            continue
        on_route[root] = True
        nontown1 = 0 if stop_town[root] else 1
        total1 = stop_value[root]
        d1 = 0
        it1[0] = adj_ptr[root]
        while True:
            end1 = root if d1 == 0 else chain_to[arm1[d1 - 1]]
            c = -1
            if (d1 == 0 or stop_passable[end1]) and d1 + 1 < max_visits:
                c = _next_chain(it1, d1, end1, adj_ptr, adj_chain, chain_to, chain_bits, used,
                                on_route, stop_own, stop_town, root, nontown1, max_nontowns, -1)
            if c < 0:
                if d1 == 0:
                    break
                d1 -= 1
                total1 -= stop_value[chain_to[arm1[d1]]]
                nontown1 = _retract(arm1, d1, chain_to, chain_bits, stop_town, on_route, used, nontown1)
                continue
            nontown1 = _extend(arm1, d1, c, it1, adj_ptr, chain_to, chain_bits, stop_town, on_route, used,
                               nontown1)
            total1 += stop_value[chain_to[c]]
            d1 += 1
            if not _alive(d1 + 1, nontown1, total1, kinds, bonus, threshold, vmax, False):
                # no route through this arm can earn enough: try the next chain instead
                d1 -= 1
                total1 -= stop_value[chain_to[c]]
                nontown1 = _retract(arm1, d1, chain_to, chain_bits, stop_town, on_route, used, nontown1)
                continue
            seen += 1
            if (seen & 1023) == 0 and stop[0] != 0:
                return n
            if _alive(d1 + 1, nontown1, total1, kinds, bonus, threshold, vmax, True):
                if not overflow and not _emit(n, route_ptr, route_stops, route_chains, route_split,
                                              route_bits, used, root, arm1, d1, arm2, 0, chain_to):
                    overflow = True
                n += 1
                if n > limit:
                    return n
            # arm 2: the root is passed through, so it must be passable
            if not stop_passable[root]:
                continue
            d2 = 0
            nontown = nontown1
            total = total1
            it2[0] = adj_ptr[root]
            while True:
                end2 = root if d2 == 0 else chain_to[arm2[d2 - 1]]
                c2 = -1
                if (d2 == 0 or stop_passable[end2]) and d1 + d2 + 1 < max_visits:
                    c2 = _next_chain(it2, d2, end2, adj_ptr, adj_chain, chain_to, chain_bits, used,
                                     on_route, stop_own, stop_town, root, nontown, max_nontowns,
                                     arm1[0] if d2 == 0 else -1)
                if c2 < 0:
                    if d2 == 0:
                        break
                    d2 -= 1
                    total -= stop_value[chain_to[arm2[d2]]]
                    nontown = _retract(arm2, d2, chain_to, chain_bits, stop_town, on_route, used, nontown)
                    continue
                nontown = _extend(arm2, d2, c2, it2, adj_ptr, chain_to, chain_bits, stop_town, on_route, used,
                                  nontown)
                total += stop_value[chain_to[c2]]
                d2 += 1
                if not _alive(d1 + d2 + 1, nontown, total, kinds, bonus, threshold, vmax, False):
                    d2 -= 1
                    total -= stop_value[chain_to[c2]]
                    nontown = _retract(arm2, d2, chain_to, chain_bits, stop_town, on_route, used, nontown)
                    continue
                seen += 1
                if (seen & 1023) == 0 and stop[0] != 0:
                    return n
                if _alive(d1 + d2 + 1, nontown, total, kinds, bonus, threshold, vmax, True):
                    if not overflow and not _emit(n, route_ptr, route_stops, route_chains, route_split,
                                                  route_bits, used, root, arm1, d1, arm2, d2, chain_to):
                        overflow = True
                    n += 1
                    if n > limit:
                        return n
        on_route[root] = False
    return n

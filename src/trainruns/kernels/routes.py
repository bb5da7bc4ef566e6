"""Enumerate every legal route of a corporation (plain rules, CONTRACT.md).

A route is an unbranched line of chains: no stop twice, no track bit twice, 2..max
stops, at least one stop holding the corporation's token; only its two ends may be
impassable (off-boards, cities full of other tokens).

Each route is found exactly once. It is grown from its *root*, the lowest-numbered own
token on it, as two *arms*: arm 1 is walked first and arm 2 leaves the root by a chain
of higher id than arm 1's first chain (or is empty). The route is arm 1 reversed, the
root, then arm 2.
"""

import numba as nb
import numpy as np

from .bits import overlaps, toggle


@nb.njit(cache=True)
def _next_chain(it, depth, end_stop, adj_ptr, chain_to, chain_bits, used, on_route,
                stop_own, stop_town, root, nontowns, max_nontowns, min_chain):
    """Advance the chain iterator of ``depth`` to the next chain that can extend the
    arm ending at ``end_stop``; return it, or -1 when none is left."""
    while it[depth] < adj_ptr[end_stop + 1]:
        c = it[depth]  # chains leaving a stop are numbered adj_ptr[s] .. adj_ptr[s + 1] - 1
        it[depth] += 1
        if c <= min_chain:
            continue
        t = chain_to[c]
        if on_route[t]:
            continue
        if stop_own[t] and t < root:
            continue  # this route belongs to the lower root
        if not stop_town[t] and nontowns + 1 > max_nontowns:
            continue
        if overlaps(used, chain_bits[c]):
            continue
        return c
    return -1


@nb.njit(cache=True)
def _emit(n, route_ptr, route_stops, route_chains, route_split, route_bits, used,
          root, arm1, d1, arm2, d2, chain_to):
    """Write route ``n`` (arm 1 reversed, root, arm 2) if the buffers have room."""
    length = d1 + 1 + d2
    start = route_ptr[n]
    if n + 1 >= route_ptr.shape[0] or start + length > route_stops.shape[0]:
        return False
    k = start
    for i in range(d1 - 1, -1, -1):
        route_stops[k] = chain_to[arm1[i]]
        route_chains[k] = arm1[i]
        k += 1
    route_stops[k] = root
    k += 1
    for i in range(d2):
        route_stops[k] = chain_to[arm2[i]]
        route_chains[k - 1] = arm2[i]
        k += 1
    route_ptr[n + 1] = k
    route_split[n] = d1
    route_bits[n, :] = used
    return True


@nb.njit(cache=True, nogil=True, inline="always")
def _extend(arm, depth, c, it, adj_ptr, chain_to, chain_bits, stop_town, on_route, used, nontowns):
    """Put chain ``c`` at ``depth`` of an arm; return the new count of non-town stops."""
    t = chain_to[c]
    arm[depth] = c
    on_route[t] = True
    toggle(used, chain_bits[c])
    it[depth + 1] = adj_ptr[t]
    return nontowns if stop_town[t] else nontowns + 1


@nb.njit(cache=True, nogil=True, inline="always")
def _retract(arm, depth, chain_to, chain_bits, stop_town, on_route, used, nontowns):
    """Take back the chain at ``depth`` of an arm; return the new count of non-town stops."""
    c = arm[depth]
    t = chain_to[c]
    on_route[t] = False
    toggle(used, chain_bits[c])
    return nontowns if stop_town[t] else nontowns - 1


@nb.njit(cache=True, nogil=True)  # nogil: roots run on both cores
def enumerate_routes(roots, adj_ptr, chain_to, chain_bits, stop_passable, stop_own,
                     stop_town, max_visits, max_nontowns,
                     route_ptr, route_stops, route_chains, route_split, route_bits, limit, stop):
    """Fill the route buffers; return the number of routes (more than the buffers hold
    means: call again with larger buffers). Counting stops at ``limit + 1`` routes: a
    return above ``limit`` means the enumeration was cut short (the caller's budget),
    and the routes written are still legal, just not all of them. ``route_chains[route_ptr[r] + i]`` is the
    chain between stops i and i+1 of route r; the first ``route_split[r]`` of them are
    walked backwards (they are arm 1 reversed).

    ``stop[0]`` is looked at every 1,024 routes: another thread sets it (a deadline,
    Ctrl-C) to end the listing early; the count returned is then of the routes so far."""
    n_stops = stop_own.shape[0]
    words = chain_bits.shape[1]
    depth_cap = min(max_visits, n_stops) + 1
    on_route = np.zeros(n_stops, dtype=np.bool_)
    used = np.zeros(words, dtype=np.uint64)
    arm1 = np.empty(depth_cap, dtype=np.int64)
    arm2 = np.empty(depth_cap, dtype=np.int64)
    it1 = np.empty(depth_cap, dtype=np.int64)
    it2 = np.empty(depth_cap, dtype=np.int64)
    n = 0
    overflow = False
    route_ptr[0] = 0
    for root in roots:
        on_route[root] = True
        nontown1 = 0 if stop_town[root] else 1
        d1 = 0
        it1[0] = adj_ptr[root]
        while True:
            end1 = root if d1 == 0 else chain_to[arm1[d1 - 1]]
            c = -1
            if (d1 == 0 or stop_passable[end1]) and d1 + 1 < max_visits:
                c = _next_chain(it1, d1, end1, adj_ptr, chain_to, chain_bits, used,
                                on_route, stop_own, stop_town, root, nontown1, max_nontowns, -1)
            if c < 0:
                if d1 == 0:
                    break
                d1 -= 1
                nontown1 = _retract(arm1, d1, chain_to, chain_bits, stop_town, on_route, used, nontown1)
                continue
            nontown1 = _extend(arm1, d1, c, it1, adj_ptr, chain_to, chain_bits, stop_town, on_route, used,
                               nontown1)
            d1 += 1
            if not overflow and not _emit(n, route_ptr, route_stops, route_chains, route_split,
                                          route_bits, used, root, arm1, d1, arm2, 0, chain_to):
                overflow = True
            n += 1
            if n > limit:
                return n
            if (n & 1023) == 0 and stop[0] != 0:
                return n
            # arm 2: the root is passed through, so it must be passable
            if not stop_passable[root]:
                continue
            d2 = 0
            nontown = nontown1
            it2[0] = adj_ptr[root]
            while True:
                end2 = root if d2 == 0 else chain_to[arm2[d2 - 1]]
                c2 = -1
                if (d2 == 0 or stop_passable[end2]) and d1 + d2 + 1 < max_visits:
                    c2 = _next_chain(it2, d2, end2, adj_ptr, chain_to, chain_bits, used,
                                     on_route, stop_own, stop_town, root, nontown, max_nontowns,
                                     arm1[0] if d2 == 0 else -1)
                if c2 < 0:
                    if d2 == 0:
                        break
                    d2 -= 1
                    nontown = _retract(arm2, d2, chain_to, chain_bits, stop_town, on_route, used, nontown)
                    continue
                nontown = _extend(arm2, d2, c2, it2, adj_ptr, chain_to, chain_bits, stop_town, on_route, used,
                                  nontown)
                d2 += 1
                if not overflow and not _emit(n, route_ptr, route_stops, route_chains, route_split,
                                              route_bits, used, root, arm1, d1, arm2, d2, chain_to):
                    overflow = True
                n += 1
                if n > limit:
                    return n
                if (n & 1023) == 0 and stop[0] != 0:
                    return n
        on_route[root] = False
    return n

"""Enumerate every legal route of a corporation (plain rules, docs/custom-map.md).

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

from trainruns.route.kernels.assign import _first_free
from trainruns.route.kernels.bits import overlaps, toggle


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


# ``floor`` of :func:`enumerate_valued_routes` when every route is wanted
NO_FLOOR = -(1 << 62)


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
    # (the valued listing with no floor and no rest: the same routes, in the same order)
    z = np.zeros(stop_own.shape[0], dtype=np.int64)
    floor = np.array([NO_FLOOR, 0], dtype=np.int64)
    rest = no_rest(chain_bits.shape[0], chain_bits.shape[1])
    return enumerate_valued_routes(roots, adj_ptr, chain_to, chain_bits, stop_passable,
                                   stop_own, stop_town, max_visits, max_nontowns,
                                   route_ptr, route_stops, route_chains, route_split, route_bits,
                                   limit, stop, z, np.zeros(max_visits + 1, dtype=np.int64), 0, floor,
                                   *rest)


@nb.njit(cache=True)
def no_rest(n_chains, words):
    """The ``rest`` arguments of :func:`enumerate_valued_routes` for no other trains."""
    e = np.zeros(0, dtype=np.int64)
    return (e, e, np.zeros(0, dtype=np.bool_), e, e, np.zeros((0, words), dtype=np.uint64),
            np.zeros((0, 64 * words), dtype=np.uint64), np.zeros(0, dtype=np.bool_), NO_FLOOR,
            np.zeros(n_chains + 1, dtype=np.int64), e, 0, np.zeros(2, dtype=np.int64))


@nb.njit(cache=True)
def _rest_bound(rest_start, rest_end, rest_twin, rest_route, rest_value, rest_bits, masks, built,
                ub, nub, scan_cap, work):
    """What the other trains can earn at most with the track ``ub[:nub]`` taken: each at
    the first route of its list (best first) using none of it, twins at distinct routes
    (:mod:`trainruns.route.kernels.assign`, the bound of a node)."""
    total = 0
    prev = -1
    for j in range(rest_start.shape[0]):
        lo = prev + 1 if rest_twin[j] else rest_start[j]
        hi = rest_end[j]
        k = _first_free(masks, built, rest_route, rest_bits, ub, nub, lo, hi, rest_value, -1, scan_cap,
                        work)
        if k < 0:  # cut short: candidate -k-1 is unchecked but bounds every later one
            k = -k - 1
        if k < hi:
            total += rest_value[k]
        prev = k
    return total


@nb.njit(cache=True, inline="always")
def _push(ub, nub, chain_bit_ptr, chain_bit_idx, c):
    for i in range(chain_bit_ptr[c], chain_bit_ptr[c + 1]):
        ub[nub] = chain_bit_idx[i]
        nub += 1
    return nub


@nb.njit(cache=True, nogil=True)  # nogil: roots run on both cores
def enumerate_valued_routes(roots, adj_ptr, chain_to, chain_bits, stop_passable, stop_own,
                            stop_town, max_visits, max_nontowns,
                            route_ptr, route_stops, route_chains, route_split, route_bits, limit, stop,
                            stop_gain, top_gain, extra, floor,
                            rest_start, rest_end, rest_twin, rest_route, rest_value, rest_bits, masks,
                            built, lower, chain_bit_ptr, chain_bit_idx, scan_cap, work):
    """:func:`enumerate_routes`, keeping only the routes that may earn more than
    ``floor[0]``, and not walking lines that cannot lead to one.

    A route's *gain* is the sum of ``stop_gain`` over its stops plus ``extra``; the
    caller makes it an upper bound on what any train earns on the route (non-negative
    stop values, every bonus in ``extra``). A line of ``k`` stops can grow into routes
    of at most ``max_visits`` stops, whose gain is at most its own plus
    ``top_gain[max_visits - k]`` (``top_gain[j]``: the ``j`` best stop gains of the
    board): where that is not above the floor, no route through the line is listed and
    the line is not extended. With ``floor[1]`` set the floor rises to the gain of each
    route listed, so the last route listed is one of the best (by gain) and ``floor[0]``
    its gain: the best gain over all routes, found without listing them all.

    The *rest*: the other trains of the run, each with its candidate routes best first
    (``rest_start``/``rest_end`` into ``rest_route``/``rest_value``, ``rest_twin`` for a
    train of the same name as the one before, ``masks``/``built`` as in
    :func:`trainruns.route.kernels.assign.block_masks` over ``rest_bits``). With some, a line
    is also dropped when its best gain plus what the rest can earn around its track
    (:func:`_rest_bound`) is not above ``lower``: only routes that may be part of a run
    earning more than ``lower`` are listed. ``chain_bit_ptr``/``chain_bit_idx`` list each
    chain's track bits; ``work[1]`` counts the blocks of candidates checked."""
    n_stops = stop_own.shape[0]
    words = chain_bits.shape[1]
    depth_cap = min(max_visits, n_stops) + 1
    on_route = np.zeros(n_stops, dtype=np.bool_)
    used = np.zeros(words, dtype=np.uint64)
    arm1 = np.empty(depth_cap, dtype=np.int64)
    arm2 = np.empty(depth_cap, dtype=np.int64)
    it1 = np.empty(depth_cap, dtype=np.int64)
    it2 = np.empty(depth_cap, dtype=np.int64)
    has_rest = rest_start.shape[0] > 0
    ub = np.empty(words * 64 if has_rest else 0, dtype=np.int64)
    nub1 = np.zeros(depth_cap + 1, dtype=np.int64)  # used bits after each chain of arm 1
    nub2 = np.zeros(depth_cap + 1, dtype=np.int64)
    n = 0
    walked = 0  # lines walked: ``stop`` is looked at every 4,096 too (few may be listed)
    overflow = False
    route_ptr[0] = 0
    rising = floor[1] != 0
    for root in roots:
        on_route[root] = True
        nontown1 = 0 if stop_town[root] else 1
        gain1 = stop_gain[root] + extra
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
                gain1 -= stop_gain[chain_to[arm1[d1]]]
                nontown1 = _retract(arm1, d1, chain_to, chain_bits, stop_town, on_route, used, nontown1)
                continue
            nontown1 = _extend(arm1, d1, c, it1, adj_ptr, chain_to, chain_bits, stop_town, on_route, used,
                               nontown1)
            gain1 += stop_gain[chain_to[c]]
            d1 += 1
            walked += 1
            if (walked & 4095) == 0 and stop[0] != 0:
                return n
            reach = gain1 + top_gain[max_visits - d1 - 1]
            rb1 = 0
            if reach > floor[0] and has_rest:
                nub1[d1] = _push(ub, nub1[d1 - 1], chain_bit_ptr, chain_bit_idx, c)
                rb1 = _rest_bound(rest_start, rest_end, rest_twin, rest_route, rest_value, rest_bits,
                                  masks, built, ub, nub1[d1], scan_cap, work)
                if reach + rb1 <= lower:
                    reach = floor[0]
            if reach <= floor[0]:
                # no route through this line can be wanted: neither the line itself, nor
                # its extensions, nor any arm 2 after it
                it1[d1] = adj_ptr[chain_to[c] + 1]
                continue
            if gain1 > floor[0] and (not has_rest or gain1 + rb1 > lower):
                if not overflow and not _emit(n, route_ptr, route_stops, route_chains, route_split,
                                              route_bits, used, root, arm1, d1, arm2, 0, chain_to):
                    overflow = True
                n += 1
                if rising:
                    floor[0] = gain1
                if n > limit:
                    return n
                if (n & 1023) == 0 and stop[0] != 0:
                    return n
            # arm 2: the root is passed through, so it must be passable
            if not stop_passable[root]:
                continue
            d2 = 0
            nontown = nontown1
            gain = gain1
            nub2[0] = nub1[d1]
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
                    gain -= stop_gain[chain_to[arm2[d2]]]
                    nontown = _retract(arm2, d2, chain_to, chain_bits, stop_town, on_route, used, nontown)
                    continue
                nontown = _extend(arm2, d2, c2, it2, adj_ptr, chain_to, chain_bits, stop_town, on_route, used,
                                  nontown)
                gain += stop_gain[chain_to[c2]]
                d2 += 1
                walked += 1
                if (walked & 4095) == 0 and stop[0] != 0:
                    return n
                reach = gain + top_gain[max_visits - d1 - d2 - 1]
                rb = 0
                if reach > floor[0] and has_rest:
                    nub2[d2] = _push(ub, nub2[d2 - 1], chain_bit_ptr, chain_bit_idx, c2)
                    rb = _rest_bound(rest_start, rest_end, rest_twin, rest_route, rest_value, rest_bits,
                                     masks, built, ub, nub2[d2], scan_cap, work)
                    if reach + rb <= lower:
                        reach = floor[0]
                if reach <= floor[0]:
                    it2[d2] = adj_ptr[chain_to[c2] + 1]
                    continue
                if gain > floor[0] and (not has_rest or gain + rb > lower):
                    if not overflow and not _emit(n, route_ptr, route_stops, route_chains, route_split,
                                                  route_bits, used, root, arm1, d1, arm2, d2, chain_to):
                        overflow = True
                    n += 1
                    if rising:
                        floor[0] = gain
                    if n > limit:
                        return n
                    if (n & 1023) == 0 and stop[0] != 0:
                        return n
        on_route[root] = False
    return n

"""The best route of one train when every piece of track has a price (the Lagrangian
bound of :mod:`trainruns.route.lagrange`).

A route here is a line of distinct stops joined by chains; with the track priced, the
cheapest chain joins each pair of stops, so a route is walked stop by stop over the
*stop graph* (each pair of stops with a chain between them, at the price of its
cheapest one). Two chains of one route may then share track: the subproblem of the
relaxation, whose best is never below the best real route (module docstring of
:mod:`trainruns.route.lagrange`).
"""

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def walk_bounds(nbr_ptr, nbr, nbr_cost, stop_gain, stop_passable, visits):
    """``h[j, a]``: the most ``j`` more stops can add after a line arrives over arc ``a``
    (their gains less the arcs' prices, stopping any time, each stop but the last
    passable, never going straight back over the stop just left). Such a walk may come
    back to a stop later, so this bounds every line of distinct stops that goes on."""
    n = stop_gain.shape[0]
    n_arcs = nbr.shape[0]
    arc_from = np.empty(n_arcs, dtype=np.int64)
    for s in range(n):
        for a in range(nbr_ptr[s], nbr_ptr[s + 1]):
            arc_from[a] = s
    h = np.zeros((visits + 1, n_arcs), dtype=np.int64)
    for j in range(1, visits + 1):
        for a in range(n_arcs):
            s, u = arc_from[a], nbr[a]
            best = 0
            for b in range(nbr_ptr[u], nbr_ptr[u + 1]):
                w = nbr[b]
                if w == s:
                    continue
                v = stop_gain[w] - nbr_cost[b]
                if stop_passable[w]:
                    v += h[j - 1, b]
                if v > best:
                    best = v
            h[j, a] = best
    return h


@nb.njit(cache=True, nogil=True)
def best_priced_route(nbr_ptr, nbr, nbr_cost, stop_gain, stop_town, stop_passable, stop_own,
                      visits, nontowns, cap, extra, floor, path, stop):
    """The most a route can make, its stops' gains (at most ``cap``) plus ``extra`` less
    the prices of its stop-graph arcs, if above ``floor``; and its stops in ``path``.

    Stop graph in CSR form: the arcs leaving stop ``s`` go to ``nbr[nbr_ptr[s]:nbr_ptr[s
    + 1]]`` at the prices ``nbr_cost`` (never negative). A route has 2 to ``visits``
    distinct stops, at most ``nontowns`` of them not towns, at least one holding a
    token; every stop but its two ends is passable. Returns ``(value, length)``:
    ``length`` 0 when no route makes more than ``floor`` (``value`` is ``floor`` then),
    -1 when ``stop[0]`` (looked at every 4,096 lines, set by another thread) ended the
    walk early: ``value`` is then no bound.

    The walk is cut where even the best walk of the stops left (``h`` below: revisits
    allowed, so never below a route's) cannot lift the line above the best so far."""
    n = stop_gain.shape[0]
    visits = min(visits, n)
    h = walk_bounds(nbr_ptr, nbr, nbr_cost, stop_gain, stop_passable, visits)
    best = floor
    best_len = 0
    on = np.zeros(n, dtype=np.bool_)
    cur = np.empty(visits, dtype=np.int64)
    it = np.empty(visits, dtype=np.int64)
    gain = np.zeros(visits + 1, dtype=np.int64)
    cost = np.zeros(visits + 1, dtype=np.int64)
    nts = np.zeros(visits + 1, dtype=np.int64)
    owns = np.zeros(visits + 1, dtype=np.int64)
    walked = 0
    for s0 in range(n):
        cur[0] = s0
        on[s0] = True
        gain[1] = stop_gain[s0]
        cost[1] = 0
        nts[1] = 0 if stop_town[s0] else 1
        owns[1] = 1 if stop_own[s0] else 0
        if nts[1] > nontowns:
            on[s0] = False
            continue
        k = 1  # stops on the line
        it[0] = nbr_ptr[s0]
        while k > 0:
            end = cur[k - 1]
            a = -1
            if k < visits and (k == 1 or stop_passable[end]):
                while it[k - 1] < nbr_ptr[end + 1]:
                    b = it[k - 1]
                    it[k - 1] += 1
                    u = nbr[b]
                    if on[u]:
                        continue
                    if not stop_town[u] and nts[k] + 1 > nontowns:
                        continue
                    more = h[visits - k - 1, b] if stop_passable[u] else 0
                    if min(gain[k] + stop_gain[u] + more, cap) + extra - cost[k] - nbr_cost[b] <= best:
                        continue
                    a = b
                    break
            if a < 0:
                k -= 1
                on[cur[k]] = False
                continue
            u = nbr[a]
            cur[k] = u
            on[u] = True
            gain[k + 1] = gain[k] + stop_gain[u]
            cost[k + 1] = cost[k] + nbr_cost[a]
            nts[k + 1] = nts[k] + (0 if stop_town[u] else 1)
            owns[k + 1] = owns[k] + (1 if stop_own[u] else 0)
            k += 1
            it[k - 1] = nbr_ptr[u]
            walked += 1
            if (walked & 4095) == 0 and stop[0] != 0:
                return best, -1
            if owns[k] > 0:
                v = min(gain[k], cap) + extra - cost[k]
                if v > best:
                    best = v
                    best_len = k
                    path[:k] = cur[:k]
    return best, best_len


@nb.njit(cache=True, nogil=True)
def list_priced_routes(adj_ptr, chain_to, chain_bits, chain_price, chain_arc, h, stop_gain, stop_town,
                       stop_passable, stop_own, visits, nontowns, cap, extra, floor,
                       route_ptr, route_stops, route_chains, route_bits, limit, stop):
    """Every route (real ones now: no track twice) whose gain (at most ``cap``, plus
    ``extra``) less its chains' prices is above ``floor``, once each (listed from its end
    with the lower stop id; chains all walked forwards). ``h``: :func:`walk_bounds` at the
    arc prices of these chain prices (each arc at its cheapest chain; ``chain_arc``: the
    arc of each chain), which cuts every line that cannot reach above ``floor``. Returns the number of routes; above ``limit``
    the buffers were too small and the listing stopped. ``stop[0]`` (set by another
    thread) ends the listing early too: then the count is of the routes so far."""
    n = stop_gain.shape[0]
    words = chain_bits.shape[1]
    visits = min(visits, n)
    on = np.zeros(n, dtype=np.bool_)
    used = np.zeros(words, dtype=np.uint64)
    cur = np.empty(visits, dtype=np.int64)
    arm = np.empty(visits, dtype=np.int64)
    it = np.empty(visits, dtype=np.int64)
    gain = np.zeros(visits + 1, dtype=np.int64)
    cost = np.zeros(visits + 1, dtype=np.int64)
    nts = np.zeros(visits + 1, dtype=np.int64)
    owns = np.zeros(visits + 1, dtype=np.int64)
    count = 0
    walked = 0
    route_ptr[0] = 0
    for s0 in range(n):
        nts[1] = 0 if stop_town[s0] else 1
        if nts[1] > nontowns:
            continue
        cur[0] = s0
        on[s0] = True
        gain[1] = stop_gain[s0]
        cost[1] = 0
        owns[1] = 1 if stop_own[s0] else 0
        k = 1
        it[0] = adj_ptr[s0]
        while k > 0:
            end = cur[k - 1]
            c = -1
            if k < visits and (k == 1 or stop_passable[end]):
                while it[k - 1] < adj_ptr[end + 1]:
                    d = it[k - 1]
                    it[k - 1] += 1
                    u = chain_to[d]
                    if on[u]:
                        continue
                    if not stop_town[u] and nts[k] + 1 > nontowns:
                        continue
                    more = h[visits - k - 1, chain_arc[d]] if stop_passable[u] else 0
                    if min(gain[k] + stop_gain[u] + more, cap) + extra - cost[k] - chain_price[d] <= floor:
                        continue
                    clash = False
                    for w in range(words):
                        if used[w] & chain_bits[d, w]:
                            clash = True
                            break
                    if clash:
                        continue
                    c = d
                    break
            if c < 0:
                k -= 1
                on[cur[k]] = False
                if k > 0:
                    for w in range(words):
                        used[w] ^= chain_bits[arm[k - 1], w]
                continue
            u = chain_to[c]
            cur[k] = u
            arm[k - 1] = c
            on[u] = True
            for w in range(words):
                used[w] ^= chain_bits[c, w]
            gain[k + 1] = gain[k] + stop_gain[u]
            cost[k + 1] = cost[k] + chain_price[c]
            nts[k + 1] = nts[k] + (0 if stop_town[u] else 1)
            owns[k + 1] = owns[k] + (1 if stop_own[u] else 0)
            k += 1
            it[k - 1] = adj_ptr[u]
            walked += 1
            if (walked & 4095) == 0 and stop[0] != 0:
                return count
            if owns[k] > 0 and s0 < u and min(gain[k], cap) + extra - cost[k] > floor:
                if count < limit:
                    a = route_ptr[count]
                    for i in range(k):
                        route_stops[a + i] = cur[i]
                    for i in range(k - 1):
                        route_chains[a + i] = arm[i]
                    route_chains[a + k - 1] = -1
                    route_ptr[count + 1] = a + k
                    route_bits[count, :] = used
                count += 1
                if count > limit:
                    return count
    return count

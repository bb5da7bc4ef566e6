"""What each route earns for each kind of train (docs/custom-map.md, plain rules).

A kind is (visits, counts, nontowns). A route too long for the kind earns -1 (it may not
run it). Otherwise it earns its counted stops (the ``counts`` best, which must include a
city with the corporation's token) plus every bonus whose stop groups it touches.
"""

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)  # nogil: halves of a big route set run on both cores
def route_values(route_ptr, route_stops, n_routes, stop_value, stop_town, stop_own, stop_groups,
                 bonus_required, bonus_amount, bonus_kind_ok, kinds):
    """Return an int64 array [n_routes, n_kinds] of revenues (-1: not runnable).

    ``bonus_kind_ok[b, k]`` says whether bonus b pays trains of kind k."""
    n_kinds = kinds.shape[0]
    out = np.full((n_routes, n_kinds), -1, dtype=np.int64)
    longest = 0
    for r in range(n_routes):
        longest = max(longest, route_ptr[r + 1] - route_ptr[r])
    buf = np.empty(longest + 1, dtype=np.int64)  # one route's stop values at a time
    for r in range(n_routes):
        a, b = route_ptr[r], route_ptr[r + 1]
        length = b - a
        towns = 0
        groups = 0
        for i in range(a, b):
            s = route_stops[i]
            if stop_town[s]:
                towns += 1
            groups |= stop_groups[s]
        for k in range(n_kinds):
            visits, counts, nontowns = kinds[k, 0], kinds[k, 1], kinds[k, 2]
            if length > visits or length - towns > nontowns:
                continue
            out[r, k] = _counted_value(route_stops, a, b, counts, stop_value, stop_own, buf)
            for bo in range(bonus_required.shape[0]):
                if bonus_kind_ok[bo, k] and (groups & bonus_required[bo]) == bonus_required[bo]:
                    out[r, k] += bonus_amount[bo]
    return out


@nb.njit(cache=True)
def _counted_value(route_stops, a, b, counts, stop_value, stop_own, buf):
    """Sum of the ``counts`` best stops of the route, at least one of them a token city."""
    length = b - a
    if counts >= length:
        total = 0
        for i in range(a, b):
            total += stop_value[route_stops[i]]
        return total
    for i in range(length):
        buf[i] = stop_value[route_stops[a + i]]
    buf[:length].sort()
    total = 0
    for i in range(length - counts, length):
        total += buf[i]
    # is a token city among the counted? if not, swap it in for the weakest counted stop
    threshold = buf[length - counts]
    best_own = -(1 << 60)
    own_counted = False
    for i in range(a, b):
        s = route_stops[i]
        if stop_own[s]:
            if stop_value[s] >= threshold:
                own_counted = True
            if stop_value[s] > best_own:
                best_own = stop_value[s]
    if own_counted:
        return total
    return total - threshold + best_own

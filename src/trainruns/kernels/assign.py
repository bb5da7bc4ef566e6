"""Pick one route per train, no two sharing a track bit, to maximise the total.

Depth-first branch and bound over the trains in order (train ``d`` at depth ``d``).
Each train's candidates are sorted by value, best first. Trains of the same name
(*twins*) take candidates in increasing list order (or idle after an idle twin), which
removes permutations of identical trains. A train may always idle.

The bound is conditional on the track already used. On entering a node with used bits
``U``, each train ``j >= d`` gets ``b_j``: the value of the first candidate (from where
that train may start) that is compatible with ``U``; a later twin starts after the
candidate its predecessor was given, so ``m`` twins are bounded by ``m`` distinct
candidates. Every completion of the node picks, for each remaining train, a candidate
compatible with ``U`` (more track is only ever added), and those are at most the
``b_j``: so ``val + sum b_j`` is admissible. It is far tighter than "best candidate of
each train", which ignores that the strongest routes of a late-game board share track.
Because candidates are sorted, the loop over train ``d``'s candidates stops at the
first ``v`` with ``val + v + sum_{j>d} b_j <= best``.

The search is resumable: it stops after ``budget`` nodes and keeps its state in the
arrays passed in, so the caller can report progress and honour a time limit.
"""

import numba as nb
import numpy as np

from .bits import overlaps, set_or


@nb.njit(cache=True)
def _enter(d, n_trains, start, end, twin, cand_route, cand_value, route_bits, pos, used, restb,
           nodebound, val, found, bval, best, work, scan_cap):
    """Compute the conditional bound of the node at depth ``d`` (see module docstring);
    move ``pos[d]`` to train d's first compatible candidate.

    ``found[d, j]`` keeps where train j's first compatible candidate was and ``bval[d, j]``
    its value: a child only adds track, so its scan for j may start there, and the
    parent's value bounds the child's. With those as optimistic stand-ins for the trains
    not scanned yet, a scan stops as soon as the node cannot beat ``best`` (its bound is
    then recorded as at most ``best``, and the caller backtracks): without this, a
    train with no compatible candidate left would walk its whole list."""
    optimistic = val[d]
    for j in range(d, n_trains):
        optimistic += bval[d - 1, j] if d > 0 else (cand_value[start[j]] if end[j] > start[j] else 0)
    total = val[d]
    prev = -1
    for j in range(d, n_trains):
        ub = bval[d - 1, j] if d > 0 else (cand_value[start[j]] if end[j] > start[j] else 0)
        optimistic -= ub
        if j == d:
            lo = pos[d]
        elif twin[j]:
            lo = prev + 1
        else:
            lo = start[j]
        if d > 0 and found[d - 1, j] > lo:
            lo = found[d - 1, j]
        hi = end[j]
        k = lo
        limit = lo + scan_cap
        while k < hi and k < limit:
            work[2] += 1
            if total + cand_value[k] + optimistic <= best:
                nodebound[d] = total + cand_value[k] + optimistic
                return
            if not overlaps(used[d], route_bits[cand_route[k]]):
                break
            k += 1
        found[d, j] = k
        prev = k
        # stopped at the cap: candidate k is unchecked but bounds every later one
        b = cand_value[k] if k < hi else 0
        bval[d, j] = b
        if j == d:
            pos[d] = k
        total += b
    restb[d] = total - val[d] - bval[d, d]
    nodebound[d] = total


@nb.njit(cache=True)
def branch_and_bound(start, end, twin, cand_route, cand_value, route_bits, restb, nodebound, found,
                     bval, depth_arr, pos, stage, used, val, choice, best_arr, best_choice, budget, nodes_arr,
                     scan_cap):
    """Run until the search is finished (return 0) or ``budget`` nodes were expanded
    (return 1); ``nodes_arr[0]`` counts expanded nodes. ``depth_arr[0]`` is the current
    depth (-1 before the start: it is then initialised); ``best_arr[0]`` the incumbent
    value; ``best_choice`` its candidate indices (-1 = idle)."""
    n_trains = start.shape[0]
    d = depth_arr[0]
    best = best_arr[0]
    if d == -1:
        if n_trains == 0:
            depth_arr[0] = -2
            return 0
        d = 0
        pos[0] = start[0]
        stage[0] = 0
        val[0] = 0
        used[0, :] = 0
        _enter(0, n_trains, start, end, twin, cand_route, cand_value, route_bits, pos, used, restb,
               nodebound, val, found, bval, best, nodes_arr, scan_cap)
    nodes = 0
    while d >= 0:
        if d == n_trains:
            if val[d] > best:
                best = val[d]
                for i in range(n_trains):
                    best_choice[i] = choice[i]
            d -= 1
            continue
        if nodes >= budget:
            depth_arr[0] = d
            best_arr[0] = best
            nodes_arr[0] += nodes
            return 1
        if nodebound[d] <= best:
            d -= 1
            continue
        if stage[d] == 0:
            descended = False
            while pos[d] < end[d]:
                k = pos[d]
                pos[d] += 1
                v = cand_value[k]
                if val[d] + v + restb[d] <= best:
                    pos[d] = end[d]
                    break
                r = cand_route[k]
                nodes_arr[1] += 1
                if overlaps(used[d], route_bits[r]):
                    continue
                choice[d] = k
                val[d + 1] = val[d] + v
                set_or(used[d + 1], used[d], route_bits[r])
                if d + 1 < n_trains:
                    pos[d + 1] = k + 1 if twin[d + 1] else start[d + 1]
                    stage[d + 1] = 0
                    _enter(d + 1, n_trains, start, end, twin, cand_route, cand_value, route_bits,
                           pos, used, restb, nodebound, val, found, bval, best, nodes_arr, scan_cap)
                d += 1
                nodes += 1
                descended = True
                break
            if descended:
                continue
            stage[d] = 1
            if val[d] + restb[d] > best:
                choice[d] = -1
                val[d + 1] = val[d]
                used[d + 1, :] = used[d]
                if d + 1 < n_trains:
                    pos[d + 1] = end[d + 1] if twin[d + 1] else start[d + 1]
                    stage[d + 1] = 0
                    _enter(d + 1, n_trains, start, end, twin, cand_route, cand_value, route_bits,
                           pos, used, restb, nodebound, val, found, bval, best, nodes_arr, scan_cap)
                d += 1
                nodes += 1
                continue
        d -= 1
    depth_arr[0] = -2
    best_arr[0] = best
    nodes_arr[0] += nodes
    return 0


@nb.njit(cache=True)
def open_bound(depth_arr, nodebound, best_arr):
    """An upper bound on every run not yet ruled out, for a search stopped early: the
    largest conditional bound of a node still open on the path to depth ``d``."""
    bound = best_arr[0]
    d = depth_arr[0]
    for i in range(min(d, nodebound.shape[0] - 1) + 1):
        if nodebound[i] > bound:
            bound = nodebound[i]
    return bound

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

from trainruns.route.kernels.bits import set_or
from trainruns.route.kernels.blocks import block_masks  # noqa: F401 (its callers' name for it, here beside the search)

# de Bruijn multiplication: the index of the lowest set bit of a uint64 in O(1)
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_CTZ = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _CTZ[((1 << _i) * 0x03F79D71B4CB0A89 & 0xFFFFFFFFFFFFFFFF) >> 58] = _i


@nb.njit(cache=True)
def _build_block(masks, b, cand_route, route_bits):
    n = cand_route.shape[0]
    for k in range(b << 6, min(n, (b + 1) << 6)):
        r = cand_route[k]
        one = np.uint64(1) << np.uint64(k & 63)
        for w in range(route_bits.shape[1]):
            x = route_bits[r, w]
            while x:
                low = x & (~x + np.uint64(1))
                masks[b, w * 64 + _CTZ[(low * _DEBRUIJN) >> np.uint64(58)]] |= one
                x ^= low


@nb.njit(cache=True, inline="always")
def _first_free(masks, built, cand_route, route_bits, ub, nub, lo, hi, cand_value, floor, max_blocks,
                work):
    """The first candidate in [lo, hi) using none of the track bits ``ub[:nub]``.

    Returns hi when there is none, or when the scan reaches candidates worth at most
    ``floor`` (sorted lists: nothing later can matter); returns the first unchecked
    index (< hi) after ``max_blocks`` blocks, which the caller treats as a bound only."""
    k = lo
    blocks = 0
    while k < hi:
        if cand_value[k] <= floor:
            return hi
        if blocks == max_blocks:
            return -k - 1  # cut: -(index) - 1
        b = k >> 6
        if not built[b]:
            _build_block(masks, b, cand_route, route_bits)
            built[b] = True
        blocked = np.uint64(0)
        for i in range(nub):
            blocked |= masks[b, ub[i]]
        work[1] += 1
        off = k & 63
        if off:
            blocked |= (np.uint64(1) << np.uint64(off)) - np.uint64(1)
        free = ~blocked
        top = hi - (b << 6)
        if top < 64:
            free &= (np.uint64(1) << np.uint64(top)) - np.uint64(1)
        if free:
            low = free & (~free + np.uint64(1))
            return (b << 6) + _CTZ[(low * _DEBRUIJN) >> np.uint64(58)]
        k = (b + 1) << 6
        blocks += 1
    return hi


@nb.njit(cache=True, inline="always")
def _push_bits(ub, nub, d, route_bits, r):
    """Used bits of depth d + 1: those of depth d plus route r's."""
    n = nub[d]
    ub[d + 1, :n] = ub[d, :n]
    for w in range(route_bits.shape[1]):
        x = route_bits[r, w]
        while x:
            low = x & (~x + np.uint64(1))
            ub[d + 1, n] = w * 64 + _CTZ[(low * _DEBRUIJN) >> np.uint64(58)]
            n += 1
            x ^= low
    nub[d + 1] = n


@nb.njit(cache=True)
def _enter(d, n_trains, start, end, twin, cand_route, route_bits, cand_value, masks, built, ub, nub,
           pos, restb, nodebound, val,
           found, bval, best, work, scan_cap):
    """Compute the conditional bound of the node at depth ``d`` (see module docstring);
    move ``pos[d]`` to train d's first compatible candidate.

    ``found[d, j]`` keeps where train j's first compatible candidate was and ``bval[d, j]``
    its value: a child only adds track, so its scan for j may start there, and the
    parent's value bounds the child's. With those as optimistic stand-ins for the trains
    not scanned yet, a scan stops as soon as the node cannot beat ``best`` (its bound is
    then recorded as at most ``best``, and the caller backtracks): without this, a train
    with no compatible candidate left would walk its whole list. A scan also stops after
    ``scan_cap`` blocks: the candidate reached bounds every later one."""
    optimistic = val[d]
    for j in range(d, n_trains):
        optimistic += bval[d - 1, j] if d > 0 else (cand_value[start[j]] if end[j] > start[j] else 0)
    total = val[d]
    prev = -1
    for j in range(d, n_trains):
        ub_j = bval[d - 1, j] if d > 0 else (cand_value[start[j]] if end[j] > start[j] else 0)
        optimistic -= ub_j
        if j == d:
            lo = pos[d]
        elif twin[j]:
            lo = prev + 1
        else:
            lo = start[j]
        if d > 0 and found[d - 1, j] > lo:
            lo = found[d - 1, j]
        hi = end[j]
        k = _first_free(masks, built, cand_route, route_bits, ub[d], nub[d], lo, hi, cand_value,
                        best - total - (optimistic - val[d]),
                        scan_cap, work)
        if k < 0:  # cut short: candidate -k-1 is unchecked but bounds every later one
            k = -k - 1
        b = cand_value[k] if k < hi else 0
        found[d, j] = k
        bval[d, j] = b
        prev = k
        if j == d:
            pos[d] = k
        total += b
    restb[d] = total - val[d] - bval[d, d]
    nodebound[d] = total


@nb.njit(cache=True, nogil=True)  # nogil: a long call runs on a thread Ctrl-C can leave
def branch_and_bound(start, end, twin, cand_route, cand_value, route_bits, masks, built, ub, nub, restb,
                     nodebound, found, bval, depth_arr, pos, stage, used, val, choice, best_arr,
                     best_choice, budget, nodes_arr, scan_cap):
    """Run until the search is finished (return 0) or ``budget`` nodes were expanded
    (or 64 times as many blocks checked: return 1); ``nodes_arr[0]`` counts expanded nodes, ``nodes_arr[1]`` blocks of 64
    candidates checked. ``depth_arr[0]`` is the current depth (-1 before the start: it
    is then initialised); ``best_arr[0]`` the incumbent value; ``best_choice`` its
    candidate indices (-1 = idle). ``masks`` come from :func:`block_masks`; ``ub[d]``
    lists the used track bits at depth d (``nub[d]`` of them)."""
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
        nub[0] = 0
        _enter(0, n_trains, start, end, twin, cand_route, route_bits, cand_value, masks, built, ub, nub,
               pos, restb, nodebound, val,
               found, bval, best, nodes_arr, scan_cap)
    nodes = 0
    # blocks checked count as work too: one node can scan a long list, and the caller's
    # deadline must still be seen every so often
    block_budget = nodes_arr[1] + 64 * budget
    while d >= 0:
        if d == n_trains:
            if val[d] > best:
                best = val[d]
                for i in range(n_trains):
                    best_choice[i] = choice[i]
            d -= 1
            continue
        if nodes >= budget or nodes_arr[1] >= block_budget:
            depth_arr[0] = d
            best_arr[0] = best
            nodes_arr[0] += nodes
            return 1
        if nodebound[d] <= best:
            d -= 1
            continue
        if stage[d] == 0:
            k = _first_free(masks, built, cand_route, route_bits, ub[d], nub[d], pos[d], end[d], cand_value,
                            best - val[d] - restb[d],
                            -1, nodes_arr)
            if k < end[d]:
                pos[d] = k + 1
                r = cand_route[k]
                choice[d] = k
                val[d + 1] = val[d] + cand_value[k]
                set_or(used[d + 1], used[d], route_bits[r])
                _push_bits(ub, nub, d, route_bits, r)
                if d + 1 < n_trains:
                    pos[d + 1] = k + 1 if twin[d + 1] else start[d + 1]
                    stage[d + 1] = 0
                    _enter(d + 1, n_trains, start, end, twin, cand_route, route_bits, cand_value, masks,
                           built, ub, nub, pos, restb,
                           nodebound, val, found, bval, best, nodes_arr, scan_cap)
                d += 1
                nodes += 1
                continue
            pos[d] = end[d]
            stage[d] = 1
            if val[d] + restb[d] > best:
                choice[d] = -1
                val[d + 1] = val[d]
                used[d + 1, :] = used[d]
                nub[d + 1] = nub[d]
                ub[d + 1, :nub[d]] = ub[d, :nub[d]]
                if d + 1 < n_trains:
                    pos[d + 1] = end[d + 1] if twin[d + 1] else start[d + 1]
                    stage[d + 1] = 0
                    _enter(d + 1, n_trains, start, end, twin, cand_route, route_bits, cand_value, masks,
                           built, ub, nub, pos, restb,
                           nodebound, val, found, bval, best, nodes_arr, scan_cap)
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

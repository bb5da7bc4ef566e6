"""The baseline: the branch and bound as it was before the benchmarks (commit fa8ebba).

Kept verbatim so that every benchmark row can be compared, in the same process, with
the search it replaced: per-candidate mask comparisons, and a static bound (each
remaining train at its best route, whatever track is used).

Pick one route per train, no two sharing a track bit, to maximise the total.

Depth-first branch and bound over the trains in order. Each train's candidates are
sorted by value, best first, so once ``value so far + candidate + best of the remaining
trains`` cannot beat the incumbent, no later candidate can either. Trains of the same
name take candidates in increasing list order (or idle after an idle twin), which removes
permutations of identical trains. A train may always idle.

The search is resumable: it stops after ``budget`` nodes and keeps its state in the
arrays passed in, so the caller can report progress and honour a time limit.
"""

import numba as nb
import numpy as np

from trainruns.route.kernels.bits import overlaps, set_or


@nb.njit(cache=True)
def branch_and_bound(start, end, twin, cand_route, cand_value, route_bits, rest,
                     depth_arr, pos, stage, used, val, choice, best_arr, best_choice, budget, nodes_arr):
    """Run until the search is finished (return 0) or ``budget`` nodes were expanded
    (return 1); ``nodes_arr[0]`` counts expanded nodes. ``depth_arr[0]`` is the current depth (-1 before the start: it is then
    initialised); ``best_arr[0]`` the incumbent value; ``best_choice`` its candidate
    indices (-1 = idle)."""
    n_trains = start.shape[0]
    d = depth_arr[0]
    best = best_arr[0]
    if d == -1:
        d = 0
        pos[0] = start[0]
        stage[0] = 0
        val[0] = 0
        used[0, :] = 0
        if n_trains == 0:
            depth_arr[0] = -2
            return 0
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
        if stage[d] == 0:
            descended = False
            while pos[d] < end[d]:
                k = pos[d]
                pos[d] += 1
                v = cand_value[k]
                if val[d] + v + rest[d + 1] <= best:
                    pos[d] = end[d]
                    break
                r = cand_route[k]
                if overlaps(used[d], route_bits[r]):
                    continue
                choice[d] = k
                val[d + 1] = val[d] + v
                set_or(used[d + 1], used[d], route_bits[r])
                if d + 1 < n_trains:
                    pos[d + 1] = k + 1 if twin[d + 1] else start[d + 1]
                    stage[d + 1] = 0
                d += 1
                nodes += 1
                descended = True
                break
            if descended:
                continue
            stage[d] = 1
            if val[d] + rest[d + 1] > best:
                choice[d] = -1
                val[d + 1] = val[d]
                used[d + 1, :] = used[d]
                if d + 1 < n_trains:
                    pos[d + 1] = end[d + 1] if twin[d + 1] else start[d + 1]
                    stage[d + 1] = 0
                d += 1
                nodes += 1
                continue
        d -= 1
    depth_arr[0] = -2
    best_arr[0] = best
    nodes_arr[0] += nodes
    return 0


@nb.njit(cache=True)
def open_bound(depth_arr, val, rest, best_arr):
    """An upper bound on every run not yet ruled out, for a search stopped early: at each
    open level d the value so far plus the best the remaining trains could add."""
    bound = best_arr[0]
    d = depth_arr[0]
    for i in range(min(d, val.shape[0] - 1) + 1):
        b = val[i] + rest[i]
        if b > bound:
            bound = b
    return bound


def baseline_assign(routes, deadline=None, budget=1 << 16):
    """The old ``assign_trains`` set-up around the old kernel: (revenue, proven)."""
    import time

    board = routes.compiled.board
    order = sorted(range(len(board.trains)),
                   key=lambda i: (-board.trains[i].visits, -board.trains[i].counts, board.trains[i].name))
    trains = [board.trains[i] for i in order]
    kind_index = {name: k for k, name in enumerate(routes.kinds)}
    seg, cand_route, cand_value, offset = {}, [], [], 0
    for t in trains:
        if t.name in seg:
            continue
        v = routes.values[:, kind_index[t.name]] if len(routes) else np.zeros(0, np.int64)
        idx = np.flatnonzero(v > 0)
        idx = idx[np.argsort(-v[idx], kind="stable")]
        seg[t.name] = (offset, offset + len(idx))
        cand_route.append(idx)
        cand_value.append(v[idx])
        offset += len(idx)
    cand_route = np.concatenate(cand_route) if cand_route else np.zeros(0, np.int64)
    cand_value = np.concatenate(cand_value) if cand_value else np.zeros(0, np.int64)
    n = len(trains)
    start = np.array([seg[t.name][0] for t in trains], dtype=np.int64)
    end = np.array([seg[t.name][1] for t in trains], dtype=np.int64)
    twin = np.array([i > 0 and trains[i].name == trains[i - 1].name for i in range(n)], dtype=np.bool_)
    top = np.array([cand_value[s] if e > s else 0 for s, e in zip(start, end)], dtype=np.int64)
    rest = np.zeros(n + 1, dtype=np.int64)
    for i in range(n - 1, -1, -1):
        rest[i] = rest[i + 1] + top[i]
    words = routes.bits.shape[1]
    depth = np.array([-1], dtype=np.int64)
    pos = np.zeros(n + 1, dtype=np.int64)
    stage = np.zeros(n + 1, dtype=np.int64)
    used = np.zeros((n + 1, words), dtype=np.uint64)
    val = np.zeros(n + 1, dtype=np.int64)
    choice = np.full(n + 1, -1, dtype=np.int64)
    best = np.zeros(1, dtype=np.int64)
    best_choice = np.full(max(n, 1), -1, dtype=np.int64)
    nodes = np.zeros(1, dtype=np.int64)
    while True:
        status = branch_and_bound(start, end, twin, cand_route, cand_value, routes.bits, rest,
                                  depth, pos, stage, used, val, choice, best, best_choice, budget, nodes)
        if status == 0:
            return int(best[0]), True
        if deadline is not None and time.perf_counter() > deadline:
            return int(best[0]), False

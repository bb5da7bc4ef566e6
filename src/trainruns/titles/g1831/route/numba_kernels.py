"""numba kernels of the 1831 route model. model.py and bound.py take them from
kernels.py, which gives the same kernels compiled ahead of time with the core's
(trainruns.route.kernels.aot) when that module is built, these otherwise.

``token_paths``: every line of track from one of the corporation's tokens to another
(5.6.2, 5.6.2.5), passing cities that do not block, using no track twice and no city
hex twice except the Delaware large city (5.6.2.1). Each path is found from both ends
and kept once.

``best_counts``: for one path and one train, the best choice of tokens to run to
(5.6.2.3, 5.6.2.5, 5.6.3), per set of bought track rights covered (5.6.5).

``assign_covering``: trains to routes with no shared track, every bought right run to
by some train (5.6.2, 5.6.5).

``assign_by_value``: trains to classes of routes of equal value (passing cities freely
gives one token sequence many tracks), track resolved only for the classes chosen
(5.6.2: no two trains share track).
"""

import numba as nb
import numpy as np

from trainruns.titles.g1831.route.kernel_arrays import CUT, DONE, FULL, NEG, OVER, no_prices, walk_state


@nb.njit(cache=True)
def _overlaps(a, b):
    for w in range(a.shape[0]):
        if a[w] & b[w]:
            return True
    return False


@nb.njit(cache=True)
def _toggle(dst, a):
    for w in range(dst.shape[0]):
        dst[w] ^= a[w]




@nb.njit(cache=True)
def token_paths(adj_ptr, chain_to, chain_bits, chain_und, stop_group, stop_pass,
                stop_own, rev_a, rev_b, out_ptr, out_stops, out_chains, out_bits, limit, steps_limit,
                chain_price, kind_gain, reach, kind_cap, kind_floor, token_bit,
                path, chains, it, visits, uses, first, used, gsum, psum, allow, meta, status):
    """Fill the buffers with the next paths of the walk whose place is kept in ``path
    .. meta`` (:func:`walk_state`; the root is ``path[0]``); return how many this call
    stored. With no room at all (``out_ptr`` of length 1) it only counts the paths and
    their stops (``meta``). ``status[0]``: DONE, FULL (buffers full: empty them and call again, the walk
    goes on where it stopped, so a root's paths need not all be held at once), OVER
    (more than ``limit`` paths in all: too many to list) or CUT (``steps_limit`` above 0
    and that many steps forward taken: the paths found so far, in the walk's fixed
    order, are kept; a bound on work that does not depend on the clock, for the game's
    runs).

    A path enters a city group once; stops of one group are entered one after the other
    (a city and its red extension, 5.2.3.10). A group with ``rev_a >= 0`` (Delaware) may
    be entered a second time once the path has entered groups ``rev_a`` and ``rev_b``
    since its first entry. A path is kept from the end with the lower stop id (for a loop
    back to its start: the lower undirected id of its first chain).

    The priced cut (``kind_gain`` with a row per train kind; none: no cut): a chain is
    taken only if, for some kind ``k``, the path's gains so far (``kind_gain[k]`` of its
    stops) less its chains' ``chain_price``, plus ``reach[k]`` of the stop it reaches
    (the most the rest can add: :func:`token_reach`, looked up at the bits
    ``token_bit`` of the tokens the path has not entered), and its kind's ``kind_cap``
    less the price, are both above ``kind_floor[k]``; a path is kept only if its gains
    (at most the cap) less its price are above some kind's floor (model.py's priced
    listing)."""
    n_kinds = kind_gain.shape[0]
    n_stops = stop_group.shape[0]
    cap = n_stops + 2
    root = path[0]
    depth = meta[0]
    steps = meta[1]
    if depth == 0 and steps == 0:  # a fresh walk
        psum[0] = 0
        for k in range(n_kinds):
            gsum[0, k] = kind_gain[k, root]
        if n_kinds:
            allow[0] = reach.shape[2] - 1
            if token_bit[root] >= 0:
                allow[0] ^= 1 << token_bit[root]
        visits[root] = 1
        uses[stop_group[root]] = 1
        first[stop_group[root]] = 0
        it[0] = adj_ptr[root]
        depth = 1
    n = 0
    out_ptr[0] = 0
    status[0] = DONE
    count_only = out_ptr.shape[0] == 1
    while depth > 0:
        cur = path[depth - 1]
        moved = False
        if depth == 1 or stop_pass[cur]:
            while it[depth - 1] < adj_ptr[cur + 1]:
                c = it[depth - 1]  # the chains leaving a stop s: adj_ptr[s] .. adj_ptr[s + 1] - 1
                if _overlaps(used, chain_bits[c]):
                    it[depth - 1] += 1
                    continue
                t = chain_to[c]
                g, gc = stop_group[t], stop_group[cur]
                if g == gc:
                    if visits[t] > 0:
                        it[depth - 1] += 1
                        continue
                elif uses[g] > 0:
                    a = rev_a[g]
                    if not (uses[g] == 1 and a >= 0 and first[a] > first[g] and first[rev_b[g]] > first[g]):
                        it[depth - 1] += 1
                        continue
                if depth + 1 > cap:
                    it[depth - 1] += 1
                    continue
                keep = stop_own[t] and (t > root or t == root and chain_und[chains[0] if depth > 1 else c] < chain_und[c])
                a = 0
                if n_kinds:
                    p = psum[depth - 1] + chain_price[c]
                    a = allow[depth - 1]
                    if token_bit[t] >= 0:
                        a &= ~(1 << token_bit[t])
                    alive = False
                    worth = False
                    for k in range(n_kinds):
                        gain = gsum[depth - 1, k] + kind_gain[k, t]
                        if min(kind_cap[k] - p, gain - p + reach[k, t, a]) > kind_floor[k]:
                            alive = True
                        if min(kind_cap[k], gain) - p > kind_floor[k]:
                            worth = True
                    if not alive:
                        it[depth - 1] += 1
                        continue
                    keep = keep and worth
                if keep and not count_only and (n + 1 >= out_ptr.shape[0]
                                                or out_ptr[n] + depth + 1 > out_stops.shape[0]):
                    # no room for this path: stop here, before taking the chain
                    status[0] = FULL
                    meta[0], meta[1] = depth, steps
                    return n
                it[depth - 1] += 1
                chains[depth - 1] = c
                path[depth] = t
                if n_kinds:
                    psum[depth] = psum[depth - 1] + chain_price[c]
                    allow[depth] = a
                    for k in range(n_kinds):
                        gsum[depth, k] = gsum[depth - 1, k] + kind_gain[k, t]
                visits[t] += 1
                if g != gc:
                    uses[g] += 1
                    if uses[g] == 1:
                        first[g] = depth
                _toggle(used, chain_bits[c])
                it[depth] = adj_ptr[t]
                depth += 1
                moved = True
                steps += 1
                if keep:
                    if not count_only:
                        start = out_ptr[n]
                        for i in range(depth):
                            out_stops[start + i] = path[i]
                            out_chains[start + i] = chains[i] if i < depth - 1 else -1
                        out_ptr[n + 1] = start + depth
                        out_bits[n, :] = used
                        n += 1
                    meta[2] += 1
                    meta[3] += depth
                    if meta[2] > limit:
                        status[0] = OVER
                        meta[0], meta[1] = depth, steps
                        return n
                if steps_limit > 0 and steps >= steps_limit:
                    status[0] = CUT
                    meta[0], meta[1] = depth, steps
                    return n
                break
        if not moved:
            depth -= 1
            if depth == 0:
                break
            t = path[depth]
            g, gc = stop_group[t], stop_group[path[depth - 1]]
            visits[t] -= 1
            if g != gc:
                uses[g] -= 1
                if uses[g] == 0:
                    first[g] = -1
            _toggle(used, chain_bits[chains[depth - 1]])
    meta[0], meta[1] = 0, steps + 1
    return n


@nb.njit(cache=True)
def token_sequences(ptr, stops, stop_group, earns, separator, out_ptr, out_stops, out_hash):
    """Each path cut down to what its value depends on: the stops where the
    corporation has a token (``earns``), and ``separator`` (a stop of a group of its
    own that earns nothing) between two of one city group that the path left and came
    back to (the Delaware, 5.6.2.1). Passed cities without such a token only use track
    (5.6.2.3): the value is the same (kernels.best_counts treats a passed stop of
    another group as a visit where nothing is run to). Fills ``out_*`` (``out_hash``: a
    hash of each sequence, equal sequences equal hashes); returns stops written."""
    n = ptr.shape[0] - 1
    w = 0
    out_ptr[0] = 0
    for r in range(n):
        h = np.uint64(14695981039346656037)
        last_g = -1
        left = False
        for i in range(ptr[r], ptr[r + 1]):
            s = stops[i]
            g = stop_group[s]
            if earns[s]:
                if g == last_g and left:
                    out_stops[w] = separator
                    w += 1
                    h = (h ^ np.uint64(separator + 1)) * np.uint64(1099511628211)
                out_stops[w] = s
                w += 1
                h = (h ^ np.uint64(s + 1)) * np.uint64(1099511628211)
                last_g = g
                left = False
            elif g != last_g:
                left = True
        out_ptr[r + 1] = w
        out_hash[r] = h
    return w


@nb.njit(cache=True)
def same_sequence(ptr, stops, rep):
    """Whether path r's sequence equals that of path ``rep[r]`` (a hash collision
    check)."""
    n = ptr.shape[0] - 1
    out = np.ones(n, np.bool_)
    for r in range(n):
        q = rep[r]
        if q == r:
            continue
        if ptr[r + 1] - ptr[r] != ptr[q + 1] - ptr[q]:
            out[r] = False
            continue
        for i in range(ptr[r + 1] - ptr[r]):
            if stops[ptr[r] + i] != stops[ptr[q] + i]:
                out[r] = False
                break
    return out


@nb.njit(cache=True)
def best_counts(ptr, stops, stop_group, st_val, yd_val, st_right, yd_right, kind_type, kind_size,
                kind_cap_s, kind_cap_y, strict, n_masks, out):
    """``out[r, k, m]``: the most train kind ``k`` earns on path ``r`` while running to
    exactly the bought rights ``m`` (bit i: right i), or -1.

    Rules: the first and last stops are run to (5.6.2.5); 2..size tokens; an S train
    runs to Stations, a YD train to Rail Yards, an MX train to at least one of each
    (5.6.2.3; a 2MX: one of each), and to at most ``kind_cap_s`` Stations and
    ``kind_cap_y`` Rail Yards (0 for the type a train does not run to; a mixed train's
    printed counts when the position gives them); at most one token per visit of a city
    (a city and its red extension are one visit); each earns city value + token value
    (5.6.3, given in ``st_val`` / ``yd_val``, -1 where the corporation has no such
    token). With ``strict`` the train may not pass a token it could run to without
    running to it. ``kind_type``: 0 S, 1 YD, 2 MX."""
    n_routes = ptr.shape[0] - 1
    n_kinds = kind_type.shape[0]
    out[:, :, :] = -1
    local = np.empty(64, np.int64)
    for r in range(n_routes):
        a, b = ptr[r], ptr[r + 1]
        length = b - a
        # the rights met on this path, renumbered 0.. so the state stays small
        n_local = 0
        for i in range(a, b):
            for rb in (st_right[stops[i]], yd_right[stops[i]]):
                if rb >= 0:
                    seen = False
                    for j in range(n_local):
                        if local[j] == rb:
                            seen = True
                    if not seen and n_local < 64:
                        local[n_local] = rb
                        n_local += 1
        lm = 1 << n_local
        for k in range(n_kinds):
            ty = kind_type[k]
            size = min(kind_size[k], length)
            ns = min(kind_cap_s[k], size)
            ny = min(kind_cap_y[k], size)
            # state index: ((stations * (ny + 1) + yards) * lm + rightmask) * 3 + f, where
            # f says what happened in the current city visit: 0 nothing, 1 ran to a
            # token, 2 (strict only) passed a token it could run to, still owing one
            n_state = (ns + 1) * (ny + 1) * lm * 3
            cur = np.full(n_state, NEG, np.int64)
            nxt = np.full(n_state, NEG, np.int64)
            for i in range(length):
                s = stops[a + i]
                same = i > 0 and stop_group[s] == stop_group[stops[a + i - 1]]
                can_s = ns > 0 and st_val[s] >= 0
                can_y = ny > 0 and yd_val[s] >= 0
                lrs, lry = 0, 0
                for j in range(n_local):
                    if local[j] == st_right[s]:
                        lrs = 1 << j
                    if local[j] == yd_right[s]:
                        lry = 1 << j
                if i == 0:
                    if can_s:
                        idx = ((1 * (ny + 1) + 0) * lm + lrs) * 3 + 1
                        cur[idx] = max(cur[idx], st_val[s])
                    if can_y:
                        idx = ((0 * (ny + 1) + 1) * lm + lry) * 3 + 1
                        cur[idx] = max(cur[idx], yd_val[s])
                    continue
                nxt[:] = NEG
                last = i == length - 1
                for cs in range(ns + 1):
                    for cy in range(ny + 1):
                        if cs + cy > size:
                            continue
                        for rm in range(lm):
                            for f in range(3):
                                v = cur[((cs * (ny + 1) + cy) * lm + rm) * 3 + f]
                                if v == NEG:
                                    continue
                                if not same and f == 2:
                                    continue  # left a city owing a token (strict)
                                fr = f if same else 0
                                if not last:
                                    fs = fr
                                    if fr == 0 and strict and (can_s or can_y):
                                        fs = 2
                                    idx = ((cs * (ny + 1) + cy) * lm + rm) * 3 + fs
                                    nxt[idx] = max(nxt[idx], v)
                                if fr != 1 and cs + cy < size:
                                    if can_s and cs < ns:
                                        idx = (((cs + 1) * (ny + 1) + cy) * lm + (rm | lrs)) * 3 + 1
                                        nxt[idx] = max(nxt[idx], v + st_val[s])
                                    if can_y and cy < ny:
                                        idx = ((cs * (ny + 1) + cy + 1) * lm + (rm | lry)) * 3 + 1
                                        nxt[idx] = max(nxt[idx], v + yd_val[s])
                tmp = cur
                cur = nxt
                nxt = tmp
            for cs in range(ns + 1):
                for cy in range(ny + 1):
                    if cs + cy < 2 or cs + cy > size:
                        continue
                    if ty == 2 and (cs == 0 or cy == 0):
                        continue
                    for rm in range(lm):
                        v = cur[((cs * (ny + 1) + cy) * lm + rm) * 3 + 1]
                        if v == NEG:
                            continue
                        gm = 0
                        for j in range(n_local):
                            if rm & (1 << j):
                                gm |= 1 << local[j]
                        if gm < n_masks and v > out[r, k, gm]:
                            out[r, k, gm] = v
    return out


@nb.njit(cache=True, nogil=True)
def assign_covering(start, end, twin, cand_route, cand_value, cand_mask, route_bits, rest, full,
                    best_choice, max_nodes, stopped, stop):
    """Depth-first branch and bound: train d takes a candidate of ``start[d]:end[d]``
    (sorted by value, best first) or idles; no two share a track bit; a complete choice
    counts only if the candidates' masks cover ``full`` (5.6.2, 5.6.5). Returns the
    best total (-1: no choice covers ``full``); ``best_choice`` gets its candidate per
    train (-1 idle). After ``max_nodes`` nodes (a game's fixed budget; negative: no
    limit), or once ``stop[0]`` is set (by another thread, at a deadline), it stops
    with the best found so far and sets ``stopped[0]``."""
    n = start.shape[0]
    words = route_bits.shape[1]
    pos = np.zeros(n + 1, np.int64)
    stage = np.zeros(n + 1, np.int64)
    val = np.zeros(n + 1, np.int64)
    cov = np.zeros(n + 1, np.int64)
    used = np.zeros((n + 1, words), np.uint64)
    choice = np.full(n + 1, -1, np.int64)
    best = -1
    if n == 0:
        return 0 if full == 0 else -1
    d = 0
    pos[0] = start[0]
    nodes = 0
    looked = 0
    while d >= 0:
        nodes += 1
        if max_nodes >= 0 and nodes > max_nodes:
            stopped[0] = True
            return best
        if d == n:
            if cov[d] == full and val[d] > best:
                best = val[d]
                for i in range(n):
                    best_choice[i] = choice[i]
            d -= 1
            continue
        if stage[d] == 0:
            descended = False
            while pos[d] < end[d]:
                # (a node may pass over many candidates that share track: the flag is
                # looked at per candidate, so a deadline holds however many there are)
                looked += 1
                if (looked & 4095) == 0 and stop[0] != 0:
                    stopped[0] = True
                    return best
                k = pos[d]
                pos[d] += 1
                if val[d] + cand_value[k] + rest[d + 1] <= best:
                    pos[d] = end[d]
                    break
                r = cand_route[k]
                if _overlaps(used[d], route_bits[r]):
                    continue
                choice[d] = k
                val[d + 1] = val[d] + cand_value[k]
                cov[d + 1] = cov[d] | cand_mask[k]
                for w in range(words):
                    used[d + 1, w] = used[d, w] | route_bits[r, w]
                if d + 1 < n:
                    pos[d + 1] = k + 1 if twin[d + 1] else start[d + 1]
                    stage[d + 1] = 0
                d += 1
                descended = True
                break
            if descended:
                continue
            stage[d] = 1
            if val[d] + rest[d + 1] > best:
                choice[d] = -1
                val[d + 1] = val[d]
                cov[d + 1] = cov[d]
                used[d + 1, :] = used[d]
                if d + 1 < n:
                    pos[d + 1] = end[d + 1] if twin[d + 1] else start[d + 1]
                    stage[d + 1] = 0
                d += 1
                continue
        d -= 1
    return best


@nb.njit(cache=True)
def popcounts(bits):
    """Track bits set per row of ``bits``."""
    out = np.zeros(bits.shape[0], np.int64)
    for r in range(bits.shape[0]):
        for w in range(bits.shape[1]):
            x = bits[r, w]
            while x:
                x &= x - np.uint64(1)
                out[r] += 1
    return out


@nb.njit(cache=True)
def _routes_fit(classes, m, cls_ptr, cls_route, route_bits, must, out_routes, budget):
    """Whether one route of each of ``classes[:m]`` can be chosen, no two sharing a
    track bit (equal classes next to each other: a pair of routes is tried once);
    ``out_routes`` gets them. A route that takes track every route of a later class
    takes (``must``) is skipped. ``budget[0]``: steps left, counted down. Returns 1,
    0, or -1 when the budget ran out."""
    words = route_bits.shape[1]
    if m == 0:
        return 1
    later = np.zeros((m + 1, words), np.uint64)
    for i in range(m - 1, -1, -1):
        for w in range(words):
            later[i, w] = later[i + 1, w] | must[classes[i], w]
        if i + 1 < m:
            for w in range(words):
                if must[classes[i], w] & later[i + 1, w]:
                    return 0  # two classes both need the same track
    used = np.zeros((m + 1, words), np.uint64)
    at = np.zeros(m, np.int64)
    i = 0
    at[0] = cls_ptr[classes[0]]
    while i >= 0:
        c = classes[i]
        found = False
        while at[i] < cls_ptr[c + 1]:
            budget[0] -= 1
            if budget[0] < 0:
                return -1
            r = cls_route[at[i]]
            at[i] += 1
            if _overlaps(used[i], route_bits[r]) or _overlaps(later[i + 1], route_bits[r]):
                continue
            out_routes[i] = r
            for w in range(words):
                used[i + 1, w] = used[i, w] | route_bits[r, w]
            found = True
            break
        if not found:
            i -= 1
            continue
        if i + 1 == m:
            return 1
        i += 1
        at[i] = at[i - 1] if classes[i] == classes[i - 1] else cls_ptr[classes[i]]
    return 0


@nb.njit(cache=True)
def _fit_chosen(cls, d, cls_ptr, cls_route, route_bits, must, train_route, budget):
    """``_routes_fit`` for the classes ``cls[:d + 1]`` of trains 0..d (-1: idle), the
    smaller classes tried first; ``train_route`` gets each train's route (-1 idle)."""
    n = cls.shape[0]
    order = np.empty(n, np.int64)
    owner = np.empty(n, np.int64)
    m = 0
    for e in range(d + 1):
        c = cls[e]
        if c < 0:
            continue
        j = m
        size = cls_ptr[c + 1] - cls_ptr[c]
        while j > 0:
            q = order[j - 1]
            qs = cls_ptr[q + 1] - cls_ptr[q]
            if qs < size or (qs == size and q <= c):
                break
            order[j] = order[j - 1]
            owner[j] = owner[j - 1]
            j -= 1
        order[j] = c
        owner[j] = e
        m += 1
    got = np.empty(max(m, 1), np.int64)
    ok = _routes_fit(order, m, cls_ptr, cls_route, route_bits, must, got, budget)
    if ok == 1:
        for e in range(n):
            train_route[e] = -1
        for j in range(m):
            train_route[owner[j]] = got[j]
    return ok


@nb.njit(cache=True)
def assign_by_value(start, end, twin, cand_class, cand_value, rest, cls_ptr, cls_route, route_bits, must,
                    max_steps, best_routes, stopped):
    """Depth-first branch and bound over classes of routes of equal value: train d
    takes a candidate class of ``start[d]:end[d]`` (sorted by value, best first) or
    idles, bounded by the values alone (``rest[d]``: the best the trains d.. could add);
    each choice is kept only if one route per chosen class can be found with no two
    sharing track (5.6.2), so track is looked at only for combinations the values
    allow. ``cls_route[cls_ptr[c]:cls_ptr[c + 1]]``: the routes of class c (fewest
    track bits first); ``must[c]``: the track all of them take. Returns the best total;
    ``best_routes[d]``: train d's route (-1 idle). After ``max_steps`` steps (negative:
    no limit) it stops and sets ``stopped[0]``: the answer then proves nothing."""
    n = start.shape[0]
    if n == 0:
        return 0
    budget = np.full(1, max_steps if max_steps >= 0 else (1 << 62), np.int64)
    pos = np.zeros(n, np.int64)
    val = np.zeros(n + 1, np.int64)
    cls = np.full(n, -1, np.int64)
    here = np.full(n, -1, np.int64)
    best = -1
    d = 0
    pos[0] = start[0] - 1
    while d >= 0:
        budget[0] -= 1
        if budget[0] < 0:
            stopped[0] = True
            return best
        pos[d] += 1
        if pos[d] > end[d]:
            cls[d] = -1
            d -= 1
            continue
        v = cand_value[pos[d]] if pos[d] < end[d] else 0
        if val[d] + v + rest[d + 1] <= best:
            cls[d] = -1
            d -= 1
            continue
        cls[d] = cand_class[pos[d]] if pos[d] < end[d] else -1
        if cls[d] >= 0:
            ok = _fit_chosen(cls, d, cls_ptr, cls_route, route_bits, must, here, budget)
            if ok < 0:
                stopped[0] = True
                return best
            if ok == 0:
                continue
        val[d + 1] = val[d] + v
        if d + 1 == n:
            if _fit_chosen(cls, d, cls_ptr, cls_route, route_bits, must, best_routes, budget) < 0:
                stopped[0] = True
                return best
            best = val[n]
            continue
        d += 1
        pos[d] = (pos[d - 1] if twin[d] else start[d]) - 1
    return best


def warm():
    """Load (or compile, the first time on a machine) the numba kernels of the walk,
    the valuing and the assignments on a tiny input, so a solve's timing excludes it
    (kernels.warm_up, when the module compiled ahead of time is not there)."""
    z = np.zeros(1, np.int64)
    one_bit = np.zeros((1, 1), np.uint64)
    flag = np.ones(1, np.bool_)
    token_paths(np.zeros(2, np.int64), z, one_bit, z, z, flag, flag, np.full(1, -1, np.int64),
                np.full(1, -1, np.int64), np.zeros(2, np.int64), z.copy(), z.copy(), one_bit.copy(), 10, 0,
                *no_prices(1, 1), *walk_state(1, 1, 1, 0), np.zeros(1, np.int64))
    cut = np.zeros(2, np.int64)
    token_sequences(np.zeros(2, np.int64), z, z, flag, 1, cut, z.copy(), np.zeros(1, np.uint64))
    same_sequence(cut, z, z.copy())
    best_counts(np.zeros(1, np.int64), z, z, z, z, z - 1, z - 1, z, z + 2, z + 2, z, False, 1,
                np.zeros((0, 1, 1), np.int64))
    assign_covering(z, z, np.zeros(1, np.bool_), z, z, z, one_bit, np.zeros(2, np.int64), 0, z.copy(),
                    -1, np.zeros(1, np.bool_), np.zeros(1, np.int64))
    popcounts(one_bit)
    assign_by_value(z, z, np.zeros(1, np.bool_), z, z, np.zeros(2, np.int64), np.zeros(2, np.int64), z, one_bit,
                    one_bit, -1, z.copy(), np.zeros(1, np.bool_))


@nb.njit(cache=True)
def _token_lines(dist, gain, size, clash):
    """Held and Karp's dynamic program over the lines of distinct tokens: ``cost[S, v]``
    the cheapest line (``dist`` between consecutive tokens) through the set ``S`` of at
    most ``size`` tokens, ending at ``v`` (INF: none); ``sums[S]`` their gains,
    ``count[S]`` how many. No set holds two tokens that ``clash`` (bit ``u`` of
    ``clash[w]``: tokens ``u`` and ``w`` are in one city, which a route enters once and
    runs to one token of, 5.6.2.1, 5.6.2.3; a city and its red extension are one city,
    5.2.3.10)."""
    t = gain.shape[0]
    full = 1 << t
    inf = np.int64(1) << 50  # (bound.INF: no walk between two tokens)
    cost = np.full((full, t), inf, np.int64)
    sums = np.zeros(full, np.int64)
    count = np.zeros(full, np.int64)
    for s in range(1, full):
        low = s & -s
        v = 0
        while (1 << v) != low:
            v += 1
        sums[s] = sums[s ^ low] + gain[v]
        count[s] = count[s ^ low] + 1
    for v in range(t):
        cost[1 << v, v] = 0
    # each set's line ending at ``w`` from the set without ``w``: the cheapest of its
    # lines plus the leg to ``w`` (read along a row of ``cost`` and a row of ``dist``
    # transposed, which the compiler turns into vector instructions)
    to = np.ascontiguousarray(dist.T)
    for s in range(1, full):
        if count[s] < 2 or count[s] > size:
            continue
        for w in range(t):
            if not s & (1 << w):
                continue
            prev = s ^ (1 << w)
            if prev & clash[w]:
                continue
            m = inf
            for v in range(t):
                d = cost[prev, v] + to[w, v]
                if d < m:
                    m = d
            cost[s, w] = m
    return cost, sums, count


@nb.njit(cache=True)
def best_token_line(dist, gain, size, cap, order, clash, need_a, need_b):
    """The most a line of 2 to ``size`` distinct tokens makes: their ``gain`` (at most
    ``cap``) less ``dist`` between consecutive ones (the priced bound of bound.py), over
    every subset without two tokens that ``clash`` and every order (:func:`_token_lines`). Returns ``(value, length)``, the
    tokens of the best line in ``order[:length]`` (length 0: none makes more than 0).
    With ``need_a`` and ``need_b`` (bits of tokens; 0 and 0: no such rule) a line must
    hold a token of each at two different tokens: a mixed train runs to at least one
    Station and one Rail Yard (5.6.2.3), one token a city visit."""
    t = gain.shape[0]
    inf = np.int64(1) << 50
    cost, sums, count = _token_lines(dist, gain, size, clash)
    best, best_s, best_v = 0, -1, -1
    for s in range(1, 1 << t):
        k = count[s]
        if k < 2 or k > size:
            continue
        if need_a or need_b:
            sa, sb = s & need_a, s & need_b
            # (one of each at two tokens: not when both are the same single token)
            if sa == 0 or sb == 0 or (sa == sb and sa & (sa - 1) == 0):
                continue
        # the set's cheapest line (the first end on a tie), then its value against the best
        m, mv = inf, -1
        for v in range(t):
            if cost[s, v] < m:
                m, mv = cost[s, v], v
        if mv >= 0 and min(sums[s], cap) - m > best:
            best, best_s, best_v = min(sums[s], cap) - m, s, mv
    if best_s < 0:
        return 0, 0
    # back from the end: the token before v is the one whose line plus its leg costs C[S, v]
    length = count[best_s]
    s, v = best_s, best_v
    for i in range(length - 1, -1, -1):
        order[i] = v
        if i == 0:
            break
        prev = s ^ (1 << v)
        for u in range(t):
            if prev & (1 << u) and cost[prev, u] < inf and cost[prev, u] + dist[u, v] == cost[s, v]:
                s, v = prev, u
                break
    return best, length


@nb.njit(cache=True)
def token_reach(dist_from, dist, gain, size, token_of, bit_of, n_bits, clash):
    """Per node ``x`` (``dist_from[x, j]``: the cheapest walk from ``x`` to token ``j``;
    ``token_of[x]``: the token ``x`` is, or -1) and per set ``A`` of allowed bits (the
    tokens with ``bit_of[j] >= 0`` have one; tokens without are always allowed), the
    most a path at ``x`` can still add, ``out[x, A]``: the gains of at most ``size`` more
    distinct tokens, other than ``x`` itself and allowed by ``A``, less the walk to the
    first and between them (0: it adds none). A path has entered each token it passed
    (5.6.2: a city once), so its cut looks up the set of bits it has not passed: the
    tokens it has run to are not counted again. ``n_bits`` 0: one set, every token
    allowed. ``dist`` must be symmetric (a line is read backwards). No line holds two
    tokens that ``clash`` (:func:`_token_lines`). The priced listing's cut (model.py).

    ``out[x, A]`` depends on ``A`` only through the bits these tokens hold (a kind's
    tokens hold a few of the board's bits), so the table is worked out over those
    (``k`` of them) and then spread over all ``2^n_bits`` sets; it is laid out set by
    set, nodes along a row, so the loops over the nodes read memory in order."""
    n = dist_from.shape[0]
    t = gain.shape[0]
    inf = np.int64(1) << 50
    cost, sums, count = _token_lines(dist, gain, size, clash)
    # the bits the tokens hold, numbered 0 .. k-1
    place = np.full(max(n_bits, 1), -1, np.int64)
    k = 0
    for j in range(t):
        b = bit_of[j]
        if b >= 0 and place[b] < 0:
            place[b] = k
            k += 1
    walk = np.ascontiguousarray(dist_from.T)   # walk[v, x]: from x to token v
    table = np.zeros((1 << k, n), np.int64)    # table[set of the k bits, x]
    for s in range(1, 1 << t):
        if count[s] > size:
            continue
        # the bits of the line's tokens: it is allowed wherever they all are
        sb = 0
        for j in range(t):
            if s & (1 << j) and bit_of[j] >= 0:
                sb |= 1 << place[bit_of[j]]
        row = table[sb]
        for v in range(t):
            c = cost[s, v]
            if c >= inf:
                continue
            # the line through s read backwards starts at v: from x, walk to v first
            g = sums[s] - c
            for x in range(n):
                d = walk[v, x]
                if d < inf and g - d > row[x] and not (token_of[x] >= 0 and s & (1 << token_of[x])):
                    row[x] = g - d
    # each set of bits gets the best line over its subsets (the sum over subsets, by max)
    for b in range(k):
        for a in range(1 << k):
            if a & (1 << b):
                for x in range(n):
                    if table[a ^ (1 << b), x] > table[a, x]:
                        table[a, x] = table[a ^ (1 << b), x]
    # a set of the board's bits looks up its part among the k
    out = np.empty((n, 1 << n_bits), np.int64)
    part = np.zeros(1 << n_bits, np.int64)
    for a in range(1 << n_bits):
        for b in range(n_bits):
            if a & (1 << b) and place[b] >= 0:
                part[a] |= 1 << place[b]
    for x in range(n):
        for a in range(1 << n_bits):
            out[x, a] = table[part[a], x]
    return out


# candidates a node of assign_priced looks down each later train's list at most. Near
# the track prices' bound a full-size board's trains each have 4,000-19,000 candidates
# within the slack a better run allows, most of them clashing with the routes already
# chosen: looking further finds that no free one is left (the node pruned) instead of
# stopping at a clashing candidate's slack. Measured on the proof's first target of
# 40hex-s0 (40,002 paths, 1,610): 22.8 s of CPU at 256, 8.7 s at 4,096, 10.2 s with no
# limit; 48hex-s1's (64,632 paths): 0.64 s and 0.55 s
SCAN = 4096


@nb.njit(cache=True, nogil=True)
def assign_priced(start, end, twin, cand_route, cand_value, cand_slack, bits, total, scale, best, choice,
                  budget, stop):
    """Trains to routes sharing no track (5.6.2), the run searched for earning more than
    ``best`` (revenue), pruned by the track prices (model.py's priced proof): a run's
    revenue times ``scale`` is at most ``total`` less the sum of its routes' slacks
    (``cand_slack``: the train's best priced route less this one's value less its
    price, never negative), so each train's candidates, ``start[i]:end[i]`` by slack
    from the least, are tried only while that can beat ``best``. A candidate route -1 is
    the train idle; ``twin[i]``: train i is of the kind of train i - 1 (its candidate
    comes at or after that one's: no run is tried twice). Returns ``(best, status)``:
    the best revenue (``choice``: each train's candidate, when above the ``best``
    given), status 0 when every run was tried, 1 when ``budget`` nodes (or ``stop[0]``,
    set by another thread) ended the search first."""
    n = start.shape[0]
    words = bits.shape[1]
    used = np.zeros((n + 1, words), np.uint64)
    slack = np.zeros(n + 1, np.int64)
    rev = np.zeros(n + 1, np.int64)
    it = np.zeros(n + 1, np.int64)
    cur = np.full(n + 1, -1, np.int64)
    nodes = 0
    d = 0
    it[0] = start[0] if n else 0
    while d >= 0:
        if d == n:
            if rev[n] > best:
                best = rev[n]
                for i in range(n):
                    choice[i] = cur[i]
            d -= 1
            continue
        moved = False
        while it[d] < end[d]:
            c = it[d]
            it[d] += 1
            s = slack[d] + cand_slack[c]
            if total - s < (best + 1) * scale:
                it[d] = end[d]  # (sorted by slack: no later candidate does better)
                break
            r = cand_route[c]
            if r >= 0:
                clash = False
                for w in range(words):
                    if used[d, w] & bits[r, w]:
                        clash = True
                        break
                if clash:
                    continue
                for w in range(words):
                    used[d + 1, w] = used[d, w] | bits[r, w]
                rev[d + 1] = rev[d] + cand_value[c]
            else:
                for w in range(words):
                    used[d + 1, w] = used[d, w]
                rev[d + 1] = rev[d]
            # the trains after this one at their least slack among the routes left free
            # (each list looked down at most ``SCAN`` candidates: those passed clash, the
            # rest have no less slack)
            more = 0
            for j in range(d + 1, n):
                k = start[j]
                while k < end[j] and k - start[j] < SCAN:
                    q = cand_route[k]
                    if q < 0:
                        break
                    clash = False
                    for w in range(words):
                        if used[d + 1, w] & bits[q, w]:
                            clash = True
                            break
                    if not clash:
                        break
                    k += 1
                if k < end[j]:
                    more += cand_slack[k]
                else:
                    more = total  # (no candidate left: cannot happen, the idle one is always free)
            if total - s - more < (best + 1) * scale:
                continue
            slack[d + 1] = s
            cur[d] = c
            d += 1
            if d < n:
                it[d] = c if twin[d] else start[d]
            moved = True
            break
        if not moved:
            d -= 1
        nodes += 1
        if nodes >= budget or ((nodes & 4095) == 0 and stop[0] != 0):
            return best, 1
    return best, 0


@nb.njit(cache=True)
def cheapest_walks(dist, nxt, via):
    """Floyd and Warshall in place: ``dist[u, v]`` becomes the cheapest walk's price from
    ``u`` to ``v`` passing only the nodes ``via`` (passable stops, 5.6.2.3), in their
    order, and ``nxt[u, v]`` the next node on it. ``dist`` starts at each arc's price
    (bound.INF: no arc; 0 from a node to itself), ``nxt`` at each arc's head. A walk is
    replaced only by a strictly cheaper one, so ties keep the walk found first."""
    n = dist.shape[0]
    for k in via:
        for u in range(n):
            du = dist[u, k]
            for v in range(n):
                d = du + dist[k, v]
                if d < dist[u, v]:
                    dist[u, v] = d
                    nxt[u, v] = nxt[u, k]


@nb.njit(cache=True)
def best_commuter_run(st, dist, seq_start, seq_len, pos_ptr, pos_nodes, size, stations):
    """The most a commuter run of 2 to ``size`` visits makes (5.6.7, the priced bound of
    bound.py): its visits' Station values ``st`` less ``dist`` between consecutive
    visits, a dynamic program over the visits of each commuter sequence ``q`` (visit
    ``i`` is to one of the nodes of position ``i % seq_len[q]``, positions
    ``seq_start[q]`` on, each position's nodes ``pos_nodes[pos_ptr[p]:pos_ptr[p + 1]]``).
    Returns ``(value, length)``: the visits' nodes of the best run in
    ``stations[:length]``; ``(-INF, 0)`` when no run has a walk for every leg. Ties keep
    the run found first (the lowest node index at each visit, the shortest run)."""
    inf = np.int64(1) << 50
    width = 0
    for p in range(pos_ptr.shape[0] - 1):
        width = max(width, pos_ptr[p + 1] - pos_ptr[p])
    score = np.empty(width, np.int64)
    new = np.empty(width, np.int64)
    back = np.zeros((max(size, 1), width), np.int64)
    best, length = -inf, 0
    for q in range(seq_start.shape[0]):
        first, n_pos = seq_start[q], seq_len[q]
        a = pos_ptr[first]
        n_prev = pos_ptr[first + 1] - a
        for j in range(n_prev):
            score[j] = st[pos_nodes[a + j]]
        prev = first
        for i in range(1, size):
            here = first + i % n_pos
            b = pos_ptr[here]
            n_here = pos_ptr[here + 1] - b
            a = pos_ptr[prev]
            top, top_j = -inf, -1
            for j in range(n_here):
                node = pos_nodes[b + j]
                m, arg = score[0] - dist[pos_nodes[a], node], 0
                for k in range(1, n_prev):
                    d = score[k] - dist[pos_nodes[a + k], node]
                    if d > m:
                        m, arg = d, k
                new[j] = m + st[node]
                back[i, j] = arg
                if top_j < 0 or new[j] > top:
                    top, top_j = new[j], j
            for j in range(n_here):
                score[j] = new[j]
            n_prev, prev = n_here, here
            if top > best and top > -inf // 2:  # (a leg with no walk: no run)
                best, length = top, i + 1
                j = top_j
                stations[i] = pos_nodes[b + j]
                for r in range(i, 0, -1):
                    j = back[r, j]
                    stations[r - 1] = pos_nodes[pos_ptr[first + (r - 1) % n_pos] + j]
    return best, length

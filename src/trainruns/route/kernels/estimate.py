"""How many routes the listing of :mod:`trainruns.route.kernels.routes` would write, estimated
without listing them (a board with 10^8 routes must not be listed to learn
that it cannot be).

The listing walks a tree per root token: its top is the root alone; a node is a route
(arm 1, the root, arm 2: the module docstring of :mod:`trainruns.route.kernels.routes`); the
children of a node whose arm 2 is empty are arm 1 one chain longer and arm 2's first
chain (of higher id than arm 1's first), those of a node with an arm 2 are arm 2 one
chain longer. Every node but the top is one route listed, exactly once.

Knuth's estimator of a tree's size (D. E. Knuth, "Estimating the efficiency of
backtrack programs", Math. Comp. 29, 1975): walk down from the top taking a child at
random; with ``m_1, m_2, ...`` the children met at each depth, ``m_1 + m_1 m_2 + ...``
is an unbiased estimate of the nodes below the top. The mean over many walks is the
estimate: cheap (a walk is a few chains deep), seeded so a board always gets the same
answer, but only an estimate, which is why it only chooses a policy, never an answer.
"""

import numba as nb
import numpy as np

from trainruns.route.kernels.bits import overlaps, toggle


@nb.njit(cache=True, inline="always")
def _fits(c, root, chain_to, chain_bits, used, on_route, stop_own, stop_town, nontowns, max_nontowns,
          min_chain):
    """Whether chain ``c`` may extend an arm (the tests of ``routes._next_chain``)."""
    # Written out again, not called from routes.py: with these tests moved into a
    # shared njit helper, the listing kernel ran 2.5-3x slower (enumerate_all of
    # hard-60hex-s0, 215,792 routes: 0.20-0.27 s against 0.08-0.10 s, inlined or not)
    if c <= min_chain:
        return False
    t = chain_to[c]
    if on_route[t]:
        return False
    if stop_own[t] and t < root:
        return False
    if not stop_town[t] and nontowns + 1 > max_nontowns:
        return False
    return not overlaps(used, chain_bits[c])


@nb.njit(cache=True, nogil=True)
def estimate_routes(root, adj_ptr, chain_to, chain_bits, stop_passable, stop_own, stop_town,
                    max_visits, max_nontowns, walks, seed):
    """The estimated number of routes the listing writes from ``root`` (module
    docstring): the mean of ``walks`` random walks down its tree, seeded by ``seed``."""
    n_stops = stop_own.shape[0]
    words = chain_bits.shape[1]
    np.random.seed(seed)
    on_route = np.zeros(n_stops, dtype=np.bool_)
    used = np.zeros(words, dtype=np.uint64)
    depth_cap = min(max_visits, n_stops) + 1
    taken = np.empty(depth_cap, dtype=np.int64)
    most = 0
    for s in range(n_stops):
        most = max(most, adj_ptr[s + 1] - adj_ptr[s])
    cand = np.empty(2 * most + 1, dtype=np.int64)
    side = np.empty(2 * most + 1, dtype=np.int64)
    total = 0.0
    for _ in range(walks):
        on_route[root] = True
        nontowns = 0 if stop_town[root] else 1
        d1, d2, end1, end2, first1, depth = 0, 0, root, root, -1, 0
        weight, nodes = 1.0, 0.0
        while True:
            m = 0
            if d2 == 0 and (d1 == 0 or stop_passable[end1]) and d1 + 1 < max_visits:
                for c in range(adj_ptr[end1], adj_ptr[end1 + 1]):
                    if _fits(c, root, chain_to, chain_bits, used, on_route, stop_own, stop_town, nontowns,
                             max_nontowns, -1):
                        cand[m] = c
                        side[m] = 1
                        m += 1
            # arm 2: the root is passed through, so it must be passable
            if d1 > 0 and stop_passable[root] and d1 + d2 + 1 < max_visits and (d2 == 0 or stop_passable[end2]):
                at = root if d2 == 0 else end2
                for c in range(adj_ptr[at], adj_ptr[at + 1]):
                    if _fits(c, root, chain_to, chain_bits, used, on_route, stop_own, stop_town, nontowns,
                             max_nontowns, first1 if d2 == 0 else -1):
                        cand[m] = c
                        side[m] = 2
                        m += 1
            if m == 0:
                break
            weight *= m
            nodes += weight
            j = np.random.randint(0, m)
            c = cand[j]
            t = chain_to[c]
            on_route[t] = True
            toggle(used, chain_bits[c])
            if not stop_town[t]:
                nontowns += 1
            taken[depth] = c
            depth += 1
            if side[j] == 1:
                d1 += 1
                end1 = t
                if d1 == 1:
                    first1 = c
            else:
                d2 += 1
                end2 = t
        total += nodes
        for i in range(depth):
            on_route[chain_to[taken[i]]] = False
            toggle(used, chain_bits[taken[i]])
        on_route[root] = False
    return total / max(walks, 1)

"""The arrays and codes the 1831 route model's kernels take and answer with, shared by
their numba code (numba_kernels.py) and their callers (kernels.py, model.py)."""

import numpy as np

# a value no count of tokens reaches (best_counts' empty states)
NEG = -(1 << 60)


def walk_state(n_stops, n_groups, words, root, n_kinds=0):
    """A fresh walk from ``root`` for :func:`token_paths` (which keeps its place in it
    between calls): the path, its chains, the next chain to try per depth, visits per
    stop, entries per group, first entry per group, track used, per depth the gains per
    priced kind, the price so far and the tokens' bits not entered (the priced cut), and ``meta`` = [depth, steps
    taken, paths found, their stops]."""
    cap = n_stops + 2
    path = np.zeros(cap, np.int64)
    path[0] = root
    return (path, np.zeros(cap, np.int64), np.zeros(cap, np.int64), np.zeros(n_stops, np.int64),
            np.zeros(n_groups, np.int64), np.full(n_groups, -1, np.int64), np.zeros(words, np.uint64),
            np.zeros((cap, n_kinds), np.int64), np.zeros(cap, np.int64), np.zeros(cap, np.int64),
            np.zeros(4, np.int64))


def no_prices(n_stops, n_chains):
    """The priced cut's arguments of :func:`token_paths` that cut nothing (no kinds)."""
    return (np.zeros(n_chains, np.int64), np.zeros((0, n_stops), np.int64), np.zeros((0, n_stops, 1), np.int64),
            np.zeros(0, np.int64), np.zeros(0, np.int64), np.full(n_stops, -1, np.int64))


# ``token_paths`` status: the walk is over / the buffers are full (call again with the
# same state to go on) / more than ``limit`` paths / the step budget stopped it
DONE, FULL, OVER, CUT = 0, 1, 2, 3

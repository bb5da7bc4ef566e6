"""The kernels of the 1831 route model, as model.py and bound.py call them
(``kernels.token_paths(...)``), and the arrays and codes they take.

The kernels themselves are numba code (numba_kernels.py: what each does and the rules
it implements). They are compiled ahead of time into the core's module
(:mod:`trainruns.kernels.aot`, one build for both, under one key that hashes this file
and numba_kernels.py too), so an 1831 solve loads them in a millisecond without
importing numba; where that module is not built (no C compiler, ``TRAINRUNS_AOT=0``)
the numba kernels answer, with the same answers. Each kernel is chosen at its first use
in the process (:func:`trainruns.kernels.aot.kernel`).
"""

import numpy as np

from ...kernels import aot

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

# the kernels of numba_kernels.py compiled ahead of time (aot.EXPORTS), each chosen at
# its first use in this process
__getattr__ = aot.attributes(globals(), frozenset(name for module, name, _ in aot.EXPORTS if module == aot.G1831))


def warm_up():
    """Load the kernels before a solve's clock starts (when a position is read): the
    core's module compiled ahead of time, which holds these too (built the first time
    on a machine, :func:`trainruns.kernels.warm_up`), else the numba kernels, compiled
    the first time on a machine and run on a tiny input."""
    from ... import kernels as core

    core.warm_up()
    if aot.load() is None:
        from .numba_kernels import warm

        warm()

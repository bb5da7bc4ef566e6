"""The kernels of the 1831 route model, as model.py and bound.py call them
(``kernels.token_paths(...)``), and the arrays and codes they take (kernel_arrays.py).

The kernels themselves are numba code (numba_kernels.py: what each does and the rules
it implements). They are compiled ahead of time into the core's module
(:mod:`trainruns.route.kernels.aot`, one build for both, under one key that hashes this file
and numba_kernels.py too), so an 1831 solve loads them in a millisecond without
importing numba; where that module is not built (no C compiler, ``TRAINRUNS_AOT=0``)
the numba kernels answer, with the same answers. Each kernel is chosen at its first use
in the process (:func:`trainruns.route.kernels.aot.kernel`).
"""

from trainruns.route.kernels import aot
from trainruns.titles.g1831.route.kernel_arrays import CUT, DONE, FULL, NEG, OVER, no_prices, walk_state  # noqa: F401 (their callers' names)

# the kernels of numba_kernels.py compiled ahead of time (aot.EXPORTS), each chosen at
# its first use in this process
__getattr__ = aot.attributes(globals(), frozenset(name for module, name, _ in aot.EXPORTS if module == aot.G1831))


def warm_up():
    """Load the kernels before a solve's clock starts (when a position is read): the
    core's module compiled ahead of time, which holds these too (built the first time
    on a machine, :func:`trainruns.route.kernels.warm_up`), else the numba kernels, compiled
    the first time on a machine and run on a tiny input."""
    from trainruns.route import kernels as core

    core.warm_up()
    if aot.load() is None:
        from trainruns.titles.g1831.route.numba_kernels import warm

        warm()

"""numba kernels. Each works on the flat arrays of :mod:`trainruns.route.compile` only and is
compiled once per machine (``cache=True``); :mod:`trainruns.route.enumeration` and
:mod:`trainruns.route.assignment` are their Python API.

The kernels a plain solve runs are taken from here (``from trainruns.route.kernels import
branch_and_bound``): compiled ahead of time when this code's module is built
(:mod:`trainruns.route.kernels.aot`: numba is then not even imported), else the numba
kernels of the modules beside this one. Either gives the same answers."""

from trainruns.route.kernels import aot

_loaded = False

# the kernels of aot.EXPORTS in the modules beside this one (the rest are 1831's)
_NAMES = frozenset(name for module, name, _ in aot.EXPORTS if module.startswith("route.kernels."))


_warming = None  # the thread loading the kernels behind a deadline (see ready_by)


def ready_by(deadline: float | None, tick: float = 0.1) -> bool:
    """Load the kernels, but return False at ``deadline`` (a ``time.perf_counter`` time)
    if they are not ready by then. The first use on a machine compiles them, which takes
    a minute or more on a busy machine and cannot be cut short: it runs on a daemon
    thread that goes on behind (the next call finds the kernels ready), while the caller
    keeps its deadline and sees Ctrl-C. Without a deadline, simply :func:`warm_up`."""
    global _warming
    if _loaded:
        return True
    if deadline is None:
        warm_up()
        return True
    import threading
    import time

    if _warming is None or not _warming.is_alive():
        _warming = threading.Thread(target=_warm_quietly, daemon=True, name="trainruns-kernels")
        _warming.start()
    while _warming.is_alive():
        left = deadline - time.perf_counter()
        if left <= 0:
            return False
        _warming.join(min(tick, left))
    if not _loaded:
        warm_up()  # the thread failed: fail here, on the caller's thread, with its error
    return True


def _warm_quietly():
    try:
        warm_up()
    except BaseException:  # re-raised by ready_by on the caller's thread
        pass


def ready_at_once() -> bool:
    """Whether the kernels are ready or load in a moment: loaded already, or compiled
    ahead of time and built (a millisecond, against numba's 0.1-0.5 s)."""
    return _loaded or (aot.enabled() and aot.load() is not None)


_jit = aot.jit  # the numba kernel of a name

# a kernel of aot.EXPORTS, chosen at its first use in this process (then kept here)
__getattr__ = aot.attributes(globals(), _NAMES)


def warm_up(numba: bool = False):
    """Load the kernels: the module compiled ahead of time (built the first time on a
    machine, :mod:`trainruns.route.kernels.aot`), or when that cannot be, the numba kernels
    (compiled the first time on a machine), run on a tiny board so that timings of a
    real search exclude it.

    ``numba``: the numba kernels too, for a long-lived process whose commands may run
    numba kernels of their own (the proof's, kernels.prices) in forked children: numba sets
    up its compiler at the first kernel it loads (0.1-0.2 s), once there instead of in
    every child (the daemon)."""
    global _loaded
    if not _loaded:
        if not (aot.enabled() and (aot.load() is not None or aot.build() is not None)):
            _warm_numba()
        _loaded = True
    if numba:
        _warm_numba()


_numba_loaded = False


def _warm_numba():
    """Load (or compile) the numba kernels, running each on a tiny board."""
    global _numba_loaded
    if _numba_loaded:
        return
    import numpy as np

    from trainruns.route.kernels.assign import block_masks, branch_and_bound, open_bound
    from trainruns.route.kernels.routes import enumerate_routes
    from trainruns.route.kernels.values import route_values

    z = np.zeros(1, np.int64)
    bits = np.zeros((1, 1), np.uint64)
    flags = np.zeros(1, np.bool_)
    enumerate_routes(np.zeros(0, np.int64), np.zeros(2, np.int64), z, bits, flags, flags, flags,
                     2, 2, np.zeros(2, np.int64), z.copy(), z.copy(), z.copy(), bits.copy(), 10,
                     np.zeros(1, np.int64))
    route_values(np.zeros(1, np.int64), z, 0, z, flags, flags, z, np.zeros(0, np.int64),
                 np.zeros(0, np.int64), np.zeros((0, 1), np.bool_), np.ones((1, 3), np.int64))
    one = np.zeros(1, np.int64)
    i2 = np.zeros(2, np.int64)
    routes_bits = np.zeros((1, 1), np.uint64)
    masks, built = block_masks(z, routes_bits)
    branch_and_bound(one, one, flags, z, z, routes_bits, masks, built, np.zeros((2, 64), np.int64), i2.copy(),
                     i2.copy(), i2.copy(), np.zeros((2, 2), np.int64), np.zeros((2, 2), np.int64),
                     np.array([-1]), i2.copy(), i2.copy(), np.zeros((2, 1), np.uint64), i2.copy(),
                     i2.copy(), np.zeros(1, np.int64), np.zeros(1, np.int64), 10, i2.copy(), 4)
    open_bound(np.array([0]), np.zeros(2, np.int64), np.zeros(1, np.int64))
    _numba_loaded = True

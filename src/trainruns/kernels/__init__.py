"""numba kernels. Each works on the flat arrays of :mod:`trainruns.compile` only and is
compiled once per machine (``cache=True``); :mod:`trainruns.enumeration` and
:mod:`trainruns.assignment` are their Python API."""


_loaded = False


def loaded() -> bool:
    """Whether :func:`warm_up` has run in this process (the kernels are ready)."""
    return _loaded


def warm_up():
    """Load (or compile, the first time on a machine) every kernel on a tiny board, so
    that timings of a real search exclude it."""
    global _loaded
    if _loaded:
        return
    import numpy as np

    from .assign import block_masks, branch_and_bound, open_bound
    from .routes import enumerate_routes
    from .values import route_values

    z = np.zeros(1, np.int64)
    bits = np.zeros((1, 1), np.uint64)
    flags = np.zeros(1, np.bool_)
    enumerate_routes(np.zeros(0, np.int64), np.zeros(2, np.int64), z, z, bits, flags, flags, flags,
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
    _loaded = True

"""The candidate blocks of :mod:`trainruns.route.kernels.assign`: plain numpy, in a module of
its own so that a caller of the kernels compiled ahead of time (:mod:`trainruns.route.kernels.aot`)
allocates them without importing numba."""

import numpy as np


def block_masks(cand_route, route_bits):
    """Room for the candidates transposed into blocks of 64: bit i of ``masks[b, t]``
    says candidate ``64 b + i`` uses track bit ``t``. "Which of these 64 candidates
    clash with the used track" is then one OR per used bit instead of 64 mask
    comparisons. Blocks are filled on first use (``built``): the low-value tail of a
    long list is usually never reached, and filling it would cost more than the search.
    np.zeros leaves untouched pages unallocated."""
    n = cand_route.shape[0]
    words = route_bits.shape[1]
    return np.zeros(((n + 63) // 64, words * 64), dtype=np.uint64), np.zeros((n + 63) // 64, dtype=np.bool_)

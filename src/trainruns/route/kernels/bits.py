"""Bit-mask helpers over rows of uint64 words."""

import numba as nb


@nb.njit(cache=True, inline="always")
def overlaps(a, b):
    for w in range(a.shape[0]):
        if a[w] & b[w]:
            return True
    return False


@nb.njit(cache=True, inline="always")
def set_or(dst, a, b):
    for w in range(dst.shape[0]):
        dst[w] = a[w] | b[w]


@nb.njit(cache=True, inline="always")
def toggle(dst, a):
    for w in range(dst.shape[0]):
        dst[w] ^= a[w]

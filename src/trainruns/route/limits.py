"""The limits one solve runs under: one deadline and one memory budget for every stage.

A command sets its deadline when the process starts (loading modules and the numba
kernels count); the API sets it when ``solve`` is called. Every stage (compiling the
board, listing routes, valuing them, assigning trains, the CP-SAT models) looks at the
same :class:`Limits` and stops in time, keeping the best run found so far; the answer is
then marked not optimal and carries an upper bound.

Overshoot: a stage checks the clock at least every ``CHECK_SECONDS`` of work, so an
answer comes at most ``overshoot(limit)`` after the deadline: 10% of the limit or half a
second, whichever is larger (a process cannot even load Python's libraries in less).

The memory budget (``--memory``, 2 GB by default) is what the whole process may hold.
Each stage asks, just before it allocates, how much its big arrays may take: the budget
less what the process already holds (measured; numba's compiler, a cold kernel cache or
a caller's own data can take hundreds of MB) and a reserve for the solver's own work.
It estimates its arrays and lists fewer routes (or chains) rather than outgrow that. A cut is an honest answer: the best run over what
was kept, not proven, with an upper bound.
"""

import os
import time
from collections import namedtuple

GB = 1 << 30
DEFAULT_MEMORY = 2 * GB
# the least a budget given as text may be: the interpreter and its libraries alone take
# about this much
MIN_MEMORY = 256 << 20
_UNITS = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
# what the interpreter, numpy, numba and OR-Tools take before any board is read, where
# the system does not tell what the process holds: not available to the search's arrays
BASE_MEMORY = 400 << 20
# beyond the arrays a stage sizes: copies while parts are joined, the assignment's
# working sets and CP-SAT's own model (measured: about 200 MB on the dense boards of
# tests/route/test_limits.py)
RESERVE = 240 << 20
# the longest a stage works between two looks at the clock (and at Ctrl-C)
CHECK_SECONDS = 0.1


def memory_size(text: str) -> int:
    """Bytes of a memory budget given as text, as ``--memory`` takes it and ``solve``'s
    ``memory`` too: bytes, or a number with K, M or G (powers of 1024), at least
    :data:`MIN_MEMORY`; ValueError says what is wrong."""
    t = text.strip().lower().removesuffix("b")
    scale = _UNITS.get(t[-1:], 1)
    number = t[:-1] if t[-1:] in _UNITS else t
    try:
        value = float(number) if number.isascii() else float("nan")
    except ValueError:
        value = float("nan")
    if not (0 < value * scale < 1 << 50):
        raise ValueError(f"{text!r} is not a memory size (like 2G or 500M)")
    if value * scale < MIN_MEMORY:
        raise ValueError(f"{text!r} is less than the {MIN_MEMORY >> 20}M a search needs")
    return int(value * scale)


def overshoot(limit: float) -> float:
    """How late past the deadline an answer may come (the promise of the module docstring)."""
    return max(0.1 * limit, 0.5)


def resident() -> int | None:
    """Bytes this process holds in memory now (Linux: /proc/self/statm), or None."""
    # read with the os's own calls, not a buffered text file: a search asks this before
    # each solve's arrays, and opening a Python file object cost more than the read
    try:
        fd = os.open("/proc/self/statm", os.O_RDONLY)
        try:
            text = os.read(fd, 256)
        finally:
            os.close(fd)
        return int(text.split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


class Work(namedtuple("Work", "nodes covering_nodes path_steps")):
    """Counted budgets a solve may run under instead of the clock, so that its answer is
    the same on any machine under any load (a game's search: 1831 5.6.6 does not ask
    for the best run). ``nodes``: branch and bound nodes of the train assignment;
    ``covering_nodes``: nodes of a route model's own assignment (a run covering every
    bought track right, or trains by value classes); ``path_steps``: steps of a route
    model's path listing from each token (the set listed is then incomplete). A route
    model that lists no paths of its own reads only ``nodes``.

    A named tuple: ``dataclasses`` would bring ``inspect``, ``ast`` and ``tokenize``
    to every module that imports this one."""

    __slots__ = ()


class Limits:
    """A deadline (``time.perf_counter`` seconds, or None), a memory budget in bytes, and
    optionally counted budgets of work (:class:`Work`; None: the deadline's).

    ``best`` holds the best run any stage has found so far, so that an interrupted or
    timed-out solve can still answer with it."""

    def __init__(self, time_limit: float | None = None, memory: int | None = None,
                 start: float | None = None, work: Work | None = None):
        self.work = work
        self.start = time.perf_counter() if start is None else start
        self.time_limit = time_limit
        self.deadline = None if time_limit is None else self.start + time_limit
        self.memory = DEFAULT_MEMORY if memory is None else int(memory)
        self.best = None

    def left(self) -> float | None:
        """Seconds to the deadline (negative past it), or None without one."""
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def array_budget(self) -> int:
        """Bytes the search's arrays may take from now on: the budget less what the
        process holds now and the reserve (at least 64 MB: a search needs some room)."""
        held = resident()
        taken = BASE_MEMORY if held is None else held + RESERVE
        return max(self.memory - taken, 64 << 20)

    def offer(self, run):
        """Keep ``run`` if it earns more than the best so far; return the better one."""
        if run is not None and (self.best is None or run.revenue > self.best.revenue):
            self.best = run
        return self.best


def on_thread(kernel, args, stop=None, deadline=None, what="the kernel"):
    """``kernel(*args)`` on a daemon thread, the caller waiting where Ctrl-C reaches it
    (a numba kernel holds the main thread otherwise until it returns). ``stop``, a
    one-element array the kernel looks at, is set at ``deadline`` (perf_counter) and on
    Ctrl-C, which then goes on to the caller."""
    import threading

    out = []
    thread = threading.Thread(target=lambda: out.append(kernel(*args)), daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.05)
            if stop is not None and deadline is not None and time.perf_counter() >= deadline:
                stop[0] = 1
    except KeyboardInterrupt:
        if stop is not None:
            stop[0] = 1
        raise
    if not out:
        raise RuntimeError(f"{what} failed")
    return out[0]

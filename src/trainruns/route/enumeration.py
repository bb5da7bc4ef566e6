"""Listing every legal route of a corporation (:func:`enumerate_all`): one root token
at a time through the numba kernel of :mod:`trainruns.route.kernels.routes`, on threads once
roots take a while, within the memory budget and the deadline; then each route valued
for each train kind (:mod:`trainruns.route.kernels.values`, mirroring :mod:`trainruns.route.value`).

A board with far more routes than the listing may keep (10^8 on the hard family's
largest) can be left unlisted when the caller asks (``skip_above``): the count of
:mod:`trainruns.route.kernels.estimate` says so in milliseconds, where listing the routes
that fit took 10-28 s and 1.5 GB, only to be cut."""

from __future__ import annotations

import os
import time

import numpy as np

from trainruns.route.compile import CompiledBoard
from trainruns.route.limits import Limits
from trainruns.route.routeset import RouteSet, train_kinds
from trainruns.route.trains import UNLIMITED

# threads for route enumeration (one root each): this machine's cores, at most 2
WORKERS = max(1, min(2, os.cpu_count() or 1))

# Routes a root may have to be listed on the caller's thread (see enumerate_all): a
# thread's start and join cost ~0.1 ms on a quiet machine and several ms on a busy one,
# more than a game's whole board takes to list. (0: every root on a thread.)
INLINE_ROUTES = 20_000

# Routes kept in memory at most (about 200 bytes each; the memory budget of
# :class:`trainruns.route.limits.Limits` may allow fewer): beyond this the route set is marked
# incomplete and the answer comes with an upper bound instead of a proof.
MAX_ROUTES = 6_000_000

# ``skip_above``: a board whose routes are estimated at more than this many times what the
# listing may keep (MAX_ROUTES, or the memory budget's share) is not listed. The estimate
# is within a factor of 2-3 either way on the hard family: the largest board listed
# whole there has 2.9 million routes (estimated 1.6-6.7 million over 10 seeds), the
# smallest beyond the cut about 30 million (estimated 12-110 million).
HUGE_FACTOR = 1.5
# random walks down each root token's tree for the estimate (kernels.estimate): 15-150 ms
# on the hard family's largest boards, under load
ESTIMATE_WALKS = 512


def enumerate_all(compiled: CompiledBoard, deadline=None, progress=None, limits: Limits | None = None,
                  skip_above: float | None = None, info: dict | None = None) -> RouteSet:
    """All legal routes from the corporation's tokens, for its longest train.

    Roots are enumerated one at a time so a deadline can stop between them (the set is
    then marked incomplete); within a root the listing stops at half the time left to
    ``deadline`` and at what the memory budget of ``limits`` holds (and ``MAX_ROUTES``).
    A board compiled only in part gives an incomplete set too.

    ``skip_above``: once a root turns out big (more than ``INLINE_ROUTES`` routes), the
    routes of it and the roots after it are estimated (:func:`estimated_routes`); above
    ``skip_above``, or above ``HUGE_FACTOR`` times what the listing may keep, nothing
    is listed: the set is empty and incomplete, and ``info`` (a dict) gets ``estimate``
    and ``fits`` (not above ``HUGE_FACTOR`` times what the listing keeps: listing them
    is still worth it). (A plain board only: a title's route model lists its own.)"""
    board = compiled.board
    kinds = train_kinds(board)
    if board.route_model is not None:
        return board.route_model.routes(compiled, kinds, deadline, progress, limits=limits)
    if limits is None:
        limits = Limits()
    n_stops = compiled.n_stops
    max_visits = min(max((t.visits for t in kinds), default=0), n_stops, UNLIMITED)
    max_nontowns = min(max((t.nontowns for t in kinds), default=0), n_stops)
    roots = np.flatnonzero(compiled.stop_own).astype(np.int64)
    # bytes a listed route costs from here to the assignment, beyond its own arrays (and
    # their copy when parts are joined): its values and, per kind, its candidate entry
    # (the candidate blocks of ``kernels.assign.block_masks`` are filled only where the search looks)
    per_route_later = 24 * len(kinds)
    budget = limits.array_budget()
    parts, complete, total, held = [], compiled.complete, 0, 0
    # roots are independent: once one root has taken a while, enumerate WORKERS at a time
    # on threads (the kernel releases the GIL); parts are kept in root order, so the
    # route set is the same as serially. Small boards never pay for threads: each root is
    # first listed on the caller's thread up to INLINE_ROUTES routes (a millisecond or
    # two, so the deadline and Ctrl-C wait no longer than that); only a root with more
    # is listed again on threads, and every root after it too.
    step, i, inline = 1, 0, INLINE_ROUTES > 0
    t_start = time.perf_counter()
    # with a deadline, listing gets half the time left (the assignment and the flow
    # model the rest): the kernel is told to stop then, even inside a root
    until = None if deadline is None else t_start + (deadline - t_start) / 2
    stop = np.zeros(1, dtype=np.int64)
    while i < len(roots):
        limit = (MAX_ROUTES - total) // step
        # what the memory budget still holds, at the bytes per route seen so far (or the
        # shortest a route can be: two stops, one chain)
        per_route = (held / total if total else 8 * 5 + 8 * compiled.words) * 2 + per_route_later
        limit = min(limit, int((budget - 2 * held - total * per_route_later) / per_route / step))
        if limit <= 0:
            complete = False
            break
        if until is not None and time.perf_counter() >= until:
            complete = False
            break
        batch = roots[i:i + step]
        t_batch = time.perf_counter()
        if inline:
            small = min(limit, INLINE_ROUTES)
            part, cut = _enumerate_root(compiled, batch, max_visits, max_nontowns, small, stop,
                                        budget - 2 * held)
            if cut and small < limit:
                # a big root: listed again below with the whole limit, on a thread
                inline, results = False, None
                if skip_above is not None:
                    # what the listing may keep, at this root's bytes per route
                    per_route = sum(a.nbytes for a in part) / max(1, len(part[0]) - 1) * 2 + per_route_later
                    keep = min(MAX_ROUTES, (budget - 2 * held) / per_route + total)
                    huge = HUGE_FACTOR * keep
                    estimate = total + estimated_routes(compiled, roots[i:], max_visits, max_nontowns, huge - total)
                    if estimate > min(huge, skip_above):
                        del part
                        if info is not None:
                            info.update(estimate=estimate, fits=estimate <= huge)
                        return RouteSet(compiled, *join_parts([], compiled.words), [k.name for k in kinds],
                                        np.zeros((0, len(kinds)), np.int64), False)
            else:
                results = [(part, cut)]
        else:
            results = None
        if results is None:
            results = _in_threads([(compiled, np.array([root]), max_visits, max_nontowns, limit, stop,
                                    (budget - 2 * held) // step) for root in batch],
                                  lambda: progress and progress.update(
                                      "routes", roots_done=i, roots=len(roots), routes=total,
                                      seconds=time.perf_counter() - t_start),
                                  stop, until)
        for part, cut in results:
            parts.append(part)
            total += len(part[0]) - 1
            held += sum(a.nbytes for a in part)
            if cut:
                complete = False
        i += len(batch)
        if progress:
            progress.update("routes", roots_done=i, roots=len(roots), routes=total)
        if not complete:
            break
        if not inline and step == 1 and WORKERS > 1 and time.perf_counter() - t_batch > 0.005:
            step = WORKERS
    ptr, stops, chains, split, bits = join_parts(parts, compiled.words)
    del parts
    values = _value(compiled, ptr, stops, kinds)
    return RouteSet(compiled, ptr, stops, chains, split, bits, [k.name for k in kinds], values,
                    complete)


def estimated_routes(compiled, roots, max_visits, max_nontowns, above=None) -> float:
    """The routes the listing would write from ``roots``, estimated by random walks
    (:mod:`trainruns.route.kernels.estimate`, ``ESTIMATE_WALKS`` per root, seeded by the root:
    a board always gets the same estimate); the sum stops growing once above ``above``."""
    from trainruns.route.kernels import estimate_routes  # (compiled ahead of time when built)

    total = 0.0
    for root in roots:
        total += estimate_routes(int(root), compiled.adj_ptr, compiled.chain_to, compiled.chain_bits,
                                 compiled.stop_passable, compiled.stop_own, compiled.stop_town, max_visits,
                                 max_nontowns, ESTIMATE_WALKS, int(root))
        if above is not None and total > above:
            break
    return total


def _in_threads(calls, tick, stop, until=None):
    """``_enumerate_root(*args)`` for each args of ``calls``, each on its own daemon
    thread; the caller waits where Ctrl-C reaches it (a numba kernel holds off Python's
    signal handling while it runs on the main thread) and calls ``tick()`` every half
    second (progress). At ``until`` (a ``perf_counter`` time) or on Ctrl-C it sets
    ``stop[0]``, which the kernels see within 1,024 routes."""
    import threading

    out = [None] * len(calls)
    errors = []

    def work(k, args):
        try:
            out[k] = _enumerate_root(*args)
        except BaseException as e:  # re-raised below, on the caller's thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k, a), daemon=True) for k, a in enumerate(calls)]
    for t in threads:
        t.start()
    last = time.perf_counter()
    try:
        for t in threads:
            while t.is_alive():
                t.join(0.05)
                now = time.perf_counter()
                if until is not None and now >= until:
                    stop[0] = 1
                if t.is_alive() and now - last >= 0.5:
                    last = now
                    tick()
    except KeyboardInterrupt:
        stop[0] = 1
        raise
    if errors:
        raise errors[0]
    return out


def _enumerate_root(compiled, roots, max_visits, max_nontowns, limit, stop, max_bytes=None):
    """The routes of ``roots`` as arrays, at most ``limit`` of them; returns (arrays,
    cut) where ``cut`` says the limit was reached (more routes exist), or ``stop[0]``
    was set (see :func:`_in_threads`). The buffers never take more than ``max_bytes``:
    when that holds fewer routes than ``limit``, the routes that fit are kept and the
    set is cut.

    A big budget is allocated at once (pages are only taken as routes are written, so
    an unused tail costs nothing) to list the routes in one pass: growing a small buffer
    means listing everything again."""
    from trainruns.route.kernels import enumerate_routes  # (compiled ahead of time when built)

    if max_visits < 2:
        return (np.zeros(1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
                np.zeros(0, np.int64), np.zeros((0, compiled.words), np.uint64)), False
    words = compiled.words
    avg = min(max_visits, 16)

    def room(avg):
        # route slots that fit in max_bytes with ``avg`` stops per route
        per_route = 8 * (3 + 2 * avg) + 8 * words
        return limit if max_bytes is None else max(1, min(limit, int(max_bytes // per_route)))

    cap = room(avg)
    while True:
        try:
            ptr = np.zeros(cap + 1, dtype=np.int64)
            stops = np.empty(cap * avg, dtype=np.int64)
            chains = np.empty(cap * avg, dtype=np.int64)
            split = np.empty(cap, dtype=np.int64)
            bits = np.empty((cap, words), dtype=np.uint64)
        except MemoryError:
            # the system has less than the budget says (a ulimit): ask for less
            if cap == 1:
                raise
            cap = max(1, cap // 4)
            limit = cap
            continue
        n = enumerate_routes(roots, compiled.adj_ptr, compiled.chain_to,
                             compiled.chain_bits, compiled.stop_passable, compiled.stop_own,
                             compiled.stop_town, max_visits, max_nontowns,
                             ptr, stops, chains, split, bits, cap, stop)
        cut = n > cap or stop[0] != 0
        n = min(n, cap)
        if ptr[n] == 0 and n > 0 and stop[0] != 0:
            # stopped with the buffers full: keep the routes written whole
            n = int(np.flatnonzero(ptr[1:n + 1])[-1]) + 1 if ptr[1] > 0 else 0
        if ptr[n] > 0 or n == 0:
            end = ptr[n]
            out = (ptr[: n + 1], stops[:end], chains[:end], split[:n], bits[:n])
            if 2 * n < cap:
                # a compact copy lets the buffer's unused address space go
                out = tuple(a.copy() for a in out)
            return out, cut
        # the routes are longer than ``avg`` stops on average: room for longer ones
        avg = min(avg * 2, max(max_visits, 2))
        cap = room(avg)


def join_parts(parts, words):
    """Route-set arrays (ptr, stops, chains, split, bits) of several listings, one after
    the other (the roots' listings; the proof stage's targets)."""
    if not parts:
        return (np.zeros(1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
                np.zeros(0, np.int64), np.zeros((0, words), np.uint64))
    if len(parts) == 1:
        return parts[0]
    ptrs, offset = [np.zeros(1, np.int64)], 0
    for p in parts:
        ptrs.append(p[0][1:] + offset)
        offset += p[0][-1]
    return (np.concatenate(ptrs), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]), np.concatenate([p[3] for p in parts]),
            np.concatenate([p[4] for p in parts]))


# routes valued per kernel call: short enough for Ctrl-C to be seen between calls
VALUE_CHUNK = 250_000


def _value(compiled, ptr, stops, kinds):
    from trainruns.route.kernels import route_values  # (compiled ahead of time when built)

    kind_arr = np.array([[min(t.visits, UNLIMITED), min(t.counts, UNLIMITED), min(t.nontowns, UNLIMITED)]
                         for t in kinds], dtype=np.int64).reshape(-1, 3)
    ok = np.array([[not names or k.name in names for k in kinds] for names in compiled.bonus_trains],
                  dtype=np.bool_).reshape(len(compiled.bonus_trains), len(kinds))
    n = len(ptr) - 1

    def part(a, b):
        # ptr is absolute into stops, so a slice of it values routes a..b-1
        return route_values(ptr[a:b + 1], stops, b - a, compiled.stop_value, compiled.stop_town,
                            compiled.stop_own, compiled.stop_groups, compiled.bonus_required,
                            compiled.bonus_amount, ok, kind_arr)

    if n <= VALUE_CHUNK:
        return part(0, n)
    out = np.empty((n, len(kinds)), dtype=np.int64)
    bounds = list(range(0, n, VALUE_CHUNK)) + [n]
    pairs = list(zip(bounds, bounds[1:]))
    import threading

    for k in range(0, len(pairs), WORKERS):
        def fill(a, b):
            out[a:b] = part(a, b)

        threads = [threading.Thread(target=fill, args=ab, daemon=True) for ab in pairs[k:k + WORKERS]]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return out

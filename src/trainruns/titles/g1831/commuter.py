"""5.6.7 Commuter Runs: a Station-only train of size 5 or more shuttles round a fixed
cycle of cities (White Plains - New York - Long Island West - Long Island East - Long
Island West - New York - White Plains - ...; Baltimore - Washington - Baltimore - ...),
running to the same Station tokens again on different track each pass.

Plain Python: there are two such runs and their legs are short. A leg may pass cities
that do not block (earning nothing); a city passed on one leg is not used again, and
no leg passes one of the run's own cities (it would be a visit).
"""

from __future__ import annotations

import numpy as np


def commuter_paths(ctx, max_size):
    """Every commuter run of up to ``max_size`` visits that runs to some city twice
    (shorter ones are ordinary routes). Yields (stops, chains, bits, visit flags)."""
    if max_size < 5:
        return
    comp = ctx.compiled
    for run in ctx.facts.commuter:
        cycle = [ctx.group_id[g] for g in run["cycle"]]
        members = set(cycle)
        # 5.6.7.1/2: the corporation has a Station in every city of the run
        station_at = {g: [s for s in range(comp.n_stops) if ctx.stop_group[s] == g and ctx.st_val[s] >= 0]
                      for g in members}
        if not all(station_at.values()):
            continue
        first_repeat = len(set(cycle))  # visits before a city comes round again
        starts = range(len(cycle)) if run["any_start"] else [0]
        for rot in starts:
            seq = [cycle[(rot + i) % len(cycle)] for i in range(max_size)]
            for root in station_at[seq[0]]:
                yield from _walk(ctx, seq, members, root, first_repeat, max_size)


def _walk(ctx, seq, members, root, first_repeat, max_size):
    comp = ctx.compiled
    words = comp.words
    # stack frames: (stops so far, chains so far, visit flags, bits, passed groups, visits)
    stack = [([root], [], [True], np.zeros(words, np.uint64), frozenset(), 1)]
    while stack:
        stops, chains, visit, bits, passed, n = stack.pop()
        if n > first_repeat and visit[-1]:
            yield stops, chains, visit, bits
        if n >= max_size and visit[-1]:
            continue
        here = stops[-1]
        want = seq[n]
        for idx in range(comp.adj_ptr[here], comp.adj_ptr[here + 1]):
            c = int(comp.adj_chain[idx])
            cb = comp.chain_bits[c]
            if np.any(bits & cb):
                continue
            t = int(comp.chain_to[c])
            g = ctx.stop_group[t]
            nb = bits | cb
            if g == want and ctx.st_val[t] >= 0:
                stack.append((stops + [t], chains + [c], visit + [True], nb, passed, n + 1))
            elif g not in members and g not in passed and ctx.stop_pass[t]:
                stack.append((stops + [t], chains + [c], visit + [False], nb, passed | {g}, n))

"""5.6.7 Commuter Runs: a Station-only train of size 5 or more shuttles round a fixed
cycle of cities (White Plains - New York - Long Island West - Long Island East - Long
Island West - New York - White Plains - ...; Baltimore - Washington - Baltimore - ...),
running to the same Station tokens again on different track each pass.

Plain Python: there are two such runs and their legs are short. A leg may pass cities
that do not block (earning nothing); a city passed on one leg is not used again, and
no leg passes one of the run's own cities (it would be a visit). A visit may run to a
Station in the city's red extension (5.2.3.10: New York's Stations there are the city's),
moving between the two along track inside them; track that leaves the city and comes
back into it (into the red extension, say) enters it again, a visit the cycle never asks
for next, so no run takes it.
"""

from __future__ import annotations

import time

import numpy as np

from trainruns.titles.g1831.route.trains import COMMUTER_MIN_SIZE


class TooManySteps(Exception):
    """The walk took more steps than it was given (``out_of_steps``), or passed its
    deadline: too many legs to list."""

    def __init__(self, out_of_steps=False):
        super().__init__("out of steps" if out_of_steps else "past the deadline")
        self.out_of_steps = out_of_steps


def station_cycles(arrays):
    """``(run, cycle, starts, stations)`` for each commuter run the corporation may run,
    a Station of it in every city of the run (5.6.7.1/2): the run's cities as stop
    groups in turn, the places in the cycle a run may start from (any city with
    ``any_start``, else the first, 5.6.7) and each city's Station stops, in order.
    ``arrays``: the board's StopArrays."""
    for run in arrays.facts.commuter:
        if not all(g in arrays.group_id for g in run["cycle"]):
            continue  # a city of the run with no stop on the board
        cycle = [arrays.group_id[g] for g in run["cycle"]]
        stations = {g: np.flatnonzero((arrays.stop_group == g) & (arrays.st_val >= 0)).tolist() for g in set(cycle)}
        if all(stations.values()):
            yield run, cycle, range(len(cycle)) if run.get("any_start") else range(1), stations


def commuter_paths(ctx, max_size, max_steps=None, deadline=None):
    """Every commuter run of up to ``max_size`` visits that runs to some city twice
    (shorter ones are ordinary routes). Yields (stops, chains, visit flags, bits).
    After ``max_steps`` steps of the walk (None: no limit), or past ``deadline``
    (``time.perf_counter``), it raises TooManySteps: on a dense map the legs, passing
    cities freely, are too many to list."""
    steps = [0, max_steps, deadline]
    lists = None
    if max_size < COMMUTER_MIN_SIZE:
        return
    comp = ctx.compiled
    for _, cycle, starts, station_at in station_cycles(ctx):
        members = set(cycle)
        first_repeat = len(members)  # visits before a city comes round again
        lists = _Lists(ctx, inside_city(comp, ctx.stop_group)) if lists is None else lists
        for rot in starts:
            seq = [cycle[(rot + i) % len(cycle)] for i in range(max_size)]
            for root in station_at[seq[0]]:
                yield from _walk(ctx, seq, members, root, first_repeat, max_size, steps, lists)


def inside_city(comp, group) -> np.ndarray:
    """Per chain of the compiled board ``comp`` (``group``: each stop's city group):
    whether it joins two stops of one city along track in that city's own hexes only
    (the city and its red extension, "part of the same hex", 5.2.3.10). A
    chain between two stops of a city through any other hex leaves the city and enters
    it again (as does a chain back to the stop it leaves)."""
    out = np.zeros(comp.n_chains, np.bool_)
    same = np.flatnonzero((group[comp.chain_from] == group[comp.chain_to]) & (comp.chain_from != comp.chain_to))
    if not len(same):
        return out
    hexes = {}
    for s, ref in enumerate(comp.stop_refs):
        hexes.setdefault(int(group[s]), set()).add(ref[0])
    for c in same:
        own = hexes[int(group[comp.chain_from[c]])]
        out[c] = all(comp.paths[p][0] in own
                     for p in comp.chain_paths[comp.chain_path_ptr[c]:comp.chain_path_ptr[c + 1]])
    return out


class _Lists:
    """The walk's arrays as Python lists, and each chain's track bits as one Python
    int (one ``&`` a step instead of a numpy call: the walk is plain Python)."""

    def __init__(self, ctx, inside):
        comp = ctx.compiled
        self.words = comp.words
        self.adj_ptr = comp.adj_ptr.tolist()
        self.chain_to = comp.chain_to.tolist()
        self.group = ctx.stop_group.tolist()
        self.station = (ctx.st_val >= 0).tolist()
        self.passable = ctx.stop_pass.tolist()
        self.has_station = ctx.group_has_station.tolist()
        self.inside = inside.tolist()
        self.bits = [int.from_bytes(row.astype("<u8").tobytes(), "little") for row in ctx.chain_bits]

    def array(self, bits):
        """``bits`` (an int) as the track's words (numpy, as the chains' bits are)."""
        return np.frombuffer(bits.to_bytes(8 * self.words, "little"), "<u8").astype(np.uint64)


def _walk(ctx, seq, members, root, first_repeat, max_size, steps, lists):
    """Depth-first over the legs. A visit to a city is entered at one of its stops and
    may move on to its other stops (a city and its red extension are one city: "part of
    the same hex", 5.2.3.10) until it runs to one Station there; it leaves the city only
    after that, moving within it only along track inside it (``lists.inside``: per
    chain, :func:`inside_city`). A leg passes other cities that do not block; with
    ``pass_own_tokens: false`` not one where the corporation has a Station (it would
    have to run to it)."""
    strict = ctx.strict
    adj_ptr, chain_to, group, station = lists.adj_ptr, lists.chain_to, lists.group, lists.station
    chain_bits, inside = lists.bits, lists.inside
    # frames: (stops, chains, visit flags, bits, passed groups, visits so far, stops of
    # the city entered last, whether the current visit has run to its Station)
    stack = [([root], [], [True], 0, frozenset(), 1, {root}, True)]
    while stack:
        steps[0] += 1
        if steps[1] is not None and steps[0] > steps[1]:
            raise TooManySteps(True)
        if steps[2] is not None and steps[0] % 4096 == 0 and time.perf_counter() > steps[2]:
            raise TooManySteps(False)
        stops, chains, visit, bits, passed, n, here_set, done = stack.pop()
        here = stops[-1]
        gh = group[here]
        in_visit = gh in members and gh == seq[n - 1]
        if n > first_repeat and visit[-1]:
            yield stops, chains, visit, lists.array(bits)
        if n >= max_size and visit[-1]:
            continue
        want = seq[n] if n < len(seq) else -1
        for c in range(adj_ptr[here], adj_ptr[here + 1]):
            cb = chain_bits[c]
            if bits & cb:
                continue
            t = chain_to[c]
            g = group[t]
            nb = bits | cb
            if g == gh:
                if not inside[c]:
                    continue  # out of the city and back into it: a second entry
                # on within the city (visited or passed): a stop of it not yet used, but
                # once the visit has run to its Station the leg out may pass back (the
                # commuter run "may use the same cities more than once", 5.6.2.1)
                if t in here_set and not (in_visit and done):
                    continue
                if in_visit and not done and station[t]:
                    stack.append((stops + [t], chains + [c], visit + [True], nb, passed, n, here_set | {t}, True))
                stack.append((stops + [t], chains + [c], visit + [False], nb, passed, n, here_set | {t}, done))
                continue
            if in_visit and not done:
                continue  # a visit leaves its city only after running to a Station there
            if g == want and n < max_size:
                if station[t]:
                    stack.append((stops + [t], chains + [c], visit + [True], nb, passed, n + 1, {t}, True))
                stack.append((stops + [t], chains + [c], visit + [False], nb, passed, n + 1, {t}, False))
            elif g not in members and g not in passed and lists.passable[t] \
                    and not (strict and lists.has_station[g]):
                stack.append((stops + [t], chains + [c], visit + [False], nb, passed | {g}, n, {t}, True))

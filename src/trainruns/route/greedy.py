"""A quick legal run, found in milliseconds before any kernel is loaded.

Whatever the deadline, ``solve`` never answers below this run: it is computed first, in
plain Python over the compiled board, with a fixed amount of work. Trains take turns,
biggest first; each walks a bounded depth-first search out from the corporation's token
cities (next stops by value, best first) and takes the best route it saw that uses no
track an earlier train took. Then each train in turn looks again around the others'
track and keeps a better route if it finds one (two rounds at most). The routes obey the plain rules of docs/custom-map.md like every
listed route: an unbranched line of 2..visits stops, at most ``nontowns`` of them not
towns, no stop or track twice, only its ends impassable, a token city on it; a route
earns its ``counts`` best stops (a token city among them) plus its bonuses.
"""

from __future__ import annotations

from trainruns.route.result import Run
from trainruns.route.value import compiled_bonuses
from trainruns.route.value import counted as counted_stops

# steps (chains tried) per train, and in all: a few milliseconds of Python each
STEPS_PER_TRAIN = 3000
MAX_STEPS = 60_000
# rounds of re-routing each train around the others after the first pass
IMPROVING_ROUNDS = 2


def greedy_run(compiled, bound: int, steps_per_train=STEPS_PER_TRAIN, max_steps=MAX_STEPS) -> Run:
    """The run of the module docstring; ``bound`` (an upper bound on the best revenue,
    known to the caller) is passed through to the result."""
    from trainruns.route.cpsat_flow import route_of_chains

    board = compiled.board
    order = sorted(board.trains, key=lambda t: (-t.visits, -t.counts, t.name))
    masks = _ChainMasks(compiled)
    adjacency = _by_value(compiled)
    roots = [int(s) for s in compiled.stop_own.nonzero()[0]]
    # per train (in ``order``): its route's (chains, track mask, revenue), or None
    chosen = [None] * len(order)
    total_steps = 0
    # a first pass, biggest train first; then rounds where each train in turn takes the
    # best line it finds around the others' track, if that earns more than its own
    for _ in range(1 + IMPROVING_ROUNDS):
        better = False
        for i, train in enumerate(order):
            if total_steps >= max_steps or not roots:
                break
            taken = 0
            for j, c in enumerate(chosen):
                if c is not None and j != i:
                    taken |= c[1]
            steps = min(steps_per_train, max_steps - total_steps)
            chains, used = _best_line(compiled, masks, adjacency, roots, train, taken, steps)
            total_steps += steps
            if chains is None:
                continue
            revenue = route_of_chains(compiled, chains, train).revenue
            if revenue > 0 and (chosen[i] is None or revenue > chosen[i][2]):
                chosen[i] = (chains, used, revenue)
                better = True
        if not better:
            break
    routes = [route_of_chains(compiled, c[0], t) for t, c in zip(order, chosen) if c is not None]
    names = [t.name for t in board.trains]
    routes.sort(key=lambda r: names.index(r.train))
    idle = list(names)
    for r in routes:
        idle.remove(r.train)
    revenue = sum(r.revenue for r in routes)
    bound = max(bound, revenue)
    return Run(routes=routes, revenue=revenue, optimal=bound == revenue, bound=bound, idle=idle,
               engine="greedy")


class _ChainMasks:
    """Chain track masks as Python ints, made on first use."""

    def __init__(self, compiled):
        self.bits = compiled.chain_bits
        self.cache = {}

    def __getitem__(self, c):
        m = self.cache.get(c)
        if m is None:
            m = 0
            for i, w in enumerate(self.bits[c].tolist()):
                m |= int(w) << (64 * i)
            self.cache[c] = m
        return m


def _by_value(compiled):
    """Per stop, its outgoing chains, the most valuable next stop first."""
    value = compiled.stop_value
    out = {}

    def get(s):
        if s not in out:
            cs = list(range(compiled.adj_ptr[s], compiled.adj_ptr[s + 1]))
            cs.sort(key=lambda c: -int(value[compiled.chain_to[c]]))
            out[s] = cs
        return out[s]

    return get


def _line_value(compiled, stops, train):
    """What a line of stops earns for the train (the counted-stops rule and bonuses)."""
    values = [int(compiled.stop_value[s]) for s in stops]
    counted = counted_stops(values, [bool(compiled.stop_own[s]) for s in stops], train.counts)
    total = sum(v for v, c in zip(values, counted) if c)
    return total + sum(a for _, a in compiled_bonuses(compiled, stops, train.name))


def _best_line(compiled, masks, adjacency, roots, train, taken, steps):
    """The best line through a token city found in ``steps`` chain tries: (chains in
    order, track mask), or (None, 0). From each token city one arm is walked out; then,
    when the city may be passed through, a second arm from it the other way, around
    the best first arm."""
    from trainruns.route.cpsat_flow import _twin

    best, best_chains, best_mask = 0, None, 0
    per_root = max(1, steps // len(roots))  # for each arm
    for root in roots:
        nontowns = 0 if compiled.stop_town[root] else 1
        v, chains, mask, nt = _arm(compiled, masks, adjacency, root, train, taken, [root], nontowns, per_root)
        if chains is None:
            continue
        if v > best:
            best, best_chains, best_mask = v, chains, mask
        if not compiled.stop_passable[root]:
            continue
        fixed = [root] + [int(compiled.chain_to[c]) for c in chains]
        v2, arm2, mask2, _ = _arm(compiled, masks, adjacency, root, train, taken | mask, fixed, nt, per_root)
        if arm2 is None or v2 <= best:
            continue
        back = [_twin(compiled, c) for c in reversed(arm2)]
        if any(c is None for c in back):
            continue  # (a board compiled in part may lack a chain's way back)
        best, best_chains, best_mask = v2, back + chains, mask | mask2
    return best_chains, best_mask


def _arm(compiled, masks, adjacency, root, train, taken, fixed, nontowns, budget):
    """Depth-first from ``root`` for at most ``budget`` chain tries: the best arm that,
    with the stops ``fixed`` already on the line (the root among them), makes a legal
    line. Returns (value of the whole line, the arm's chains, their track mask, the
    line's non-town stops), or (0, None, 0, 0)."""
    best, best_chains, best_mask, best_nt = 0, None, 0, 0
    # every stop counts and no bonus pays: a line's value is a running sum; otherwise it
    # is worked out afresh, which costs its length in tries
    simple = train.counts >= train.visits and not len(compiled.bonus_amount)
    on_line = set(fixed)
    stops, chains = [], []
    stack = [(root, 0, taken, nontowns)]  # (stop, next chain to try, track used, non-towns)
    sums = [sum(int(compiled.stop_value[s]) for s in fixed)]
    while stack and budget > 0:
        s, k, used, nt = stack[-1]
        nxt = adjacency(s)
        if ((len(stack) > 1 and not compiled.stop_passable[s]) or len(fixed) + len(stops) >= train.visits
                or k >= len(nxt)):
            stack.pop()
            if chains:
                chains.pop()
                on_line.discard(stops.pop())
                sums.pop()
            continue
        stack[-1] = (s, k + 1, used, nt)
        c = nxt[k]
        budget -= 1
        t = int(compiled.chain_to[c])
        if t in on_line:
            continue
        nt2 = nt if compiled.stop_town[t] else nt + 1
        if nt2 > train.nontowns:
            continue
        m = masks[c]
        if used & m:
            continue
        stops.append(t)
        on_line.add(t)
        chains.append(c)
        sums.append(sums[-1] + int(compiled.stop_value[t]))
        if simple:
            v = sums[-1]
        else:
            v = _line_value(compiled, fixed + stops, train)
            budget -= len(fixed) + len(stops)
        if v > best:
            best, best_chains, best_mask, best_nt = v, list(chains), (used | m) & ~taken, nt2
        stack.append((t, 0, used | m, nt2))
    return best, best_chains, best_mask, best_nt

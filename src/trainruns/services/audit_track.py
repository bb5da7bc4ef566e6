"""Choosing track for declared routes: is there *some* choice of track that makes every
declared route legal together? (The declaration names stops; between two of them there
may be several chains of track, and the trains must not share any.)

Both searches here are exact backtracking over integer bit masks of track (a chain's
mask as in :mod:`trainruns.route.compile`).
"""


def choose_track(masks, chain_hexes, plans):
    """One chain per leg of every plan so that no track bit is used twice over all of
    them and each plan's track runs through exactly its pinned hexes (if any).

    ``masks[c]``: chain c's track as an int bit mask; ``chain_hexes[c]``: its hexes.
    ``plans``: ``[(legs, hexes or None)]``, ``legs`` a list of candidate chain lists.
    Returns the chosen chains per plan, or None when no choice works.

    Exact backtracking over the legs, with two things that keep it fast when many legs
    are ambiguous: without pins, legs are taken in the order of the track they may use
    (so legs competing for the same track meet early, not after every choice between
    them has been tried), and a state that failed once is remembered. A state is the
    leg, the used bits that later legs could still collide with, and how much of the
    pin is matched (the matched hexes are the pin's prefix of that length)."""
    flat = [(p, i, leg) for p, (legs, _) in enumerate(plans) for i, leg in enumerate(legs)]
    if all(pin is None for _, pin in plans):
        def lowest_bit(leg):
            union = 0
            for c in leg:
                union |= masks[c]
            return (union & -union).bit_length()

        flat.sort(key=lambda f: (lowest_bit(f[2]), len(f[2])))
    future = [0] * (len(flat) + 1)  # bits the legs from k on may use
    for k in range(len(flat) - 1, -1, -1):
        future[k] = future[k + 1]
        for c in flat[k][2]:
            future[k] |= masks[c]
    chosen = [None] * len(flat)
    failed = set()

    def fits(pin, hexes):
        return pin is None or (len(hexes) <= len(pin) and pin[:len(hexes)] == hexes)

    def enter(k, used, hexes):
        """The frame of leg k reached with ``used`` track and ``hexes`` so far, or None
        when that state already failed."""
        if flat[k][1] == 0:
            hexes = []  # a new route begins (pinned plans keep their legs in order)
        key = (k, used & future[k], len(hexes))
        return None if key in failed else [used, hexes, key, 0]

    # depth-first over the legs with an explicit stack (a route may have a thousand
    # legs: one Python frame per leg would overflow the interpreter's stack)
    frames = [enter(0, 0, [])] if flat else []
    while frames:
        k = len(frames) - 1
        used, hexes, key, idx = frames[-1]
        p, i, leg = flat[k]
        pin = plans[p][1]
        last = i + 1 == len(plans[p][0])
        child = None
        while idx < len(leg):
            c = leg[idx]
            idx += 1
            m = masks[c]
            if used & m:
                continue
            h = join_hexes(hexes, chain_hexes[c]) if pin is not None else hexes
            if not fits(pin, h) or (last and pin is not None and h != pin):
                continue
            chosen[k] = c
            if k + 1 == len(flat):
                child = True
                break
            child = enter(k + 1, used | m, h)
            if child is not None:
                break
        if child is True:
            break
        if child is None:
            failed.add(key)
            frames.pop()
            continue
        frames[-1][3] = idx
        frames.append(child)
    else:
        if flat:
            return None
    out = [[None] * len(legs) for legs, _ in plans]
    for (p, i, _), c in zip(flat, chosen):
        out[p][i] = c
    return out


def pick_disjoint(order, options, masks):
    """One option (a route of the title's route set) per route in ``order`` with
    pairwise disjoint track masks, or None (exact backtracking, explicit stack)."""
    chosen = []
    nxt = [0]      # per depth: the next option to try
    used = [0]     # per depth: the track taken above it
    while len(chosen) < len(order):
        x = len(chosen)
        opts = options[order[x]]
        while nxt[x] < len(opts) and used[x] & masks[opts[nxt[x]]]:
            nxt[x] += 1
        if nxt[x] < len(opts):
            k = opts[nxt[x]]
            nxt[x] += 1
            chosen.append(k)
            nxt.append(0)
            used.append(used[x] | masks[k])
            continue
        if x == 0:
            return None
        nxt.pop()
        used.pop()
        chosen.pop()
    return chosen


def join_hexes(hexes, more):
    """The hexes along track, consecutive repeats merged (as solve's JSON lists them)."""
    if hexes and more and hexes[-1] == more[0]:
        return hexes + more[1:]
    return hexes + more


def first_clashes(order, key, reach, clash):
    """For each route ``j`` of ``order``, the first earlier route ``i`` it cannot run
    apart from (``clash(i, j)``): the pairs ``(i, j)``, at most one per route.

    Routes with equal ``key(i)`` (the same plan) behave alike, so each pair of distinct
    plans is tried once, and only against the first route of each plan; two routes
    whose ``reach`` masks (all the track either could use) do not meet cannot clash.
    A declaration of a thousand copies of one route so costs a thousand steps, not a
    billion."""
    firsts = []   # (plan key, its first route, its reach), in order of that first route
    seen = {}     # plan key -> reach
    placed = set()
    known = {}
    pairs = []
    for j in order:
        kj = key(j)
        if kj not in seen:
            seen[kj] = reach(j)
        rj = seen[kj]
        for ki, i, ri in firsts:
            if not ri & rj:
                continue
            if (ki, kj) not in known:
                known[(ki, kj)] = clash(i, j)
            if known[(ki, kj)]:
                pairs.append((i, j))
                break
        if kj not in placed:
            placed.add(kj)
            firsts.append((kj, j, rj))
    return pairs

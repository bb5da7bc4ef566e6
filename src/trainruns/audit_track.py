"""Choosing track for declared routes: is there *some* choice of track that makes every
declared route legal together? (The declaration names stops; between two of them there
may be several chains of track, and the trains must not share any.)

Both searches here are exact backtracking over integer bit masks of track (a chain's
mask as in :mod:`trainruns.compile`).
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

    def go(k, used, hexes):
        if k == len(flat):
            return True
        p, i, leg = flat[k]
        pin = plans[p][1]
        if i == 0:
            hexes = []  # a new route begins (pinned plans keep their legs in order)
        key = (k, used & future[k], len(hexes))
        if key in failed:
            return False
        last = i + 1 == len(plans[p][0])
        for c in leg:
            m = masks[c]
            if used & m:
                continue
            h = join_hexes(hexes, chain_hexes[c]) if pin is not None else hexes
            if not fits(pin, h) or (last and pin is not None and h != pin):
                continue
            chosen[k] = c
            if go(k + 1, used | m, h):
                return True
        failed.add(key)
        return False

    if not go(0, 0, []):
        return None
    out = [[None] * len(legs) for legs, _ in plans]
    for (p, i, _), c in zip(flat, chosen):
        out[p][i] = c
    return out


def pick_disjoint(order, options, masks):
    """One option (a route of the title's route set) per route in ``order`` with
    pairwise disjoint track masks, or None (exact backtracking)."""
    chosen = []

    def go(x, used):
        if x == len(order):
            return True
        for k in options[order[x]]:
            if not used & masks[k]:
                chosen.append(k)
                if go(x + 1, used | masks[k]):
                    return True
                chosen.pop()
        return False

    return chosen if go(0, 0) else None


def join_hexes(hexes, more):
    """The hexes along track, consecutive repeats merged (as solve's JSON lists them)."""
    if hexes and more and hexes[-1] == more[0]:
        return hexes + more[1:]
    return hexes + more

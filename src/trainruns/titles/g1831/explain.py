"""Which tokens a train runs to on a given route, in plain Python (for display).

The kernels only keep each route's best value per train kind; to show a player which
stops earn, this redoes the choice for the one route and train that were picked.
"""

from __future__ import annotations

from .trains import MIXED, STATION, YARD


def best_counting(model, stops, train, need=0):
    """(value, counted flags) of the best choice of tokens for ``train`` on the path
    ``stops`` (stop ids) that runs to at least the rights in ``need``; (-1, all False)
    when there is none. Same rules as kernels.best_counts (5.6.2.3, 5.6.2.5, 5.6.3)."""
    # state: (count, has station, has yard, rights, f) -> (value, flags); f as in the
    # kernel: 0 nothing yet in this city visit, 1 ran to a token, 2 owes one (strict)
    states = {}
    n = len(stops)
    for i, s in enumerate(stops):
        opts = []
        if train.type != YARD and model.st_val[s] >= 0:
            opts.append((int(model.st_val[s]), 1, 0, _bit(model.st_right[s])))
        if train.type != STATION and model.yd_val[s] >= 0:
            opts.append((int(model.yd_val[s]), 0, 1, _bit(model.yd_right[s])))
        if i == 0:
            states = {}
            for v, hs, hy, rb in opts:
                _keep(states, (1, hs, hy, rb, 1), v, (True,))
            continue
        same = model.stop_group[s] == model.stop_group[stops[i - 1]]
        nxt = {}
        for (c, hs, hy, rm, f), (v, flags) in states.items():
            if not same and f == 2:
                continue
            fr = f if same else 0
            if i < n - 1:
                fs = 2 if fr == 0 and model.strict and opts else fr
                _keep(nxt, (c, hs, hy, rm, fs), v, flags + (False,))
            if fr != 1 and c < train.size:
                for ov, os_, oy, rb in opts:
                    _keep(nxt, (c + 1, hs | os_, hy | oy, rm | rb, 1), v + ov, flags + (True,))
        states = nxt
    best = (-1, [False] * n)
    for (c, hs, hy, rm, f), (v, flags) in states.items():
        ok_type = {STATION: hs and not hy, YARD: hy and not hs, MIXED: hs and hy}[train.type]
        if f == 1 and c >= 2 and ok_type and rm & need == need and v > best[0]:
            best = (v, list(flags))
    return best


def _bit(right):
    return 0 if right < 0 else 1 << int(right)


def _keep(states, key, value, flags):
    if key not in states or states[key][0] < value:
        states[key] = (value, flags)

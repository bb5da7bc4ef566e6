"""Which tokens a train runs to on a given route, in plain Python.

The kernels only keep each route's best value per train kind; to show a player which
stops earn (and what each earns), this redoes the choice for the one route and train
that were picked. It also values the few routes a rule option makes the kernels unfit
for (the Delaware read as "runs to a token in both cities south", model.py).
"""

from __future__ import annotations

from trainruns.titles.g1831.route.trains import MIXED, STATION, YARD


def best_choice(model, stops, train, need=0, south=None):
    """(value, chosen) of the best choice of tokens for ``train`` on the path ``stops``
    (stop ids) that runs to at least the rights in ``need``; ``chosen[i]`` is
    ``"station"``, ``"yard"`` or None (passed). (-1, all None) when there is none.

    Same rules as kernels.best_counts (5.6.2.3, 5.6.2.5, 5.6.3), including a mixed
    train's per-type caps (``model.type_caps``). With ``south = (delaware group, a, b)``
    the path may enter the Delaware group a second time only after running to a token
    in both ``a`` and ``b`` since its first entry (5.6.2.1, read as "runs to")."""
    fits = [vc for m, vc in best_per_rights(model, stops, train, south).items() if m & need == need]
    return max(fits, key=lambda vc: vc[0]) if fits else (-1, [None] * len(stops))


def best_per_rights(model, stops, train, south=None):
    """{rights mask run to: (value, chosen)} over the legal choices of ``best_choice``."""
    max_s, max_y = model.type_caps(train)
    # state: (stations, yards, rights, f, south) -> (value, chosen); f as in the kernel:
    # 0 nothing yet in this city visit, 1 ran to a token, 2 owes one (strict); south:
    # 0 no Delaware entry yet, then bit 1 / 2: ran to a token in city a / b since it
    states = {}
    n = len(stops)
    dgroup = south[0] if south else None
    for i, s in enumerate(stops):
        g = model.stop_group[s]
        opts = []
        if model.st_val[s] >= 0 and max_s:
            opts.append((int(model.st_val[s]), "station", _bit(model.st_right[s])))
        if model.yd_val[s] >= 0 and max_y:
            opts.append((int(model.yd_val[s]), "yard", _bit(model.yd_right[s])))
        if i == 0:
            d0 = 4 if g == dgroup else 0
            for v, ty, rb in opts:
                _keep(states, (int(ty == "station"), int(ty == "yard"), rb, 1, d0), v, (ty,))
            continue
        same = g == model.stop_group[stops[i - 1]]
        nxt = {}
        for (cs, cy, rm, f, d), (v, chosen) in states.items():
            if not same and f == 2:
                continue
            if south and not same and g == dgroup:
                if d and d != 7:
                    continue  # back to the Delaware before both cities south were run to
                d = 4
            fr = f if same else 0
            if i < n - 1:
                fs = 2 if fr == 0 and model.strict and opts else fr
                _keep(nxt, (cs, cy, rm, fs, d), v, chosen + (None,))
            if fr != 1 and cs + cy < train.size:
                for ov, ty, rb in opts:
                    ncs, ncy = cs + (ty == "station"), cy + (ty == "yard")
                    if ncs > max_s or ncy > max_y:
                        continue
                    nd = d
                    if south and d & 4:
                        nd |= (1 if g == south[1] else 0) | (2 if g == south[2] else 0)
                    _keep(nxt, (ncs, ncy, rm | rb, 1, nd), v + ov, chosen + (ty,))
        states = nxt
    best = {}
    for (cs, cy, rm, f, d), (v, chosen) in states.items():
        ok_type = {STATION: cy == 0, YARD: cs == 0, MIXED: cs >= 1 and cy >= 1}[train.type]
        if f == 1 and cs + cy >= 2 and ok_type and v > best.get(rm, (-1,))[0]:
            best[rm] = (v, list(chosen))
    return best


def _bit(right):
    return 0 if right < 0 else 1 << int(right)


def _keep(states, key, value, chosen):
    if key not in states or states[key][0] < value:
        states[key] = (value, chosen)

"""An independent brute force of the plain rules (docs/custom-map.md), written as plainly as
possible and sharing no code with trainruns: it walks the raw JSON map path by path
(hex sides, junctions "jK" and stops "sK" as docs/custom-map.md defines them).

Used only on small boards: it lists every route explicitly and tries every combination.
"""

import re

OFFSETS = {
    "flat": ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)),
    "pointy": ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1)),
}


def coords(hid, axes):
    letters, number = re.match(r"([A-Z]+)(\d+)", hid).groups()
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    letter, num = n - 1, int(number) - 1
    return (num, letter) if axes.get("x") == "number" else (letter, num)


def stop_value(value, phases, phase):
    if isinstance(value, int):
        return value
    best = None
    for p in phases[: phases.index(phase) + 1]:
        if p in value:
            best = value[p]
    return best


def all_routes(pos, max_stops=None):
    """Every route (as stops, paths used, sides crossed), each listed once; with
    ``max_stops``, only routes of at most that many stops."""
    m = pos["map"]
    layout, axes = m["layout"], m.get("axes", {"x": "letter", "y": "number"})
    phases, phase = m.get("phases", []), pos.get("phase")
    corp = pos["corporation"]
    hexes = {h["id"]: h for h in m["hexes"]}
    where = {coords(h, axes): h for h in hexes}
    tokens = {}
    for t in pos.get("tokens", []):
        tokens.setdefault((t["hex"], t["stop"]), []).append(t["corporation"])

    def info(stop):
        s = hexes[stop[0]]["stops"][stop[1]]
        toks = tokens.get(stop, [])
        own = s["kind"] == "city" and corp in toks
        if s["kind"] == "offboard":
            passable = False
        elif s["kind"] == "city" and not own and len(toks) >= s.get("slots", 1) and s.get("slots", 1) > 0:
            passable = False
        else:
            passable = True
        return stop_value(s["value"], phases, phase), s["kind"], own, passable

    def ends(h, path):
        out = []
        for e in path:
            if isinstance(e, int):
                out.append(("side", e))
            elif e.startswith("j"):
                out.append(("junction", int(e[1:])))
            else:
                out.append(("stop", (h, int(e[1:]))))
        return out

    def across(h, side):
        x, y = coords(h, axes)
        dx, dy = OFFSETS[layout][side]
        other = where.get((x + dx, y + dy))
        return (other, (side + 3) % 6) if other else None

    found = {}

    def walk(stops, paths, sides, at_stop):
        """Extend the route from the stop it ends at."""
        h = at_stop[0]
        for pi, path in enumerate(hexes[h]["paths"]):
            e = ends(h, path)
            if ("stop", at_stop) not in e or (h, pi) in paths:
                continue
            other = e[1] if e[0] == ("stop", at_stop) else e[0]
            follow(stops, paths | {(h, pi)}, sides, h, other)

    def follow(stops, paths, sides, h, end):
        if end[0] == "stop":
            stop = end[1]
            if stop in stops:
                return
            new = stops + [stop]
            record(new, paths, sides)
            if info(stop)[3] and (max_stops is None or len(new) < max_stops):
                walk(new, paths, sides, stop)
            return
        if end[0] == "junction":
            # a point where the hex's paths meet: go on along any other path touching
            # it; no route passes a junction twice, no two trains share one
            point = ("junction", h, end[1])
            if point in sides:
                return
            for pi, path in enumerate(hexes[h]["paths"]):
                e = ends(h, path)
                if end not in e or (h, pi) in paths:
                    continue
                other = e[1] if e[0] == end else e[0]
                follow(stops, paths | {(h, pi)}, sides | {point}, h, other)
            return
        nxt = across(h, end[1])
        if nxt is None:
            return
        h2, side2 = nxt
        crossing = frozenset([(h, end[1]), (h2, side2)])
        if crossing in sides:
            return
        for pi, path in enumerate(hexes[h2]["paths"]):
            e = ends(h2, path)
            if ("side", side2) not in e or (h2, pi) in paths:
                continue
            other = e[1] if e[0] == ("side", side2) else e[0]
            follow(stops, paths | {(h2, pi)}, sides | {crossing}, h2, other)

    def record(stops, paths, sides):
        if len(stops) >= 2 and any(info(s)[2] for s in stops):
            key = frozenset(paths)
            if key not in found:
                found[key] = (stops, paths, sides)

    for h in hexes:
        for k in range(len(hexes[h]["stops"])):
            walk([(h, k)], frozenset(), frozenset(), (h, k))
    return [(stops, paths, sides, [info(s) for s in stops]) for stops, paths, sides in found.values()]


def train_value(name, infos):
    """Revenue of a route for a train of the plain rules, or None if it may not run it."""
    values = [v for v, _, _, _ in infos]
    n = len(infos)
    if "/" in name:
        count, visit = map(int, name.split("/"))
        if n > visit:
            return None
        best = None
        # try every counted subset of size min(count, n) that holds a token city
        from itertools import combinations
        for combo in combinations(range(n), min(count, n)):
            if any(infos[i][2] for i in combo):
                total = sum(values[i] for i in combo)
                best = total if best is None else max(best, total)
        return best
    if "+" in name:
        big, towns = map(int, name.split("+"))
        non_towns = sum(1 for _, kind, _, _ in infos if kind != "town")
        if n > big + towns or non_towns > big:
            return None
        return sum(values)
    if n > int(name):
        return None
    return sum(values)


def bonus_value(train, stops, bonuses):
    """What a route earns beyond its stops: each bonus ``(amount, groups, trains)``
    whose every group (a set of (hex, stop)) holds a stop of the route, for a train
    the bonus names (no names: every train)."""
    on = set(stops)
    return sum(amount for amount, groups, trains in bonuses
               if (not trains or train in trains) and all(on & set(g) for g in groups))


def best_run(pos, max_stops=None, bonuses=()):
    """The best total over every assignment of routes to trains (idle allowed); each
    route earns its stops and the ``bonuses`` it reaches (:func:`bonus_value`)."""
    routes = all_routes(pos, max_stops)
    trains = pos["trains"]
    values = [[None if (v := train_value(t, r[3])) is None else v + bonus_value(t, r[0], bonuses)
               for r in routes] for t in trains]

    best = 0

    def go(i, used_paths, used_sides, total):
        nonlocal best
        if i == len(trains):
            best = max(best, total)
            return
        go(i + 1, used_paths, used_sides, total)
        for j, (stops, paths, sides, _) in enumerate(routes):
            v = values[i][j]
            if v is None or v <= 0 or paths & used_paths or sides & used_sides:
                continue
            go(i + 1, used_paths | paths, used_sides | sides, total + v)

    go(0, frozenset(), frozenset(), 0)
    return best, routes

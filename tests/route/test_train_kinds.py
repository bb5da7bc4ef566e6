"""The core's train kinds ("N", "N/M", "N+S") against a brute force written plainly here.

The brute force knows nothing of the compiler or the kernels: it walks the raw paths of a
custom map (docs/custom-map.md) hex side by hex side, values each route by the
plain rules word for word, and tries every combination of routes for the trains. If
``solve`` and it disagree on any random board, one of them misreads the rules.
"""

from __future__ import annotations

import itertools
import random

import pytest

from trainruns import solve

# docs/custom-map.md, flat layout: (dx, dy) across each side in doubled coordinates.
FLAT = {0: (0, 2), 1: (-1, 1), 2: (-1, -1), 3: (0, -2), 4: (1, -1), 5: (1, 1)}
LETTERS = "ABCDEFGH"


# --- the brute force ---------------------------------------------------------------------


def _coords(hex_id):
    return LETTERS.index(hex_id[0]), int(hex_id[1:]) - 1


def _end(e):
    return ("side", e) if isinstance(e, int) else ("stop", int(e[1:]))


class Plain:
    """A custom map read naively: nodes are stops ``("stop", hex, k)`` and hex-side
    points ``("edge", frozenset of (hex, side))``; every path is an edge of that graph."""

    def __init__(self, position):
        self.pos = position
        hexes = position["map"]["hexes"]
        self.hexes = {h["id"]: h for h in hexes}
        at = {_coords(h): h for h in self.hexes}
        self.corp = position["corporation"]
        self.tokens = {}
        for t in position.get("tokens", []):
            self.tokens.setdefault((t["hex"], t["stop"]), []).append(t["corporation"])
        self.paths = []  # (path id, node a, node b, hex)
        for h in hexes:
            x, y = _coords(h["id"])
            for j, (a, b) in enumerate(h["paths"]):
                nodes = []
                for e in (_end(a), _end(b)):
                    if e[0] == "stop":
                        nodes.append(("stop", h["id"], e[1]))
                    else:
                        dx, dy = FLAT[e[1]]
                        other = at.get((x + dx, y + dy))
                        pts = {(h["id"], e[1])}
                        if other:
                            pts.add((other, (e[1] + 3) % 6))
                        nodes.append(("edge", frozenset(pts)))
                self.paths.append(((h["id"], j), nodes[0], nodes[1], h["id"]))
        self.incident = {}
        for p in self.paths:
            self.incident.setdefault(p[1], []).append(p)
            self.incident.setdefault(p[2], []).append(p)

    def stop(self, node):
        return self.hexes[node[1]]["stops"][node[2]]

    def own(self, node):
        return self.stop(node)["kind"] == "city" and self.corp in self.tokens.get(node[1:], [])

    def passable(self, node):
        """Off-boards and cities full of other corporations' tokens end routes only."""
        s = self.stop(node)
        if s["kind"] == "offboard":
            return False
        if s["kind"] == "city":
            toks = self.tokens.get(node[1:], [])
            if self.corp not in toks and len(toks) >= s.get("slots", 1):
                return False
        return True

    def routes(self, max_stops):
        """Every route: (stop nodes in order, frozenset of paths, frozenset of edge points).
        Each is found from both ends; that only repeats work, not results."""
        out = []
        stops = [("stop", h, k) for h, hx in self.hexes.items() for k in range(len(hx["stops"]))]

        def walk(node, came, visited, used_paths, used_edges):
            # node is a stop (already in visited) or an edge point
            if node[0] == "stop":
                if len(visited) >= 2:
                    out.append((tuple(visited), frozenset(used_paths), frozenset(used_edges)))
                if len(visited) >= max_stops or (len(visited) >= 2 and not self.passable(node)):
                    return
            for p in self.incident.get(node, []):
                if p[0] in used_paths:
                    continue
                if node[0] == "edge" and came is not None and p[3] == came[3]:
                    continue  # at a hex side, track goes on in the other hex
                nxt = p[2] if p[1] == node else p[1]
                if nxt[0] == "stop":
                    if nxt in visited:
                        continue
                    walk(nxt, p, visited + [nxt], used_paths | {p[0]}, used_edges)
                else:
                    if nxt in used_edges:
                        continue
                    walk(nxt, p, visited, used_paths | {p[0]}, used_edges | {nxt})

        for s in stops:
            walk(s, None, [s], frozenset(), frozenset())
        return out

    def value(self, train, route):
        """docs/custom-map.md plain rules for one train on one route; None if it may not run it."""
        if not any(self.own(s) for s in route):
            return None
        vals = [self.stop(s)["value"] for s in route]
        towns = sum(self.stop(s)["kind"] == "town" for s in route)
        if "/" in train:
            n, m = map(int, train.split("/"))
            if len(route) > m:
                return None
            if len(route) <= n:
                return sum(vals)
            best = None
            for combo in itertools.combinations(range(len(route)), n):
                if any(self.own(route[i]) for i in combo):
                    v = sum(vals[i] for i in combo)
                    best = v if best is None else max(best, v)
            return best
        if "+" in train:
            n, s = map(int, train.split("+"))
            if len(route) > n + s or len(route) - towns > n:
                return None
            return sum(vals)
        n = int(train)
        return sum(vals) if len(route) <= n else None

    def best(self):
        trains = self.pos["trains"]
        longest = 0
        for t in trains:
            if "/" in t:
                longest = max(longest, int(t.split("/")[1]))
            elif "+" in t:
                longest = max(longest, sum(map(int, t.split("+"))))
            else:
                longest = max(longest, int(t))
        routes = self.routes(longest)
        per_train = []
        for t in trains:
            best_by_track = {}
            for stops, ps, es in routes:
                v = self.value(t, stops)
                if v is not None and v > 0:
                    key = (ps, es)
                    best_by_track[key] = max(best_by_track.get(key, 0), v)
            per_train.append(sorted(((v, ps, es) for (ps, es), v in best_by_track.items()),
                                    key=lambda r: -r[0]))

        best = 0

        def pick(i, total, used_p, used_e):
            nonlocal best
            if i == len(trains):
                best = max(best, total)
                return
            pick(i + 1, total, used_p, used_e)  # this train stays idle
            for v, ps, es in per_train[i]:
                if ps & used_p or es & used_e:
                    continue
                pick(i + 1, total + v, used_p | ps, used_e | es)

        pick(0, 0, frozenset(), frozenset())
        return best


# --- random boards ------------------------------------------------------------------------


def random_position(seed):
    """A small flat map: 9-12 hexes, random stops, random track, tokens and trains.

    Every few seeds the own token sits on the cheapest city (N/M must still count it) and
    routes are long enough that an N/M train's best N is not all of its stops."""
    rng = random.Random(seed)
    ids = [f"{c}{y + 1}" for x, c in enumerate("ABCD") for y in range(x % 2, 6, 2)]
    ids = rng.sample(ids, rng.randint(9, len(ids)))
    cheap_token = seed % 3 == 0
    hexes, cities = [], []
    for hid in ids:
        stops = []
        for _ in range(rng.choice([0, 1, 1, 1, 1, 2])):
            kind = rng.choices(["city", "town", "offboard"], [5, 4, 1])[0]
            value = rng.choice([10, 20, 30, 40, 50, 60]) if kind != "town" else rng.choice([10, 20, 30])
            s = {"kind": kind, "value": value}
            if kind == "city":
                s["slots"] = rng.choice([1, 1, 2])
            stops.append(s)
        ends = list(range(6)) + [f"s{k}" for k in range(len(stops))]
        paths, seen = [], set()
        for k in range(len(stops)):  # each stop gets one or two exits
            for side in rng.sample(range(6), rng.choice([2, 2, 3, 3, 4])):
                paths.append([f"s{k}", side])
        for _ in range(rng.randint(0, 3)):
            a, b = rng.sample(ends, 2)
            if isinstance(a, str) and isinstance(b, str):
                continue
            paths.append([a, b])
        uniq = []
        for p in paths:
            key = frozenset(map(str, p))
            if key not in seen:
                seen.add(key)
                uniq.append(p)
        hexes.append({"id": hid, "stops": stops, "paths": uniq})
        cities += [(hid, k) for k, s in enumerate(stops) if s["kind"] == "city"]
    tokens = []
    if cities:
        own = rng.sample(cities, min(len(cities), rng.choice([1, 1, 2])))
        for hid, k in own:
            tokens.append({"hex": hid, "stop": k, "corporation": "A"})
            if cheap_token:
                next(h for h in hexes if h["id"] == hid)["stops"][k]["value"] = 5
        for hid, k in cities:
            if (hid, k) not in own and rng.random() < 0.3:
                slots = next(h for h in hexes if h["id"] == hid)["stops"][k]["slots"]
                for j in range(slots):
                    tokens.append({"hex": hid, "stop": k, "corporation": f"X{j}"})
    pool = ["2", "3", "4", "2/3", "3/5", "2/4", "1/3", "2+1", "2+2", "3+1", "1+2"]
    trains = rng.sample(pool, rng.choice([1, 2, 2, 3]))
    return {"map": {"layout": "flat", "hexes": hexes}, "phase": "1", "corporation": "A",
            "trains": trains, "tokens": tokens}


SEEDS = range(160)


@pytest.mark.parametrize("seed", SEEDS)
def test_solve_matches_brute_force(seed):
    """docs/custom-map.md plain rules for N, N/M and N+S trains: ``solve`` finds exactly the
    best revenue the brute force finds."""
    pos = random_position(seed)
    expected = Plain(pos).best()
    run = solve(pos)
    assert run.optimal
    assert run.revenue == expected, (seed, pos["trains"], run.routes)


def test_random_boards_exercise_the_rules():
    """The random boards are not vacuous: many have positive runs, some N/M runs count
    fewer stops than they visit, and some of those leave out a stop dearer than the token
    city they must count."""
    positive = partial = token_cheapest = 0
    for seed in SEEDS:
        pos = random_position(seed)
        run = solve(pos)
        positive += run.revenue > 0
        for r in run.routes:
            if "/" in r.train and not all(r.counted):
                partial += 1
                if seed % 3 == 0:
                    token_cheapest += 1
    assert positive >= 80
    assert partial >= 5
    assert token_cheapest >= 2


def _line(values, kinds, token_at, trains):
    """A straight north-south line of stops in column A, one per hex."""
    hexes = []
    for i, (v, kind) in enumerate(zip(values, kinds)):
        paths = [["s0", 0]] if i == 0 else ([["s0", 3]] if i == len(values) - 1 else [[3, "s0"], ["s0", 0]])
        s = {"kind": kind, "value": v}
        if kind == "city":
            s["slots"] = 1
        hexes.append({"id": f"A{2 * i + 1}", "stops": [s], "paths": paths})
    return {"map": {"layout": "flat", "hexes": hexes}, "corporation": "A", "trains": trains,
            "tokens": [{"hex": f"A{2 * token_at + 1}", "stop": 0, "corporation": "A"}]}


def test_n_m_counts_its_only_token_city_even_when_cheapest():
    """Plain rules, "N/M": the counted stops must include a city holding the token, even
    when that city is the route's cheapest stop: a 2/4 on 10(token)-50-60-40 earns 70."""
    pos = _line([10, 50, 60, 40], ["city"] * 4, 0, ["2/4"])
    assert Plain(pos).best() == 70
    run = solve(pos)
    assert run.revenue == 70
    assert run.routes[0].counted[0] is True


def test_n_m_best_n_is_not_the_sum():
    """A 2/4 counts its best two: 30, 10, 60 (token), 50 -> 60 + 50 = 110, not all 150."""
    pos = _line([30, 10, 60, 50], ["city"] * 4, 2, ["2/4"])
    assert Plain(pos).best() == 110
    assert solve(pos).revenue == 110


def test_n_plus_s_limits_non_towns():
    """"N+S": at most N stops that are not towns. A 2+2 may run city-town-town-city (all
    count) but not three cities."""
    pos = _line([20, 10, 10, 30], ["city", "town", "town", "city"], 0, ["2+2"])
    assert solve(pos).revenue == 70
    pos = _line([20, 30, 40], ["city"] * 3, 0, ["2+2"])
    assert Plain(pos).best() == 50  # only token 20 and its neighbour 30 fit, not the 40 too
    assert solve(pos).revenue == 50

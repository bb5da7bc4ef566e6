"""Seeded random custom maps (docs/custom-map.md format) for comparing the solver with the
brute force: small enough to brute-force, varied enough to hit every plain rule
(towns, off-boards, blocked cities, two paths meeting at one side, two cities on one
hex, phase values, flat and pointy layouts, both axes conventions)."""

import random

PHASES = ["2", "3", "5"]
OFFSETS = {
    "flat": ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)),
    "pointy": ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1)),
}


def hex_id(x, y, axes=None):
    if axes and axes.get("x") == "number":
        x, y = y, x
    letters = ""
    n = x + 1
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(65 + r) + letters
    return f"{letters}{y + 1}"


def grid(layout, cols, rows):
    """Doubled coordinates of a roughly rectangular patch of hexes."""
    cells = []
    for i in range(cols):
        for j in range(rows):
            if layout == "flat":
                cells.append((i, 2 * j + (i % 2)))
            else:
                cells.append((2 * i + (j % 2), j))
    return cells


def _value(rng, base):
    if rng.random() < 0.3:
        return {"2": base, "5": base + rng.choice([10, 20, 30])}
    return base


def random_position(seed, trains=None, size=None, density=0.6):
    """A random board: each pair of neighbouring hexes is joined with probability
    ``density``, and each hex's tile connects the sides it is joined on."""
    rng = random.Random(seed)
    layout = rng.choice(["flat", "pointy"])
    axes = rng.choice([{"x": "letter", "y": "number"}, {"x": "number", "y": "letter"}])
    cols, rows = size or (rng.randint(3, 4), rng.randint(3, 4))
    cells = grid(layout, cols, rows)
    present = set(cells)
    joined = {}
    for (x, y) in cells:
        for e in range(6):
            nb = (x + OFFSETS[layout][e][0], y + OFFSETS[layout][e][1])
            if nb in present and (nb, (e + 3) % 6) not in joined:
                joined[((x, y), e)] = rng.random() < density
            elif nb in present:
                joined[((x, y), e)] = joined[(nb, (e + 3) % 6)]
    hexes, cities = [], []
    for (x, y) in cells:
        hid = hex_id(x, y, axes)
        sides = [e for e in range(6) if joined.get(((x, y), e))]
        rim = any((x + dx, y + dy) not in present for dx, dy in OFFSETS[layout])
        rng.shuffle(sides)
        stops, paths = [], []
        roll = rng.random()
        if not sides:
            pass
        elif roll < 0.12 and rim:
            stops = [{"kind": "offboard", "value": _value(rng, rng.choice([20, 30, 40]))}]
            paths = [[e, "s0"] for e in sides[:2]]
        elif roll < 0.5:
            n_cities = 2 if len(sides) >= 4 and rng.random() < 0.3 else 1
            for k in range(n_cities):
                stops.append({"kind": "city", "value": rng.choice([10, 20, 30, 40]),
                              "slots": rng.randint(1, 2)})
                cities.append((hid, k))
                paths += [[e, f"s{k}"] for e in sides[k::n_cities]]
        elif roll < 0.7:
            stops = [{"kind": "town", "value": rng.choice([10, 20])}]
            paths = [[e, "s0"] for e in sides[:3]]
            rest = sides[3:]
            if len(rest) >= 2:
                paths.append([rest[0], rest[1]])
        else:
            # plain track: pair the sides; sometimes two paths meet at one side
            for a, b in zip(sides[::2], sides[1::2]):
                paths.append([a, b])
            if len(sides) >= 3 and rng.random() < 0.6:
                paths.append([sides[0], sides[2]])
            if len(sides) % 2 and len(sides) >= 3:
                paths.append([sides[-1], sides[1]])
        hexes.append({"id": hid, "stops": stops, "paths": _dedupe(paths)})
    tokens = []
    if cities:
        for (h, k) in rng.sample(cities, min(len(cities), rng.randint(1, 2))):
            tokens.append({"hex": h, "stop": k, "corporation": "A"})
        slots = {(h["id"], k): s.get("slots", 0) for h in hexes for k, s in enumerate(h["stops"])}
        for (h, k) in cities:
            if rng.random() < 0.35:
                used = sum(1 for t in tokens if (t["hex"], t["stop"]) == (h, k))
                for corp in ("B", "C")[: slots[(h, k)] - used]:
                    tokens.append({"hex": h, "stop": k, "corporation": corp})
    if trains is None:
        trains = rng.sample(["2", "3", "4", "99", "3", "2"], rng.randint(1, 3))
    return {
        "map": {"layout": layout, "axes": axes, "phases": PHASES, "hexes": hexes},
        "phase": rng.choice(PHASES),
        "corporation": "A",
        "trains": trains,
        "tokens": tokens,
    }


def _dedupe(paths):
    seen, out = set(), []
    for p in paths:
        key = frozenset(map(str, p))
        if key not in seen and p[0] != p[1]:
            seen.add(key)
            out.append(p)
    return out

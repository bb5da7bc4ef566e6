"""Seeded random custom-map positions for benchmarks and engine cross-checks.

Real positions are small; the search has to be judged on boards that are worse than
any real game. Two families:

- :func:`random_board`: a connected patch of ``n_hexes`` track hexes with a mix of
  cities, towns, plain track and a few off-boards, the size knob for scaling series;
- :func:`hard_board`: a deliberately hard late-game position: dense brown track (hexes
  with several paths, crossings that share hex sides, junctions where three or four
  lines meet), many cities with open slots and up to six exits, several of the
  corporation's tokens, and long trains. Such boards have 10^5 to 10^6+ legal routes.

Every board is a position dict in the format of docs/position-format.md (``map`` with
plain rules), so it can be written to a file and solved by the command too. The same
arguments always give the same board (``random.Random(seed)``, no global state).
"""

from __future__ import annotations

import random

CORP = "A"


def _hex_id(x, y):
    """Doubled coordinates to an id: x -> letters, y -> number y + 1."""
    letters = ""
    x += 1
    while x:
        x, rem = divmod(x - 1, 26)
        letters = chr(65 + rem) + letters
    return f"{letters}{y + 1}"


# flat layout: side e leads to (x + dx, y + dy)
_FLAT = [(0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)]


def _grow_region(rng, n):
    """``n`` hexes in a compact connected blob (random growth from one cell)."""
    cells = [(0, 0)]
    have = {(0, 0)}
    frontier = []

    def add_frontier(c):
        for dx, dy in _FLAT:
            nb = (c[0] + dx, c[1] + dy)
            if nb not in have:
                frontier.append(nb)

    add_frontier((0, 0))
    while len(cells) < n:
        # prefer cells with many neighbours in the blob: keeps it round, like a real map
        rng.shuffle(frontier)
        best = max(frontier[:6], key=lambda c: sum((c[0] + dx, c[1] + dy) in have for dx, dy in _FLAT))
        frontier = [c for c in frontier if c != best]
        if best in have:
            continue
        have.add(best)
        cells.append(best)
        add_frontier(best)
    minx = min(c[0] for c in cells)
    miny = min(c[1] for c in cells)
    # keep the parity of x + y even (a valid doubled-coordinate grid)
    shift_y = miny - ((miny - minx) % 2)
    return [(x - minx, y - shift_y) for x, y in cells]


def _open_sides(cell, have):
    return [e for e, (dx, dy) in enumerate(_FLAT) if (cell[0] + dx, cell[1] + dy) in have]


def _track_hex(rng, hid, sides, dense):
    """A hex ``hid`` with track and no stop (the paths of :func:`_track_paths`)."""
    paths, junctions = _track_paths(rng, sides, dense)
    h = {"id": hid, "stops": [], "paths": paths}
    if junctions:
        h["junctions"] = junctions
    return h


def _track_paths(rng, sides, dense):
    """Paths of a hex with no stop joining its track ``sides`` so that every side is
    used. ``dense``: brown-style, several lines per side (switches at the hex sides) or
    a junction where 3-4 lines meet."""
    if len(sides) < 2:
        return [], 0
    sides = list(sides)
    rng.shuffle(sides)
    if dense and len(sides) >= 3 and rng.random() < 0.3:
        k = min(len(sides), rng.choice([3, 3, 4]))
        paths = [[e, "j0"] for e in sides[:k]]
        rest = sides[k:]
        if len(rest) >= 2:
            paths.append([rest[0], rest[1]])
        return paths, 1
    pairs = set()
    # a ring through the sides uses each one; dense tiles add chords (crossings)
    for i in range(len(sides)):
        a, b = sides[i], sides[(i + 1) % len(sides)]
        if len(sides) == 2 and i == 1:
            break
        pairs.add((min(a, b), max(a, b)))
    if dense:
        for _ in range(rng.randint(0, 2)):
            a, b = rng.sample(sides, 2)
            pairs.add((min(a, b), max(a, b)))
    else:
        pairs = set(rng.sample(sorted(pairs), max(1, len(pairs) // 2)))
    return [[a, b] for a, b in sorted(pairs)], 0


def random_board(seed, n_hexes=40, trains=("4", "3"), city_share=0.3, town_share=0.15,
                 dense=False, own_tokens=2, offboards=2, max_exits=4, edge_share=None):
    """A connected map of ``n_hexes`` track hexes; see the module docstring.
    ``edge_share``: chance that track crosses a given side between two hexes."""
    rng = random.Random(seed)
    cells = _grow_region(rng, n_hexes)
    have = set(cells)
    if edge_share is None:
        edge_share = 0.75 if dense else 0.5
    edges = set()
    for c in cells:
        for e in _open_sides(c, have):
            dx, dy = _FLAT[e]
            nb = (c[0] + dx, c[1] + dy)
            if c < nb and rng.random() < edge_share:
                edges.add((c, e))
                edges.add((nb, (e + 3) % 6))
    hexes = []
    cities = []
    border = [c for c in cells if len(_open_sides(c, have)) < 6]
    off = set(rng.sample(border, min(offboards, len(border))))
    for c in cells:
        sides = [e for e in range(6) if (c, e) in edges]
        hid = _hex_id(*c)
        roll = rng.random()
        if c in off:
            exits = rng.sample(_open_sides(c, have), min(len(_open_sides(c, have)), rng.choice([1, 2])))
            hexes.append({"id": hid, "stops": [{"kind": "offboard", "value": rng.choice([40, 50, 60, 80, 100])}],
                          "paths": [[e, "s0"] for e in exits]})
        elif roll < city_share and len(sides) >= 1:
            k = min(len(sides), max_exits)
            slots = rng.choice([1, 2, 2, 3])
            hexes.append({"id": hid, "stops": [{"kind": "city", "value": rng.choice([20, 30, 40, 50, 60, 70]),
                                                  "slots": slots}],
                          "paths": [[e, "s0"] for e in rng.sample(sides, k)]})
            cities.append((hid, slots))
        elif roll < city_share + town_share and len(sides) >= 2:
            k = min(len(sides), 3 if dense else 2)
            hexes.append({"id": hid, "stops": [{"kind": "town", "value": rng.choice([10, 20, 30])}],
                          "paths": [[e, "s0"] for e in rng.sample(sides, k)]})
        else:
            hexes.append(_track_hex(rng, hid, sides, dense))
    tokens = []
    if not cities:  # always give the corporation somewhere to run from
        for h in hexes:
            if not h["stops"] and h["paths"]:
                ends = sorted({e for p in h["paths"] for e in p if isinstance(e, int)})
                h["stops"] = [{"kind": "city", "value": 30, "slots": 1}]
                h["paths"] = [[e, "s0"] for e in ends]
                h.pop("junctions", None)
                cities.append((h["id"], 1))
                break
    rng.shuffle(cities)
    for hid, slots in cities[:max(1, own_tokens)]:
        tokens.append({"hex": hid, "stop": 0, "corporation": CORP})
    # some foreign tokens: a city they fill ends routes instead of letting them through
    for hid, slots in cities[max(1, own_tokens):]:
        if rng.random() < 0.25:
            for i in range(rng.randint(1, slots)):
                tokens.append({"hex": hid, "stop": 0, "corporation": f"F{i}"})
    return {"map": {"layout": "flat", "hexes": hexes}, "corporation": CORP,
            "trains": list(trains), "tokens": tokens,
            "source": f"trainruns.services.generate.random_board(seed={seed}, n_hexes={n_hexes})"}


def hard_board(seed, n_hexes=45, trains=("8", "6", "5"), own_tokens=4):
    """A deliberately hard late-game board (dense brown track, many open cities with up
    to six exits, ``own_tokens`` tokens, long trains)."""
    board = random_board(seed, n_hexes=n_hexes, trains=trains, city_share=0.38, town_share=0.12,
                         dense=True, own_tokens=own_tokens, offboards=3, max_exits=6)
    board["source"] = f"trainruns.services.generate.hard_board(seed={seed}, n_hexes={n_hexes})"
    return board


# 1831 at full size: the named cities of the printed map that have special rules, by
# role (the printed map is not public, docs/gaps.md: positions are invented)
_CITIES_1831 = ("New York", "Cleveland", "Buffalo", "White Plains", "Long Island West", "Long Island East",
                "Baltimore", "Washington", "Delaware", "Philadelphia", "Wilmington")


def board_1831(seed, n_hexes=48, own_tokens=None, rights=True, *, density=0.75, city_share=0.4, commuter=True,
               delaware=True, red_tokens=False, n_rights=None, trains=("9S", "12MX", "7YD", "7S"), phase="9",
               receivership=False, rules=None):
    """A late-game 1831 position the size of the printed map, invented: ``n_hexes``
    hexes of dense brown track, about 40% of them cities with typed sites
    (5.2.3.9); New York, Cleveland and Buffalo each with a red extension hex (5.2.3.10);
    the Delaware large city, revisited once the run has been to Philadelphia and
    Wilmington (5.6.2.1); both commuter runs (5.6.7), the corporation holding a Station
    in every city of them; 11-13 of its tokens (``own_tokens``); phase 9 and the trains
    9S, 12MX, 7YD, 7S; with ``rights``, a bought track right half the time (5.5).
    Other corporations' tokens fill some cities, which then block (5.6.2).

    The keyword options vary it (their defaults give the board above, the same for a
    seed as ever): ``density`` the share of hex sides joined by track, ``city_share``
    of hexes with a city; no ``commuter`` runs; no revisit of the ``delaware``;
    ``red_tokens``: each red extension has a Station and a Rail Yard site and the
    corporation a token on it (5.2.3.10); ``n_rights`` exactly that many bought track
    rights (5.5); the ``trains`` and ``phase``; ``receivership`` (5.3.6: obsolete trains
    run; no rights then, 5.4.7); the position's ``rules`` (docs/rules-1831.md)."""
    rng = random.Random(seed)
    cells = _grow_region(rng, n_hexes)
    have = set(cells)
    edges = set()
    for c in cells:
        for e in _open_sides(c, have):
            dx, dy = _FLAT[e]
            nb = (c[0] + dx, c[1] + dy)
            if c < nb and rng.random() < density:
                edges.add((c, e))
                edges.add((nb, (e + 3) % 6))
    cells_by_track = [c for c in cells if any((c, e) in edges for e in range(6))]
    order = list(cells_by_track)
    rng.shuffle(order)
    role, extension = {}, {}
    for name in _CITIES_1831:
        for c in order:
            if c in role or c in extension:
                continue
            if name in ("New York", "Cleveland", "Buffalo"):
                # a neighbour becomes its red extension, joined to it by track
                free = [e for e in _open_sides(c, have)
                        if (c[0] + _FLAT[e][0], c[1] + _FLAT[e][1]) not in role
                        and (c[0] + _FLAT[e][0], c[1] + _FLAT[e][1]) not in extension]
                if not free:
                    continue
                e = rng.choice(free)
                nb = (c[0] + _FLAT[e][0], c[1] + _FLAT[e][1])
                edges.add((c, e))
                edges.add((nb, (e + 3) % 6))
                extension[nb] = c
            role[c] = name
            break
    ids = {c: _hex_id(*c) for c in cells}
    named = {name: ids[c] for c, name in role.items()}
    hexes, cities = [], []
    for c in cells:
        sides = [e for e in range(6) if (c, e) in edges]
        hid = ids[c]
        if c in extension:
            slot_types = [rng.choice(["station", "yard"])]
            hexes.append({"id": hid, "name": role[extension[c]] + " (red)", "part_of": ids[extension[c]],
                          "stops": [{"kind": "city", "slot_types": ["station", "yard"] if red_tokens else slot_types}],
                          "paths": [[e, "s0"] for e in sides]})
            cities.append(hid)
        elif c in role or (sides and rng.random() < city_share):
            big = role.get(c) in ("New York", "Delaware", "Cleveland", "Buffalo", "Baltimore")
            types = ["station", "yard"] + [rng.choice(["station", "yard"]) for _ in range(rng.randint(0, 2 if big else 1))]
            rng.shuffle(types)
            h = {"id": hid, "stops": [{"kind": "city", "value": rng.choice([50, 60, 70, 80] if big else [20, 30, 40, 50]),
                                       "slot_types": types}], "paths": [[e, "s0"] for e in sides]}
            if c in role:
                h["name"] = role[c]
            if role.get(c) == "Delaware" and delaware:
                h["revisit_after"] = [named["Philadelphia"], named["Wilmington"]]
            hexes.append(h)
            cities.append(hid)
        else:
            hexes.append(_track_hex(rng, hid, sides, True))
    types = {h["id"]: h["stops"][0]["slot_types"] for h in hexes if h["stops"]}
    group = {h["id"]: h.get("part_of", h["id"]) for h in hexes if h["stops"]}
    taken, tokens, held = set(), [], set()

    def place(hid, corp, kind=None):
        slots = [j for j, t in enumerate(types[hid]) if (hid, j) not in taken and (kind is None or t == kind)]
        # one token of each type per corporation in a city (its extension included)
        slots = [j for j in slots if (corp, group[hid], types[hid][j]) not in held]
        if not slots:
            return False
        j = rng.choice(slots)
        taken.add((hid, j))
        held.add((corp, group[hid], types[hid][j]))
        tokens.append({"hex": hid, "stop": 0, "corporation": corp, "slot": j})
        return True

    cycles = [["White Plains", "New York", "Long Island West", "Long Island East", "Long Island West", "New York"],
                ["Baltimore", "Washington"]]
    for name in sorted({n for run in cycles for n in run}):
        place(named[name], CORP, "station")
    if red_tokens:
        for hid in sorted(ids[c] for c in extension):
            place(hid, CORP)
    want = own_tokens if own_tokens is not None else rng.randint(11, 13)
    others = [h for h in cities if h not in named.values()] + [named[n] for n in _CITIES_1831[:3]]
    rng.shuffle(others)
    for hid in others:
        if len(tokens) >= want:
            break
        place(hid, CORP)
    # other corporations: some cities full (they block), some with a site left
    for hid in cities:
        if rng.random() < 0.3:
            for corp in ("B", "C", "D"):
                if rng.random() < 0.6:
                    place(hid, corp)
    track_rights = []
    foreign = [t for t in tokens if t["corporation"] != CORP and types[t["hex"]][t["slot"]] == "station"]
    if n_rights is None:
        if rights and rng.random() < 0.5 and foreign:
            t = rng.choice(foreign)
            track_rights.append({"hex": t["hex"], "stop": 0, "slot": t["slot"]})
    else:
        track_rights = [{"hex": t["hex"], "stop": 0, "slot": t["slot"]}
                        for t in rng.sample(foreign, min(n_rights, len(foreign)))]
    commuter_runs = [{"name": " - ".join(cycles[0][:4]), "cycle": [named[n] for n in cycles[0]]},
                     {"name": "Baltimore - Washington", "cycle": [named[n] for n in cycles[1]], "any_start": True}]
    out = {"title": "1831", "phase": phase, "corporation": CORP, "trains": list(trains),
           "map": {"layout": "flat", "hexes": hexes, "commuter_runs": commuter_runs if commuter else []},
           "tokens": tokens, "track_rights": [] if receivership else track_rights,
           "source": f"trainruns.services.generate.board_1831(seed={seed}, n_hexes={n_hexes})"}
    if receivership:
        out["receivership"] = True
    if rules:
        out["rules"] = dict(rules)
    return out

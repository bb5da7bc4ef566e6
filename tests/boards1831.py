"""Small 1831 boards for the tests: builders for hand-worked positions, and seeded
random typed boards with a plain-Python brute force (independent of the g1831 kernels)."""

import itertools
import random

from trainruns.route.compile import compile_board
from trainruns.titles.g1831.route.trains import parse_train_name, token_values
from trainruns.titles.load import load_position


def city(hid, value, types, paths, **extra):
    """A hex with one city of typed sites."""
    return {"id": hid, "stops": [{"kind": "city", "value": value, "slot_types": list(types)}],
            "paths": paths, **extra}


def line(specs, phase="3", trains=("2S",), tokens=(), **extra):
    """Cities on a diagonal line A1 - B2 - C3 - ... joined by one track each (flat layout,
    side 5 to the next hex's side 2). ``specs``: [(value, [slot types])]."""
    hexes = []
    for i, (value, types) in enumerate(specs):
        hid = f"{chr(65 + i)}{i + 1}"
        paths = ([[2, "s0"]] if i else []) + ([["s0", 5]] if i < len(specs) - 1 else [])
        hexes.append(city(hid, value, types, paths))
    return position(hexes, phase, trains, tokens, **extra)


def position(hexes, phase="3", trains=("2S",), tokens=(), corporation="A", **extra):
    toks = [{"hex": h, "stop": 0, "corporation": c, "slot": s} for h, s, c in tokens]
    return {"title": "1831", "phase": phase, "corporation": corporation, "trains": list(trains),
            "map": {"layout": "flat", "hexes": hexes, **extra.pop("map_extra", {})}, "tokens": toks, **extra}


# --- random typed boards -----------------------------------------------------------

OFF = ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1))
KINDS = ["2S", "3S", "2YD", "3YD", "2MX", "3MX", "4MX", "5S"]


def random_position(seed, density=0.7):
    """A seeded random typed board of 2-4 by 2-3 hexes: cities with Station and Rail Yard
    sites, plain track between, tokens, bought rights, a Delaware city or a red
    extension at times, the rules' readings as options. ``density``: the chance that two
    neighbouring hexes are joined by track (the same boards for the same seed and
    density)."""
    rng = random.Random(seed)
    cols, rows = rng.randint(2, 4), rng.randint(2, 3)
    cells = [(i, 2 * j + (i % 2)) for i in range(cols) for j in range(rows)]
    present = set(cells)
    joined = {}
    for (x, y) in cells:
        for e in range(6):
            nb = (x + OFF[e][0], y + OFF[e][1])
            if nb in present:
                key = frozenset([((x, y), e), (nb, (e + 3) % 6)])
                joined.setdefault(key, rng.random() < density)
    phase = rng.choice(["2", "3", "5", "9"])
    hexes, cities = [], []
    for (x, y) in cells:
        hid = f"{chr(65 + x)}{y + 1}"
        sides = [e for e in range(6) if (x + OFF[e][0], y + OFF[e][1]) in present
                 and joined[frozenset([((x, y), e), ((x + OFF[e][0], y + OFF[e][1]), (e + 3) % 6)])]]
        if not sides:
            continue
        if rng.random() < 0.7:
            types = [rng.choice(["station", "yard"]) for _ in range(rng.randint(1, 3))]
            hexes.append(city(hid, rng.choice([10, 20, 30, 40]), types, [[e, "s0"] for e in sides]))
            cities.append(hid)
        else:
            rng.shuffle(sides)
            paths = [[sides[i], sides[j]] for i in range(len(sides)) for j in range(i + 1, len(sides))
                     if rng.random() < 0.5]
            hexes.append({"id": hid, "stops": [], "paths": paths})
    if len(cities) >= 3 and rng.random() < 0.3:
        d, a, b = rng.sample(cities, 3)
        next(h for h in hexes if h["id"] == d)["revisit_after"] = [a, b]
    if len(cities) >= 2 and rng.random() < 0.2:
        a, b = rng.sample(cities, 2)
        ha = next(h for h in hexes if h["id"] == a)
        if "revisit_after" not in ha and not any(h.get("revisit_after") and a in h["revisit_after"] for h in hexes):
            ha["part_of"] = b
    tokens, rights = [], []
    holder = set()
    for h in hexes:
        if not h["stops"]:
            continue
        g = h.get("part_of", h["id"])
        for j, t in enumerate(h["stops"][0]["slot_types"]):
            corp = rng.choice(["A", "A", "A", "B", "C", None])
            if corp and ((corp, g, t) in holder or phase == "2" and (corp, g) in holder):
                corp = None
            if corp:
                holder |= {(corp, g, t), (corp, g)}
                tokens.append({"hex": h["id"], "stop": 0, "corporation": corp, "slot": j})
                if corp != "A" and rng.random() < 0.15 and len(rights) < 2 and \
                        not any(r["hex"] == h["id"] and h["stops"][0]["slot_types"][r["slot"]] == t for r in rights):
                    rights.append({"hex": h["id"], "stop": 0, "slot": j})
    trains = rng.sample(KINDS, rng.randint(1, 2))
    pos = {"title": "1831", "phase": phase, "corporation": "A", "trains": trains,
           "map": {"layout": "flat", "hexes": hexes}, "tokens": tokens, "track_rights": rights}
    if rng.random() < 0.2:
        pos["rules"] = {"pass_own_tokens": False}
    # the readings made options (a separate stream, so the boards above stay as they were)
    more = random.Random(seed + 1_000_003)
    if any("revisit_after" in h for h in hexes) and more.random() < 0.5:
        pos.setdefault("rules", {})["delaware_south"] = "run_to"
    mixed = [t for t in trains if t.endswith("MX") and int(t[0]) > 2]
    if mixed and more.random() < 0.5:
        size = int(mixed[0][0])
        s = more.randint(1, size - 1)
        pos.setdefault("rules", {})["mixed_counts"] = {mixed[0]: {"station": s, "yard": more.randint(1, size)}}
    return pos


def brute_force(pos, commuting=()):
    """Best revenue by the rules as written, by exhaustion: every walk over the track
    between stops, every choice of tokens on it, every combination of trains. None when
    the bought rights cannot all be run to. ``commuting``: names of trains that must run
    a commuter run (5.6.7), the best of those runs alone (None where there is none)."""
    board = load_position(pos)
    comp = compile_board(board)
    facts = board.route_model.facts
    corp = board.corporation
    tv = token_values(int(board.phase))
    strict = pos.get("rules", {}).get("pass_own_tokens") is False
    run_to = pos.get("rules", {}).get("delaware_south") == "run_to"
    caps = pos.get("rules", {}).get("mixed_counts", {})
    refs = comp.stop_refs
    group = [facts.group[r] for r in refs]
    passable = [bool(board.stop(r).passable) for r in refs]
    # per stop: options (type, value, right index or -1)
    opts = []
    for r in refs:
        o = []
        for site in facts.sites.get(r, []):
            if site.holder == corp or site.right >= 0:
                o.append((site.type, board.stop(r).value + tv[site.type], site.right))
        opts.append(o)

    def bits(c):
        return frozenset(i for i in range(comp.n_bits) if int(comp.chain_bits[c, i >> 6]) >> (i & 63) & 1)

    # each hex's city: itself or the city it is "part of" (5.2.3.10)
    city_of = {h["id"]: h.get("part_of", h["id"]) for h in pos["map"]["hexes"]}

    def in_city(c, g):
        """Chain ``c`` runs only through hexes of city ``g`` (leaving them and coming back
        is a second entry, 5.6.2.1)."""
        return all(city_of.get(comp.paths[p][0]) == g
                   for p in comp.chain_paths[comp.chain_path_ptr[c]:comp.chain_path_ptr[c + 1]])

    walks = []

    def extend(stops, used, uses, first):
        cur = stops[-1]
        if len(stops) > 1 and opts[cur]:
            walks.append((list(stops), used))
        if len(stops) > 1 and not passable[cur]:
            return
        for c in range(comp.adj_ptr[cur], comp.adj_ptr[cur + 1]):
            b = bits(c)
            if b & used:
                continue
            t = int(comp.chain_to[c])
            g = group[t]
            if g == group[cur]:
                if t in stops[len(stops) - _run_len(stops, group):] or not in_city(c, g):
                    continue
            elif uses.get(g, 0):
                rv = facts.revisit.get(g)
                if not (uses[g] == 1 and rv and all(first.get(v, -1) > first[g] for v in rv)):
                    continue
            new_uses, new_first = dict(uses), dict(first)
            if g != group[cur]:
                new_uses[g] = new_uses.get(g, 0) + 1
                new_first.setdefault(g, len(stops))
            extend(stops + [t], used | b, new_uses, new_first)

    trains = [parse_train_name(t.name) for t in board.trains]
    for s in range(comp.n_stops) if any(t.name not in commuting for t in trains) else ():
        if opts[s]:
            extend([s], frozenset(), {group[s]: 1}, {group[s]: 0})

    n_rights = len(facts.rights)
    cands = {}  # train name -> [(value, bits, rights mask)]
    for tt in {t.name: t for t in trains}.values():
        best = {}
        for stops, used in walks if tt.name not in commuting else ():  # (none if all commute)
            for choice in itertools.product(*[[None] + opts[s] for s in stops]):
                v = _valid(choice, stops, group, tt, strict, opts, caps.get(tt.name))
                if v is not None and run_to and not _ran_south(choice, stops, group, facts.revisit):
                    v = None
                if v is None:
                    continue
                mask = 0
                for o in choice:
                    if o and o[2] >= 0:
                        mask |= 1 << o[2]
                key = (used, mask)
                best[key] = max(best.get(key, -1), v)
        for v, used, mask in commuter_runs(comp, facts, group, passable, opts, tt, strict, bits):
            best[(used, mask)] = max(best.get((used, mask), -1), v)
        cands[tt.name] = [(v, used, m) for (used, m), v in best.items()]
    full = (1 << n_rights) - 1
    result = [None]

    def assign(i, used, mask, total):
        if i == len(trains):
            if mask == full and (result[0] is None or total > result[0]):
                result[0] = total
            return
        if trains[i].name not in commuting:
            assign(i + 1, used, mask, total)
        for v, b, m in cands[trains[i].name]:
            if not b & used:
                assign(i + 1, used | b, mask | m, total + v)

    assign(0, frozenset(), 0, 0)
    return result[0]


def with_best(seeds, commuter_seeds=()):
    """(position, brute-force best) of the random boards of ``seeds`` and the commuter
    boards of ``commuter_seeds`` that have a run at all (5.6.5: some use no bought right)."""
    boards = [random_position(s) for s in seeds] + [random_commuter_position(s) for s in commuter_seeds]
    for pos in boards:
        expected = brute_force(pos)
        if expected is not None:
            yield pos, expected


def commuter_runs(comp, facts, group, passable, opts, tt, strict, bits):
    """5.6.7 commuter runs, by exhaustion, for boards whose cities have one stop each:
    an S train of size 5 or more goes round the run's cycle of cities (from its first
    one, or from any with ``any_start``), each leg on track no earlier leg used,
    passing only cities off the cycle that do not block it (with ``pass_own_tokens:
    false`` none where it has a Station), each such city passed at most once in the
    whole run (docs/rules-1831.md, "Choices": a route enters a city once), and runs to
    its Station in every city it visits; the corporation has a Station (own or bought)
    in every city of the cycle. Runs that repeat no city are ordinary routes. Yields
    (value, track used, rights mask)."""
    if tt.type != "S" or tt.size < 5:
        return
    station = {s: o for s in range(comp.n_stops) for o in opts[s] if o[0] == "station"}
    has_station = {group[s] for s in station}
    for run in facts.commuter:
        cycle = run["cycle"]
        members = set(cycle)
        if not members <= has_station:
            continue
        distinct = len(members)
        for rot in (range(len(cycle)) if run["any_start"] else [0]):
            seq = [cycle[(rot + i) % len(cycle)] for i in range(tt.size)]
            todo = [(root, frozenset(), frozenset(), 1, station[root][1], _right(station[root]))
                    for root in station if group[root] == seq[0]]
            while todo:
                here, used, passed, n, value, mask = todo.pop()
                for c in range(comp.adj_ptr[here], comp.adj_ptr[here + 1]):
                    b = bits(c)
                    if b & used:
                        continue
                    t = int(comp.chain_to[c])
                    g = group[t]
                    if g == seq[n] and t in station:
                        v, m = value + station[t][1], mask | _right(station[t])
                        if n + 1 > distinct:
                            yield v, used | b, m
                        if n + 1 < tt.size:
                            todo.append((t, used | b, passed, n + 1, v, m))
                    elif g not in members and g not in passed and passable[t] and not (strict and g in has_station):
                        todo.append((t, used | b, passed | {g}, n, value, mask))


def _right(option):
    return 1 << option[2] if option[2] >= 0 else 0


def random_commuter_position(seed):
    """A random typed board (as above, without red extensions or a Delaware city) with a
    commuter run through two or three cities where the corporation has a Station, and
    an S train long enough to run it (5.6.7)."""
    pos = _plain_cities(random_position(seed))
    rng = random.Random(seed + 7_000_001)
    types = {h["id"]: h["stops"][0]["slot_types"] for h in pos["map"]["hexes"] if h["stops"]}
    mine = _station_cities(pos)
    mine += sorted({r["hex"] for r in pos["track_rights"] if types[r["hex"]][r["slot"]] == "station"} - set(mine))
    if len(mine) >= 2:
        cycle = rng.sample(mine, min(len(mine), rng.choice([2, 2, 3])))
        pos["map"]["commuter_runs"] = [{"name": "commuter", "cycle": cycle, "any_start": rng.random() < 0.5}]
    pos["trains"] = [rng.choice(["5S", "6S", "7S"])] + pos["trains"][:1]
    return pos


def random_two_commuter_position(seed):
    """A random typed board (as above, no bought rights) with two S trains, of one size
    or two, long enough for commuter runs, and a commuter run through two or three of the
    corporation's Station cities and, where it has two more, a second through those
    (5.6.7): boards on which two commuter runs may run at once."""
    pos = _plain_cities(random_position(seed, density=1.0))
    pos["track_rights"] = []
    rng = random.Random(seed + 9_000_011)
    mine = _station_cities(pos)
    if len(mine) >= 2:
        rng.shuffle(mine)
        k = rng.choice([2, 2, 3])
        cycles = [mine[:k]] + ([mine[k:k + 2]] if len(mine) >= k + 2 else [])
        pos["map"]["commuter_runs"] = [{"name": f"commuter {i}", "cycle": c, "any_start": rng.random() < 0.5}
                                       for i, c in enumerate(cycles)]
    kinds = ["5S", "6S", "7S"] if pos["phase"] != "9" else ["6S", "7S"]   # (5S rust in phase 9)
    pos["trains"] = [rng.choice(kinds) for _ in range(2)]
    return pos


def _plain_cities(pos):
    """``pos`` without red extensions or a Delaware city (each city one hex, entered once)."""
    for h in pos["map"]["hexes"]:
        h.pop("part_of", None)
        h.pop("revisit_after", None)
    pos.get("rules", {}).pop("delaware_south", None)
    return pos


def _station_cities(pos):
    """The hexes where corporation A has a Station token, in order."""
    types = {h["id"]: h["stops"][0]["slot_types"] for h in pos["map"]["hexes"] if h["stops"]}
    return sorted({t["hex"] for t in pos["tokens"] if t["corporation"] == "A"
                   and types[t["hex"]][t["slot"]] == "station"})


def _run_len(stops, group):
    n = 1
    while n < len(stops) and group[stops[-n - 1]] == group[stops[-1]]:
        n += 1
    return n


def _ran_south(choice, stops, group, revisit):
    """5.6.2.1 read as "runs to": between a walk's two entries into the Delaware city it
    ran to a token in both cities south."""
    for g, (a, b) in revisit.items():
        entries = [i for i in range(len(stops)) if group[stops[i]] == g and (i == 0 or group[stops[i - 1]] != g)]
        if len(entries) > 1:
            between = {group[stops[i]] for i in range(entries[0], entries[1]) if choice[i]}
            if not {a, b} <= between:
                return False
    return True


def _valid(choice, stops, group, tt, strict, opts, caps=None):
    """The value of running to ``choice`` (None: skip) along ``stops``, or None if the
    rules forbid it (``caps``: a mixed train's most Stations and Rail Yards)."""
    if choice[0] is None or choice[-1] is None:
        return None
    n = sum(1 for o in choice if o)
    if not 2 <= n <= tt.size:
        return None
    kinds = {o[0] for o in choice if o}
    if tt.type == "S" and kinds != {"station"} or tt.type == "YD" and kinds != {"yard"}:
        return None
    if tt.type == "MX" and kinds != {"station", "yard"}:
        return None
    if caps and (sum(1 for o in choice if o and o[0] == "station") > caps["station"]
                 or sum(1 for o in choice if o and o[0] == "yard") > caps["yard"]):
        return None
    # one token per visit of a city (consecutive stops of one group are one visit)
    for i in range(1, len(stops)):
        if group[stops[i]] == group[stops[i - 1]] and choice[i] and any(
                choice[j] for j in range(_visit_start(stops, group, i), i)):
            return None
    if strict:
        for i in range(1, len(stops) - 1):
            eligible = [o for o in opts[stops[i]] if tt.type == "MX" or (o[0] == "station") == (tt.type == "S")]
            if eligible and not choice[i] and not any(choice[j] for j in range(_visit_start(stops, group, i), _visit_end(stops, group, i) + 1) if j != i):
                return None
    return sum(o[1] for o in choice if o)


def _visit_start(stops, group, i):
    while i > 0 and group[stops[i - 1]] == group[stops[i]]:
        i -= 1
    return i


def _visit_end(stops, group, i):
    while i < len(stops) - 1 and group[stops[i + 1]] == group[stops[i]]:
        i += 1
    return i

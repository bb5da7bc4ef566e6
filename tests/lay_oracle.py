"""An independent oracle for whatif's tile lays: lay every tile of the manifest at every
rotation on every hex next to the company's track, keep those the title's loader
accepts and that some legal route of the company (listed by the brute force of
tests/bruteforce.py, which shares no code with trainruns) runs on, and solve each.

Legality here is "Laying Track" read through routes: a lay is legal when a route of the
company uses some of its new track, or (an upgrade) visits a town or city of the tile.
A lay that only extends a dead end of track is legal too but is on no route; it cannot
change the best run, so the best lay is still the best of the lays listed here (or the
current run, when whatif's best is such a lay).

Tokens stay on their cities across an upgrade: the oracle carries each token of the
hex to the new stop that has all the old stop's exits, reading both from the Boards.
"""

from __future__ import annotations

from bruteforce import all_routes

from trainruns import InputError, load_position, solve


def exits(hx):
    """Stop index -> hex sides its track leaves by, read from a core Hex."""
    out = {k: set() for k in range(len(hx.stops))}
    for a, b in hx.paths:
        for e, o in ((a, b), (b, a)):
            if e[0] == "stop" and o[0] == "side":
                out[e[1]].add(o[1])
    return out


def custom_map(board):
    """The board as a custom map for the brute force (values do not matter here: only
    which routes exist). A stop the title closes loses its track. 1833NE's P4/P6 token
    off-boards are token cities for the title; each has one exit, so no route passes
    them either way."""
    hexes, tokens = [], []
    for hex_id, hx in board.hexes.items():
        closed = {k for k, s in enumerate(hx.stops) if not s.enterable}

        def end(e):
            return e[1] if e[0] == "side" else f"s{e[1]}"

        paths = [[end(a), end(b)] for a, b in hx.paths
                 if not any(e[0] == "stop" and e[1] in closed for e in (a, b))]
        stops = [{"kind": s.kind, "value": 0} | ({"slots": s.slots} if s.kind == "city" else {})
                 for s in hx.stops]
        hexes.append({"id": hex_id, "stops": stops, "paths": paths})
        for k, s in enumerate(hx.stops):
            tokens += [{"hex": hex_id, "stop": k, "corporation": c} for c in s.tokens]
    return {"map": {"layout": board.layout, "axes": board.axes, "hexes": hexes},
            "corporation": board.corporation, "trains": [], "tokens": tokens}


def _routes(board):
    """(stops, paths) of every route of the company, by the brute force."""
    return [(stops, paths) for stops, paths, _sides, _infos in all_routes(custom_map(board))]


def lay(data, hex_id, tile, rot, base_board):
    """The variant with the lay, tokens of the hex carried by their exits; None when the
    title's loader refuses it."""
    tiles = list(data.get("tiles", [])) + [{"hex": hex_id, "tile": tile, "rotation": rot}]
    cotton = data.get("cotton")
    if not any(t.get("hex") == hex_id for t in data.get("tokens", [])) and not (
            isinstance(cotton, dict) and cotton.get("hex") == hex_id):
        variant = dict(data, tiles=tiles)  # nothing on the hex to carry over
        try:
            return variant, load_position(variant)
        except InputError:
            return None
    here = [t for t in data.get("tokens", []) if t.get("hex") == hex_id]
    rest = [t for t in data.get("tokens", []) if t.get("hex") != hex_id]
    try:
        bare = load_position(dict(data, tiles=tiles, tokens=rest,
                                  **({"cotton": None} if data.get("cotton", {}) and
                                     data["cotton"].get("hex") == hex_id else {})))
    except InputError:
        return None
    old, new = exits(base_board.hexes[hex_id]), exits(bare.hexes[hex_id])
    moved, seen = [], set()
    for t in here:
        k = t.get("stop", 0)
        to = next((j for j, s in new.items() if old[k] and old[k] <= s), k)
        if (to, t["corporation"]) not in seen:
            seen.add((to, t["corporation"]))
            moved.append(dict(t, stop=to))
    variant = dict(data, tiles=tiles, tokens=rest + moved)
    c = data.get("cotton")
    if isinstance(c, dict) and c.get("hex") == hex_id:
        k = c.get("stop", 0)
        variant["cotton"] = dict(c, stop=next((j for j, s in new.items() if old[k] and old[k] <= s), k))
    try:
        return variant, load_position(variant)
    except InputError:
        return None


def _track(hx):
    return {frozenset(p) for p in hx.paths}


def legal_lays(data, tiled):
    """Every (hex, tile, rotation, variant, variant board) the loader accepts and some
    route of the company runs on (module docstring). One per distinct track."""
    base = load_position(data)
    current = tiled.lay(data.get("tiles", []), base.phase, "oracle")
    with_track = {h for h, hx in base.hexes.items() if hx.paths}
    out = []
    for hex_id in tiled.hexes:
        hx = base.hexes[hex_id]
        near = hex_id in with_track or any(
            n in with_track for n in _neighbours(base, hex_id))
        if not near:
            continue
        seen = set()
        kind = tiled.hexes[hex_id].get("kind", "clear")
        if hex_id in current:  # one lay: an upgrade of the tile there, per the chart
            options = tiled.upgrades_of(current[hex_id][0], kind)
        else:  # or a first tile (an upgrade of printed track)
            m = tiled.manifest
            options = m["first_tiles"].get(kind, []) + m.get("printed_upgrades", {}).get(kind, [])
        for tile in options:
            for rot in range(6):
                try:  # the title's own tile checks first (cheap): may the tile stand there?
                    tiled.check_lay(hex_id, tile, rot, current.get(hex_id), base.phase, "oracle")
                except InputError:
                    continue
                got = lay(data, hex_id, tile, rot, base)
                if got is None:
                    continue
                variant, vboard = got
                new_hex = vboard.hexes[hex_id]
                key = (tile, frozenset(_track(new_hex)))
                if key in seen:
                    continue
                seen.add(key)
                new_paths = _track(new_hex) - _track(hx)
                new_ids = {(hex_id, j) for j, p in enumerate(new_hex.paths) if frozenset(p) in new_paths}
                old_stops = {(hex_id, k) for k, ex in exits(hx).items() if ex}
                for stops, paths in _routes(vboard):
                    if paths & new_ids or (old_stops and set(stops) & {(hex_id, k) for k in
                                                                       range(len(new_hex.stops))}):
                        out.append((hex_id, tile, rot, variant, vboard))
                        break
    return out


def _neighbours(board, hex_id):
    from trainruns.route.hexgrid import neighbour

    hx = board.hexes[hex_id]
    at = {(h.x, h.y): h.id for h in board.hexes.values()}
    return [at[c] for c in (neighbour(hx.x, hx.y, e, board.layout) for e in range(6)) if c in at]


def best_legal_lay(data, tiled):
    """(best revenue over the legal lays, the lays as {(hex, tile, track)})."""
    best, keys = None, set()
    for hex_id, tile, _rot, _variant, vboard in legal_lays(data, tiled):
        keys.add((hex_id, tile, frozenset(_track(vboard.hexes[hex_id]))))
        r = solve(vboard)
        assert r.optimal
        best = r.revenue if best is None else max(best, r.revenue)
    return best, keys


def track_of(variant, hex_id):
    return frozenset(_track(load_position(variant).hexes[hex_id]))

"""1831's rules for the moves a company may make next (``trainruns whatif``): token
placements on typed sites (5.2.7.2, 5.2.7.6) and train purchases (5.3.5, 5.3.7,
5.3.8), from the position itself and the title's train and phase data
(data/trains.json, data/phases.json), and tile lays (5.2.4-5.2.6) when the position
names the tile set its map was drawn from (``tile_set``)."""

from __future__ import annotations

from functools import lru_cache

from trainruns.errors import InputError
from trainruns.route.board import CITY
from trainruns.titles.g1831.route.board_map import GameMap
from trainruns.titles.g1831.route.mapformat import count_free
from trainruns.titles.g1831.route.trains import (
    TYPES,
    is_retired,
    parse_train_name,
    phase_number,
    phase_table,
    train_table,
)
from trainruns.titles.moves import keep_choices
from trainruns.titles.tiled import load_data

# the tile sets a position may name: the printed map and tile manifest of each
TILE_SETS = {"shipped": ("map.json", "tiles.json")}


@lru_cache(maxsize=len(TILE_SETS))
def tile_set(name: str) -> GameMap:
    """The printed map and tile manifest of the tile set ``name`` (``TILE_SETS``: the
    shipped, invented config's, docs/game-1831.md)."""
    if name not in TILE_SETS:
        raise InputError(f"unknown tile set {name!r} (known: {', '.join(TILE_SETS)})", "position.tile_set")
    map_file, tiles_file = TILE_SETS[name]
    package = "trainruns.titles.g1831"
    return GameMap(load_data(package, map_file), load_data(package, tiles_file))


def tile_rules(data, board):
    """1831's tile rules (:class:`~trainruns.titles.g1831.route.board_map.Tiles1831`: 5.2.6
    the next colour the phase allows, city tiles of the hex's size and name, the
    manifest's counts, track kept, none to the border, #301/#401's orientation) on the
    tile set the position names (``tile_set``), the hexes' laid tiles read from its map.
    What a single lay does not decide is left to the president: its cost, a yellow city
    tile's token (5.2.6.8), the turn's limits (5.2.4.3) and receivership's colours
    (5.4.10)."""
    tiles = tile_set(data["tile_set"])
    laid = tiles.laid_in(data["map"]["hexes"], "position")
    colors = next(p["tiles"] for p in phase_table() if p["name"] == board.phase)
    used = {}
    for tile, _ in laid.values():
        used[tile] = used.get(tile, 0) + 1
    return tiles.tile_rules(laid, colors, used)


def stays_full_of_others(rules, facts, corp: str, m: dict) -> bool:
    """5.2.4.1: "only the corporations with tokens in the city may upgrade it further"
    when the upgrade opens no vacancy: the upgrade ``m`` leaves its city full
    (:meth:`GameMap.stays_full`, on ``rules``' map and laid tiles) and ``corp`` holds no
    token in that city (its red extension's sites count, 5.2.3.10; ``facts``: the
    position's typed sites, mapformat.Map1831)."""
    ref = (m["hex"], 0)
    if ref not in facts.sites:
        return False
    group = facts.group[ref]
    if any(s.holder == corp for r, ss in facts.sites.items() if facts.group[r] == group for s in ss):
        return False
    taken = {i for i, s in enumerate(facts.sites[ref]) if s.holder is not None}
    return rules.map.stays_full(m["hex"], rules.laid, m["tile"], m["rotation"], taken)


def token_places(data, board, reached, sites, group, kept=()):
    """Every token the company may place on a city it reaches (1831 rulebook 5.2.7.2: a
    token goes on a free site of its own type, never on a black one; 5.2.7.6: one token
    per corporation per city before the first 3-train, then at most one Station and one
    Rail Yard; 5.2.5: not on a site kept for another corporation's home token, so a type
    only while more of its sites are free than are kept): one move per reached city and
    free site type, ``(move, variant)``. ``sites``, ``group`` and ``kept``: the map's
    typed sites, city groups and kept home sites (mapformat.Map1831)."""
    corp = board.corporation
    phase = phase_number(board.phase, "position: phase")
    held = {}  # city group -> the types this company holds there
    for ref, ss in sites.items():
        for s in ss:
            if s.holder == corp:
                held.setdefault(group[ref], set()).add(s.type)
    order = {h: i for i, h in enumerate(board.hexes)}
    out = []
    for ref in sorted(reached.stops, key=lambda r: (order[r[0]], r[1])):
        stop = board.stop(ref)
        if stop.kind != CITY or ref not in sites:
            continue
        mine = held.get(group[ref], set())
        if mine and phase < 3:
            continue  # 5.2.7.6: one token per city before the first 3-train
        for kind in sorted({s.type for s in sites[ref] if s.free}):
            if kind in mine:
                continue  # 5.2.7.6: at most one of each type in a city
            others = sum(1 for h, k, t, c in kept if (h, k) == ref and t == kind and c != corp)
            if count_free(sites[ref], kind) <= others:
                continue  # 5.2.5: every free one is kept for another company's home token
            move = {"hex": ref[0], "stop": ref[1], "type": kind}
            name = stop.name or board.hexes[ref[0]].name
            if name:
                move["name"] = name
            token = {"hex": ref[0], "stop": ref[1], "type": kind, "corporation": data["corporation"]}
            out.append((move, dict(data, tokens=list(data.get("tokens", [])) + [token])))
    return out


def _size(entry):
    name = entry.get("name") if isinstance(entry, dict) else entry
    return parse_train_name(name).size


def _counts(entry, phase, receivership):
    """5.3.7 / 5.6.1: every train the corporation owns counts against its limit, a
    USED one too; a RETIRED one is gone (5.3.6: kept in receivership)."""
    if isinstance(entry, dict) and entry.get("status") == "retired":
        return False
    return receivership or not is_retired(_size(entry), phase)


def train_purchases(data):
    """The trains the company could buy from the Bank next, as ``(move, variant)``.

    5.3.8: "it must purchase the lowest numbered train available": the Bank's lowest
    number is the phase's own (the largest bought so far) or, once those are gone, the
    next number of data/trains.json; the position does not say how many are left, so
    both are offered, each of every type (3.3: S, MX, YD; the loader drops what does
    not exist). The next number starts its phase (5.3.5): its trains retire the sizes
    they name, and its train limit holds. 5.3.7: "A corporation at its train limit may
    still purchase trains. It must give its extra trains to the Stock Bank Pool": one
    variant per choice of the trains kept."""
    trains_data = train_table()
    phases = {p["name"]: p for p in phase_table()}
    owned = list(data.get("trains", []) or [])
    try:
        phase = phase_number(data.get("phase"), "position: phase")
    except Exception:
        return []  # the loader says what is wrong with the phase
    sizes = [t["distance"] for t in trains_data]
    limits = {int(name): p["train_limit"] for name, p in phases.items()}
    out = []

    def limit_at(n):
        known = [s for s in limits if s <= n]
        return limits[max(known)] if known else max(limits.values())

    receivership = data.get("receivership") is True

    def offer(size, new_phase, retired):
        counted = [t for t in owned if _counts(t, phase, receivership)]
        rest = [t for t in owned if not _counts(t, phase, receivership)]
        gone = [t for t in counted if _size(t) in retired and not receivership]
        kept = [t for t in counted if t not in gone]
        for kind in TYPES:
            name = f"{size}{kind}"
            for keep, pooled in keep_choices(kept, limit_at(new_phase) - 1):
                move = {"train": name}
                if new_phase != phase:
                    move["starts_phase"] = str(new_phase)
                if gone:
                    move["scrapped"] = [t if isinstance(t, str) else t.get("name") for t in gone]
                if pooled:
                    move["discarded"] = [t if isinstance(t, str) else t.get("name") for t in pooled]
                out.append((move, dict(data, phase=str(new_phase), trains=keep + rest + gone + [name])))

    if phase in sizes:
        offer(phase, phase, set())
    later = [s for s in sizes if s > phase]
    if later:
        nxt = later[0]
        retired = {t["distance"] for t in trains_data
                   if t.get("rusts_on") is not None and int(t["rusts_on"]) <= nxt}
        offer(nxt, nxt, retired)
    return out

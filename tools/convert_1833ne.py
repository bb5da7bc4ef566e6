"""Write the 1833NE title's data files from the reference facts and the rules summary.

Usage: python tools/convert_1833ne.py [REFERENCE_DIR]   (the 18xx.games reference facts of
1833NE: map_facts.json and tiles_facts.json)

The reference (facts read from a public engine's prealpha data) gives the printed map,
the tiles and both sides of each train card. The 1833NE rules summary
gives the phases' effects, the privates and the one bonus it names (Boston-Montreal).
Where they disagree the summary wins (the 7+3 costs $1,000). What neither gives (ferries,
the rest of the bonus table) is not written here: docs/gaps.md, "## 1833NE".

It writes map.json, tiles.json, manifest.json, and trains.json and phases.json in the
18xx.games shape every title shares (what ships: rerunning it gives the same files).
companies.json (corporations, privates, reserved spots), bonuses.json and the game's
numbers (game.json) carry rules typed in by hand since, so this script leaves them be.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "src", "trainruns", "titles", "g1833ne", "data")
PHASES = ["I", "II", "III", "IV", "V"]

# Printed yellow hexes whose first tile is an upgrade of their printed track; the key is
# the hex "kind" the manifest uses (the label, or plain yellow city).
PRINTED_KINDS = {"B3": "montreal", "B11": "westport", "F17": "manchester", "F25": "providence",
                 "G22": "boston", "I14": "portland", "C24": "yellow_city", "E20": "yellow_city"}


def end(e, index):
    m = re.match(r"^(edge|city|town|offboard|junction)(\d+)$", e)
    kind, n = m.group(1), int(m.group(2))
    if kind == "edge":
        return n
    return None if kind == "junction" else f"s{index[(kind, n)]}"


def stops_of(rec):
    """Cities, then towns, then off-boards: the order stops are numbered in (HEX.K)."""
    stops, index = [], {}
    for kind, key in (("city", "cities"), ("town", "towns"), ("offboard", "offboards")):
        for n, s in enumerate(rec.get(key, [])):
            index[(kind, n)] = len(stops)
            stop = {"kind": kind, "value": s["revenue"]}
            if kind == "city":
                stop["slots"] = s["slots"]
            stops.append(stop)
    return stops, index


def paths_of(rec, index):
    """Track of a hex or tile. Paths to a terminal junction are left out: a junction is
    no stop, and a terminal one cannot be passed, so no route can use that track."""
    out = []
    for a, b in rec["paths"]:
        ea, eb = end(a, index), end(b, index)
        if ea is not None and eb is not None:
            out.append([ea, eb])
    return out


def hex_kind(h):
    if h["hex"] in PRINTED_KINDS:
        return PRINTED_KINDS[h["hex"]]
    if h["color"] in ("red", "gray"):
        return h["color"]
    if h["color"] == "blue":
        return "sea"
    if h["hex"] == "F5":
        return "sherbrooke"
    if h["cities"]:
        return "city"
    if h["towns"]:
        return "town"
    return "clear"


def main(ref):
    facts = json.load(open(os.path.join(ref, "map_facts.json"), encoding="utf-8"))
    tfacts = json.load(open(os.path.join(ref, "tiles_facts.json"), encoding="utf-8"))
    os.makedirs(OUT, exist_ok=True)

    hexes = []
    for h in facts["hexes"]:
        stops, index = stops_of(h)
        rec = {"id": h["hex"], "name": h["name"], "kind": hex_kind(h), "color": h["color"],
               "stops": stops, "paths": paths_of(h, index)}
        if h["labels"]:
            rec["labels"] = h["labels"]
        if h["terrain"]:
            rec["terrain"] = h["terrain"]
        if h["borders"]:
            rec["borders"] = h["borders"]
        if any(e.startswith("junction") for p in h["paths"] for e in p):
            rec["dropped_junction_track"] = [p for p in h["paths"] if any(e.startswith("junction") for e in p)]
        hexes.append(rec)
    special = facts["special_hexes"]
    base = {"title": "1833NE", "layout": "flat", "axes": {"x": "letter", "y": "number"},
            "phases": PHASES, "_source": "reference/1833NE/map_facts.json (see tools/convert_1833ne.py)",
            "boston": "G22", "montreal": "B3", "portland": "I14", "sherbrooke": "F5",
            "impassable_borders": special["impassable_borders"],
            "cost_borders": special["cost_borders"],
            "offboard_areas": {a["name"]: a["hexes"] for a in special["offboard_areas"]},
            "hexes": hexes}
    dump("map.json", base)

    tiles, counts, upgrades, only_on = {}, {}, {}, {}
    for t in tfacts["tiles"]:
        stops, index = stops_of(t)
        rec = {"color": t["color"], "stops": stops, "paths": paths_of(t, index)}
        if t["labels"]:
            rec["labels"] = t["labels"]
        tiles[t["tile"]] = rec
        counts[t["tile"]] = 99 if t.get("unlimited") else t["count"]
        nxt = t.get("label_successors") if t["labels"] else t["upgrades_to"]
        upgrades[t["tile"]] = list(nxt or [])
        if t["labels"]:
            label = t["labels"][0]
            only_on[t["tile"]] = [h["hex"] for h in facts["hexes"] if label in h["labels"]]
    dump("tiles.json", {"_source": "reference/1833NE/tiles_facts.json", "tiles": tiles})

    manifest = {
        "_source": "tiles_facts.json counts and upgrades (engine colour/track check; labelled "
                   "tiles by label_successors); colours by phase from the 1833NE rules summary",
        "first_tiles": {"clear": ["7", "8", "9"], "town": ["3", "4", "58"], "city": ["5", "6", "57"],
                        "sherbrooke": ["N11"]},
        "printed_upgrades": {"montreal": ["N25"], "westport": ["N26"], "manchester": ["N27", "N28"],
                             "providence": ["N22"], "boston": ["N23"], "portland": ["N24"],
                             "yellow_city": ["14", "15", "619"]},
        "tile_only_on": only_on,
        "colour_from_phase": {"yellow": "I", "green": "II", "brown": "IV"},
        "upgrades_from_phase": "II",
        "upgrades": upgrades,
        "counts": counts,
    }
    dump("manifest.json", manifest)

    # trains and phases in the 18xx.games shape every title shares (tests/titles/test_title_data.py):
    # a card is bought as one of its sides (variants); distance as 18xx.games writes it
    trains = []
    for t in facts["trains"]:
        variants = [{"name": s["name"], "price": 1000 if s["name"] == "7+3" else s["price"],
                     "distance": distance(s["name"])} for s in t["sides"]]
        trains.append({"name": t["name"], "num": t["count"], "obsolete_on": t["phased_out_in_phase"],
                       "rusts_on": t["removed_in_phase"], "price": variants[0]["price"],
                       "distance": variants[0]["distance"], "variants": variants, "available_on": t["phase"]})
    dump("trains.json", {"_source": "map_facts.json trains (both sides of each card) and 1833NE rules summary "
                                    "'Train list and prices' (phased out / removed by phase; 7+3 at $1,000); "
                                    "18xx.games shape: name, distance, price, num, available_on, obsolete_on "
                                    "(phased out), rusts_on (removed), variants (the card's sides); the route "
                                    "rules and the game engine both read it",
                         "trains": trains})

    phases = []
    for p in facts["phases"]:
        i = PHASES.index(p["name"])
        early = i < PHASES.index("IV")  # ferries run and spots stay reserved until phase IV
        phases.append({"name": p["name"], "tiles": p["tile_colors"], "train_limit": p["train_limit"],
                       "train_limit_takeover_game": p["train_limit_takeover_game"],
                       "ferries": early,
                       "privates_removed": (["P1", "P2"] if i >= 2 else []) + (["P3", "P4", "P5"] if i >= 3 else []),
                       "on": next(t["name"] for t in facts["trains"] if t["phase"] == p["name"]),
                       "operating_rounds": p["operating_rounds"],
                       "status": ["ferries", "reserved_spots"] if early else []})
    dump("phases.json", {"_source": "1833NE rules summary 'Number of phases'; 18xx.games shape: name, on, train_limit, "
                                    "tiles, operating_rounds ('Always two operating rounds'), status",
                         "phases": phases})


def distance(name):
    """A train's reach in the 18xx.games shape: ``N`` visits and counts N stops of any
    kind; ``N/M`` visits up to M and counts the best N; ``N+S`` counts N cities or
    off-boards plus S towns."""
    if "+" in name:
        big, small = (int(x) for x in name.split("+"))
        return [{"nodes": ["city", "offboard"], "pay": big, "visit": big},
                {"nodes": ["town"], "pay": small, "visit": small}]
    pay, _, visit = name.partition("/")
    return [{"nodes": ["city", "offboard", "town"], "pay": int(pay), "visit": int(visit or pay)}]


def dump(name, obj):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as fh:
        json.dump(obj, fh, indent=1, ensure_ascii=False)
        fh.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "shared", "reference", "1833NE"))

"""Write the 1832 title's data files from the reference facts.

Usage: python tools/convert_1832.py [REFERENCE_DIR]   (the 18xx.games reference facts of 1832:
map_facts.json and tiles_facts.json)

The reference (facts read from a public engine) gives the printed map and the tiles'
track. The 1832 rulebook gives the tile manifest and the upgrade
chart; those are typed in below from the rulebook, not read from the reference. Where
the two disagree the rulebook wins (docs/gaps.md, "## 1832"). The JSON files this
writes (map.json, tiles.json, manifest.json) are what ships; this script is kept to
show where they came from and to redo them if the reference is corrected. The trains
and phases (Table 1) are typed in by hand in trains.json and phases.json, in the
18xx.games shape every title shares; this script does not write them.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "src", "trainruns", "titles", "g1832", "data")
PHASES = ["2", "3", "4", "5", "6", "8", "10", "12"]
# Table 1 "Off-Map": first value in phases 2-4, second in 5-6, last from 8 on. The
# reference keys its values by tile colour: yellow = first, brown = second, gray = last.
COLOUR_PHASE = {"yellow": "2", "brown": "5", "gray": "8"}


def end(e, stop_index):
    """Reference end ('edge3', 'city0', 'town1', 'offboard0') -> our end (3, 'sK')."""
    m = re.match(r"^(edge|city|town|offboard)(\d+)$", e)
    kind, n = m.group(1), int(m.group(2))
    return n if kind == "edge" else f"s{stop_index[(kind, n)]}"


def stops_of(rec):
    """Cities, then towns, then off-boards (the reference's stop order)."""
    stops, index = [], {}
    for kind, key in (("city", "cities"), ("town", "towns"), ("offboard", "offboards")):
        for n, s in enumerate(rec.get(key, [])):
            index[(kind, n)] = len(stops)
            stop = {"kind": kind, "value": value(s["revenue"])}
            if kind == "city":
                stop["slots"] = s["slots"]
            stops.append(stop)
    return stops, index


def value(rev):
    if isinstance(rev, int):
        return rev
    # A value map by phase (docs/custom-map.md form): first / second / last value of Table 1.
    return {COLOUR_PHASE[c]: v for c, v in rev.items()}


def hex_kind(h, special):
    """The printed terrain a first tile must match (upgrade chart, first rows)."""
    if h["hex"] == special["coal_fields"]:
        return "coal_fields"
    if h["color"] == "red":
        return "offboard"
    if h["color"] == "gray":
        return "gray"
    if h["hex"] == special["atlanta"]:
        return "atlanta"
    if h["cities"]:
        return "city"
    if len(h["towns"]) == 2:
        return "double_town"
    if h["towns"]:
        return "medium_city" if h["towns"][0]["boom"] else "town"
    return "clear"


def convert_map(ref):
    special = ref["special_hexes"]
    hexes = []
    for h in ref["hexes"]:
        stops, index = stops_of(h)
        kind = hex_kind(h, special)
        if kind == "coal_fields":
            # The Coal Fields are neither city, town nor off-board in the rulebook; they
            # count toward length like a town and may be run through (with a token).
            stops[0]["name"] = "West Virginia Coal Fields"
        out = {
            "id": h["hex"],
            "name": "West Virginia Coal Fields" if kind == "coal_fields" else h["name"],
            "kind": kind,
            "color": h["color"],
            "stops": stops,
            "paths": [[end(a, index), end(b, index)] for a, b in h["paths"]],
        }
        if h["labels"]:
            out["labels"] = h["labels"]
        if h.get("future_label"):
            out["future_label"] = h["future_label"]
        if h["terrain"]:
            out["terrain"] = [{"cost": t["cost"], "type": "/".join(t["terrains"])} for t in h["terrain"]]
        if "port" in h["icons"]:
            out["port"] = True
        if h.get("home_of"):
            out["home"] = [{"corporation": c["corporation"], "stop": c["city"] or 0} for c in h["home_of"]]
        out["neighbors"] = {str(k): v for k, v in sorted(h["neighbors"].items())}
        hexes.append(out)
    return {
        "title": "1832",
        "layout": ref["layout"],
        "axes": {"x": "number", "y": "letter"},
        "phases": PHASES,
        "coal_fields": special["coal_fields"],
        "miami": special["miami"],
        "atlanta": special["atlanta"],
        "port_hexes": sorted(set(special["port_P3_hexes"])),
        "hexes": hexes,
    }


def convert_tiles(ref):
    tiles = {}
    for t in ref["tiles"]:
        stops, index = stops_of(t)
        rec = {"color": t["color"], "stops": stops,
               "paths": [[end(a, index), end(b, index)] for a, b in t["paths"]]}
        if t["labels"]:
            rec["labels"] = t["labels"]
        tiles[t["tile"]] = rec
    return {"tiles": tiles}


# --- from the rulebook ([23] Tile Manifest/Upgrade Chart, [6.4], Table 1) -----------

# Tile counts of the manifest; the rulebook gives no counts for the brown tiles (nor
# 191), so those are the reference's counts (docs/gaps.md).
RULEBOOK_COUNTS = {
    "1": 1, "2": 1, "3": 3, "4": 4, "5": 2, "6": 2, "7": 7, "8": 20, "9": 20, "55": 1,
    "56": 1, "57": 5, "58": 4, "69": 1, "14": 4, "15": 4, "16": 1, "17": 1, "18": 1,
    "19": 1, "20": 1, "23": 4, "24": 4, "25": 1, "26": 1, "27": 1, "28": 1, "29": 1,
    "141": 1, "142": 1, "143": 1, "144": 1, "190": 1,
}
UPGRADES = {
    "1": [], "2": [], "3": ["141", "142", "143"], "4": ["141", "142"], "5": ["14", "15"],
    "6": ["14", "15"], "7": ["18", "26", "27", "28", "29"],
    "8": ["16", "17", "19", "23", "24", "25", "28", "29"],
    "9": ["18", "19", "20", "23", "24", "26", "27"], "55": [], "56": [], "57": ["14", "15"],
    "58": ["141", "142", "143", "144"], "69": [], "14": ["63", "611"],
    "15": ["63", "611", "193"], "16": ["43", "70"], "17": ["47"], "18": ["43"],
    "19": ["45", "46"], "20": ["44", "47"], "23": ["41", "43", "45", "47"],
    "24": ["42", "43", "46", "47"], "25": ["40", "45", "46"], "26": ["42", "44", "45"],
    "27": ["41", "44", "46"], "28": ["39", "43", "46", "70"], "29": ["39", "43", "45", "70"],
    "141": ["145", "146", "147"], "142": ["145", "146", "147"], "143": ["146", "147"],
    "144": ["147"],
    # [6.4.4]: Atlanta's special green #190 is upgraded by its special brown #191.
    "190": ["191"],
}
MANIFEST = {
    "first_tiles": {
        "clear": ["7", "8", "9"],
        # [6.4.3] large cities take #5, #6, #57 (the chart's first rows print this list
        # against "Medium city hex"; [6.4.2] says medium cities start as towns).
        "city": ["5", "6", "57"],
        "town": ["3", "4", "58"],
        "medium_city": ["3", "4", "58"],
        "double_town": ["1", "2", "55", "56", "69"],
    },
    # The printed yellow Atlanta is upgraded to #190 ("Yellow city hex (3 circles)").
    "printed_upgrades": {"atlanta": ["190"]},
    # [6.4.2] a medium city's yellow town tile may instead become a yellow city tile.
    "kind_upgrades": {"medium_city": {"3": ["5", "6", "57"], "4": ["5", "6", "57"],
                                      "58": ["5", "6", "57"]}},
    # [6.4.4] special tiles only on their cities, and #63 not on Charleston,
    # Jacksonville, Savannah (its brown is #193) or Tampa (no brown upgrade).
    "tile_only_on": {"190": ["F10"], "191": ["F10"], "193": ["H16"], "611": ["G17", "J14"]},
    "hex_excludes": {"G17": ["63"], "J14": ["63"], "H16": ["63"], "M13": ["63"]},
    # [4.2]: yellow from phase 2, green from 3, brown from 5.
    "colour_from_phase": {"yellow": "2", "green": "3", "brown": "5"},
    # [4.2] phase two: "Only yellow tiles may be placed (no upgrades of medium cities,
    # even to yellow tiles)": no upgrade at all before phase 3.
    "upgrades_from_phase": "3",
    "upgrades": UPGRADES,
}


def dumps(data):
    """Readable and diffable: one line per hex, tile or table entry."""
    lines = []
    for key, val in data.items():
        if isinstance(val, list) and val and isinstance(val[0], dict):
            inner = ",\n".join("  " + json.dumps(v) for v in val)
            lines.append(f" {json.dumps(key)}: [\n{inner}\n ]")
        elif isinstance(val, dict) and val and all(isinstance(v, (dict, list)) for v in val.values()):
            inner = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in val.items())
            lines.append(f" {json.dumps(key)}: {{\n{inner}\n }}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(val)}")
    return "{\n" + ",\n".join(lines) + "\n}"


def main():
    ref_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "shared", "reference", "1832")
    with open(os.path.join(ref_dir, "map_facts.json")) as fh:
        map_ref = json.load(fh)
    with open(os.path.join(ref_dir, "tiles_facts.json")) as fh:
        tiles_ref = json.load(fh)
    tiles = convert_tiles(tiles_ref)
    counts = dict(RULEBOOK_COUNTS)
    for t in tiles_ref["tiles"]:
        counts.setdefault(t["tile"], t["count"])
    missing = set(counts) ^ set(tiles["tiles"])
    assert not missing, f"manifest and tile track disagree on {missing}"
    manifest = dict(MANIFEST, counts=counts)
    for name, data in (("map", convert_map(map_ref)), ("tiles", tiles), ("manifest", manifest)):
        with open(os.path.join(OUT, f"{name}.json"), "w") as fh:
            fh.write(dumps(data) + "\n")
        print(f"wrote {name}.json")


if __name__ == "__main__":
    main()

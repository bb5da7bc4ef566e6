"""Write the real-map positions of fixtures/1833NE/ (the tests' inputs).

Each fixture is a line of track between printed places of the 1833NE map, laid with
plain yellow tiles (7/8/9 on clear hexes, 3/4/58 on towns, 5/6/57 on cities) whose
rotation this script works out from the hex path, so the files stay legal lays. The
JSON written is what the tests read; rerun after a map data change and re-check.

Usage: python tools/make_1833ne_fixtures.py
"""

import json
import os

from trainruns.route.hexgrid import neighbour, parse_hex_id
from trainruns.titles.g1833ne import TITLE

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "fixtures", "1833NE")
FACTS = TITLE.facts
AT = {parse_hex_id(h): h for h in FACTS.tiled.hexes}
# tile for (kind, turn): turn = (exit - entry) % 6 folded to 1 sharp, 2 gentle, 3 straight
TILE = {"clear": {1: "7", 2: "8", 3: "9"}, "town": {1: "3", 2: "58", 3: "4"},
        "city": {1: "5", 2: "6", 3: "57"}}
BASE = {1: 0, 2: 0, 3: 0}  # every yellow tile above runs from side 0 to side `turn`


def side_to(a, b):
    x, y = parse_hex_id(a)
    for s in range(6):
        if AT.get(neighbour(x, y, s, "flat")) == b:
            return s
    raise ValueError(f"{a} and {b} are not neighbours")


def line(hexes):
    """Tiles for the interior hexes of a path of neighbouring hexes."""
    out = []
    for prev, here, nxt in zip(hexes, hexes[1:], hexes[2:]):
        e, x = side_to(here, prev), side_to(here, nxt)
        d = (x - e) % 6
        turn, rot = (d, e) if d <= 3 else (6 - d, x)
        kind = FACTS.tiled.hexes[here]["kind"]
        out.append({"hex": here, "tile": TILE[kind][turn], "rotation": rot % 6})
    return out


def position(phase, corp, trains, tiles, tokens, **extra):
    pos = {"title": "1833NE", "phase": phase, "corporation": corp, "trains": trains,
           "tiles": tiles, "tokens": tokens}
    pos.update(extra)
    return pos


# Boston (city 1, printed edge 3) - Lowell - clear hexes - St. Jean - Montreal (city 0)
BOSTON_MONTREAL = ["G22", "G20", "G18", "G16", "G14", "F13", "E12", "D11", "D9", "D7", "C6", "C4", "B3"]
# A6 (Ogdensburg) - B7 (gray) - Burlington - Rutland - ... - Worcester - Framingham - Boston (city 0)
OGDENSBURG_BOSTON = ["B7", "C8", "C10", "C12", "C14", "C16", "C18", "C20", "D21", "E22", "F23", "G22"]


# Lowell (G20), St. Jean (C4) and C6 take tiles in phase II only once a corporation has
# bought P2 / P3 ("List of private companies": a player's private blocks its hexes).


def main():
    os.makedirs(OUT, exist_ok=True)
    bm = line(BOSTON_MONTREAL)
    fixtures = {
        # Boston-Montreal by a line of 4 stops: Boston 30, Lowell 20, St. Jean 10, Montreal 30
        "boston_montreal": position("II", "B&L", ["3/5"], bm, [{"hex": "G22", "stop": 1, "corporation": "B&L"}],
                                    lowell_merchants_bought=True, privates_bought=["P3"]),
        # the same line, and A12 (D&H) - Westport - B9 - B7 - B5 - Montreal's green tile (edge 0)
        "delaware_hudson": position("II", "RR", ["3/5"], bm + [{"hex": "B9", "tile": "9", "rotation": 0},
                                                               {"hex": "B5", "tile": "9", "rotation": 0},
                                                               {"hex": "B3", "tile": "N25", "rotation": 0}],
                                    [], privates=["P6"], privates_bought=["P2", "P3"]),
        # A6 - Burlington - Rutland - Springfield - Worcester - Framingham - Boston: 7 stops
        "ogdensburg_boston": position("III", "CV", ["4/7"], line(OGDENSBURG_BOSTON), [], privates=["P4"]),
    }
    for name, pos in fixtures.items():
        with open(os.path.join(OUT, f"{name}.json"), "w", encoding="utf-8") as fh:
            json.dump(pos, fh, indent=1)
            fh.write("\n")


if __name__ == "__main__":
    main()

"""Random 1832 boards grown from the manifest by legal tile lays (trainruns.services.whatif
finds them), solved and compared with the independent brute force of
tests/bruteforce.py run on the same position written out as a custom map by this test
from the title's data files (not through the package's Board): the real map's geometry
(pointy hexes, swapped axes, Atlanta's cities, the preprinted track and off-boards)
and the value rules that apply to a company without privates."""

import json
import random
from importlib import resources

import pytest
from bruteforce import best_run

from trainruns import load_position, solve
from trainruns.services.whatif import tile_candidates

START = {"title": "1832", "corporation": "SALR", "tiles": [],
         "tokens": [{"hex": "D20", "stop": 0, "corporation": "SALR"}]}


def grown(seed):
    rng = random.Random(seed)
    phase = rng.choice(["3", "4", "5"])
    alive = {"3": ["2", "3"], "4": ["3", "4"], "5": ["3", "4", "5"]}[phase]  # Table 1 rusting
    data = dict(START, phase=phase, trains=[rng.choice(alive) for _ in range(rng.randint(1, 2))])
    for _ in range(rng.randint(6, 18)):
        cands = tile_candidates(data)
        if not cands:
            break
        _, data = rng.choice(cands)
    return data


def data_file(name):
    with resources.files("trainruns.titles.g1832").joinpath("data", name).open(encoding="utf-8") as fh:
        return json.load(fh)


def as_custom_map(data):
    """The 1832 position written out as a custom map (docs/custom-map.md), read from the title's
    data files and the rulebook here, not through the package's Board: the printed map
    with each hex's last laid tile turned by its rotation (side e of the tile lies on
    side (e + rotation) % 6), values by phase as printed (Table 1's first / second /
    last off-board values are the map's phase entries), and two rules of
    "Operate Trains" for a company without privates: [8.1 c] no company without a
    WVCF token enters the Coal Fields (its track is cut), and [8.5] Miami is worth $0
    before phase five until some company has run there."""
    base, tiles = data_file("map.json"), data_file("tiles.json")["tiles"]
    laid = {t["hex"]: t for t in data.get("tiles", [])}
    phase = data["phase"]
    before_five = base["phases"].index(phase) < base["phases"].index("5")
    hexes = []
    for h in base["hexes"]:
        spec, rot = h, 0
        if h["id"] in laid:
            spec, rot = tiles[laid[h["id"]]["tile"]], laid[h["id"]]["rotation"]
        stops = [{"kind": st["kind"], "value": st["value"]} | ({"slots": st.get("slots", 1)} if st["kind"] == "city"
                                                                 else {}) for st in spec.get("stops", [])]
        if h["id"] == base["miami"] and before_five and not data.get("miami_run"):
            stops[0]["value"] = 0
        paths = [[(e + rot) % 6 if isinstance(e, int) else e for e in p] for p in spec.get("paths", [])]
        if h["id"] == base["coal_fields"] and not data.get("coal_token"):
            paths = []
        hexes.append({"id": h["id"], "stops": stops, "paths": paths})
    return {"map": {"layout": base["layout"], "axes": base["axes"], "phases": base["phases"], "hexes": hexes},
            "phase": phase, "corporation": data["corporation"], "trains": list(data["trains"]),
            "tokens": [dict(t) for t in data.get("tokens", [])]}


@pytest.mark.parametrize("seed", range(25))
def test_random_1832_board_matches_brute_force(seed):
    data = grown(seed)
    custom = as_custom_map(data)
    best, _ = best_run(custom, max_stops=max(int(t) for t in custom["trains"]))
    run = solve(load_position(data))
    assert run.optimal and run.revenue == best
    assert solve(custom).revenue == best

"""whatif keeps 1832's rules: tokens stay on their
city across an upgrade ([7.3] "Once a token is placed, it cannot be moved"), the home
city of a company that has not started keeps its last space ([7.3]), reach is that of
one legal run ("Laying Track", "Placing a Token"), and the first train of a phase may
be bought when the lower limit forces a discard ([10.2.1])."""

import json

from conftest import ROOT

from trainruns import load_position, solve
from trainruns.services.whatif import rank_tiles, rank_trains_full, tile_candidates, token_candidates, train_candidates

# Atlanta (F10) printed: three cities, F10.0 toward F12 (side 4), F10.1 toward Columbus
# (G9, side 0), F10.2 toward E9 (side 2). Columbus holds a town tile (#3) facing Atlanta.
ATLANTA = {"title": "1832", "phase": "3", "trains": ["2"], "tiles": [{"hex": "G9", "tile": "3", "rotation": 2}],
           "tokens": [{"hex": "F10", "stop": 0, "corporation": "GRR"},
                      {"hex": "F10", "stop": 1, "corporation": "A&WP"}]}


def green_atlanta(corporation):
    return [m for m in rank_tiles(dict(ATLANTA, corporation=corporation)) if m.move["hex"] == "F10"]


def test_upgrading_atlanta_moves_no_token():
    """[7.3] "Once a token is placed, it cannot be moved": #190 keeps each token on the
    city with its track. The A&WP's city faces Columbus: Atlanta 40 + Columbus 10 = 50
    with every rotation. The GRR's faces F12, where no track runs: 0 with every
    rotation (keeping stop numbers put its token on Columbus's side in one of them)."""
    awp = green_atlanta("A&WP")
    assert [m.move["tile"] for m in awp] == ["190"] * 3
    assert [m.revenue for m in awp] == [50, 50, 50]
    grr = green_atlanta("GRR")
    assert [m.revenue for m in grr] == [0, 0, 0]
    for move, variant in tile_candidates(dict(ATLANTA, corporation="GRR")):
        if move["hex"] == "F10":
            hx = load_position(variant).hexes["F10"]
            k = next(t["stop"] for t in variant["tokens"] if t["corporation"] == "GRR")
            assert ("side", 4) in {e for p in hx.paths for e in p if ("stop", k) in p}


# Fixture 06: green Atlanta, the GRR in its third city (sides toward F12 and F8), F8 and
# Columbus laid; in phase 5 brown Atlanta (#191, one city of 60) may come.
def atlanta_phase5(**extra):
    data = json.loads((ROOT / "fixtures/1832/06-phase3-atlanta-distinct-cities.json").read_text())
    data.pop("expected_revenue")
    return dict(data, phase="5", trains=["5"], **extra)


def test_brown_atlanta_is_offered_with_a_token_in_the_third_city():
    """Upgrade chart [23]: #190 -> #191. With the GRR in green Atlanta's third city the
    upgrade is legal (the token goes to #191's one city). By hand: Atlanta 60 +
    Columbus 10 = 70 (Atlanta - F8 - Columbus - Atlanta would visit one city twice)."""
    moves = [m for m in rank_tiles(atlanta_phase5()) if m.move["hex"] == "F10"]
    assert [m.move["tile"] for m in moves] == ["191"]
    assert moves[0].revenue == 70


def test_cotton_token_stays_on_its_city_across_an_upgrade():
    """[16.2 P2] Cotton Warehouse on the GRR's Atlanta city (+10 for its owner): after
    #191 it is on the one city, so 60 + 10 + Columbus 10 = 80."""
    data = atlanta_phase5(cotton={"hex": "F10", "stop": 2}, cotton_owner="GRR")
    moves = [m for m in rank_tiles(data) if m.move["hex"] == "F10"]
    assert [(m.move["tile"], m.revenue) for m in moves] == [("191", 80)]
    variant = next(v for m, v in tile_candidates(data) if m["hex"] == "F10")
    assert variant["cotton"] == {"hex": "F10", "stop": 0}


def test_home_city_of_a_company_not_started_keeps_its_last_space():
    """[7.3] "A company cannot use the last token space in a starting city for a railway
    that has not yet started": Norfolk (B24, one space) is the N&W's home; the SALR
    reaches it in the worked example, but may not take it while the N&W has no token."""
    data = json.loads((ROOT / "fixtures/1832/worked_example.json").read_text())
    assert load_position(data).stop(("B24", 0)).tokens == []
    assert "B24" not in [m["hex"] for m, _ in token_candidates(data)]
    # the N&W itself, running for the first time, may
    nw = dict(data, corporation="N&W", tokens=[])
    assert token_candidates(nw) == []  # it reaches nothing without a token
    # brown Atlanta (#191, four spaces) is the home of the GRR and the A&WP: with the GRR
    # started and the A&WP not, the last space is the A&WP's
    from trainruns.titles.g1832 import TITLE

    tiles = [{"hex": "F10", "tile": "190", "rotation": 0}, {"hex": "F10", "tile": "191", "rotation": 0}]
    tokens = [{"hex": "F10", "stop": 0, "corporation": c} for c in ("GRR", "SALR", "CG")]
    atl = {"title": "1832", "phase": "5", "corporation": "L&N", "trains": ["5"], "tiles": tiles, "tokens": tokens}
    assert "A&WP" in TITLE.token_refusal(atl, load_position(atl), ("F10", 0))
    two = dict(atl, tokens=tokens[:2])  # two spaces left: one may be taken
    assert TITLE.token_refusal(two, load_position(two), ("F10", 0)) is None
    started = dict(atl, tokens=tokens + [{"hex": "B24", "stop": 0, "corporation": "A&WP"}])
    assert TITLE.token_refusal(started, load_position(started), ("F10", 0)) is None


def test_reach_never_reverses_at_a_stop():
    """"Placing a Token": "trace a valid train route from one of its station tokens to
    the city". B2 (token) runs through B4 to city S in B6, a dead end. B4's second path
    leaves the same B4/B6 side toward A5 (city C): a route would have to come back out
    of S the way it came, so C is not reachable, and no route of the brute force
    (tests/bruteforce.py) visits it."""
    from bruteforce import all_routes

    data = {"map": {"layout": "flat", "hexes": [
        {"id": "B2", "stops": [{"kind": "city", "value": 10, "slots": 1}], "paths": [["s0", 0]]},
        {"id": "B4", "stops": [], "paths": [[3, 0], [0, 1]]},
        {"id": "B6", "stops": [{"kind": "city", "value": 20, "slots": 1}], "paths": [[3, "s0"]]},
        {"id": "A5", "stops": [{"kind": "city", "value": 50, "slots": 1}], "paths": [[4, "s0"]]},
    ]}, "corporation": "A", "trains": ["2"], "tokens": [{"hex": "B2", "stop": 0, "corporation": "A"}]}
    visited = {s for stops, *_ in all_routes(data) for s in stops}
    assert ("A5", 0) not in visited and ("B6", 0) in visited
    assert [m["hex"] for m, _ in token_candidates(data)] == ["B6"]


def test_first_train_of_a_phase_with_a_forced_discard():
    """[10.2] Train limits (phase 4: 3, phase 5: 2) and [10.2.1] "If buying a train
    initiates a phase change causing any railway to possess too many trains, then the
    excess trains ... are immediately discarded ... The president decides which train is
    discarded": with a 3 and a 4 in phase 4, the first 5-train is a legal purchase,
    once keeping the 4 and once keeping the 3."""
    data = json.loads((ROOT / "fixtures/1832/worked_example.json").read_text())
    data = dict(data, phase="4", trains=["3", "4"])
    fives = [(m, v) for m, v in train_candidates(data) if m.get("starts_phase")]
    assert sorted((m["discarded"], v["trains"]) for m, v in fives) == [(["3"], ["4", "5"]), (["4"], ["3", "5"])]
    best = rank_trains_full(data)
    by_hand = max(solve(v).revenue for _, v in fives)
    assert max(m.revenue for m in best.moves if m.move.get("starts_phase")) == by_hand
    # at the limit (three trains in phase 4) no train may be bought at all [10.2]
    assert train_candidates(dict(data, trains=["3", "4", "4"])) == []


def test_the_first_diesel_keeps_the_5_train_and_no_8_or_10_is_offered():
    """[17.2] 1830 Diesels: "Discard the 8-trains and 10-trains ... Diesels are available
    for purchase after the first 6-train ... 5-trains are permanent": in phase 6 with a
    5-train, the first 12-train starts phase 12 and the 5 stays; no 8 or 10 is listed.
    Without the variant the 8 is next and the 12 is not yet for sale."""
    data = json.loads((ROOT / "fixtures/1832/worked_example.json").read_text())
    data = dict(data, phase="6", trains=["5"], diesels=True)
    listed = train_candidates(data)
    assert {m["train"] for m, _ in listed} == {"4", "5", "6", "12"}   # 4 and 5 from other companies
    first = [(m, v) for m, v in listed if m.get("starts_phase")]
    assert [(m["train"], v["trains"]) for m, v in first] == [("12", ["5", "12"])]
    assert "scrapped" not in first[0][0]
    standard = train_candidates(dict(data, diesels=False))
    assert {m["train"] for m, _ in standard} == {"4", "5", "6", "8"}


def test_no_train_is_bought_before_a_discard():
    """[10.2.1] the excess trains "are immediately discarded": a position over the limit
    (``must_discard``) lists no purchase."""
    data = json.loads((ROOT / "fixtures/1832/worked_example.json").read_text())
    data = dict(data, phase="5", trains=["5", "4", "4"], must_discard=True)
    load_position(data)
    assert train_candidates(data) == []


# A board grown by legal lays (phase 4): Raleigh's track runs D20 - E19 (#7, sides 3-4) -
# F18 (#23) and on; E19's upgrade to #26 adds a path from side 4 to side 1.
GROWN = {"title": "1832", "phase": "4", "corporation": "SALR", "trains": ["4", "3"],
         "tokens": [{"hex": "D20", "stop": 0, "corporation": "SALR"}],
         "tiles": [{"hex": "D20", "tile": "5", "rotation": 0},
                   {"hex": "D20", "tile": "14", "rotation": 0},
                   {"hex": "E19", "tile": "7", "rotation": 3},
                   {"hex": "D18", "tile": "8", "rotation": 4},
                   {"hex": "E21", "tile": "3", "rotation": 1},
                   {"hex": "E17", "tile": "4", "rotation": 0},
                   {"hex": "F16", "tile": "7", "rotation": 3},
                   {"hex": "F18", "tile": "9", "rotation": 1},
                   {"hex": "E21", "tile": "143", "rotation": 0},
                   {"hex": "D18", "tile": "29", "rotation": 4},
                   {"hex": "F18", "tile": "23", "rotation": 1},
                   {"hex": "C21", "tile": "7", "rotation": 0}]}


def test_no_lay_reachable_only_by_reversing_at_a_stop():
    """"Laying Track": the new track must be reached by "an unblocked ... train run of any
    length from one of its tokens". #26 on E19 adds track from side 4, which a run reaches
    only on E19's own track (it must go on into F18 there); arriving from F18 would take
    a run out to a stop and back the way it came. No route of the brute force uses the new
    track, and whatif no longer lists the lay (a trace allowed to turn at a stop did)."""
    from bruteforce import all_routes
    from lay_oracle import custom_map

    from trainruns.route.reach import loose_reach, reach
    from trainruns.route.track import side_node

    board = load_position(GROWN)
    node = side_node(board, "E19", 4)
    assert loose_reach(board).arrives_at_side(node, "E19") and not reach(board).arrives_at_side(node, "E19")
    assert not any(m["hex"] == "E19" and m["tile"] == "26" and m["rotation"] == 4
                   for m, _ in tile_candidates(GROWN))
    variant = load_position(dict(GROWN, tiles=GROWN["tiles"] + [{"hex": "E19", "tile": "26", "rotation": 4}]))
    new = [("E19", j) for j, p in enumerate(variant.hexes["E19"].paths) if set(p) == {("side", 4), ("side", 1)}]
    assert new and not any(set(new) & paths for _, paths, _, _ in all_routes(custom_map(variant)))

"""Each plain rule of docs/custom-map.md ("Plain rules") on a board built to
exercise it, with the best run worked out by hand."""

from trainruns import solve


def line_board(stops, layout="flat", tokens=(("B2", 0),), trains=("3",), extra_hexes=()):
    """Hexes B2, B4, B6, ... in a north-south line (flat layout: side 0 is south), each
    with one stop joined to its neighbours."""
    hexes = []
    n = len(stops)
    for i, stop in enumerate(stops):
        paths = []
        if i > 0:
            paths.append([3, "s0"])
        if i < n - 1:
            paths.append([0, "s0"])
        hexes.append({"id": f"B{2 + 2 * i}", "stops": [stop], "paths": paths})
    return {"map": {"layout": layout, "hexes": hexes + list(extra_hexes)}, "corporation": "A",
            "trains": list(trains),
            "tokens": [{"hex": h, "stop": k, "corporation": c} for h, k, *rest in tokens
                       for c in (rest or ["A"])]}


def city(v, slots=1):
    return {"kind": "city", "value": v, "slots": slots}


def test_n_train_runs_at_most_n_stops():
    pos = line_board([city(10), city(20), city(30), city(40)], trains=["3"])
    assert solve(pos).revenue == 60  # B2-B4-B6: the 3-train cannot reach B8


def test_unlimited_train_99():
    pos = line_board([city(10), city(20), city(30), city(40)], trains=["99"])
    assert solve(pos).revenue == 100


def test_route_needs_own_token():
    pos = line_board([city(10), city(20), city(30)], tokens=[("B6", 0, "B")], trains=["3"])
    assert solve(pos).revenue == 0


def test_offboard_ends_but_is_not_passed():
    pos = line_board([city(10), {"kind": "offboard", "value": 50}, city(40)], trains=["3"])
    run = solve(pos)
    assert run.revenue == 60  # B2 - offboard; B6 beyond it is unreachable
    assert run.routes[0].stop_labels() == ["B2.0", "B4.0"]  # listed from the token


def test_blocked_city_ends_but_is_not_passed():
    pos = line_board([city(10), city(20), city(40)], tokens=[("B2", 0), ("B4", 0, "B")], trains=["3"])
    assert solve(pos).revenue == 30


def test_city_with_a_free_slot_is_passed():
    pos = line_board([city(10), city(20, slots=2), city(40)], tokens=[("B2", 0), ("B4", 0, "B")],
                     trains=["3"])
    assert solve(pos).revenue == 70


def test_own_token_unblocks_a_full_city():
    pos = line_board([city(10), city(20, slots=1), city(40)], tokens=[("B4", 0)], trains=["3"])
    assert solve(pos).revenue == 70


def test_towns_are_stops_and_count():
    pos = line_board([city(10), {"kind": "town", "value": 10}, city(40)], trains=["2"])
    assert solve(pos).revenue == 20  # a 2-train stops at the town: B2-B4 only


def test_trains_share_no_track_and_may_idle():
    pos = line_board([city(10), city(20), city(30)], tokens=[("B2", 0), ("B6", 0)], trains=["2", "2"])
    run = solve(pos)
    # B2-B4 (30) and B4-B6 (50) share the stop B4 but no track
    assert run.revenue == 80
    pos = line_board([city(10), city(20), city(30)], trains=["3", "2"])
    run = solve(pos)
    # one token: the 3-train's B2-B4-B6 (60) leaves no track for the 2-train
    assert run.revenue == 60 and run.idle == ["2"]
    pos = line_board([city(10), city(20)], trains=["2", "2"])
    run = solve(pos)
    assert run.revenue == 30 and run.idle == ["2"]


def test_phase_values_take_latest_earlier_entry():
    pos = line_board([city(10), {"kind": "offboard", "value": {"2": 20, "5": 60}}], trains=["2"])
    pos["map"]["phases"] = ["2", "3", "5"]
    pos["phase"] = "3"
    assert solve(pos).revenue == 30
    pos["phase"] = "5"
    assert solve(pos).revenue == 70


def test_a_hex_side_is_crossed_by_one_train_only():
    """B2 and B4 each have two paths meeting at their common side: B2 (0-s0, 0-1 to the
    town A3) and B4 (3-s0, 3-4 to the city C3). Route B2-B4 and route A3-C3 use four
    different paths but both cross the B2/B4 side, so only one of them may run; so
    may only one of C3-B2 (70) and B4-A3 (30). Without the side rule: 100."""
    pos = {"map": {"layout": "flat", "hexes": [
        {"id": "B2", "stops": [city(30)], "paths": [[0, "s0"], [0, 1]]},
        {"id": "B4", "stops": [city(20)], "paths": [[3, "s0"], [3, 4]]},
        {"id": "A3", "stops": [{"kind": "town", "value": 10}], "paths": [[4, "s0"]]},
        {"id": "C3", "stops": [city(40)], "paths": [[1, "s0"]]},
    ]}, "corporation": "A", "trains": ["2", "2"],
        "tokens": [{"hex": "B4", "stop": 0, "corporation": "A"},
                   {"hex": "C3", "stop": 0, "corporation": "A"}]}
    run = solve(pos)
    assert run.revenue == 70 and len(run.routes) == 1

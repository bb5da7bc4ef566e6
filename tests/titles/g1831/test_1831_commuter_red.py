"""5.6.7 commuter runs through a city with a red extension (5.2.3.10: "part of the same
hex"), against a brute force that walks the raw map track by track (sharing no code with
the route model): a visit enters the city (its hex or its red extension), runs to one
Station there, moving between the two only along track inside them, and leaves; the
visits follow the cycle in order. Track that leaves New York and comes back into its red
extension enters New York again, which the cycle never asks for next: that is not a
visit's move inside the city, and no run may take it.

The small board (flat layout): New York C5 with its red extension C3, a second city P at
E5 on the cycle [C5, E5]; two tracks C5 - E5 (through D4 and D6), one C3 - E5 (through D2
and E3), and a loop C5 - B4 - B2 - C3 outside the city; with ``direct`` also track
across the border C5 - C3 inside it.

Ordinary routes (5.6.2) on the same board with a third city Q (``plain_board``), against
a second raw-track brute force (``route_best``): a route enters each city once (5.6.2.1),
so it may not leave New York and come back into its red extension either."""

import pytest
from boards1831 import brute_force

from trainruns import solve
from trainruns.titles.g1831.route.trains import token_values

OFF = ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1))   # flat layout, side -> (dx, dy)
PHASE = "5"


def board(direct=False, station="C5", train="5S", any_start=True):
    """The board above; the corporation A has a Station in P and one in New York, in
    its hex (``station="C5"``) or in the red extension (``"C3"``)."""
    ny = {"id": "C5", "name": "New York", "stops": [{"kind": "city", "value": 40, "slot_types": ["station"]}],
          "paths": [["s0", 4], ["s0", 5], ["s0", 2]] + ([["s0", 3]] if direct else [])}
    red = {"id": "C3", "name": "New York (red)", "part_of": "C5",
           "stops": [{"kind": "city", "slot_types": ["station"]}],
           "paths": [["s0", 4], [2, "s0"]] + ([[0, "s0"]] if direct else [])}
    p = {"id": "E5", "name": "P", "stops": [{"kind": "city", "value": 30, "slot_types": ["station"]}],
         "paths": [[2, "s0"], [1, "s0"], [3, "s0"]]}
    track = [{"id": h, "stops": [], "paths": [ends]} for h, ends in
             (("D4", [1, 5]), ("D6", [2, 4]), ("D2", [1, 5]), ("E3", [2, 0]), ("B4", [5, 3]), ("B2", [0, 5]))]
    return {"title": "1831", "phase": PHASE, "corporation": "A", "trains": [train],
            "map": {"layout": "flat", "hexes": [ny, red, p] + track,
                    "commuter_runs": [{"name": "New York - P", "cycle": ["C5", "E5"], "any_start": any_start}]},
            "tokens": [{"hex": station, "stop": 0, "slot": 0, "corporation": "A"},
                       {"hex": "E5", "stop": 0, "slot": 0, "corporation": "A"}]}


def _xy(hid):
    return ord(hid[0]) - 65, int(hid[1:]) - 1


def _raw(pos):
    """The raw map of ``pos``: hexes by id, hex ids by place, each city hex's city (its
    own id, or the city it is part of, 5.2.3.10), what a Station of the corporation
    earns per hex (city value and token value, 5.6.3) and the one S train's size."""
    hexes = {h["id"]: h for h in pos["map"]["hexes"]}
    at = {_xy(h): h for h in hexes}
    city = {h: x.get("part_of", h) for h, x in hexes.items() if x["stops"]}
    station = {}
    for t in pos["tokens"]:
        if t["corporation"] == pos["corporation"] and hexes[t["hex"]]["stops"][0]["slot_types"][t["slot"]] == "station":
            station[t["hex"]] = hexes[city[t["hex"]]]["stops"][0]["value"] + token_values(int(pos["phase"]))["station"]
    (train,) = pos["trains"]
    return hexes, at, city, station, int(train[:-1])


def _across(hexes, at, h, side, crossed):
    """The hex over side ``side`` of ``h`` and that crossing, or None (no hex there, or
    the crossing used already)."""
    x, y = _xy(h)
    h2 = at.get((x + OFF[side][0], y + OFF[side][1]))
    key = frozenset([(h, side), (h2, (side + 3) % 6)])
    return None if h2 is None or key in crossed else (h2, key)


def _onward(hexes, h2, side, used):
    """The paths of ``h2`` not used yet from the side entered over ``side``: (path index,
    its other end: a side or "s0")."""
    entry = (side + 3) % 6
    for i, path in enumerate(hexes[h2]["paths"]):
        if entry in path and (h2, i) not in used:
            yield i, path[1] if path[0] == entry else path[0]


def commuter_best(pos):
    """The best commuter run of the position's one S train by exhaustion over the raw
    track, on a board whose cities are all on the cycle (so no leg passes a city): each
    path and each crossing of a hex side used once; a visit enters the next city of the
    cycle, runs to one of the corporation's Stations in it, and leaves only after that;
    a run counts once some city came round again. 0 when there is none."""
    hexes, at, city, station, size = _raw(pos)
    best = 0
    for run in pos["map"]["commuter_runs"]:
        cycle = run["cycle"]
        assert set(city.values()) <= set(cycle)
        distinct = len(set(cycle))

        def at_stop(h, used, crossed, n, done, value, seq):
            nonlocal best
            if not done and h in station:     # run to the Station here
                if n > distinct:
                    best = max(best, value + station[h])
                at_stop(h, used, crossed, n, True, value + station[h], seq)
            for i, path in enumerate(hexes[h]["paths"]):
                if "s0" in path and (h, i) not in used:
                    side = path[1] if path[0] == "s0" else path[0]
                    cross(h, side, used | {(h, i)}, crossed, n, done, value, seq)

        def cross(h, side, used, crossed, n, done, value, seq):
            over = _across(hexes, at, h, side, crossed)
            if over is None:
                return
            h2, key = over
            if city.get(h) != city.get(h2):
                if city.get(h) is not None and not done:
                    return                    # a visit leaves only after running to a Station
                if city.get(h2) is not None:
                    if n >= size or city[h2] != seq[n]:
                        return                # not the next city of the cycle
                    n, done = n + 1, False
            for i, other in _onward(hexes, h2, side, used):
                if other == "s0":
                    at_stop(h2, used | {(h2, i)}, crossed | {key}, n, done, value, seq)
                else:
                    cross(h2, other, used | {(h2, i)}, crossed | {key}, n, done, value, seq)

        for rot in (range(len(cycle)) if run.get("any_start") else [0]):
            seq = [cycle[(rot + i) % len(cycle)] for i in range(size)]
            for h in city:
                if city[h] == seq[0]:
                    at_stop(h, frozenset(), frozenset(), 1, False, 0, seq)
    return best


def expected(pos):
    """The best run of the one train: a commuter run (above) or an ordinary route (the
    project's brute force of ordinary routes, tests/boards1831.py)."""
    plain = {**pos, "map": {k: v for k, v in pos["map"].items() if k != "commuter_runs"}}
    return max(commuter_best(pos), brute_force(plain) or 0)


def test_leaving_new_york_and_coming_back_into_its_red_extension_is_refused():
    """The pattern found by a solve: from New York's Station out by other track and back
    into New York's red extension, then on to P, as if still inside the city (C5 - E5 -
    C5 - C3 - E5, $220). Worked by hand: Stations $20 in phase 5, so New York $60 and P
    $50; the legal best is New York - P - New York, $170 (the third track to P starts in
    the red extension, which the run reaches from New York's Station only through the
    loop outside the city)."""
    pos = board()
    assert commuter_best(pos) == 170
    run = solve(pos)
    assert run.optimal and run.revenue == 170
    assert [r.stop_labels() for r in run.routes] == [["C5.0", "E5.0", "C5.0"]]


@pytest.mark.parametrize("direct", [False, True])
@pytest.mark.parametrize("station", ["C5", "C3"])
@pytest.mark.parametrize("train", ["5S", "6S", "7S"])
@pytest.mark.parametrize("any_start", [True, False])
def test_commuter_runs_with_a_red_extension_match_brute_force(direct, station, train, any_start):
    pos = board(direct, station, train, any_start)
    run = solve(pos)
    assert run.optimal
    assert run.revenue == expected(pos), (run.revenue, [r.stop_labels() for r in run.routes])


def test_the_boards_are_decided_by_the_red_extension():
    """The boards above do turn on the rule: with track inside the city (``direct``) the
    third track to P joins the run, and without it it cannot."""
    assert commuter_best(board(direct=True)) > commuter_best(board(direct=False))
    assert commuter_best(board(direct=True, station="C3")) > commuter_best(board(direct=False, station="C3"))


# --- ordinary routes (5.6.2) through New York and its red extension ------------------


def plain_board(direct=False, station="C5", trains=("3S",)):
    """The small board above without its commuter run and with a third city Q at E3 in
    place of track (value 20, joined only to the red extension, through D2): the
    corporation A has a Station in P, in Q and in New York (in its hex, ``station="C5"``,
    or in the red extension, ``"C3"``)."""
    pos = board(direct, station, trains[0])
    pos["trains"] = list(trains)
    del pos["map"]["commuter_runs"]
    hexes = [h for h in pos["map"]["hexes"] if h["id"] != "E3"]
    p = next(h for h in hexes if h["id"] == "E5")
    p["paths"] = [[2, "s0"], [1, "s0"]]
    hexes.append({"id": "E3", "name": "Q", "stops": [{"kind": "city", "value": 20, "slot_types": ["station"]}],
                  "paths": [[2, "s0"]]})
    pos["map"]["hexes"] = hexes
    pos["tokens"].append({"hex": "E3", "stop": 0, "slot": 0, "corporation": "A"})
    return pos


def route_best(pos):
    """The best ordinary route (5.6.2) of the position's one S train by exhaustion over
    the raw track: each hex path and each crossing of a hex side used once; it starts
    and ends at a Station of the corporation it runs to, runs to two at least and to its
    size at most, one a city; it enters each city once (a city and its red extension
    one city, 5.2.3.10), moving between the city's hexes only along track inside them,
    and passes cities freely (5.6.2.3). 0 when there is none."""
    hexes, at, city, station, size = _raw(pos)
    best = 0

    def at_stop(h, used, crossed, entered, ran, n, value, ended_here):
        nonlocal best
        if ended_here and n >= 2:
            best = max(best, value)
        if h in station and city[h] not in ran and n < size and not ended_here:
            at_stop(h, used, crossed, entered, ran | {city[h]}, n + 1, value + station[h], True)
        for i, path in enumerate(hexes[h]["paths"]):
            if "s0" in path and (h, i) not in used:
                side = path[1] if path[0] == "s0" else path[0]
                cross(h, side, used | {(h, i)}, crossed, entered, ran, n, value)

    def cross(h, side, used, crossed, entered, ran, n, value):
        over = _across(hexes, at, h, side, crossed)
        if over is None:
            return
        h2, key = over
        if city.get(h2) is not None and city.get(h2) != city.get(h):
            if city[h2] in entered:
                return  # into a city the route was in already: a second entry
            entered = entered | {city[h2]}
        for i, other in _onward(hexes, h2, side, used):
            if other == "s0":
                at_stop(h2, used | {(h2, i)}, crossed | {key}, entered, ran, n, value, False)
            else:
                cross(h2, other, used | {(h2, i)}, crossed | {key}, entered, ran, n, value)

    for h in station:
        at_stop(h, frozenset(), frozenset(), frozenset([city[h]]), frozenset([city[h]]), 1, station[h], False)
    return best


def test_a_route_leaving_new_york_and_coming_back_into_its_red_extension_is_refused():
    """5.2.3.10 (the red extension is "part of the same hex") and 5.6.2.1 (a route
    enters a city once): P - New York - out through B4 and B2 - back into the red
    extension - Q would run to three Stations ($150). Worked by hand: Stations $20 in
    phase 5, so New York $60, P $50, Q $40; without track inside New York, Q is reached
    only from the red extension, which New York's Station reaches only through the loop
    outside the city: the best route is P - New York, $110."""
    pos = plain_board()
    assert route_best(pos) == 110
    run = solve(pos)
    assert run.optimal and run.revenue == 110
    assert sorted(r.stop_labels() for r in run.routes) in ([["C5.0", "E5.0"]], [["E5.0", "C5.0"]])


@pytest.mark.parametrize("direct", [False, True])
@pytest.mark.parametrize("station", ["C5", "C3"])
@pytest.mark.parametrize("train", ["3S", "4S"])
def test_routes_through_a_red_extension_match_brute_force(direct, station, train):
    pos = plain_board(direct, station, (train,))
    run = solve(pos)
    assert run.optimal
    assert run.revenue == route_best(pos), (run.revenue, [r.stop_labels() for r in run.routes])


def test_the_route_boards_are_decided_by_the_red_extension():
    """With track inside New York (``direct``) P - New York - Q is one route ($150);
    without it New York's Station reaches Q only by leaving the city."""
    for station in ("C5", "C3"):
        assert route_best(plain_board(True, station)) == 150
        assert route_best(plain_board(False, station)) < 150


@pytest.mark.parametrize("direct", [False, True])
@pytest.mark.parametrize("station", ["C5", "C3"])
def test_the_flow_model_refuses_it_too(monkeypatch, direct, station):
    """The same rule (5.2.3.10, 5.6.2.1) in the model of boards too big to list paths
    (titles/g1831/route/flow.py), made to take these boards."""
    from trainruns.titles.g1831.route import flow
    from trainruns.titles.g1831.route import model as model_1831

    calls = []
    solve_flow = flow.solve
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)
    monkeypatch.setattr(flow, "solve", lambda *a, **k: calls.append(1) or solve_flow(*a, **k))
    pos = plain_board(direct, station)
    run = solve(pos)
    assert calls and run.optimal
    assert run.revenue == route_best(pos)

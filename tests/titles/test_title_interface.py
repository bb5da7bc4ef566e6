"""Every title, the custom map included, declares trainruns.titles.base.Title (issue
14): reading a position gives a snapshot after every check, building is pure (a fresh
Board each time, the snapshot untouched), and the board a snapshot gives runs to the
same answer as load_position's (docs/position-format.md: the same position, the same run)."""

import json
import pathlib

import pytest

from trainruns import InputError, load_position, solve, titles
from trainruns.route.board import RouteModel
from trainruns.titles.base import Snapshot, Title

FIX = pathlib.Path(__file__).parents[2] / "fixtures"
POSITIONS = ["custom/example.json", "1831/example.json", "1832/worked_example.json", "1833NE/boston_montreal.json"]


@pytest.mark.parametrize("name", POSITIONS)
def test_snapshot_then_board_is_the_loaded_board(name):
    data = json.loads((FIX / name).read_text())
    title = titles.of_position(data, name)
    assert isinstance(title, Title)
    snap = title.read(data, name)
    assert isinstance(snap, Snapshot) and snap.title == title.name
    one, two = title.board(snap), title.board(snap)
    assert one is not two
    one.hexes.clear()  # a caller changing its board leaves the snapshot whole
    assert title.board(snap).hexes and two.hexes
    assert solve(title.board(snap)).revenue == solve(load_position(data, name)).revenue


def test_every_shipped_title_and_the_custom_map_declare_the_interface():
    for name in titles.TITLES:
        assert isinstance(titles.get(name), Title)
    assert titles.of_position({"map": {}}).name == "custom"


def test_read_checks_everything():
    """Reading is where bad input is refused (one line, InputError)."""
    data = json.loads((FIX / "1832/worked_example.json").read_text())
    with pytest.raises(InputError, match="unknown train"):
        titles.get("1832").read(dict(data, trains=["9"]), "pos")
    with pytest.raises(InputError, match="'title' or a 'map'"):
        titles.of_position({"corporation": "X"})


def test_wording_is_declared():
    """The audit asks the title for its citations; a custom map has none."""
    assert titles.get("1832").audit_sections["stop-repeated"].startswith("1832 rulebook")
    assert titles.of_position({"map": {}}).audit_sections == {}
    assert titles.of_position({"map": {}}).audit_checks(None, []) == []


def _state(obj):
    """An object's attributes, arrays compared by content."""
    import numpy as np

    return {k: (v.tobytes() if isinstance(v, np.ndarray) else v) for k, v in vars(obj).items()}


INTERCONNECTION = {"bonuses": [{"name": "Boston-Montreal", "between": ["G22", "B3"], "amount": 150,
                                "interconnection": True}], "trains": ["2"]}


@pytest.mark.parametrize("name, changes", [("1831/example.json", {}), ("1833NE/delaware_hudson.json", {}),
                                           ("1833NE/boston_montreal.json", INTERCONNECTION)])
def test_route_models_keep_no_state(name, changes):
    """A route model is stateless. Solving twice (and listing every route for
    the audit) leaves the model's attributes and the board's model as they were, and the
    second answer equals the first."""
    board = load_position(dict(json.loads((FIX / name).read_text()), **changes), name)
    model = board.route_model
    assert isinstance(model, RouteModel)
    before = _state(model)
    first = solve(board)
    again = solve(board)
    assert board.route_model is model and _state(model).keys() == before.keys()
    assert all(_state(model)[k] is before[k] or _state(model)[k] == before[k] for k in before)
    assert (again.revenue, [r.stops for r in again.routes]) == (first.revenue, [r.stops for r in first.routes])


def test_run_says_which_engine_ran():
    """--engine flow on a board with a route model runs the branch and bound
    (the flow model knows the plain rules only), and the Run and its JSON say so; on a
    plain board the flow engine's run says flow."""
    data = json.loads((FIX / "1831/example.json").read_text())
    run = solve(load_position(data), engine="flow")
    assert run.engine == "search" and run.to_json()["engine"] == "search"
    assert run.revenue == solve(load_position(data)).revenue
    plain = json.loads((FIX / "custom/example.json").read_text())
    flow = solve(load_position(plain), engine="flow")
    assert flow.to_json()["engine"] in ("flow", "greedy")
    assert flow.revenue == solve(load_position(plain), engine="search").revenue


@pytest.mark.parametrize("path", sorted((FIX / "1832").glob("*.json")), ids=lambda p: p.name)
def test_1832_typed_position_builds_the_loaded_board(path):
    """1832 reads a position into a typed, frozen Position1832 (phase, company, trains,
    tiles, tokens, the route rules' fields: Coal Fields [8.1 c], Miami [8.5], Key West
    [7.5], Cotton and Port [16.2]) and builds its Board from that alone: the Board
    equals, stop value for stop value, the one load_position builds from the JSON."""
    import dataclasses

    data = json.loads(path.read_text())
    if str(data.get("title")) != "1832":
        pytest.skip("not an 1832 position")
    try:
        loaded = load_position(data, path.name)
    except InputError:
        with pytest.raises(InputError):
            titles.get("1832").read(data, path.name)
        return
    title = titles.get("1832")
    snap = title.read(data, path.name)
    assert type(snap.position).__name__ == "Position1832"
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.position.phase = "8"
    assert title.board(snap) == loaded


def test_1832_typed_position_holds_the_private_tokens():
    """[16.2 P2]: the Cotton token's place and owner are read into the typed position
    (the owner's id made canonical: SAL is SALR), and the built board carries the
    token's +$10 on Raleigh for its owner only (the fixture's notes: 30 with it)."""
    data = json.loads((FIX / "1832" / "10-phase4-cotton-for-its-owner.json").read_text())
    title = titles.get("1832")
    position = title.read(data, "pos").position
    assert position.fields.cotton == ("D20", 0, "SALR") and position.corporation == "SALR"
    owner_board = title.board(title.read(data, "pos"))
    other_board = title.board(title.read(dict(data, cotton_owner="ACL"), "pos"))
    assert owner_board.stop(("D20", 0)).value == other_board.stop(("D20", 0)).value + 10


def _1833ne(name, **changes):
    data = json.loads((FIX / "1833NE" / f"{name}.json").read_text())
    data.update(changes)
    return data


POSITIONS_1833NE = {
    # P4: A6 a token city, bonuses A6-Boston doubled ("List of private companies")
    "P4 Ogdensburg": _1833ne("ogdensburg_boston"),
    # P6: A12 worth its value only with Montreal on the route (the route model's condition)
    "P6 Delaware & Hudson": _1833ne("delaware_hudson"),
    # P2 not bought: the B&L may not run in phase III before Boston is upgraded
    "P2 Lowell": _1833ne("boston_montreal", phase="III", lowell_merchants_bought=False),
    # Ferries: value, New bonus, P5's doubling
    "P5 luxury ferry": _1833ne("boston_montreal", privates=["P5"],
                               ferries=[{"hex": "G22", "value": 20, "new": True, "new_bonus": 10, "luxury": True}]),
    # an interconnection bonus (the route model's extension)
    "interconnection": _1833ne("boston_montreal", bonuses=[{"name": "Boston-Montreal", "between": ["G22", "B3"],
                                                           "amount": 150, "interconnection": True}]),
    "plain": _1833ne("boston_montreal"),
}


@pytest.mark.parametrize("name", sorted(POSITIONS_1833NE))
def test_1833ne_typed_position_builds_the_loaded_board(name):
    """1833NE reads a position into a typed, frozen Position1833NE (phase, takeover
    game, corporation, trains, tiles, tokens, the route rules' fields: privates, the
    B&L's wait for P2, bonuses, ferries) and builds its Board from that alone: equal,
    field for field (route model included), to the one load_position builds."""
    import dataclasses

    data = POSITIONS_1833NE[name]
    title = titles.get("1833NE")
    snap = title.read(data, name)
    assert type(snap.position).__name__ == "Position1833NE"
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.position.fields.privates = frozenset()
    built, loaded = title.board(snap), load_position(data, name)
    assert built == loaded and built is not title.board(snap)
    assert solve(built).revenue == solve(loaded).revenue


def _without_model(board):
    import dataclasses

    return dataclasses.replace(board, route_model=None)


@pytest.mark.parametrize("name", ["custom/example.json", "custom/draw_small.json", "real/1889-D-40-KU-180.json"])
def test_custom_typed_position_holds_the_map_and_tokens(name):
    """The custom title reads a position into a frozen PositionCustom (docs/position-format.md:
    map, phase, company, trains, tokens) and builds its Board from that alone: every
    hex's stops (kind, value, slots) and track as the JSON gives them, every token on
    its city in the position's order, and each build a fresh Board equal to the last."""
    import dataclasses

    data = json.loads((FIX / name).read_text())
    title = titles.of_position(data, name)
    position = title.read(data, name).position
    assert type(position).__name__ == "PositionCustom" and position.corporation == data["corporation"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        position.phase = "x"
    board = title.build(position)
    raw = {h["id"]: h for h in data["map"]["hexes"]}
    assert set(board.hexes) == set(raw)
    for hex_id, hx in board.hexes.items():
        assert [s.kind for s in hx.stops] == [s["kind"] for s in raw[hex_id].get("stops", [])]
        assert len(hx.paths) <= len(raw[hex_id].get("paths", []))
    tokens = [(t["hex"], t.get("stop", 0), t["corporation"]) for t in data.get("tokens", [])]
    assert sorted((h, k, c) for h, hx in board.hexes.items() for k, s in enumerate(hx.stops) for c in s.tokens) \
        == sorted(tokens)
    board.hexes[tokens[0][0]].stops[tokens[0][1]].tokens.clear()  # the snapshot is not the board
    assert title.build(position) == load_position(data, name) and title.build(position) is not board


def test_1831_typed_position_holds_sites_rights_and_readings():
    """1831 reads a position into a frozen Position1831: each token on its typed site
    (5.2.7.2: slot and type), the track right bought (5.5), the trains that run (a used
    train does not, 5.6.1; a retired 4S is gone in phase 7, 5.3.5) and the readings
    chosen. Built twice, the boards and their route models' facts are equal and
    separate: settling the tokens of one build leaves the snapshot's sites empty."""
    import dataclasses

    name = "1831/example.json"
    data = json.loads((FIX / name).read_text())
    title = titles.get("1831")
    position = title.read(data, name).position
    assert type(position).__name__ == "Position1831"
    with pytest.raises(dataclasses.FrozenInstanceError):
        position.options.strict = True
    assert [t.name for t in position.trains] == ["7S", "5MX", "6YD"]
    assert position.rights == (("A9", 0, 1),)
    assert [(h, k, j, c) for h, k, j, c, _ in position.tokens] == \
        [(t["hex"], t["stop"], t["slot"], t["corporation"]) for t in data["tokens"]]
    one, two = title.build(position), title.build(position)
    assert _without_model(one) == _without_model(two) == _without_model(load_position(data, name))
    assert one.route_model.facts == two.route_model.facts and one.route_model.facts is not two.route_model.facts
    a9 = one.route_model.facts.sites[("A9", 0)]
    assert (a9[0].holder, a9[1].holder, a9[1].right) == ("PRR", "B&O", 0)
    assert all(s.holder is None for s in position.map.facts().sites[("A9", 0)])
    assert solve(one).revenue == data["expected_revenue"]


def test_1831_reading_apart_from_the_trains_is_the_whole_reading():
    """A game asks about one map with many sets of trains, and 1831 reads the map once
    (Title.read_apart): with the trains added (Title.with_trains) the reading is the
    one read whole, for each set of trains, a used one (5.6.1) and a retired 4S (5.3.5)
    among them; a bad train is refused as the whole reading refuses it. Titles that
    read trains on the Board instead (1832's read_trains) or not at all read nothing
    apart."""
    name = "1831/example.json"
    data = json.loads((FIX / name).read_text())
    title = titles.get("1831")
    apart = title.read_apart(data, name)
    assert apart.trains == ()
    sets = [data["trains"], [], ["4S", {"name": "5MX", "status": "used"}, "7S"], ["2S"] * 2]
    for trains in sets:
        whole = title.read_position(dict(data, trains=trains), name)
        assert title.with_trains(apart, dict(data, trains=trains), name) == whole
    assert title.with_trains(apart, data, name).trains != ()
    with pytest.raises(InputError) as whole_error:
        title.read_position(dict(data, trains=["9Q"]), name)
    with pytest.raises(InputError) as apart_error:
        title.with_trains(apart, dict(data, trains=["9Q"]), name)
    assert str(apart_error.value) == str(whole_error.value)
    for other in ("1832/worked_example.json", "1833NE/boston_montreal.json", "custom/example.json"):
        d = json.loads((FIX / other).read_text())
        assert titles.of_position(d, other).read_apart(d, other) is None

"""One data schema for trains and phases in every title, in the shape the
18xx.games engine uses: trains ``name, distance, price, num, rusts_on/obsolete_on``;
phases ``name, on, train_limit, tiles, operating_rounds, status``. Spot values are
the rulebooks' own tables."""

import json
from importlib import resources

import pytest

TITLES = ["g1831", "g1832", "g1833ne"]


def data(package, name):
    with resources.files(f"trainruns.titles.{package}").joinpath("data", name).open(encoding="utf-8") as fh:
        return json.load(fh)


@pytest.mark.parametrize("package", TITLES)
def test_trains_and_phases_have_the_shared_fields(package):
    trains, phases = data(package, "trains.json")["trains"], data(package, "phases.json")["phases"]
    for t in trains:
        assert {"name", "distance", "price", "num", "rusts_on", "obsolete_on"} <= set(t), t
    names = [p["name"] for p in phases]
    for p in phases:
        assert {"name", "on", "train_limit", "tiles", "operating_rounds", "status"} <= set(p), p
        assert isinstance(p["train_limit"], int) and isinstance(p["status"], list)
        assert p["tiles"] and set(p["tiles"]) <= {"yellow", "green", "brown", "blue", "red", "gray"}
    for t in trains:  # a train rusts or goes obsolete in a phase of the title
        for key in ("rusts_on", "obsolete_on"):
            assert t[key] is None or t[key] in names, (t["name"], key)


def test_1832_table_1():
    """1832 rulebook Table 1: the 2-train costs $80, 7 of them, rusted by the 4; the
    4-train phase has a limit of 3 and two operating rounds; the 5 has three."""
    trains = {t["name"]: t for t in data("g1832", "trains.json")["trains"]}
    assert (trains["2"]["price"], trains["2"]["num"], trains["2"]["rusts_on"]) == (80, 7, "4")
    phases = {p["name"]: p for p in data("g1832", "phases.json")["phases"]}
    assert (phases["4"]["train_limit"], phases["4"]["operating_rounds"], phases["5"]["operating_rounds"]) == (3, 2, 3)


def test_1833ne_train_list():
    """1833NE rules summary "Train list and prices": the 3/5 card (or 2+2) comes in phase
    II, is phased out in IV and removed in V; "Always two operating rounds"."""
    cards = {t["name"]: t for t in data("g1833ne", "trains.json")["trains"]}
    c = cards["3/5"]
    assert (c["available_on"], c["obsolete_on"], c["rusts_on"]) == ("II", "IV", "V")
    assert [v["name"] for v in c["variants"]] == ["3/5", "2+2"]
    assert {p["operating_rounds"] for p in data("g1833ne", "phases.json")["phases"]} == {2}


def test_1831_rule_changes():
    """1831 rules 5.3.5: the 4-train lowers the limit to four and brings blue tiles;
    2-trains retire with the first 5-train, 6-trains with the first 15."""
    phases = {p["name"]: p for p in data("g1831", "phases.json")["phases"]}
    assert phases["4"]["train_limit"] == 4 and "blue" in phases["4"]["tiles"]
    trains = {t["name"]: t for t in data("g1831", "trains.json")["trains"]}
    assert (trains["2"]["rusts_on"], trains["6"]["rusts_on"], trains["7"]["rusts_on"]) == ("5", "15", None)


def test_1832_game_sells_trains_from_the_shared_table():
    """1832 rulebook [2.4] and Table 1, read once: the game engine's bank sells the
    trains of data/trains.json (no copy of the prices in game.json), 2-trains first at
    $80, seven of them; the 12-trains are unlimited."""
    from trainruns.game.game import Game

    assert "trains" not in data("g1832", "game.json") and "phases" not in data("g1832", "game.json")
    depot = Game("1832", ["A", "B", "C"], 1, []).to_json()["depot"]
    table = data("g1832", "trains.json")["trains"]
    assert [(r["train"], r["price"], r["left"]) for r in depot] == [(t["name"], t["price"], t["num"]) for t in table]
    assert (depot[0]["train"], depot[0]["price"], depot[0]["left"]) == ("2", 80, 7)
    assert depot[-1]["left"] is None


def test_1832_phase_words_switch_the_route_rules():
    """1832 Table 1: Miami pays $0 until first run only before phase 5 ([8.5]); the
    Key West token counts from phase 3 until phase 8 ([7.5]); the Cotton Warehouse and
    port tokens from phase 3 ([16.2]); read from the phases' status words."""
    phases = {p["name"]: set(p["status"]) for p in data("g1832", "phases.json")["phases"]}
    assert [n for n in phases if "miami_first_run_zero" in phases[n]] == ["2", "3", "4"]
    assert [n for n in phases if "key_west" in phases[n]] == ["3", "4", "5", "6"]
    assert "cotton_port" not in phases["2"] and "cotton_port" in phases["3"]


def test_1831_phases_are_one_table():
    """1831's phases live in data/phases.json alone (rules.json has none): the route
    rules' token values (5.2.7.5: a Station $10, $20 from the first 5-train, $30 from
    the first 9; a Rail Yard $20/$30/$50) and retirements (5.3.5) and the game's phase
    rows (5.2.7.4 token costs, 5.2.4.3 blocks of 2 from the 4-train and of 4 from the
    7, 5.2.7.6 a Station and a Rail Yard in a city from the 3-train) all read it."""
    from trainruns.game.game import Game
    from trainruns.titles.g1831.route.trains import game_phases, is_retired, token_values

    assert "phases" not in data("g1831", "rules.json")
    assert [token_values(p) for p in (2, 4, 5, 8, 9, 15)] == \
        [{"station": 10, "yard": 20}] * 2 + [{"station": 20, "yard": 30}] * 2 + [{"station": 30, "yard": 50}] * 2
    assert (is_retired(2, 4), is_retired(2, 5), is_retired(6, 12), is_retired(6, 15), is_retired(7, 15)) == \
        (False, True, False, True, False)
    rows = {r["name"]: r for r in game_phases()}
    assert [rows[n]["block"] for n in ("3", "4", "6", "7")] == [1, 2, 2, 4]
    assert [rows[n]["tokens_per_city"] for n in ("2", "3")] == [1, 2]
    assert (rows["2"]["station"], rows["9"]["yard"]) == ([40, 10], [210, 50])
    assert rows["7"]["colors"] == data("g1831", "phases.json")["phases"][5]["tiles"]
    rules = Game("1831", ["A", "B", "C"], 1, []).rules
    assert rules.numbers["phases"] == game_phases()
    # 5.3.5: the first 5-train retires the 2-trains, the first 12-train none
    assert (rules.phases.scrapped_at("5"), rules.phases.scrapped_at("12")) == (["2"], [])

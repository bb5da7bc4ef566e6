"""One data schema for trains and phases in every title (issue 14), in the shape the
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
    """rules/1833NE.md "Train list and prices": the 3/5 card (or 2+2) comes in phase
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

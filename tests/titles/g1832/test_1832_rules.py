"""1832 route rules, one test per rule, each on the real map ("Operate Trains" [8],
"Miami" [8.5], tokens [7], private companies [16.2], Table 1)."""

import copy
import json
import os

import trainruns

HERE = os.path.dirname(os.path.abspath(__file__))


def fixture(name):
    with open(os.path.join(HERE, "..", "..", "..", "fixtures", "1832", f"{name}.json")) as fh:
        return json.load(fh)


def best(data, **changes):
    data = copy.deepcopy(data)
    data.update(changes)
    return trainruns.solve(trainruns.load_position(data)).revenue


RALEIGH = fixture("01-phase2-two-train-exactly-two")
COAL = fixture("03-phase3-coal-fields-with-token")
CHARLOTTE = fixture("05-phase3-city-full-of-other-tokens")
MIAMI = fixture("07-phase3-miami-first-run-zero")


def test_two_train_runs_exactly_two_stops__route_length():
    assert best(RALEIGH) == 50            # Raleigh + Richmond, not three stops (60)
    assert best(RALEIGH, phase="3", trains=["3"]) == 60


def test_towns_count_toward_length_and_value__route_length():
    # Wilmington is a town: with it the 3-train earns 60; a 3-train needing only
    # Raleigh + Richmond would earn 50.
    assert best(RALEIGH, phase="3", trains=["3"]) == 60
    no_town = [t for t in RALEIGH["tiles"] if t["hex"] not in ("E19", "E21")]
    assert best(RALEIGH, phase="3", trains=["3"], tiles=no_town) == 50


def test_coal_fields_need_token__operate_trains():
    """[8.1 c]: without a WVCF token the company may not run to or through the Coal Fields."""
    assert best(COAL) == 70
    assert best(COAL, coal_token=False) == 0
    assert best(COAL, coal_token=False, trains=["2"]) == 0   # not even to it


def test_coal_fields_may_be_the_middle_of_a_route__operate_trains():
    # Knoxville - Coal - Lynchburg: the 3-train passes through the Coal Fields.
    run = trainruns.solve(trainruns.load_position(COAL))
    assert run.routes[0].stops[1] == ("B14", 0)


def test_offboard_and_coal_values_by_phase__table_1():
    """Table 1: first value phases 2-4, second 5-6, last 8-12 (Richmond and the Coal
    Fields print two values, so their last is the second)."""
    line = fixture("04-phase5-coal-and-offboard-second-value")
    assert best(line, phase="4", trains=["4"]) == 20 + 40 + 10 + 30
    assert best(line) == 20 + 60 + 10 + 50
    assert best(line, phase="8", trains=["5"]) == 20 + 60 + 10 + 50
    board = trainruns.load_position(dict(line, phase="8", trains=["8"]))
    assert board.hexes["B2"].stops[0].value == 60        # Kansas City's last value
    assert board.hexes["B24"].stops[0].value == 50       # Norfolk's last value
    board = trainruns.load_position(dict(line, phase="6", trains=["6"]))
    assert board.hexes["B2"].stops[0].value == 50 and board.hexes["J2"].stops[0].value == 30


def test_full_city_ends_route_but_cannot_be_passed__operate_trains():
    """[8.1 f] and [7.3]: a city full of other companies' tokens is a terminus only."""
    assert best(CHARLOTTE) == 40
    open_raleigh = [t for t in CHARLOTTE["tokens"] if t["hex"] != "D20"]
    assert best(CHARLOTTE, tokens=open_raleigh) == 70


def test_unstarted_company_home_does_not_block__operate_trains():
    """[8.1 f] 'Unstarted railway companies do not block their token slot': Raleigh is
    SAL's home, but with SAL not started (no token there) L&N runs through it."""
    open_raleigh = [t for t in CHARLOTTE["tokens"] if t["corporation"] != "SALR"]
    assert best(CHARLOTTE, tokens=open_raleigh) == 70


def test_own_token_lets_a_route_pass_a_full_city__operate_trains():
    assert best(CHARLOTTE, corporation="SAL") == 70


def test_two_cities_on_atlanta_are_distinct__glossary_different_cities():
    atl = fixture("06-phase3-atlanta-distinct-cities")
    run = trainruns.solve(trainruns.load_position(atl))
    assert run.revenue == 90
    assert {("F10", 1), ("F10", 2)} <= set(run.routes[0].stops)


def test_trains_share_cities_not_track__operate_trains():
    assert best(fixture("02-phase3-town-counts-trains-share-no-track")) == 80
    assert best(fixture("13-phase12-two-trains-share-cities")) == 220


def test_miami_zero_before_first_run__miami():
    assert best(MIAMI) == 20
    assert best(MIAMI, miami_run=True) == 40
    # From phase five the exception is ignored: Miami's second value, 30.
    assert best(MIAMI, phase="5", trains=["5"]) == 50
    assert best(MIAMI, phase="8", trains=["8"]) == 70    # last value 50


def test_key_west_adds_50_for_fec_only__miami():
    assert best(MIAMI, key_west=True) == 70
    assert best(MIAMI, key_west=True, miami_run=True) == 90
    other = fixture("09-phase5-other-company-at-miami")
    assert best(other, port=None) == 60                  # ACL: no Key West bonus
    assert best(other, port=None, corporation="FECR") == 110


def test_port_pays_owner_20_others_10__private_companies():
    other = fixture("09-phase5-other-company-at-miami")
    assert best(other) == 70                              # ACL, FEC's port: +10
    assert best(other, port_owner="ACL") == 80            # own port: +20


def test_cotton_pays_its_owner_only__private_companies():
    cotton = fixture("10-phase4-cotton-for-its-owner")
    assert best(cotton) == 70
    assert best(cotton, cotton_owner="SOU") == 60


def test_medium_city_upgraded_to_city__laying_track():
    assert best(fixture("11-phase3-medium-city-upgraded")) == 60


def test_city_names_shown_on_hexes():
    board = trainruns.load_position(RALEIGH)
    assert board.hexes["D20"].name == "Raleigh" and board.hexes["N16"].name == "Miami"
    assert board.hexes["B14"].name == "West Virginia Coal Fields"


def test_rulebook_abbreviations_accepted__companies():
    for alias, canonical in [("SAL", "SALR"), ("CoG", "CG"), ("FEC", "FECR"), ("GM&O", "GMO"),
                             ("Sou", "SOU")]:
        board = trainruns.load_position(dict(RALEIGH, corporation=alias))
        assert board.corporation == canonical

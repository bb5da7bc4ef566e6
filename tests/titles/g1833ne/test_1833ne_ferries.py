"""1833NE rules summary, "Game-specific mechanics": "Five ferries ($40) that add value to
routes, with a "New" ferry bonus that always moves to the latest ferry bought; ferries
are removed in phase IV", and P5 Luxury Ferry Service doubling one ferry and its bonus.
Ferry cities and values are not in the sources; the amounts here are the tests' own."""

import pytest
from _1833ne import fixture, run

from trainruns import InputError, load_position


def test_ferry_adds_value_to_routes_reaching_its_city():
    """A $20 ferry at Boston: the 3/5's route reaches Boston, +20."""
    pos = fixture("boston_montreal", ferries=[{"hex": "G22", "value": 20}])
    assert run(pos)[0] == 230 + 20


def test_ferry_not_reached_adds_nothing():
    """A ferry at Portland, which the route does not reach."""
    pos = fixture("boston_montreal", ferries=[{"hex": "I14", "value": 20}])
    assert run(pos)[0] == 230


def test_new_ferry_bonus_on_the_latest_ferry():
    """The "New" ferry bonus is paid with the ferry that carries it."""
    pos = fixture("boston_montreal", ferries=[{"hex": "G22", "value": 20, "new": True, "new_bonus": 10}])
    assert run(pos)[0] == 230 + 30


def test_luxury_ferry_doubles_one_ferry_and_its_bonus():
    """P5 "doubles the value of one of its corporation's ferries, including any New or
    Last ferry bonus"."""
    ferry = {"hex": "G22", "value": 20, "new": True, "new_bonus": 10, "luxury": True}
    pos = fixture("boston_montreal", ferries=[ferry], privates=["P5"])
    assert run(pos)[0] == 230 + 60
    with pytest.raises(InputError, match="needs P5"):
        load_position(fixture("boston_montreal", ferries=[ferry]))
    two = [ferry, dict(ferry, hex="B3", new=False, new_bonus=None)]
    del two[1]["new_bonus"]
    with pytest.raises(InputError, match="only one ferry"):
        load_position(fixture("boston_montreal", ferries=two, privates=["P5"]))


@pytest.mark.parametrize("phase, train", [("IV", "6/9"), ("V", "7+3")])
def test_ferries_are_removed_in_phase_iv(phase, train):
    """No ferry from phase IV on."""
    with pytest.raises(InputError, match="ferries were removed"):
        load_position(fixture("boston_montreal", phase=phase, trains=[train],
                              ferries=[{"hex": "G22", "value": 20}]))


def test_ferry_input_is_checked():
    for bad, msg in [({"hex": "G22"}, "missing field 'value'"), ({"hex": "Q1", "value": 5}, "unknown hex"),
                     ({"hex": "G22", "value": 5, "new": True}, "new_bonus"),
                     ({"hex": "G22", "value": 5, "new_bonus": 5}, "not marked 'new'")]:
        with pytest.raises(InputError, match=msg):
            load_position(fixture("boston_montreal", ferries=[bad]))

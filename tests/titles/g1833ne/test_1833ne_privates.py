"""1833NE rules summary, "List of private companies" and "List of corporations": P4 and P6 as
tokens, A12 for its owner only and only via Montreal, privates removed by phase, the
B&L's wait for P2, the StL&A / A&StL joint token in Sherbrooke."""

import pytest
from _1833ne import fixture, run

from trainruns import InputError, load_position


def test_p4_ogdensburg_runs_from_a6_as_a_token():
    """P4: "run routes from the A6 off-board area as if it had a token there": the CV,
    with no station on the map, runs A6-Burlington-...-Boston with its 4/7."""
    assert run(fixture("ogdensburg_boston"))[0] == 100
    assert run(fixture("ogdensburg_boston", privates=[]))[0] == 0


def test_p6_a12_pays_only_via_montreal():
    """P6: A12 "is worth $40/$70/$80 by phase if the route goes to or through Montreal,
    and $0 otherwise". Phase II, with Montreal: 40 + 50 + 20. Phase I (Montreal still
    yellow, no track from B5): A12-Westport only, A12 worth $0."""
    assert run(fixture("delaware_hudson"))[0] == 110
    pos = fixture("delaware_hudson", phase="I", trains=["2"])
    pos["tiles"] = [t for t in pos["tiles"] if t["hex"] != "B3"]
    assert run(pos) == (20, [("2", ["A12.0", "B11.0"], 20)])


def test_p6_a12_value_by_phase():
    """A12 is worth $70 in phase III (route to Montreal)."""
    assert run(fixture("delaware_hudson", phase="III", trains=["4/7"]))[0] > 0
    revenue, routes = run(fixture("delaware_hudson", phase="III", trains=["3+3"]))
    # 3+3: A12, Westport (town), Montreal, St. Jean (town), Lowell; all counted
    assert routes[0][1][:3] == ["A12.0", "B11.0", "B3.0"]
    assert revenue == 70 + 20 + 50 + 10 + 20


def test_p6_only_its_owner_may_run_to_a12():
    """"Only that corporation may run to A12": the HR, with a token in Montreal but no
    P6, on the A12 line alone runs Montreal-Westport (70), not on to A12 (which would
    make 110)."""
    pos = fixture("delaware_hudson", corporation="HR", privates=[],
                  tokens=[{"hex": "B3", "stop": 0, "corporation": "HR"}])
    pos["tiles"] = [t for t in pos["tiles"] if t["hex"] in ("B9", "B5", "B3")]
    assert run(pos) == (70, [("3/5", ["B3.0", "B11.0"], 70)])
    # with the southern line too it runs south instead: Montreal 50 - St. Jean - Lowell
    # 20 - Boston 30, plus $150, and still never A12
    pos = fixture("delaware_hudson", corporation="HR", privates=[],
                  tokens=[{"hex": "B3", "stop": 0, "corporation": "HR"}])
    revenue, routes = run(pos)
    assert revenue == 50 + 30 + 20 + 150
    assert routes[0][1] == ["B3.0", "C4.0", "G20.0", "G22.1"]


@pytest.mark.parametrize("phase, train, private", [("III", "4/7", "P1"), ("III", "4/7", "P2"),
                                                   ("IV", "6/9", "P3"), ("IV", "6/9", "P4"),
                                                   ("IV", "6/9", "P5")])
def test_privates_removed_by_phase(phase, train, private):
    """Phase III removes P1-P2; phase IV removes P3-P5. P6 is permanent."""
    with pytest.raises(InputError, match=f"private {private} was removed"):
        load_position(fixture("delaware_hudson", phase=phase, trains=[train], privates=[private]))
    load_position(fixture("delaware_hudson", phase="V", trains=["7+3"], privates=["P6"]))


def test_boston_and_lowell_waits_for_lowell_merchants():
    """P2: until a corporation buys it, the B&L "can't run routes in phase I or afterwards
    while Boston hasn't been upgraded"."""
    # phase III: P2, never bought, is gone, and so is its block on Lowell (G20)
    assert run(fixture("boston_montreal", phase="III", lowell_merchants_bought=False))[0] == 0
    pos = fixture("boston_montreal", phase="III", lowell_merchants_bought=False)
    # green Boston's only legal rotation puts the B&L's city (side 3) at stop 0
    pos["tiles"].append({"hex": "G22", "tile": "N23", "rotation": 4})
    pos["tokens"] = [{"hex": "G22", "stop": 0, "corporation": "B&L"}]
    assert run(pos)[0] > 0
    bw = dict(corporation="BW", phase="III", tokens=[{"hex": "G22", "stop": 1, "corporation": "BW"}])
    assert run(fixture("boston_montreal", lowell_merchants_bought=False, **bw))[0] == \
        run(fixture("boston_montreal", **bw))[0] > 0


def test_joint_token_in_sherbrooke():
    """The A&StL "shares with the StL&A a joint token that is placed for free in
    Sherbrooke once anyone lays its yellow tile": the A&StL, with no other station, runs
    Sherbrooke (20) - G4 (gray) - Eastern Townships (30 in phase I)."""
    tiles = [{"hex": "F5", "tile": "N11", "rotation": 0}]
    pos = {"title": "1833NE", "phase": "I", "corporation": "A&StL", "trains": ["2"], "tiles": tiles,
           "tokens": []}  # the joint token is placed by the rules, not listed
    assert run(pos)[0] == 50
    assert run(dict(pos, corporation="StL&A"))[0] == 50
    assert run(dict(pos, corporation="CV"))[0] == 0
    with pytest.raises(InputError, match="joint token"):
        load_position(dict(pos, tokens=[{"hex": "F5", "stop": 0, "corporation": "CV"}]))


def test_private_input_is_checked():
    with pytest.raises(InputError, match="unknown private"):
        load_position(fixture("delaware_hudson", privates=["P7"]))
    with pytest.raises(InputError, match="listed twice"):
        load_position(fixture("delaware_hudson", privates=["P6", "P6"]))

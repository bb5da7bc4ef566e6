"""1833NE rules summary, "Game-specific mechanics" and "Comparison with 1830" item 6: direct
connection and interconnection bonuses, by phase; P4 doubling the A6-Boston bonuses."""

import pytest
from _1833ne import fixture, run

from trainruns import InputError, load_position

BM = {"I": 150, "II": 150, "III": 200, "IV": 200}


@pytest.mark.parametrize("phase, train, bonus", [("I", "2+1", 0), ("II", "3/5", 150), ("III", "4/7", 200),
                                                 ("IV", "6/9", 200), ("V", "7+3", 0)])
def test_direct_connection_boston_montreal_by_phase(phase, train, bonus):
    """Boston-Montreal: $150 in phases I-II, $200 in III-IV; the summary gives no phase V
    amount, so none is paid unless the position supplies one. (Phase I: the 2+1 cannot
    reach Montreal.)"""
    pos = fixture("boston_montreal", phase=phase, trains=[train])
    revenue, routes = run(pos)
    base = {"2+1": 60, "3/5": 80, "4/7": 90, "6/9": 90, "7+3": 90}[train]
    assert revenue == base + bonus


def test_direct_connection_phase_v_amount_from_the_position():
    """A position may supply what the sources lack: here a phase V amount."""
    pos = fixture("boston_montreal", phase="V", trains=["7+3"],
                  bonuses=[{"name": "Boston-Montreal", "between": ["G22", "B3"], "amount": {**BM, "V": 100}}])
    assert run(pos)[0] == 90 + 100


def test_direct_connection_needs_the_route_itself():
    """A direct bonus is not paid to a route that only runs near: a 2 train (Boston-
    Lowell) earns no Boston-Montreal bonus."""
    assert run(fixture("boston_montreal", trains=["2"]))[0] == 50


def _inter(**changes):
    bonuses = [{"name": "Boston-Montreal", "between": ["G22", "B3"], "amount": BM, "interconnection": True}]
    return fixture("boston_montreal", bonuses=bonuses, **changes)


def test_interconnection_runs_past_the_train_limit():
    """"A route may extend beyond what the train allows ... to collect an interconnection
    bonus": the 2 runs Boston-Lowell (counted) and on to Montreal for the bonus."""
    revenue, routes = run(_inter(trains=["2"]))
    assert revenue == 50 + 150
    assert routes[0][1] == ["G22.1", "G20.0", "C4.0", "B3.0"]


def test_interconnection_passes_blocked_cities():
    """"... and even through blocked cities": HR's token in Montreal (city 0); its 2
    runs Montreal-St. Jean and on through Lowell, full of the BW's token, to Boston
    (whose city 1 is full of the B&L's: a route may end there)."""
    tokens = [{"hex": "G22", "stop": 1, "corporation": "B&L"}, {"hex": "G20", "stop": 0, "corporation": "BW"},
              {"hex": "B3", "stop": 0, "corporation": "HR"}]
    revenue, routes = run(_inter(corporation="HR", trains=["2"], tokens=tokens))
    assert revenue == 30 + 10 + 150
    # without the interconnection rule Lowell stops it: Montreal-St. Jean only
    pos = fixture("boston_montreal", corporation="HR", trains=["2"], tokens=tokens)
    assert run(pos)[0] == 40


def test_interconnection_track_is_the_routes_own():
    """"... along track not used by any of the corporation's other routes": with a second
    token in Montreal, the B&L's two 2s cannot run Boston-Lowell+extension (200) and
    Montreal-St. Jean (40) together, which would share the extension's track."""
    tokens = [{"hex": "G22", "stop": 1, "corporation": "B&L"}, {"hex": "B3", "stop": 0, "corporation": "B&L"}]
    revenue, routes = run(_inter(trains=["2", "2"], tokens=tokens))
    assert revenue == 200
    assert len(routes) == 1


def test_ogdensburg_doubles_a6_boston_bonus_in_phases_i_to_iii():
    """P4: "in phases I-III it doubles the bonuses for routes from A6 to Boston". The
    amount ($50) is the test's own, not the game's: the table is not in the sources."""
    bonus = [{"name": "A6-Boston", "between": ["A6", "G22"], "amount": 50}]
    pos = fixture("ogdensburg_boston", bonuses=bonus)
    assert run(pos)[0] == 100 + 2 * 50
    # the same bonus for a corporation without P4 but with a token on the line: not doubled
    pos = fixture("ogdensburg_boston", bonuses=bonus, privates=[],
                  tokens=[{"hex": "C8", "stop": 0, "corporation": "CV"}])
    assert run(pos)[0] == 100 + 50


def test_bonus_input_is_checked():
    """A bonus names two places on the map and an amount."""
    for bad, msg in [({"name": "x", "between": ["G22"], "amount": 5}, "two places"),
                     ({"name": "x", "between": ["G22", "Z99"], "amount": 5}, "unknown hex"),
                     ({"name": "x", "between": ["G22", "B3"]}, "missing field 'amount'"),
                     ({"name": "x", "between": ["G22", "B3"], "amount": {"VI": 5}}, "not one of"),
                     ({"name": "x", "between": ["G22", "B3.7"], "amount": 5}, "no stop")]:
        with pytest.raises(InputError, match=msg):
            load_position(fixture("boston_montreal", bonuses=[bad]))


def test_extended_line_reads_out_what_earns():
    """The run as reported: on an interconnection line only the core's stops count, and
    the bonus is named (the revenue is their sum)."""
    from trainruns import solve

    result = solve(load_position(_inter(trains=["2"])))
    route = result.routes[0]
    assert route.stop_labels() == ["G22.1", "G20.0", "C4.0", "B3.0"]
    assert route.counted == [True, True, False, False]
    assert route.bonuses == [("Boston-Montreal", 150)]

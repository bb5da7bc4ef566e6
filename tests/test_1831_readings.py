"""1831 defects of issue 12 and the readings made explicit, each on a board worked out
by hand (../shared/rules/1831.md). Phase 5 unless said: a Station adds $20, a Rail Yard
$30 (5.2.7.5)."""

import pytest

from boards1831 import city, position
from trainruns import audit, load_position, solve
from trainruns.errors import InputError

S, Y = "station", "yard"


def best(pos):
    run = solve(pos)
    assert run.optimal
    return run


# --- commuter runs and New York's red hex (5.2.3.10, 5.6.7.1) -------------------------

def _new_york(**extra):
    """White Plains B2 (20, A's Station); New York B4 (40, one Rail Yard site, vacant)
    with its red hex B6 (A's Station: "part of the same hex", 5.2.3.10). Two tracks join
    B2 and B4 (direct, and round through A3), two join B4 and B6 (direct, through A5)."""
    hexes = [city("B2", 20, [S], [[0, "s0"], [1, "s0"]]),
             city("B4", 40, [Y], [[3, "s0"], [2, "s0"], [0, "s0"], [1, "s0"]]),
             {"id": "B6", "part_of": "B4", "stops": [{"kind": "city", "slot_types": [S]}],
              "paths": [[3, "s0"], [2, "s0"]]},
             {"id": "A3", "stops": [], "paths": [[4, 5]]},
             {"id": "A5", "stops": [], "paths": [[4, 5]]}]
    runs = [{"name": "White Plains - New York", "cycle": ["B2", "B4"]}]
    return position(hexes, phase="5", trains=["5S"], tokens=[("B2", 0, "A"), ("B6", 0, "A")],
                    map_extra={"commuter_runs": runs}, **extra)


def test_5_6_7_1_commuter_run_reaches_new_york_stations_in_its_red_hex():
    # White Plains 20 + 20, New York 40 + 20 (its Station in the red hex), White Plains
    # again on the other track: 40 + 60 + 40 (an ordinary route: 40 + 60 = 100)
    run = best(_new_york())
    assert run.revenue == 140
    assert run.routes[0].stop_labels() == ["B2.0", "B4.0", "B6.0", "B4.0", "B2.0"]
    assert run.routes[0].counted == [True, False, True, False, True]


def test_5_6_7_1_audit_accepts_the_commuter_run_through_the_red_hex():
    board = load_position(_new_york())
    verdict = audit(board, {"routes": [{"train": "5S", "stops": ["B2.0", "B4.0", "B6.0", "B4.0", "B2.0"]}]})
    assert verdict.legal, [p.to_json() for p in verdict.problems]
    assert verdict.declared_revenue == 140


def _shuttle(strict):
    """Baltimore B2 (30) and Washington B4 (40), A's Stations, joined directly, round
    through A3, and round through C3, a city (10) where A has a Station too."""
    hexes = [city("B2", 30, [S], [[0, "s0"], [1, "s0"], [5, "s0"]]),
             city("B4", 40, [S], [[3, "s0"], [2, "s0"], [4, "s0"]]),
             {"id": "A3", "stops": [], "paths": [[4, 5]]},
             city("C3", 10, [S], [[2, "s0"], ["s0", 1]])]
    runs = [{"name": "Baltimore - Washington", "cycle": ["B2", "B4"], "any_start": True}]
    extra = {"rules": {"pass_own_tokens": False}} if strict else {}
    return position(hexes, phase="5", trains=["5S"], tokens=[("B2", 0, "A"), ("B4", 0, "A"), ("C3", 0, "A")],
                    map_extra={"commuter_runs": runs}, **extra)


def test_5_6_2_5_pass_own_tokens_false_applies_to_commuter_legs():
    # passing C3's Station is allowed by default: B W B W over the three tracks, 50+60+50+60
    assert best(_shuttle(strict=False)).revenue == 220
    # with pass_own_tokens false a leg may not pass C3 without running to it, which a
    # commuter run cannot (it is not in the cycle): W B W over two tracks, 60 + 50 + 60
    run = best(_shuttle(strict=True))
    assert run.revenue == 170
    assert ("C3", 0) not in run.routes[0].stops

"""1831 defects found by outside checks and the readings made explicit, each on a board worked out
by hand (1831 rulebook). Phase 5 unless said: a Station adds $20, a Rail Yard
$30 (5.2.7.5)."""

import pytest
from boards1831 import city, position

from trainruns import load_position, solve
from trainruns.errors import InputError
from trainruns.services.audit import audit

S, Y = "station", "yard"


def best(pos):
    run = solve(pos)
    assert run.optimal
    return run


# --- commuter runs and New York's red hex (5.2.3.10, 5.6.7.1) -------------------------

def _new_york(loop=False, **extra):
    """White Plains B2 (20, A's Station); New York B4 (40, one Rail Yard site, vacant)
    with its red hex B6 (A's Station: "part of the same hex", 5.2.3.10). B2 - B4 and
    B4 - B6 are joined directly; B6 leads out of the city round through A5 and A3 back
    to B2. With ``loop`` the track from A5 goes into B4 instead, and B2 - B4 round
    through A3 as well."""
    if loop:
        hexes = [city("B2", 20, [S], [[0, "s0"], [1, "s0"]]),
                 city("B4", 40, [Y], [[3, "s0"], [2, "s0"], [0, "s0"], [1, "s0"]]),
                 {"id": "B6", "part_of": "B4", "stops": [{"kind": "city", "slot_types": [S]}],
                  "paths": [[3, "s0"], [2, "s0"]]},
                 {"id": "A3", "stops": [], "paths": [[4, 5]]},
                 {"id": "A5", "stops": [], "paths": [[4, 5]]}]
    else:
        hexes = [city("B2", 20, [S], [[0, "s0"], [1, "s0"]]),
                 city("B4", 40, [Y], [[3, "s0"], [0, "s0"]]),
                 {"id": "B6", "part_of": "B4", "stops": [{"kind": "city", "slot_types": [S]}],
                  "paths": [[3, "s0"], [2, "s0"]]},
                 {"id": "A5", "stops": [], "paths": [[5, 3]]},
                 {"id": "A3", "stops": [], "paths": [[0, 4]]}]
    runs = [{"name": "White Plains - New York", "cycle": ["B2", "B4"]}]
    return position(hexes, phase="5", trains=["5S"], tokens=[("B2", 0, "A"), ("B6", 0, "A")],
                    map_extra={"commuter_runs": runs}, **extra)


def test_5_6_7_1_commuter_run_reaches_new_york_stations_in_its_red_hex():
    # White Plains 20 + 20, New York 40 + 20 (its Station in the red hex), White Plains
    # again on the other track: 40 + 60 + 40 (an ordinary route: 40 + 60 = 100)
    run = best(_new_york())
    assert run.revenue == 140
    assert run.routes[0].stop_labels() == ["B2.0", "B4.0", "B6.0", "B2.0"]
    assert run.routes[0].counted == [True, False, True, True]


def test_5_6_7_1_audit_accepts_the_commuter_run_through_the_red_hex():
    board = load_position(_new_york())
    verdict = audit(board, {"routes": [{"train": "5S", "stops": ["B2.0", "B4.0", "B6.0", "B2.0"]}]})
    assert verdict.legal, [p.to_json() for p in verdict.problems]
    assert verdict.declared_revenue == 140


def test_5_6_7_commuter_run_does_not_leave_new_york_and_come_back_into_its_red_hex():
    """5.6.7 visits in order, 5.2.3.10 the red hex "part of the same hex": from New
    York's tile out through A5 and back into its red hex enters New York again, right
    after entering it: not a visit White Plains - New York - White Plains. No commuter
    run is left (the one track inside the city is used on the way in), so the best is
    the ordinary route White Plains - New York, 40 + 60."""
    run = best(_new_york(loop=True))
    assert run.revenue == 100
    board = load_position(_new_york(loop=True))
    verdict = audit(board, {"routes": [{"train": "5S", "stops": ["B2.0", "B4.0", "B6.0", "B4.0", "B2.0"]}]})
    assert not verdict.legal


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


# --- black sites and the home token (5.2.5.1, 5.2.7.2) --------------------------------

def test_5_2_5_1_home_token_on_a_black_site():
    # A1 (20): A's Station; B2 (20): its only site is black-filled, where A placed its
    # home token as a Station before the upgrade came out. Phase 3: a Station adds $10,
    # so the 2S runs A1 - B2 for 30 + 30 (leaving the black site out, as the docs
    # advised, left A with no token in B2: 0)
    hexes = [city("A1", 20, [S], [["s0", 5]]), city("B2", 20, ["black"], [[2, "s0"]])]
    toks = [{"hex": "A1", "stop": 0, "slot": 0, "corporation": "A"},
            {"hex": "B2", "stop": 0, "slot": 0, "corporation": "A", "home": True, "type": "station"}]
    pos = position(hexes, phase="3", trains=["2S"])
    pos["tokens"] = toks
    assert best(pos).revenue == 60
    # "The home token does not have to match the correct type": as a Rail Yard, a 2MX
    # runs to it for 20 + 20 (and a 2S no longer can)
    toks[1]["type"] = "yard"
    assert best(dict(pos, trains=["2MX"])).revenue == 70
    assert best(dict(pos, trains=["2S"])).revenue == 0


def test_5_2_7_2_black_site_takes_no_other_token_and_is_no_vacancy():
    hexes = [city("A1", 20, [S], [["s0", 5]]), city("B2", 20, [S, "black"], [[2, "s0"], ["s0", 5]]),
             city("C3", 20, [S], [[2, "s0"]])]
    pos = position(hexes, phase="3", trains=["2S"], tokens=[("A1", 0, "A"), ("C3", 0, "A")])
    assert best(pos).revenue == 60  # B2 has a vacancy: A passes it
    # "City sites that are filled in with black are not available for tokens"
    with pytest.raises(InputError, match="black"):
        load_position(position(hexes, phase="3", tokens=[("B2", 1, "B")]))
    # B2's one open site taken by B: the city is full and blocks A (5.2.4.1)
    full = position(hexes, phase="3", trains=["2S"], tokens=[("A1", 0, "A"), ("C3", 0, "A"), ("B2", 0, "B")])
    assert best(full).revenue == 0


# --- receivership (5.4.7) --------------------------------------------------------------

def test_5_4_7_receivership_may_not_buy_track_rights():
    hexes = [city("A1", 40, [S], [["s0", 5]]), city("B2", 10, [S], [[2, "s0"]])]
    pos = position(hexes, trains=["2S"], tokens=[("A1", 0, "A"), ("B2", 0, "B")],
                   track_rights=[{"hex": "B2", "stop": 0, "slot": 0}])
    assert best(pos).revenue == 70
    with pytest.raises(InputError, match="5.4.7"):
        solve(dict(pos, receivership=True))


# --- readings made options (docs/rules-1831.md, docs/gaps.md) -------------------------

def _delaware(south=None, c1_token=False):
    """B2, the Delaware large city (40, A's Station), with track to C1 and C3 (20 each),
    its two cities south, and C1 - C3 joined: a loop B2 - C1 - C3 - B2. C3 has A's
    Station; C1's Station site is vacant unless ``c1_token``. Phase 3 ($10 a Station)."""
    hexes = [city("B2", 40, [S], [[4, "s0"], ["s0", 5]], revisit_after=["C1", "C3"]),
             city("C1", 20, [S], [[1, "s0"], ["s0", 0]]),
             city("C3", 20, [S], [[2, "s0"], ["s0", 3]])]
    toks = [("B2", 0, "A"), ("C3", 0, "A")] + ([("C1", 0, "A")] if c1_token else [])
    extra = {"rules": {"delaware_south": south}} if south else {}
    return position(hexes, trains=["4S"], tokens=toks, **extra)


def test_5_6_2_1_delaware_runs_to_both_cities_south_as_an_option():
    # "as long as the train runs to both cities south of the large city before returning"
    # read as entering them (default): B2, C1 passed, C3, B2 again: 50 + 30 + 50
    assert best(_delaware()).revenue == 130
    assert best(_delaware("enter")).revenue == 130
    # read as running to a token in each: C1 has none, so no return: B2 .. C3, 50 + 30
    run = best(_delaware("run_to"))
    assert run.revenue == 80
    # with A's Station in C1 both readings give B2 C1 C3 B2: 50 + 30 + 30 + 50
    assert best(_delaware("run_to", c1_token=True)).revenue == 160
    assert best(_delaware("enter", c1_token=True)).revenue == 160
    with pytest.raises(InputError, match="delaware_south"):
        load_position(_delaware("both"))


def test_5_6_2_3_mixed_train_counts_as_an_option():
    # a line of four cities: Stations at A1 (40), B2 (40), C3 (40), a Rail Yard at D4 (10);
    # "Mixed trains may only run to the correct number of each type of token"
    specs = [(40, S), (40, S), (40, S), (10, Y)]
    hexes = [city(f"{chr(65 + i)}{i + 1}", v, [t], ([[2, "s0"]] if i else []) + ([["s0", 5]] if i < 3 else []))
             for i, (v, t) in enumerate(specs)]
    toks = [("A1", 0, "A"), ("B2", 0, "A"), ("C3", 0, "A"), ("D4", 0, "A")]
    pos = position(hexes, trains=["4MX"], tokens=toks)
    # default: at least one of each, any mix: 50 + 50 + 50 + 30
    assert best(pos).revenue == 180
    # printed as 2 Stations and 2 Rail Yards: B2 passed (or A1), 50 + 50 + 30
    two = dict(pos, rules={"mixed_counts": {"4MX": {"station": 2, "yard": 2}}})
    assert best(two).revenue == 130
    run = best(two)
    assert sum(a for _, name, a in run.routes[0].parts() if name == "station") == 20
    with pytest.raises(InputError, match="mixed"):
        load_position(dict(pos, rules={"mixed_counts": {"4S": {"station": 2, "yard": 2}}}))


def _double(double):
    """Baltimore B2 (30) - blank B4 - Washington B6 (40), A's Stations; with ``double``
    every piece of track between them is a double track (tile #301 in B4, 5.2.6.9)."""
    d = {"double_track": [[0, "s0"]]} if double else {}
    hexes = [city("B2", 30, [S], [[0, "s0"]], **d),
             {"id": "B4", "stops": [], "paths": [[3, 0]], **({"double_track": [[3, 0]]} if double else {})},
             city("B6", 40, [S], [[3, "s0"]], **({"double_track": [["s0", 3]]} if double else {}))]
    runs = [{"name": "Baltimore - Washington", "cycle": ["B2", "B6"], "any_start": True}]
    return position(hexes, phase="5", trains=["5S"], tokens=[("B2", 0, "A"), ("B6", 0, "A")],
                    map_extra={"commuter_runs": runs})


def test_5_6_2_4_double_track_is_two_tracks():
    # one track: Baltimore - Washington once, 50 + 60
    assert best(_double(False)).revenue == 110
    # double track all the way: the commuter run passes on different track each time
    # (5.6.7.2): W B W, 60 + 50 + 60
    assert best(_double(True)).revenue == 170
    # and two trains each take one of the two tracks (5.6.2): 110 + 110
    assert best(dict(_double(True), trains=["2S", "2S"], phase="3")).revenue == 2 * (40 + 50)
    with pytest.raises(InputError, match="double_track"):
        load_position(position([{"id": "B4", "stops": [], "paths": [[3, 0]], "double_track": [[1, 4]]}]))


def test_double_track_bits_agree_with_the_core_elsewhere():
    """track.chain_bits rebuilds the core's track bits; away from double track, two
    chains share track in it exactly when they do in the core's (5.6.2)."""
    from boards1831 import random_position

    from trainruns.route.compile import compile_board
    from trainruns.titles.g1831.route.track import chain_bits

    for seed in range(60):
        board = load_position(random_position(seed))
        comp = compile_board(board)
        mine = chain_bits(board, comp, {("none", 0)})
        core = comp.chain_bits
        for i in range(comp.n_chains):
            assert [bool((core[i] & core[j]).any()) for j in range(comp.n_chains)] == \
                   [bool((mine[i] & mine[j]).any()) for j in range(comp.n_chains)]


def test_5_6_7_2_bound_allows_a_city_every_other_visit():
    """A search stopped early reports the model's upper bound. Over four tracks (a double
    track direct, one through A3, one through C3) a 5S commuter run goes W B W B W
    (5.6.7.2), Washington three times: a bound counting each token at most twice
    (60 + 60 + 50 + 50 = 220) was below the answer, 280."""
    from trainruns.route.compile import compile_board

    hexes = [city("B2", 30, [S], [[0, "s0"], [1, "s0"], [5, "s0"]], double_track=[[0, "s0"]]),
             city("B4", 40, [S], [[3, "s0"], [2, "s0"], [4, "s0"]], double_track=[[3, "s0"]]),
             {"id": "A3", "stops": [], "paths": [[4, 5]]},
             {"id": "C3", "stops": [], "paths": [[2, 1]]}]
    runs = [{"name": "Baltimore - Washington", "cycle": ["B2", "B4"], "any_start": True}]
    pos = position(hexes, phase="5", trains=["5S"], tokens=[("B2", 0, "A"), ("B4", 0, "A")],
                   map_extra={"commuter_runs": runs})
    assert best(pos).revenue == 3 * 60 + 2 * 50
    board = load_position(pos)
    assert board.route_model.upper_bound(compile_board(board)) >= 280

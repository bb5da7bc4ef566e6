"""1831 running rules (1831 rulebook 5.2.7, 5.5, 5.6) on small boards whose
best run is worked out by hand in each test. Values: city + token (Station $10 / Rail
Yard $20 before the first 5-train, 5.2.7.5)."""

import pytest
from boards1831 import city, line, position

from trainruns import solve
from trainruns.errors import InputError

S, Y = "station", "yard"


def revenue(pos):
    run = solve(pos)
    assert run.optimal
    return run.revenue


def test_5_6_3_rulebook_example_mixed_two_train():
    # 5.6.3: a mixed 2-train between a small city ($10) with a Rail Yard ($20) and a
    # large city ($20) with a Station ($10): 10 + 20 + 20 + 10 = $60.
    pos = line([(10, [Y, S]), (20, [S, Y, S])], phase="2", trains=["2MX"],
               tokens=[("A1", 0, "A"), ("B2", 0, "A")])
    assert revenue(pos) == 60


def test_5_2_7_5_token_values_rise_with_5_and_9_trains():
    toks = [("A1", 0, "A"), ("B2", 0, "A")]
    specs = [(10, [Y]), (20, [S])]
    # (a 2-train retires with the first 5-train, a 3-train with the first 6, 5.3.5)
    assert revenue(line(specs, phase="4", trains=["3MX"], tokens=toks)) == 10 + 20 + 20 + 10
    assert revenue(line(specs, phase="5", trains=["3MX"], tokens=toks)) == 10 + 30 + 20 + 20
    assert revenue(line(specs, phase="9", trains=["7MX"], tokens=toks)) == 10 + 50 + 20 + 30


def test_5_6_2_3_trains_run_only_to_their_token_type():
    # Station (20) - Rail Yard (30) - Station (40), all the corporation's.
    toks = [("A1", 0, "A"), ("B2", 0, "A"), ("C3", 0, "A")]
    specs = [(20, [S]), (30, [Y]), (40, [S])]
    # an S train runs A1 to C3 and passes its own Rail Yard: 30 + 50
    assert revenue(line(specs, trains=["3S"], tokens=toks)) == 80
    # a YD train has one Rail Yard only: no route
    assert revenue(line(specs, trains=["3YD"], tokens=toks)) == 0
    # a mixed 3-train runs to all three: 30 + 50 + 50
    assert revenue(line(specs, trains=["3MX"], tokens=toks)) == 130


def test_5_6_2_3_mixed_train_needs_one_of_each():
    toks = [("A1", 0, "A"), ("B2", 0, "A"), ("C3", 0, "A")]
    specs = [(20, [S]), (30, [S]), (40, [S])]
    assert revenue(line(specs, trains=["3MX"], tokens=toks)) == 0
    assert revenue(line(specs, trains=["2MX"], tokens=toks)) == 0
    # 2MX: exactly one of each; a Station-Station-Yard line gives it S + Y only
    specs = [(20, [S]), (30, [S]), (40, [Y])]
    assert revenue(line(specs, trains=["2MX"], tokens=toks)) == 40 + 60  # B2 + C3
    # but a bigger mixed train may take two Stations and a Rail Yard
    assert revenue(line(specs, trains=["3MX"], tokens=toks)) == 30 + 40 + 60


def test_5_6_2_5_route_begins_and_ends_on_tokens_and_counts_at_most_n():
    # Station 40 - Station 10 - Station 40. Passing one's own token without running to
    # it is allowed by default (docs/rules-1831.md): a 2S runs A1 .. C3 for 50 + 50.
    toks = [("A1", 0, "A"), ("B2", 0, "A"), ("C3", 0, "A")]
    specs = [(40, [S]), (10, [S]), (40, [S])]
    assert revenue(line(specs, trains=["2S"], tokens=toks)) == 100
    assert revenue(line(specs, trains=["3S"], tokens=toks)) == 120
    # with the strict option it must stop at B2: best is a two-city run, 50 + 20
    strict = line(specs, trains=["2S"], tokens=toks, rules={"pass_own_tokens": False})
    assert revenue(strict) == 70
    # a route may not end at a city without its token: A1 alone has nowhere to go
    assert revenue(line([(40, [S]), (10, [S])], trains=["2S"], tokens=[("A1", 0, "A")])) == 0


def test_5_6_2_2_vacancy_is_passed_and_earns_nothing():
    toks = [("A1", 0, "A"), ("C3", 0, "A")]
    specs = [(20, [S]), (50, [S]), (20, [S])]
    assert revenue(line(specs, trains=["3S"], tokens=toks)) == 30 + 30


def test_5_2_4_1_city_full_of_other_tokens_blocks():
    specs = [(20, [S]), (50, [S]), (20, [S])]
    toks = [("A1", 0, "A"), ("B2", 0, "B"), ("C3", 0, "A")]
    assert revenue(line(specs, trains=["3S"], tokens=toks)) == 0
    # one vacancy left (a Rail Yard site): the train passes
    specs = [(20, [S]), (50, [S, Y]), (20, [S])]
    assert revenue(line(specs, trains=["3S"], tokens=toks)) == 60


def test_5_6_2_trains_share_tokens_but_not_track():
    toks = [("A1", 0, "A"), ("B2", 0, "A"), ("C3", 0, "A")]
    specs = [(40, [S]), (10, [S]), (40, [S])]
    # A1-B2 and B2-C3 share B2's Station: 50 + 20 + 20 + 50 beats A1..C3 alone (100)
    assert revenue(line(specs, trains=["2S", "2S"], tokens=toks)) == 140
    # on one track only one train runs
    assert revenue(line(specs[:2], trains=["2S", "2S"], tokens=toks[:2])) == 70


def _triangle(revisit=None, trains=("4S",)):
    # B2 (40) with track to C1 and C3 (20 each), and C1 - C3 joined: a loop B2-C1-C3-B2.
    extra = {"revisit_after": revisit} if revisit else {}
    hexes = [city("B2", 40, [S], [[4, "s0"], ["s0", 5]], **extra),
             city("C1", 20, [S], [[1, "s0"], ["s0", 0]]),
             city("C3", 20, [S], [[2, "s0"], ["s0", 3]]),
             city("A1", 10, [S], [])]
    return position(hexes, trains=trains, tokens=[("B2", 0, "A"), ("C1", 0, "A"), ("C3", 0, "A")])


def test_5_6_2_1_no_city_hex_twice():
    # round the loop and back to B2 is not allowed: three cities, 50 + 30 + 30
    assert revenue(_triangle()) == 110


def test_5_6_2_1_delaware_large_city_twice_after_both_southern_cities():
    # B2 is Delaware: B2, C1, C3, then B2 again (run to twice): 50 + 30 + 30 + 50
    assert revenue(_triangle(revisit=["C1", "C3"])) == 160
    # the exception needs both named cities between the two visits
    assert revenue(_triangle(revisit=["C1", "A1"])) == 110
    # a 3S still counts at most three tokens: B2, C3, B2 (passing C1) = 50 + 30 + 50
    assert revenue(_triangle(revisit=["C1", "C3"], trains=["3S"])) == 130


def test_5_2_3_10_red_extension_is_part_of_its_city():
    # A1 Station; B2 "NYC" (40) Station; C3 red NYC hex with a Rail Yard site
    hexes = [city("A1", 20, [S], [["s0", 5]]), city("B2", 40, [S], [[2, "s0"], ["s0", 5]]),
             {"id": "C3", "part_of": "B2", "stops": [{"kind": "city", "slot_types": [Y]}], "paths": [[2, "s0"]]}]
    toks = [("A1", 0, "A"), ("B2", 0, "A"), ("C3", 0, "A")]
    # NYC to its own red hex is one city: a 2MX runs A1 .. C3 (passing the NYC tile)
    # for 30 + (40 + 20); a 3MX cannot take both NYC tokens either
    assert revenue(position(hexes, trains=["2MX"], tokens=toks)) == 90
    assert revenue(position(hexes, trains=["3MX"], tokens=toks)) == 90
    # were C3 a city of its own (value 40), the 3MX would take all three: 30 + 50 + 60
    own = [dict(h) for h in hexes]
    del own[2]["part_of"]
    own[2]["stops"] = [{"kind": "city", "value": 40, "slot_types": [Y]}]
    assert revenue(position(own, trains=["3MX"], tokens=toks)) == 140


def test_5_2_3_10_city_is_full_only_when_its_red_hex_is_full_too():
    hexes = [city("A1", 20, [S], [["s0", 5]]), city("B2", 40, [S], [[2, "s0"], ["s0", 5]]),
             {"id": "C3", "part_of": "B2", "stops": [{"kind": "city", "slot_types": [Y]}],
              "paths": [[2, "s0"], ["s0", 5]]},
             city("D4", 20, [S], [[2, "s0"]])]
    toks = [("A1", 0, "A"), ("B2", 0, "B"), ("D4", 0, "A")]
    assert revenue(position(hexes, trains=["2S"], tokens=toks)) == 60
    assert revenue(position(hexes, trains=["2S"], tokens=toks + [("C3", 0, "C")])) == 0


def test_5_5_track_rights_count_as_own_and_must_be_used():
    # A1 (40) and B2 (40) the corporation's Stations; C3 (10) another's Station.
    specs = [(40, [S]), (40, [S]), (10, [S])]
    toks = [("A1", 0, "A"), ("B2", 0, "A"), ("C3", 0, "B")]
    assert revenue(line(specs, trains=["2S"], tokens=toks)) == 100
    # with C3's Station bought, the 2S must run to it (5.6.5): B2 - C3, 50 + 20
    bought = line(specs, trains=["2S"], tokens=toks, track_rights=[{"hex": "C3", "stop": 0, "slot": 0}])
    assert revenue(bought) == 70
    run = solve(bought)
    assert run.routes[0].stops[-1] == ("C3", 0) or run.routes[0].stops[0] == ("C3", 0)
    # two trains: one takes the best run, the other the bought right: 100 + 70 would
    # share B2 - ... no: A1-B2 and B2-C3 use different track, 100 + 70
    two = line(specs, trains=["2S", "2S"], tokens=toks, track_rights=[{"hex": "C3", "stop": 0, "slot": 0}])
    assert revenue(two) == 170


def test_5_5_right_no_train_can_use_is_an_input_error():
    specs = [(40, [S]), (10, [S])]
    pos = line(specs, trains=["2YD"], tokens=[("A1", 0, "A"), ("B2", 0, "B")],
               track_rights=[{"hex": "B2", "stop": 0, "slot": 0}])
    with pytest.raises(InputError, match="track right"):
        solve(pos)


def _shuttle(trains, commuter=True):
    # Baltimore B2 (30) and Washington B4 (40), joined directly and through A3 and C3:
    # three different tracks between them.
    hexes = [city("B2", 30, [S], [[0, "s0"], [1, "s0"], [5, "s0"]]),
             city("B4", 40, [S], [[3, "s0"], [2, "s0"], [4, "s0"]]),
             {"id": "A3", "stops": [], "paths": [[4, 5]]},
             {"id": "C3", "stops": [], "paths": [[2, 1]]}]
    extra = {"map_extra": {"commuter_runs": [{"name": "Baltimore-Washington", "cycle": ["B2", "B4"],
                                              "any_start": True}]}} if commuter else {}
    return position(hexes, phase="5", trains=trains, tokens=[("B2", 0, "A"), ("B4", 0, "A")], **extra)


def test_5_6_7_2_baltimore_washington_commuter_run():
    # three tracks: B, W, B, W on different track each pass: 50 + 60 + 50 + 60
    assert revenue(_shuttle(["5S"])) == 220
    # 5.6.7.3: only Station trains of 5 or more
    assert revenue(_shuttle(["4S"])) == 110
    assert revenue(_shuttle(["5MX"])) == 0
    # without the commuter run a city is run to once
    assert revenue(_shuttle(["5S"], commuter=False)) == 110


def test_5_6_7_1_commuter_run_starts_at_its_first_city():
    # A1 (10) and B2 (50) joined by two tracks (direct, and round through B0); C3 (10)
    # beyond B2. Phase 5: Stations add $20.
    hexes = [city("A1", 10, [S], [["s0", 5], ["s0", 4]]),
             city("B2", 50, [S], [[2, "s0"], ["s0", 5], [3, "s0"]]),
             city("C3", 10, [S], [[2, "s0"]]),
             {"id": "B0", "stops": [], "paths": [[1, 0]]}]
    toks = [("A1", 0, "A"), ("B2", 0, "A"), ("C3", 0, "A")]

    def with_cycle(any_start):
        runs = [{"cycle": ["A1", "B2"], "any_start": any_start}]
        return position(hexes, phase="5", trains=["5S"], tokens=toks, map_extra={"commuter_runs": runs})

    # must start at A1: A1 B2 A1 = 30 + 70 + 30 = 130, as good as the ordinary A1-B2-C3
    assert revenue(with_cycle(False)) == 130
    # may start anywhere (Baltimore - Washington): B2 A1 B2 = 70 + 30 + 70
    assert revenue(with_cycle(True)) == 170


def test_5_6_1_used_trains_do_not_run_and_retired_trains_are_gone():
    toks = [("A1", 0, "A"), ("B2", 0, "A")]
    specs = [(20, [S]), (20, [S])]
    assert revenue(line(specs, trains=[{"name": "2S", "status": "used"}], tokens=toks)) == 0
    assert revenue(line(specs, trains=[{"name": "2S", "status": "restored"}], tokens=toks)) == 60
    assert revenue(line(specs, trains=[{"name": "2S", "status": "retired"}], tokens=toks)) == 0
    # 5.3.5: the first 5-train retires the 2-trains (values now $20 a Station)
    assert revenue(line(specs, phase="5", trains=["2S"], tokens=toks)) == 0
    assert revenue(line(specs, phase="5", trains=["3S"], tokens=toks)) == 80
    # 5.3.6: a corporation in receivership still runs its obsolete trains
    assert revenue(line(specs, phase="5", trains=["2S"], tokens=toks, receivership=True)) == 80


def test_counted_flags_show_the_tokens_run_to():
    toks = [("A1", 0, "A"), ("B2", 0, "A"), ("C3", 0, "A")]
    run = solve(line([(40, [S]), (10, [Y]), (40, [S])], trains=["2S"], tokens=toks))
    assert run.routes[0].counted == [True, False, True]


def test_5_5_all_routes_lists_every_route_for_audits():
    from trainruns.route.compile import compile_board
    from trainruns.route.routeset import train_kinds
    from trainruns.titles.load import load_position

    specs = [(40, [S]), (40, [S]), (10, [S])]
    pos = line(specs, trains=["2S"], tokens=[("A1", 0, "A"), ("B2", 0, "A"), ("C3", 0, "B")],
               track_rights=[{"hex": "C3", "stop": 0, "slot": 0}])
    board = load_position(pos)
    comp = compile_board(board)
    full = board.route_model.all_routes(comp, train_kinds(board))
    assert sorted(full.values[:, 0].tolist()) == [70, 70, 100]  # B2-C3, A1..C3, A1-B2
    assert board.route_model.routes(comp, train_kinds(board)).values[:, 0].tolist() == [70]


def test_5_5_audit_with_bought_rights():
    """5.5 / 5.6.5 in an audit: any legal run that uses the bought right is legal (not
    only the best one), and a run that leaves the right unused is illegal."""
    from trainruns import load_position
    from trainruns.services.audit import audit

    specs = [(40, [S]), (40, [S]), (10, [S])]
    toks = [("A1", 0, "A"), ("B2", 0, "A"), ("C3", 0, "B")]
    board = load_position(line(specs, trains=["2S", "2S"], tokens=toks,
                               track_rights=[{"hex": "C3", "stop": 0, "slot": 0}]))
    best = audit(board, {"routes": [{"train": "2S", "stops": ["A1.0", "B2.0"]},
                                    {"train": "2S", "stops": ["B2.0", "C3.0"]}]})
    assert best.legal and best.declared_revenue == 170
    weaker = audit(board, {"routes": [{"train": "2S", "stops": ["B2.0", "C3.0"]}]})
    assert weaker.legal and weaker.declared_revenue == 70 and best.best_revenue == 170
    unused = audit(board, {"routes": [{"train": "2S", "stops": ["A1.0", "B2.0"]}]})
    assert not unused.legal
    assert [p.rule for p in unused.problems] == ["track-right-unused"]

"""Auditing declared 1831 runs with bought track rights (1831 rulebook 5.5,
5.6.5): "Any tokens purchased as track rights in Phase 5 count just as if the
purchasing corporation owned them. The corporation must use each token purchased in
Phase 5 in a train run." The audit and ``solve`` must read that one way: a right is
used when a train runs to it (docs/rules-1831.md, choice 6), and where a route could run
to the company's own token instead, the run as a whole decides which it runs to.

Values: city + token (Station $10 / Rail Yard $20 before the first 5-train, 5.2.7.5)."""

import json
import os
import subprocess
import sys

import pytest
from boards1831 import brute_force, city, line, position, random_commuter_position, random_position

from trainruns import load_position, solve
from trainruns.cli.main import main
from trainruns.errors import InputError
from trainruns.services.audit import audit

S, Y = "station", "yard"


def _own_yard_and_rented_station(trains=("3MX",)):
    """A1 (20): A's Rail Yard; B2 (30): B's Station, bought as a track right, and A's
    Rail Yard; C3 (20): A's Station. One track each, A1 - B2 - C3."""
    pos = line([(20, [Y]), (30, [S, Y]), (20, [S])], trains=list(trains),
               tokens=[("A1", 0, "A"), ("B2", 0, "B"), ("C3", 0, "A")],
               track_rights=[{"hex": "B2", "stop": 0, "slot": 0}])
    pos["tokens"].append({"hex": "B2", "stop": 0, "corporation": "A", "slot": 1})
    return pos


def _declare(*routes):
    return {"routes": [{"train": t, "stops": stops.split()} for t, stops in routes]}


def test_5_6_5_bought_station_binds_the_train_over_its_own_rail_yard():
    # The 3MX's only route runs to A1's Yard and C3's Station, and to one token in
    # B2. Its own Yard there would earn 30 + 20 = 50, the bought Station 30 + 10 = 40,
    # but no other train runs to the Station, so this one must (5.6.5):
    # 40 + 40 + 30 = 110, not 40 + 50 + 30 = 120.
    pos = _own_yard_and_rented_station()
    best = solve(pos)
    assert best.optimal and best.revenue == 110
    result = audit(pos, _declare(("3MX", "A1.0 B2.0 C3.0")))
    assert result.legal and result.declared_revenue == 110 == result.best_revenue
    route = result.routes[0]
    assert route.values == [40, 40, 30]
    assert route.model_route.earned[1] == [("city", 30), ("station", 10)]
    assert "earns the most possible" in result.verdict()


def test_5_6_5_without_the_right_the_own_rail_yard_is_run_to():
    # the same board with no right bought: the 3MX takes its own Yard in B2 (5.6.2.3,
    # 5.6.3): the audit's value moves with the rights, not with the board alone
    pos = _own_yard_and_rented_station()
    pos["track_rights"] = []
    result = audit(pos, _declare(("3MX", "A1.0 B2.0 C3.0")))
    assert result.legal and result.declared_revenue == 120 == result.best_revenue


def test_5_6_5_passing_a_bought_token_does_not_use_it():
    # A1 (40) and C3 (40): A's Stations; B2 (10): B's Station, bought. A 2S running
    # A1 - C3 passes B2 without running to it: the right is not used, so the run is
    # illegal (5.6.5); A1 - B2 (50 + 20) is the best legal run, as solve says.
    pos = line([(40, [S]), (10, [S]), (40, [S])], trains=["2S"],
               tokens=[("A1", 0, "A"), ("B2", 0, "B"), ("C3", 0, "A")],
               track_rights=[{"hex": "B2", "stop": 0, "slot": 0}])
    passing = audit(pos, _declare(("2S", "A1.0 B2.0 C3.0")))
    assert not passing.legal
    assert [p.rule for p in passing.problems] == ["track-right-unused"]
    assert "B2.0" in passing.problems[0].message and "5.6.5" in passing.problems[0].message
    running = audit(pos, _declare(("2S", "A1.0 B2.0")))
    assert running.legal and running.declared_revenue == 70 == solve(pos).revenue


def test_5_6_5_a_right_no_declared_train_runs_to_is_named_even_with_no_route():
    pos = _own_yard_and_rented_station()
    result = audit(pos, {"routes": []})
    # (and 5.6.6: declaring no train while one can run is refused too)
    assert [(p.train, p.rule) for p in result.problems] == [("3MX", "track-right-unused"), ("", "no-train-run")]


def test_5_6_2_5_a_one_stop_route_is_not_a_route():
    # 5.6.2.5: "the train must run to at least two tokens"; the route model decides the
    # length, so the audit names it as not a route of the title's rules
    pos = _own_yard_and_rented_station()
    pos["track_rights"] = []
    result = audit(pos, _declare(("3MX", "A1.0")))
    assert [p.rule for p in result.problems] == ["not-a-title-route"]
    assert result.problems[0].message.startswith("The 3MX-train")


def _declared_back(run):
    return {"routes": [{"train": r.train, "stops": r.stop_labels()} for r in run.routes]}


@pytest.mark.parametrize("make", [random_position, random_commuter_position], ids=["plain", "commuter"])
def test_5_6_5_best_run_declared_back_agrees_with_the_brute_force(make):
    """On seeded random typed boards with bought rights (tests/boards1831.py), the best
    run declared back is legal and worth what the plain-Python brute force finds: the
    audit values each route with the rights the run needs it to run to, as solve does."""
    checked = 0
    for seed in range(400):
        pos = make(seed)
        if not pos["track_rights"]:
            continue
        expected = brute_force(pos)
        if expected is None:
            continue
        board = load_position(pos)
        run = solve(board)
        result = audit(board, _declared_back(run), best=run)
        assert result.legal, (seed, [p.message for p in result.problems])
        assert result.declared_revenue == expected == run.revenue, seed
        checked += 1
        if checked >= 15:
            break
    assert checked >= 10


def test_5_6_5_leaving_out_the_train_that_runs_to_a_right_is_illegal():
    """A best run with one bought right, less the routes that run to it: the routes
    left may pass the right's city but run to it no more, so the audit refuses the run
    (5.6.5) on random typed boards."""
    checked = 0
    for seed in range(400):
        pos = random_position(seed)
        if len(pos["track_rights"]) != 1 or brute_force(pos) is None:
            continue
        board = load_position(pos)
        run = solve(board)
        (hex_id, k, _), = board.route_model.facts.rights
        kept = [r for r in run.routes if not any(
            ref == (hex_id, k) and c for ref, c in zip(r.stops, r.counted))]
        if len(kept) == len(run.routes):
            continue
        result = audit(board, {"routes": [{"train": r.train, "stops": r.stop_labels()} for r in kept]}, best=run)
        assert "track-right-unused" in [p.rule for p in result.problems], seed
        checked += 1
    assert checked >= 5


@pytest.fixture
def files(tmp_path):
    def write(data, name):
        p = tmp_path / name
        p.write_text(data if isinstance(data, str) else json.dumps(data))
        return str(p)
    return write


def test_cli_1831_audit_exit_codes(files, capsys):
    pos = files(_own_yard_and_rented_station(), "pos.json")
    assert main(["audit", pos, files(_declare(("3MX", "A1.0 B2.0 C3.0")), "ok.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] and out["declared_revenue"] == out["best_revenue"] == 110
    assert main(["audit", pos, files(_declare(("3MX", "A1.0 C3.0")), "passing.json"), "--json"]) == 1
    capsys.readouterr()
    for bad in ("{", {"routes": [{"train": "3MX", "stops": ["B2"]}]}, {"routes": {"train": "3MX"}},
                {"routes": [{"train": "3MX", "stops": ["A1.0", "B2.0"], "hexes": "A1"}]}):
        assert main(["audit", pos, files(bad, "bad.json")]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_cli_1831_bad_declaration_is_one_line_exit_2(files):
    pos = files(_own_yard_and_rented_station(), "pos.json")
    bad = files({"routes": [{"train": "3MX", "stops": ["A1.0", "B2"]}]}, "bad.json")
    done = subprocess.run([sys.executable, "-m", "trainruns", "audit", pos, bad],
                          capture_output=True, text=True, env={**os.environ, "TRAINRUNS_DAEMON": "0"})
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "B2" in done.stderr


def test_a_right_no_train_can_use_is_bad_input():
    # 5.6.5 and docs/rules-1831.md: a right no run can use should not have been bought
    pos = line([(40, [S]), (10, [S])], trains=["2YD"], tokens=[("A1", 0, "A"), ("B2", 0, "B")],
               track_rights=[{"hex": "B2", "stop": 0, "slot": 0}])
    with pytest.raises(InputError, match="track right"):
        audit(pos, _declare(("2YD", "A1.0 B2.0")))


def test_5_6_6_declaring_no_train_is_illegal_when_a_train_can_run():
    # 5.6.6: "A corporation is not required to run all of its trains, nor is it required
    # to find and run optimal routes, but it must run at least one train if it has an
    # unused train." No right bought: the 3MX can earn 120, so an empty run is refused.
    pos = _own_yard_and_rented_station()
    pos["track_rights"] = []
    result = audit(pos, {"routes": []})
    assert not result.legal and [p.rule for p in result.problems] == ["no-train-run"]
    assert "$120" in result.problems[0].message and "5.6.6" in result.problems[0].message
    # ...while any one legal route, however poor, satisfies it
    assert audit(pos, _declare(("3MX", "B2.0 C3.0"))).legal


def test_5_6_6_declaring_no_train_is_legal_when_none_can_earn():
    # a company whose trains have no route (a single token, no second stop to reach)
    pos = line([(20, [Y]), (30, [S])], trains=["3MX"], tokens=[("A1", 0, "A")])
    assert solve(pos).revenue == 0
    assert audit(pos, {"routes": []}).legal


def _two_stations_and_a_yard():
    """A1 (20): A's Station; B2 (30): A's Station and A's Rail Yard; C3 (20): a free
    Station site. One track each, A1 - B2 - C3."""
    pos = line([(20, [S]), (30, [S, Y]), (20, [S])], tokens=[("A1", 0, "A"), ("B2", 0, "A")])
    pos["tokens"].append({"hex": "B2", "stop": 0, "corporation": "A", "slot": 1})
    return pos


@pytest.mark.parametrize("train, stops, legal", [
    ("2S", "A1.0 B2.0", True),      # two Stations
    ("2YD", "A1.0 B2.0", False),    # 5.6.2.3: a Rail Yard train, one Rail Yard
    ("2MX", "A1.0 B2.0", True),     # a Station at A1, the Rail Yard at B2
    ("3S", "A1.0 B2.0 C3.0", False),    # 5.6.2.5: "A route must begin and end on a token"
    ("3YD", "A1.0 B2.0 C3.0", False),
])
def test_5_6_2_3_and_5_6_2_5_a_route_without_its_tokens_names_the_rule(train, stops, legal):
    """The route model decides which routes are legal (``not-a-title-route`` otherwise);
    where the declared stops hold no legal choice of the company's tokens for the
    train, beginning and ending on one, the audit names 5.6.2.3 and 5.6.2.5
    (``tokens-run-to``) instead."""
    pos = _two_stations_and_a_yard()
    pos["trains"] = [train]
    result = audit(pos, _declare((train, stops)))
    assert [p.rule for p in result.problems] == ([] if legal else ["tokens-run-to"])
    if not legal:
        assert "5.6.2.3 and 5.6.2.5" in result.problems[0].message


def test_5_6_2_2_a_city_full_of_other_tokens_is_not_passed():
    # 5.6.2.2 "A vacancy on a city tile allows a train to pass through": B2 (10) full with
    # B's one Station blocks A's 3S between its Stations A1 (40) and C3 (40), so A has no
    # route (solve: 0) and the audit names the city; with a second, empty Station site
    # in B2 the same route passes it and earns (40 + 10) + (40 + 10) = 100.
    tokens = [("A1", 0, "A"), ("B2", 0, "B"), ("C3", 0, "A")]
    full = line([(40, [S]), (10, [S]), (40, [S])], trains=["3S"], tokens=tokens)
    assert solve(full).revenue == 0
    result = audit(full, _declare(("3S", "A1.0 B2.0 C3.0")))
    assert [p.rule for p in result.problems] == ["passes-blocked-city"]
    assert "B2.0 is full" in result.problems[0].message and "5.6.2.2" in result.problems[0].message
    vacancy = line([(40, [S]), (10, [S, S]), (40, [S])], trains=["3S"], tokens=tokens)
    result = audit(vacancy, _declare(("3S", "A1.0 B2.0 C3.0")))
    assert result.legal and result.declared_revenue == 100 == solve(vacancy).revenue


def test_5_6_2_1_a_city_entered_twice_names_the_rule():
    # 5.6.2.1 "A train may not use the same city hex twice": A1, B2 and A3 in a triangle,
    # A's Stations in A1 and A3 (40 each), B2 (10) a vacancy. The 4S may run A1 - B2 - A3
    # (50 + 50 = 100, B2 passed), not round the triangle back into A1 or B2.
    hexes = [city("A1", 40, [S], [[0, "s0"], [5, "s0"]]), city("B2", 10, [S], [[2, "s0"], [1, "s0"]]),
             city("A3", 40, [S], [[3, "s0"], [4, "s0"]])]
    pos = position(hexes, trains=["4S"], tokens=[("A1", 0, "A"), ("A3", 0, "A")])
    assert solve(pos).revenue == 100
    assert audit(pos, _declare(("4S", "A1.0 B2.0 A3.0"))).legal
    for stops, again in (("A1.0 B2.0 A3.0 A1.0", "A1.0"), ("B2.0 A1.0 A3.0 B2.0", "B2.0")):
        result = audit(pos, _declare(("4S", stops)))
        assert [p.rule for p in result.problems] == ["city-used-twice"]
        assert f"enters {again} a second time" in result.problems[0].message
        assert "5.6.2.1 and 5.6.7" in result.problems[0].message


def _delaware(south, rules=None, tokens=("A1", "B2", "A3")):
    """A1 the Delaware (40, A's Station), B2 (20) and A3 (10) in a triangle with it, C3
    (10) beyond B2; ``south``: the Delaware's two cities south (``revisit_after``)."""
    hexes = [city("A1", 40, [S], [[0, "s0"], [5, "s0"]], revisit_after=south),
             city("B2", 20, [S], [[2, "s0"], [1, "s0"], [5, "s0"]]),
             city("A3", 10, [S], [[3, "s0"], [4, "s0"]]), city("C3", 10, [S], [[2, "s0"]])]
    return position(hexes, trains=["5S"], tokens=[(h, 0, "A") for h in tokens], **({"rules": rules} if rules else {}))


def test_5_6_2_1_the_delaware_entered_again_before_both_cities_south_names_the_rule():
    # 5.6.2.1 "The Delaware large city may be run to twice by the same train, as long as
    # the train runs to both cities south of the large city before returning to the large
    # city". South B2 and A3: A1 - B2 - A3 - A1 runs to 50 + 30 + 20 + 50 = 150, either
    # way round. South B2 and C3: the same loop has not been to C3, so the best is
    # A1 - B2 - A3, 50 + 30 + 20 = 100, and the loop names the rule.
    legal = _delaware(["B2", "A3"])
    assert solve(legal).revenue == 150
    for stops in ("A1.0 B2.0 A3.0 A1.0", "A1.0 A3.0 B2.0 A1.0"):
        result = audit(legal, _declare(("5S", stops)))
        assert result.legal and result.declared_revenue == 150
    early = _delaware(["B2", "C3"])
    assert solve(early).revenue == 100
    result = audit(early, _declare(("5S", "A1.0 B2.0 A3.0 A1.0")))
    assert [p.rule for p in result.problems] == ["delaware-south"]
    assert "Delaware at A1.0 again" in result.problems[0].message and "5.6.2.1" in result.problems[0].message


def test_5_6_2_1_read_as_run_to_the_cities_south_need_a_token_each():
    # A3 holds no token of A. Entering both cities south (the default reading) lets the
    # loop back into the Delaware: 50 + 30 + 50 = 130, A3 passed. Read as "runs to" a token
    # in each (rules.delaware_south "run_to", docs/rules-1831.md) it may not: A1 - B2,
    # 50 + 30 = 80, and the loop names the rule.
    enter = _delaware(["B2", "A3"], tokens=("A1", "B2"))
    assert solve(enter).revenue == 130
    assert audit(enter, _declare(("5S", "A1.0 B2.0 A3.0 A1.0"))).legal
    run_to = _delaware(["B2", "A3"], {"delaware_south": "run_to"}, tokens=("A1", "B2"))
    assert solve(run_to).revenue == 80
    result = audit(run_to, _declare(("5S", "A1.0 B2.0 A3.0 A1.0")))
    assert [p.rule for p in result.problems] == ["delaware-south"]


@pytest.mark.parametrize("train, any_start, stops, legal", [
    ("5S", True, "A1.0 A3.0 B2.0 A1.0", True),
    ("5S", True, "A3.0 A1.0 B2.0 A3.0", True),     # either city starts it (5.6.7.2)
    ("5S", False, "A3.0 A1.0 B2.0 A3.0", False),   # "The run must start in" its first city (5.6.7.1)
    ("4S", True, "A1.0 A3.0 B2.0 A1.0", False),    # "Only 5-Trains or greater" (5.6.7.3)
    ("5MX", True, "A1.0 A3.0 B2.0 A1.0", False),   # "must run to Stations only" (5.6.7.2)
])
def test_5_6_7_a_commuter_run_out_of_its_terms_names_the_rule(train, any_start, stops, legal):
    """A1 and A3 (40 each, A's Stations) and B2 (10, a vacancy) in a triangle, a commuter
    run between A1 and A3: a 5S shuttles A1 - A3 - A1 on different track each pass, three
    visits of 40 + 10 = 150 (solve agrees); out of 5.6.7's terms the loop back into a
    city names 5.6.7 (``commuter-run``)."""
    hexes = [city("A1", 40, [S], [[0, "s0"], [5, "s0"]]), city("B2", 10, [S], [[2, "s0"], [1, "s0"]]),
             city("A3", 40, [S], [[3, "s0"], [4, "s0"]])]
    pos = position(hexes, trains=[train], tokens=[("A1", 0, "A"), ("A3", 0, "A")],
                   map_extra={"commuter_runs": [{"name": "BW", "cycle": ["A1", "A3"], "any_start": any_start}]})
    result = audit(pos, _declare((train, stops)))
    if legal:
        assert result.legal and result.declared_revenue == 150 == solve(pos).revenue
    else:
        assert [p.rule for p in result.problems] == ["commuter-run"]
        assert "5.6.7" in result.problems[0].message

"""The audit of a declared run: one declaration per rule that breaks exactly that rule,
valuation and the gain of the best run, track choice when stops alone are ambiguous,
the command's exit codes, and a randomized round trip (solve, declare back, audit)."""

import copy
import json
import subprocess
import sys

import pytest
from boards import random_position

import trainruns
from trainruns.cli.main import main
from trainruns.errors import InputError
from trainruns.route.board import Bonus, RouteModel
from trainruns.services.audit import audit, read_declaration


def _hex(hid, stops=(), paths=(), junctions=0):
    return {"id": hid, "stops": list(stops), "paths": [list(p) for p in paths], "junctions": junctions}


def city(value, slots=1):
    return {"kind": "city", "value": value, "slots": slots}


def town(value):
    return {"kind": "town", "value": value}


# A flat map with one of each situation (doubled coordinates: side 0 south, 3 north,
# 1 south-west, 2 north-west, 4 north-east, 5 south-east):
#
# - a line A1 (token) - A3 - A5 (town) - A7 - A9 (off-board) - A11 (town);
# - a triangle A1 - B2 (town) - A3 - A1, so a route can come back to A1 on fresh track;
# - A3 - B4 (full of X's tokens) - C5;
# - E1, a city with no track;
# - F2 (token) and H2 joined through a junction in G1, with the town G3 on a spur of it;
# - J2 holds two token cities P (J2.0) and Q (J2.1) joined directly and through a
#   junction, and the junction leads on to R (J4.0): P-Q is ambiguous, Q-R is not.
MAP = {
    "layout": "flat",
    "hexes": [
        _hex("A1", [city(20, 2)], [[0, "s0"], ["s0", 5]]),
        _hex("A3", [city(30)], [[3, "s0"], ["s0", 0], [4, "s0"], ["s0", 5]]),
        _hex("B2", [town(10)], [[2, "s0"], ["s0", 1]]),
        _hex("A5", [town(10)], [[3, "s0"], ["s0", 0]]),
        _hex("A7", [city(40)], [[3, "s0"], ["s0", 0]]),
        _hex("A9", [{"kind": "offboard", "value": 50}], [[3, "s0"], ["s0", 0]]),
        _hex("A11", [town(20)], [[3, "s0"]]),
        _hex("B4", [city(20)], [[2, "s0"], ["s0", 5]]),
        _hex("C5", [city(10)], [[2, "s0"]]),
        _hex("E1", [city(10)]),
        _hex("F2", [city(30)], [[4, "s0"]]),
        _hex("G1", [], [[1, "j0"], [5, "j0"], [0, "j0"]], junctions=1),
        _hex("H2", [city(20)], [[2, "s0"]]),
        _hex("G3", [town(10)], [[3, "s0"]]),
        _hex("J2", [city(30), city(20)], [["s0", "s1"], ["s0", "j0"], ["j0", "s1"], ["j0", 0]],
             junctions=1),
        _hex("J4", [city(10)], [[3, "s0"]]),
    ],
}
POSITION = {
    "map": MAP,
    "corporation": "A",
    "trains": ["2", "3", "99", "2+1", "3/4"],
    "tokens": [{"hex": "A1", "stop": 0, "corporation": "A"},
               {"hex": "B4", "stop": 0, "corporation": "X"},
               {"hex": "F2", "stop": 0, "corporation": "A"},
               {"hex": "J2", "stop": 0, "corporation": "A"},
               {"hex": "J2", "stop": 1, "corporation": "A"}],
}


@pytest.fixture(scope="module")
def board():
    return trainruns.load_position(copy.deepcopy(POSITION))


@pytest.fixture(scope="module")
def best(board):
    return trainruns.solve(board)


def declare(*routes):
    """declare(("2", "A1.0 A3.0"), ("3", "F2.0 H2.0", ["F2", "G1", "H2"]), ...)"""
    out = []
    for r in routes:
        d = {"train": r[0], "stops": r[1].split()}
        if len(r) > 2:
            d["hexes"] = r[2]
        out.append(d)
    return {"routes": out}


def rules(board, best, *routes):
    result = audit(board, declare(*routes), best=best)
    return [p.rule for p in result.problems]


# --- legal declarations report nothing ---------------------------------------------

@pytest.mark.parametrize("routes", [
    [("2", "A1.0 A3.0")],
    [("3/4", "A1.0 A3.0 A5.0 A7.0")],
    [("99", "A1.0 A3.0 B4.0")],                  # a blocked city may end a route
    [("99", "B4.0 A3.0 A1.0 B2.0")],             # ... or start it
    [("2+1", "A1.0 A3.0 A5.0")],                 # two non-towns and a town
    [("99", "A1.0 A3.0 A5.0 A7.0 A9.0")],        # an off-board may end a route
    [("3", "F2.0 H2.0")],
    [("3", "F2.0 G3.0")],
    [("2", "A1.0 A3.0"), ("3", "A1.0 B2.0")],    # trains share a city, not track
    [("99", "A7.0 A5.0 A3.0 A1.0 B2.0")],
])
def test_legal_declarations_report_no_problem(board, best, routes):
    assert rules(board, best, *routes) == []


# --- one declaration per problem -----------------------------------------------------

@pytest.mark.parametrize("routes, expected", [
    ([("8", "A1.0 A3.0")], ["unknown-train"]),
    ([("2", "A1.0 A3.0"), ("2", "A1.0 B2.0")], ["train-declared-twice"]),
    ([("3", "A1.0 A3.0 A3.4")], ["unknown-stop"]),
    ([("3", "A1.0 A3.0 Z9.0")], ["unknown-stop"]),
    ([("2", "A1.0 A3.0", ["A1", "Z99", "A3"])], ["unknown-hex"]),
    ([("2", "A1.0")], ["too-few-stops"]),
    ([("2", "")], ["too-few-stops"]),
    ([("2", "A1.0 A3.0 A5.0")], ["too-many-stops"]),
    ([("2+1", "A1.0 A3.0 B4.0")], ["too-many-stops"]),          # three non-towns
    ([("3/4", "A1.0 A3.0 A5.0 A7.0 A9.0")], ["too-many-stops"]),
    ([("99", "A1.0 B2.0 A3.0 A1.0")], ["stop-repeated"]),
    ([("99", "A1.0 A3.0 A5.0 A7.0 A9.0 A11.0")], ["passes-offboard"]),
    ([("99", "A1.0 A3.0 B4.0 C5.0")], ["passes-blocked-city"]),
    ([("2", "A3.0 A5.0")], ["no-token"]),
    ([("2", "A1.0 E1.0")], ["stops-not-connected"]),
    ([("3", "A1.0 A5.0")], ["stops-not-connected"]),            # A3 is in the way
    ([("3", "F2.0 G3.0 H2.0")], ["track-reused"]),              # G3 is on a spur
    ([("2", "A1.0 A3.0", ["A1", "B2", "A3"])], ["hexes-not-followed"]),
    ([("2", "A1.0 A3.0"), ("3", "A3.0 A1.0")], ["track-shared"]),
])
def test_each_problem_alone(board, best, routes, expected):
    assert rules(board, best, *routes) == expected


def test_every_problem_is_reported_not_just_the_first(board, best):
    got = rules(board, best, ("2", "A3.0 A5.0 A7.0"), ("8", "A1.0 E1.0"), ("3", "A1.0 A3.0 A1.0"))
    assert got == ["unknown-train", "too-many-stops", "no-token", "stops-not-connected",
                   "stop-repeated", "track-reused"]


def test_problem_names_train_and_says_why(board, best):
    result = audit(board, declare(("2", "A3.0 A5.0")), best=best)
    (p,) = result.problems
    assert p.train == "2" and p.rule == "no-token"
    assert "token of A" in p.message and p.message.endswith(".")


def test_stop_the_corporation_may_not_enter(board, best):
    b = copy.deepcopy(board)
    b.hexes["A5"].stops[0].enterable = False   # as 1832's Coal Fields without a WVCF token
    b.hexes["A5"].stops[0].passable = False
    run = trainruns.solve(b)
    assert rules(b, run, ("3", "A1.0 A3.0 A5.0")) == ["stop-not-enterable"]
    assert rules(b, run, ("99", "A1.0 A3.0 A5.0 A7.0")) == ["stop-not-enterable"]
    assert rules(b, run, ("99", "A1.0 A3.0")) == []


# --- track choice --------------------------------------------------------------------

def test_ambiguous_track_only_one_choice_keeps_trains_apart(board, best):
    # P-Q runs direct or through the junction; Q-R needs the junction, so the 2-train
    # must take the direct path.
    result = audit(board, declare(("2", "J2.0 J2.1"), ("3", "J2.1 J4.0")), best=best)
    assert result.legal
    j2 = board.hexes["J2"].paths
    assert [j2[k] for _, k in result.routes[0].track] == [(("stop", 0), ("stop", 1))]


def test_ambiguous_track_no_choice_works(board, best):
    # R-Q-P: its Q-P leg cannot reuse the junction, so it takes the direct path, and
    # the 2-train's P-Q has nothing left.
    assert rules(board, best, ("2", "J2.0 J2.1"), ("3", "J4.0 J2.1 J2.0")) == ["track-shared"]


def test_three_trains_that_fit_in_pairs_but_not_together(board, best):
    result = audit(board, declare(("2", "J2.0 J2.1"), ("3", "J2.1 J2.0"), ("99", "J2.1 J4.0")),
                   best=best)
    assert [p.rule for p in result.problems] == ["track-shared"]
    assert "2-train" in result.problems[0].message and "99-train" in result.problems[0].message


def test_hexes_pin_the_track(board, best):
    assert rules(board, best, ("2", "J2.0 J2.1", ["J2"]), ("3", "J2.1 J4.0", ["J2", "J4"])) == []
    # a pin that the stops cannot follow
    assert rules(board, best, ("3", "F2.0 H2.0", ["F2", "H2"])) == ["hexes-not-followed"]
    assert rules(board, best, ("3", "F2.0 H2.0", ["F2", "G1", "H2"])) == []


# --- value and the best run ----------------------------------------------------------

def test_optimum_declared_back_is_legal_with_no_gain(board, best):
    decl = {"routes": [{"train": r["train"], "stops": r["stops"], "hexes": r["hexes"]}
                       for r in best.to_json()["routes"]]}
    result = audit(board, decl, best=best)
    assert result.legal and result.difference == 0
    assert result.declared_revenue == best.revenue == result.best_revenue


def test_weaker_legal_run_reports_its_value_and_the_gain(board, best):
    result = audit(board, declare(("2", "A1.0 A3.0"), ("3/4", "J2.0 J2.1")), best=best)
    assert result.legal
    assert [r.revenue for r in result.routes] == [50, 50]
    assert result.declared_revenue == 100
    assert result.best_revenue == best.revenue > 100
    assert result.difference == best.revenue - 100
    out = result.to_json()
    assert out["legal"] is True and out["problems"] == []
    assert out["declared_revenue"] == 100 and out["best_revenue"] == best.revenue
    assert f"a better run exists: +${best.revenue - 100}" in out["verdict"]
    assert out["best"]["revenue"] == best.revenue


def test_count_of_train_counts_its_best_stops_with_a_token_city(board, best):
    # 3/4 on A1 (20, token) A3 (30) A5 (10) A7 (40): the best three are 40, 30, 20.
    (r,) = audit(board, declare(("3/4", "A1.0 A3.0 A5.0 A7.0")), best=best).routes
    assert r.revenue == 90 and r.counted == [True, True, False, True]
    # 3/4 on A7 (40) A5 (10) A3 (30) B2 (10) A1 (20, token) would count 40 + 30 + 10 without
    # a token city; the token city replaces the weakest counted stop. (Five stops are too
    # many for a 3/4, but the value is still what the rules would pay.)
    (r,) = audit(board, declare(("99", "B2.0 A3.0 A1.0")), best=best).routes
    assert r.revenue == 60


def test_bonus_is_valued_as_the_search_values_it(board):
    b = copy.deepcopy(board)
    b.trains = [t for t in b.trains if t.name == "99"]
    b.bonuses = [Bonus("line", 30, (frozenset({("A1", 0)}), frozenset({("A7", 0)})))]
    run = trainruns.solve(b)
    (r,) = audit(b, declare(("99", "A1.0 A3.0 A5.0 A7.0")), best=run).routes
    assert r.revenue == 20 + 30 + 10 + 40 + 30 and r.bonuses == [("line", 30)]
    decl = {"routes": [{"train": x.train, "stops": x.stop_labels()} for x in run.routes]}
    assert audit(b, decl, best=run).declared_revenue == run.revenue


def test_illegal_declaration_is_still_valued(board, best):
    result = audit(board, declare(("2", "A1.0 A3.0 A5.0")), best=best)
    assert not result.legal and result.declared_revenue == 50   # the best two of three


# --- bad input -----------------------------------------------------------------------

@pytest.mark.parametrize("decl", [
    [], {"route": []}, {"routes": {}}, {"routes": [3]}, {"routes": [{"stops": ["A1.0"]}]},
    {"routes": [{"train": "2"}]}, {"routes": [{"train": "2", "stops": ["A1"]}]},
    {"routes": [{"train": "2", "stops": ["a1.0"]}]}, {"routes": [{"train": "2", "stops": [1]}]},
    {"routes": [{"train": "2", "stops": ["A1.0"], "hexes": "A1"}]},
    {"routes": [{"train": ["2"], "stops": ["A1.0"]}]},
])
def test_malformed_declaration_is_bad_input(decl):
    with pytest.raises(InputError):
        read_declaration(decl)


def test_train_may_be_a_number():
    assert read_declaration({"routes": [{"train": 2, "stops": ["A1.0", "A3.0"]}]}) == \
        [("2", ["A1.0", "A3.0"], None)]


# --- the command ---------------------------------------------------------------------

@pytest.fixture()
def files(tmp_path):
    pos = tmp_path / "position.json"
    pos.write_text(json.dumps(POSITION))

    def write(decl, name="declared.json"):
        p = tmp_path / name
        p.write_text(decl if isinstance(decl, str) else json.dumps(decl))
        return str(p)

    return str(pos), write


def test_cli_exit_codes(files, capsys):
    pos, write = files
    assert main(["audit", pos, write(declare(("2", "A1.0 A3.0"))), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is True and out["declared_revenue"] == 50 and out["problems"] == []
    assert set(out) >= {"legal", "declared_revenue", "best_revenue", "problems", "routes", "best"}

    assert main(["audit", pos, write(declare(("2", "A1.0 A3.0 A5.0"), ("9", "A1.0 A3.0"))), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is False
    # the unknown 9-train does not run, so it shares no track with the 2-train
    assert [(p["train"], p["rule"]) for p in out["problems"]] == [("9", "unknown-train"),
                                                                   ("2", "too-many-stops")]

    assert main(["audit", pos, write("{not json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "malformed JSON" in err
    assert main(["audit", pos, write({"routes": [{"train": "2", "stops": ["A1-0"]}]})]) == 2
    assert main(["audit", pos, write({"trains": []})]) == 2
    assert main(["audit", pos, "/nonexistent/declared.json"]) == 2


def test_cli_human_output_says_better_run_exists(files, capsys):
    pos, write = files
    assert main(["audit", pos, write(declare(("2", "A1.0 A3.0")))]) == 0
    out = capsys.readouterr().out
    assert "a better run exists: +$" in out and "Best run" in out


def test_cli_subprocess_exit_code_and_one_line_error(files):
    pos, write = files
    bad = subprocess.run([sys.executable, "-m", "trainruns", "audit", pos, write({"routes": 1})],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
    illegal = subprocess.run([sys.executable, "-m", "trainruns", "audit", pos,
                              write(declare(("2", "A3.0 A5.0"))), "--json"],
                             capture_output=True, text=True)
    assert illegal.returncode == 1
    assert json.loads(illegal.stdout)["problems"][0]["rule"] == "no-token"


# --- a shipped title ---------------------------------------------------------------

def test_1832_coal_fields_without_token_cites_the_rulebook():
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "fixtures" / "1832" / "03-phase3-coal-fields-with-token.json"
    data = json.loads(path.read_text())
    with_token = trainruns.load_position(copy.deepcopy(data))
    run = trainruns.solve(with_token)
    decl = {"routes": [{"train": r.train, "stops": r.stop_labels()} for r in run.routes]}
    assert audit(with_token, decl, best=run).legal
    data["coal_token"] = False
    result = audit(trainruns.load_position(data), decl)
    assert [p.rule for p in result.problems] == ["stop-not-enterable"]
    assert "[8.1 c]" in result.problems[0].message and result.difference < 0


# --- randomized: the best run, declared back, is legal and worth the same -----------

@pytest.mark.parametrize("seed", range(60))
def test_best_run_declared_back_is_legal_and_worth_the_same(seed):
    board = trainruns.load_position(random_position(seed))
    run = trainruns.solve(board)
    plain = {"routes": [{"train": r.train, "stops": r.stop_labels()} for r in run.routes]}
    pinned = {"routes": [{"train": r["train"], "stops": r["stops"], "hexes": r["hexes"]}
                         for r in run.to_json()["routes"]]}
    for decl in (plain, pinned):
        result = audit(board, decl, best=run)
        assert result.problems == []
        assert result.declared_revenue == run.revenue
        assert [r.revenue for r in result.routes] == [r.revenue for r in run.routes]
        assert result.difference == 0


# --- randomized: legality agrees with the search's own list of legal routes ----------

def _oracle(routes, decl_routes, board):
    """Legal iff each declared route is some enumerated route (either direction) its
    train may run, with pairwise disjoint track: brute force over the route set."""
    from collections import Counter

    owned = Counter(t.name for t in board.trains)
    if any(n > owned[name] for name, n in Counter(t for t, _ in decl_routes).items()):
        return False, None
    comp = routes.compiled
    options = []
    for train, labels in decl_routes:
        try:
            ids = tuple(comp.stop_id((l.split(".")[0], int(l.split(".")[1]))) for l in labels)
        except KeyError:
            return False, None
        kind = routes.kinds.index(train)
        opts = []
        for k in range(len(routes)):
            stops = tuple(routes.stops[routes.ptr[k]:routes.ptr[k + 1]].tolist())
            if (stops == ids or stops[::-1] == ids) and routes.values[k, kind] >= 0:
                opts.append((sum(int(w) << (64 * j) for j, w in enumerate(routes.bits[k])),
                             int(routes.values[k, kind])))
        options.append(opts)

    def go(i, used):
        if i == len(options):
            return 0
        for mask, value in options[i]:
            if not used & mask:
                rest = go(i + 1, used | mask)
                if rest is not None:
                    return value + rest
        return None

    total = go(0, 0)
    return total is not None, total


@pytest.mark.parametrize("seed", range(40))
def test_legality_agrees_with_the_route_set(seed):
    import random

    from trainruns.route.compile import compile_board
    from trainruns.route.enumeration import enumerate_all

    rng = random.Random(1000 + seed)
    board = trainruns.load_position(random_position(seed, trains=["2", "3", "99", "3", "2+1", "2/3"]))
    routes = enumerate_all(compile_board(board))
    run = trainruns.solve(board)
    labels = [board.stop_label(ref) for ref in board.stop_refs()]
    set_routes = [[board.stop_label(routes.compiled.stop_refs[s])
                   for s in routes.stops[routes.ptr[k]:routes.ptr[k + 1]]] for k in range(len(routes))]
    if not set_routes or not labels:
        pytest.skip("no route on this board")
    for _ in range(25):
        decl = []
        for t in rng.sample(board.trains, rng.randint(1, 3)):
            stops = list(rng.choice(set_routes))
            if rng.random() < 0.5:
                stops.reverse()
            roll = rng.random()
            if roll < 0.15:
                stops.append(rng.choice(labels))
            elif roll < 0.3 and len(stops) > 2:
                stops.pop(rng.randrange(len(stops)))
            elif roll < 0.45:
                i, j = rng.randrange(len(stops)), rng.randrange(len(stops))
                stops[i], stops[j] = stops[j], stops[i]
            decl.append((t.name, stops))
        legal, value = _oracle(routes, decl, board)
        result = audit(board, {"routes": [{"train": t, "stops": s} for t, s in decl]}, best=run)
        assert result.legal == legal, (decl, [p.to_json() for p in result.problems])
        if legal:
            assert result.declared_revenue == value
        else:
            assert result.problems


# --- a title with its own route model (as 1831's token-to-token runs) ----------------

class TokenToToken(RouteModel):
    """A toy route model (it declares board.RouteModel): the plain routes whose two ends
    both hold the company's token."""

    def routes(self, compiled, kinds, deadline, progress, limits=None):
        import numpy as np

        from trainruns.route.enumeration import enumerate_all
        from trainruns.route.routeset import RouteSet

        board = compiled.board
        board.route_model = None
        try:
            rs = enumerate_all(compiled)
        finally:
            board.route_model = self
        keep = [k for k in range(len(rs))
                if compiled.stop_own[rs.stops[rs.ptr[k]]] and compiled.stop_own[rs.stops[rs.ptr[k + 1] - 1]]]
        parts = [np.arange(rs.ptr[k], rs.ptr[k + 1]) for k in keep]
        idx = np.concatenate(parts) if parts else np.zeros(0, np.int64)
        ptr = np.concatenate([[0], np.cumsum([len(p) for p in parts])]).astype(np.int64)
        return RouteSet(compiled, ptr, rs.stops[idx], rs.chains[idx], rs.split[keep], rs.bits[keep],
                        rs.kinds, rs.values[keep])


def test_route_model_title_checks_routes_against_the_model(board):
    b = copy.deepcopy(board)
    b.route_model = TokenToToken()
    run = trainruns.solve(b)
    assert rules(b, run, ("3", "J2.0 J2.1")) == []
    assert rules(b, run, ("3", "J2.1 J4.0")) == ["not-a-title-route"]
    assert rules(b, run, ("99", "A1.0 A3.0")) == ["not-a-title-route"]
    # the model decides route shape and length; the generic facts are still named
    assert rules(b, run, ("2", "A3.0 A5.0")) == ["not-a-title-route"]
    assert rules(b, run, ("2", "A1.0 Z9.0")) == ["unknown-stop"]
    assert rules(b, run, ("2", "A1.0 E1.0")) == ["stops-not-connected"]
    assert rules(b, run, ("2", "J2.0 J2.1"), ("3", "J2.1 J2.0")) == []
    assert rules(b, run, ("2", "J2.0 J2.1"), ("3", "J2.1 J2.0"), ("99", "J2.0 J2.1")) == ["track-shared"]
    decl = {"routes": [{"train": r.train, "stops": r.stop_labels()} for r in run.routes]}
    result = audit(b, decl, best=run)
    assert result.legal and result.declared_revenue == run.revenue


# --- every shipped title: its fixtures' best runs, declared back, are legal ----------

def _title_fixtures():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "fixtures"
    return sorted(str(p) for title in ("1831", "1832", "1833NE") for p in (root / title).glob("*.json"))


@pytest.mark.parametrize("path", _title_fixtures(), ids=lambda p: "/".join(p.split("/")[-2:]))
def test_shipped_title_best_run_declared_back(path):
    board = trainruns.load_position(path)
    run = trainruns.solve(board)
    for reverse in (False, True):
        decl = {"routes": [{"train": r["train"], "stops": r["stops"][::-1] if reverse else r["stops"]}
                           | ({} if reverse else {"hexes": r["hexes"]})
                           for r in run.to_json()["routes"]]}
        result = audit(board, decl, best=run)
        assert result.problems == [] and result.declared_revenue == run.revenue
    if run.routes:
        # dropping the first route's last stop is legal or named, never silently worth the same
        r = run.routes[0]
        decl = {"routes": [{"train": r.train, "stops": r.stop_labels()[:-1]}]}
        result = audit(board, decl, best=run)
        assert result.problems or result.declared_revenue <= run.revenue

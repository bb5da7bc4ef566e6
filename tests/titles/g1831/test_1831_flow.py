"""The 1831 flow model (titles/g1831/route/flow.py), which finds the run without listing
token-to-token paths, against the plain-Python brute force of tests/boards1831.py and
against the path-listing engine.

The flow model takes over from listing only on boards whose paths would not fit the
memory budget (or past ``PATH_LIMIT`` paths, or a too long commuter walk); here
``PATH_LIMIT`` is set to 0 so that it answers every board. The random boards carry every rule the model states: typed sites and S /
YD / MX trains with given mixed counts (5.6.2.3), other corporations' tokens that block
(5.6.2), red extensions (5.2.3.10), the Delaware revisit in both readings (5.6.2.1),
``pass_own_tokens: false``, bought track rights (5.5, 5.6.5) and commuter runs (5.6.7).
"""

import pytest
from boards1831 import (brute_force, city, position, random_commuter_position, random_position,
                        random_two_commuter_position)

from trainruns import solve
from trainruns.errors import InputError
from trainruns.services.generate import board_1831
from trainruns.titles.g1831.route import model as model_1831


@pytest.fixture
def flow_only(monkeypatch):
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)


def _check(pos):
    expected = brute_force(pos)
    if expected is None:
        # 5.6.5: no run uses every bought right
        with pytest.raises(InputError):
            solve(pos)
        return False
    run = solve(pos)
    assert run.optimal
    assert run.revenue == expected
    return True


@pytest.mark.parametrize("chunk", range(4))
def test_5_6_flow_model_matches_brute_force(flow_only, chunk):
    checked = sum(_check(random_position(seed)) for seed in range(chunk, 160, 4))
    assert checked > 20


def test_5_6_2_3_two_trains_of_one_name_the_flow_model_finds_the_best(flow_only):
    """flow._larger_runs_more: of two trains of one type, the smaller runs only if the
    larger does and to no more tokens, two of one name in their order (their paths
    swapped, the run earns the same, 5.6.2.3). The random boards' pairs are of two
    sizes; here each board's first train twice, against the brute force."""
    checked = 0
    for seed in range(0, 120, 3):
        pos = random_position(seed)
        pos["trains"] = [pos["trains"][0]] * 2
        checked += _check(pos)
    assert checked > 20


def test_5_6_2_3_two_trains_of_one_name_a_short_part_finds_the_best_without_the_symmetry_rule(flow_only,
                                                                                               monkeypatch):
    """A part given flow.PART_SECONDS or less runs CP-SAT's core search alone, which
    looks for the best run slower with _larger_runs_more, so the rule is left out
    there (the larger train then may run fewer tokens than the smaller) and kept in a
    part held above a run: the best run all the same, as the brute force finds it
    (5.6.2.3), each board's first train twice."""
    import time

    from trainruns.titles.g1831.route import flow
    from trainruns.titles.g1831.route.first import FirstRun

    added = []
    rule = flow._larger_runs_more
    monkeypatch.setattr(flow, "_larger_runs_more", lambda *a: added.append(1) or rule(*a))
    checked = []
    for seed in range(1, 60, 3):
        pos = random_position(seed)
        pos["trains"] = [pos["trains"][0]] * 2
        expected = brute_force(pos)
        if expected is None:
            continue
        run = solve(pos, time_limit=flow.PART_SECONDS / 2)
        assert run.optimal and run.revenue == expected
        checked.append((pos, expected))
    assert len(checked) > 10
    # the two parts of the first board, called directly
    pos, expected = checked[0]
    model, arrays, _, _ = _model(pos)
    trains = list(model.board.trains)
    short = time.perf_counter() + flow.PART_SECONDS / 2
    added.clear()
    assert flow.solve(arrays, trains, deadline=short, commute="none", revisit="none")[2] is not None
    assert not added   # looking for the best run: no rule
    flow.solve(arrays, trains, deadline=short, commute="none", revisit="none", hold=True,
               first=FirstRun([], expected, 0))
    assert added       # held above a run: the rule


@pytest.mark.parametrize("chunk", range(2))
def test_5_6_7_flow_model_matches_brute_force_on_commuter_runs(flow_only, chunk):
    checked = sum(_check(random_commuter_position(seed)) for seed in range(chunk, 60, 2))
    assert checked > 20


def _commuter_boards(chunk):
    """The random commuter boards ``chunk`` of two, as ``(best run, best run without a
    commuter run, arrays, trains)`` by the brute force (5.6.7; 0 where no run without
    one runs to every right), the boards with no legal run left out."""
    import copy

    for seed in range(chunk, 60, 2):
        pos = random_commuter_position(seed)
        best = brute_force(pos)
        if best is None:
            continue
        plain = copy.deepcopy(pos)
        plain["map"].pop("commuter_runs", None)
        model, arrays, _, _ = _model(pos)
        yield best, brute_force(plain) or 0, arrays, list(model.board.trains)


@pytest.mark.parametrize("chunk", range(2))
def test_5_6_7_the_paths_alone_then_the_runs_with_a_commuter_run_find_the_best(chunk):
    """flow.solve's ``commute`` (Model1831._paths_first's two steps) against the brute
    force. "none": the best run without a commuter run, proven so (the brute force of
    the board with its commuter runs taken away, 5.6.7); "only", held above it: the
    board's best run when that has a commuter run and earns more, else no run, and
    either way proven."""
    from trainruns.titles.g1831.route import flow
    from trainruns.titles.g1831.route.first import FirstRun

    checked = above = 0
    for best, best_plain, arrays, trains in _commuter_boards(chunk):
        chosen, proven, bound = flow.solve(arrays, trains, commute="none")
        known = sum(flow._value(arrays, trains, c) for c in chosen)
        assert not any(is_commuter for *_, is_commuter, _mask in chosen)
        assert known == best_plain and bound == known   # (the optimum of the model, commuter runs left out)
        chosen, proven, _ = flow.solve(arrays, trains, commute="only", first=FirstRun([], known, 0), hold=True)
        assert proven
        if best > known:
            above += 1
            assert any(is_commuter for *_, is_commuter, _mask in chosen)
            assert sum(flow._value(arrays, trains, c) for c in chosen) == best
        else:
            assert not chosen
        checked += 1
    assert checked > 20 and above > 0


@pytest.mark.parametrize("chunk", range(2))
def test_5_6_7_the_runs_with_a_commuter_run_circuit_by_circuit_find_the_best(chunk):
    """flow.solve's ``commute`` as a circuit's number (its other commuter circuits left
    out) and ``"several"`` (two commuter runs or more), each held above the best run
    without a commuter run (Model1831._paths_first's commuter parts): the best of them
    is the board's best run when that has a commuter run and earns more (the brute
    force, 5.6.7), else none finds a run; every part proven. A circuit's part finds runs
    with one commuter run, "several" with two or more."""
    from trainruns.titles.g1831.route import flow
    from trainruns.titles.g1831.route.first import FirstRun

    checked = above = several = 0
    for best, known, arrays, trains in _commuter_boards(chunk):
        owners = flow.commuter_circuits(arrays, trains)
        found = known
        for part in [*range(len(owners)), "several"]:
            chosen, proven, _ = flow.solve(arrays, trains, commute=part, first=FirstRun([], known, 0), hold=True)
            assert proven
            if chosen:
                commuting = [c for c in chosen if c[4]]
                assert len(commuting) >= 2 if part == "several" else len(commuting) == 1
                found = max(found, sum(flow._value(arrays, trains, c) for c in chosen))
        several += len(set(owners)) > 1
        above += best > known
        assert found == best
        checked += 1
    assert checked > 20 and above > 0 and several > 0


def test_5_6_7_the_flow_models_commuter_parts_bounded_by_the_track_prices_are_skipped(monkeypatch):
    # Model1831._paths_first asks CP-SAT for a commuter part only where the track prices
    # (two trains held to commuter runs for the runs with two, 5.6.7) do not bound it at
    # the best run so far: with the flow model forced, the run is the one listing (the
    # independent engine) proves best, on boards where two commuter runs may run at
    # once (the brute force held to them finds some); on some the best run has two
    # commuter runs; some parts for two commuter runs are so skipped, and some are asked
    boards = []
    for seed in range(900):
        pos = random_two_commuter_position(seed)
        both = brute_force(pos, commuting=pos["trains"]) if "commuter_runs" in pos["map"] else None
        if both is not None:   # (None too where a train rusted)
            listed = solve(pos)
            assert listed.optimal
            boards.append((seed, pos, both, listed.revenue))
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)
    asked = []
    orig = model_1831.Model1831._part_bounded

    def watched(self, arrays, part, *a):
        out = orig(self, arrays, part, *a)
        asked.append((part, out))
        return out

    monkeypatch.setattr(model_1831.Model1831, "_part_bounded", watched)
    for seed, pos, both, best in boards:
        run = solve(pos, time_limit=60)
        assert run.optimal and run.revenue == best, seed
    several = [out for part, out in asked if part == "several"]
    assert len(boards) >= 30 and any(both == best for _, _, both, best in boards)
    assert True in several and False in several


def test_5_6_2_1_the_runs_entering_the_delaware_once_then_those_entering_it_twice_find_the_best():
    """flow.solve's ``revisit`` (Model1831._paths_first's first two parts) against the
    brute force on the random boards with the Delaware. "none": the best run that
    enters the Delaware city once at most (the brute force of the board without its
    second entry, 5.6.2.1), not called proven; "only", held above it: the board's best
    run when that enters it twice and earns more, else no run; either way settled. That
    run handed to the first part as its first run comes back settled, as the best of it."""
    import copy

    from trainruns.titles.g1831.route import flow
    from trainruns.titles.g1831.route.first import FirstRun

    checked = above = 0
    for seed in range(160):
        pos = random_position(seed)
        if not any("revisit_after" in h for h in pos["map"]["hexes"]):
            continue
        best = brute_force(pos)
        if best is None:
            continue
        once = copy.deepcopy(pos)
        for h in once["map"]["hexes"]:
            h.pop("revisit_after", None)
        once.get("rules", {}).pop("delaware_south", None)
        best_once = brute_force(once) or 0   # (None: no such run runs to every right)
        model, arrays, _, _ = _model(pos)
        trains = list(model.board.trains)
        out = flow.solve(arrays, trains, revisit="none")
        if out is None:
            continue   # (a Delaware of several stops: the model lists paths instead)
        chosen, proven, bound = out
        known = sum(flow._value(arrays, trains, c) for c in chosen)
        assert known == best_once and bound == known and not proven
        chosen, proven, bound = flow.solve(arrays, trains, revisit="only", first=FirstRun([], known, 0), hold=True)
        assert proven   # (no run left out: the whole model, held to runs entering it twice)
        if best > known:
            above += 1
            assert sum(flow._value(arrays, trains, c) for c in chosen) == best
            # that run as the first run of the model without the second entry: CP-SAT's
            # best earns less, so the first run comes back, settled (its revenue the
            # bound: no run of the model beats it), not proven (runs were left out)
            first = FirstRun([(ti, st, ch, mask, flow._value(arrays, trains, (ti, st, ch, vis, c, mask)))
                              for ti, st, ch, vis, c, mask in chosen], best, 0)
            again, proven, bound = flow.solve(arrays, trains, revisit="none", first=first)
            assert sum(flow._value(arrays, trains, c) for c in again) == best
            assert bound == best and not proven
        else:
            assert not chosen
        checked += 1
    assert checked > 20 and above > 0


def _flow_alone(pos, expected):
    """The flow model alone on a board worked by hand: the brute force agrees with the
    hand's ``expected``, and so does the model's run, proven. Returns (arrays, trains,
    the model's routes)."""
    from trainruns.titles.g1831.route import flow

    assert brute_force(pos) == expected
    model, arrays, _, _ = _model(pos)
    trains = list(model.board.trains)
    chosen, proven, bound = flow.solve(arrays, trains)
    assert proven and bound == expected
    assert sum(flow._value(arrays, trains, c) for c in chosen) == expected
    return arrays, trains, chosen


def test_5_6_2_a_stop_of_three_tracks_is_passed_by_one_path_and_ended_at_by_another(monkeypatch):
    """5.6.2: a path passing a stop leaves it by two of its tracks, a path ending there
    by one, and no two paths share a track. C3 (40, our Station: 50 in phase 3) has three
    tracks out, to B2 (30), C5 (30) and D2 (20), each with our Station (+10) and no other
    track. Worked by hand: the 3S runs B2 - C3 - C5 (40 + 50 + 40 = 130), passing C3 by
    two tracks; the 2S runs C3 - D2 (50 + 30 = 80) on the third; 210. A second path
    through C3 would need four tracks. The flow model's cut (``_odd_passes``: at most
    3 // 2 = 1 path passes C3, none passes a stop of one track) is on all four stops and
    keeps that run: a cut counting the 2S's end at C3 as a pass would leave 130."""
    from trainruns.titles.g1831.route import flow

    cuts = []
    real = flow._odd_passes
    monkeypatch.setattr(flow, "_odd_passes", lambda *a: cuts.append(real(*a)) or cuts[-1])
    S = "station"
    hexes = [city("C3", 40, [S], [[0, "s0"], [2, "s0"], [4, "s0"]]),
             city("B2", 30, [S], [[5, "s0"]]), city("D2", 20, [S], [[1, "s0"]]), city("C5", 30, [S], [[3, "s0"]])]
    pos = position(hexes, trains=["3S", "2S"], tokens=[("C3", 0, "A"), ("B2", 0, "A"), ("D2", 0, "A"), ("C5", 0, "A")])
    arrays, trains, chosen = _flow_alone(pos, 210)
    assert cuts == [4]
    c3 = [s for s, ref in enumerate(arrays.compiled.stop_refs) if ref[0] == "C3"]
    passing = [c for c in chosen if set(c[1][1:-1]) & set(c3)]
    assert len(passing) == 1 and len(chosen) == 2


@pytest.mark.parametrize("per_run", [1, 2])
@pytest.mark.parametrize("second_way, expected", [(False, 100), (True, 200)])
def test_5_6_2_two_runs_between_two_stops_take_two_chains(second_way, expected, per_run, monkeypatch):
    """flow_track.Track, worked by hand (5.6.2: no track twice; 5.6.3: city + $10
    Station). B2 and D2 (40 each, our Stations) are joined by plain track through C1
    and, with ``second_way``, through C3 as well. Two 2S trains each run B2 - D2 (50 +
    50 = 100) only on a track of their own: 200 with two ways, 100 with one. The model
    chooses the track between the two stops once for both runs (``PER_RUN`` 1: as many
    chains as runs between them), or each run its own way (``PER_RUN`` 2), and each run
    is given its own chain."""
    from trainruns.titles.g1831.route import flow_track

    monkeypatch.setattr(flow_track, "PER_RUN", per_run)
    S = "station"
    hexes = [city("B2", 40, [S], [["s0", 4]] + ([["s0", 5]] if second_way else [])),
             city("D2", 40, [S], [[2, "s0"]] + ([[1, "s0"]] if second_way else [])),
             {"id": "C1", "stops": [], "paths": [[1, 5]]}]
    if second_way:
        hexes.append({"id": "C3", "stops": [], "paths": [[2, 4]]})
    pos = position(hexes, trains=["2S", "2S"], tokens=[("B2", 0, "A"), ("D2", 0, "A")])
    arrays, _, chosen = _flow_alone(pos, expected)
    assert len(chosen) == expected // 100
    # each run on a track of its own (a chain and its reverse are one track)
    assert len({int(arrays.chain_und[c]) for route in chosen for c in route[2]}) == len(chosen)


@pytest.mark.parametrize("south, trains, rules, expected", [
    (["C1", "C3"], ["4S"], {}, 160),
    (["C1", "A1"], ["4S"], {}, 110),
    (["C1", "C3"], ["3S"], {}, 130),
    (["C1", "C3"], ["3S"], {"delaware_south": "run_to"}, 110),
    (["C1", "C3"], ["4S"], {"delaware_south": "run_to"}, 160),
])
def test_5_6_2_1_the_flow_model_enters_the_delaware_twice_only_after_both_cities_south(south, trains, rules,
                                                                                        expected):
    """flow._second_entry on the loop B2 - C1 - C3 - B2 (B2 the Delaware, 40; C1 and C3
    20; A1 10, no track), worked by hand (5.6.2.1, 5.6.3: city + $10 Station). A 4S
    enters B2 twice with both cities south in between: 50 + 30 + 30 + 50 = 160; with A1
    named south instead it may not: B2 - C1 - C3, 110. A 3S runs B2 - C3 - B2 passing
    C1: 50 + 30 + 50 = 130; under ``delaware_south: "run_to"`` it must run to a token in
    each city south, four tokens, more than it may: 110, while a 4S still makes 160."""
    S = "station"
    hexes = [city("B2", 40, [S], [[4, "s0"], ["s0", 5]], revisit_after=south),
             city("C1", 20, [S], [[1, "s0"], ["s0", 0]]),
             city("C3", 20, [S], [[2, "s0"], ["s0", 3]]),
             city("A1", 10, [S], [])]
    pos = position(hexes, trains=trains, tokens=[("B2", 0, "A"), ("C1", 0, "A"), ("C3", 0, "A")],
                   **({"rules": rules} if rules else {}))
    _flow_alone(pos, expected)


@pytest.mark.parametrize("second_link, expected", [(False, 100), (True, 150)])
def test_5_6_7_the_commuter_circuit_visits_its_cities_in_turn(second_link, expected):
    """flow._commuter_circuit's legs, worked by hand (5.6.7; 5.6.3: city + $10 Station).
    A 5S with Stations in C3 and C7 (40 each), the commuter cycle C3 - C7. One track
    joins them (through C5), and each has a loop of its own through two cities it may
    pass (C3 - D2 - D4 - C3, C7 - D6 - D8 - C7). A commuter run must go C3, C7, C3, ...
    on different track each leg: with one track between them there is none, and the
    best run is the path C3 - C5 - C7, 100; with a second track (C3 - B4 - B6 - C7),
    C3, C7, C3 for 150. Visits out of turn (C3, C3 by its loop, then C7, C7) would make
    200 and 250."""
    S = "station"
    hexes = [city("C3", 40, [S], [[0, "s0"], [4, "s0"], [5, "s0"]] + ([[1, "s0"]] if second_link else [])),
             city("C7", 40, [S], [[3, "s0"], [4, "s0"], [5, "s0"]] + ([[2, "s0"]] if second_link else [])),
             city("C5", 10, [S], [[3, "s0"], ["s0", 0]]),
             city("D2", 10, [S], [[1, "s0"], ["s0", 0]]), city("D4", 10, [S], [[3, "s0"], ["s0", 2]]),
             city("D6", 10, [S], [[1, "s0"], ["s0", 0]]), city("D8", 10, [S], [[3, "s0"], ["s0", 2]])]
    if second_link:
        hexes += [city("B4", 10, [S], [[4, "s0"], ["s0", 0]]), city("B6", 10, [S], [[3, "s0"], ["s0", 5]])]
    pos = position(hexes, trains=["5S"], tokens=[("C3", 0, "A"), ("C7", 0, "A")],
                   map_extra={"commuter_runs": [{"name": "commuter", "cycle": ["C3", "C7"], "any_start": False}]})
    _, _, chosen = _flow_alone(pos, expected)
    assert [is_commuter for *_, is_commuter, _mask in chosen] == [second_link]


@pytest.mark.parametrize("cycle", [["C3", "C7", "D4"], ["C7", "C3", "D4"]])
def test_5_6_7_a_commuter_run_whose_reverse_is_no_run_is_kept_whichever_way_it_starts(cycle):
    """flow._reverse_is_rotation: a commuter run and its reverse are one only where the
    cycle read backwards is one of its rotations. Here the cycle is three cities
    (A, B, R in turn, any start), Stations in C3 and C7 (40) and D4 (20), with two
    tracks between A and B and one each between B and R and between R and A. The one
    run of five visits is A, B, R, A, B (5.6.7, 5.6.3: 50 + 50 + 30 + 50 + 50 = 230);
    read backwards it goes B to A, against the cycle, so it is no run and the model
    must keep the run whichever way its stops are numbered: A and B swapped between
    the two cases, one of which starts at the higher stop."""
    S = "station"
    hexes = [city("C3", 40, [S], [[0, "s0"], [1, "s0"], [5, "s0"]]),
             city("C7", 40, [S], [[3, "s0"], [2, "s0"], [4, "s0"]]),
             city("D4", 20, [S], [[2, "s0"], [0, "s0"]]),
             city("C5", 10, [S], [[3, "s0"], ["s0", 0]]),
             city("B4", 10, [S], [[4, "s0"], ["s0", 0]]), city("B6", 10, [S], [[3, "s0"], ["s0", 5]]),
             city("D6", 10, [S], [[3, "s0"], ["s0", 1]])]
    pos = position(hexes, trains=["5S"], tokens=[("C3", 0, "A"), ("C7", 0, "A"), ("D4", 0, "A")],
                   map_extra={"commuter_runs": [{"name": "commuter", "cycle": cycle, "any_start": True}]})
    _flow_alone(pos, 230)


def test_5_6_7_flow_model_runs_a_commuter_run(flow_only):
    # boards where the best run has a commuter run (a city run to twice): the model
    # must find them, not only plain paths
    repeated = 0
    for seed in range(60):
        pos = random_commuter_position(seed)
        if brute_force(pos) is None:
            continue
        run = solve(pos)
        repeated += any(len(set(r.stops)) < len(r.stops) for r in run.routes)
    assert repeated >= 2


def _legal(run, board):
    """Trains share no track (5.6.2) and each runs to 2..size tokens (5.6.2.3, 5.6.2.5)."""
    used = set()
    for r in run.routes:
        track = {tuple(p) for p in r.track}
        assert not track & used, "two trains share track"
        used |= track
        size = int("".join(ch for ch in r.train if ch.isdigit()))
        assert 2 <= sum(r.counted) <= size
        assert sum(v for parts in r.earned for _, v in parts) == r.revenue
    assert sum(r.revenue for r in run.routes) == run.revenue


@pytest.mark.parametrize("seed", [1, 2])
def test_flow_model_on_a_small_invented_map_agrees_with_listing(seed, monkeypatch):
    # a board_1831 map cut down to 20 hexes: listing proves it; the flow model, given a
    # time limit, never claims more than the optimum and its bound holds
    pos = board_1831(seed, n_hexes=20, own_tokens=8)
    listed = solve(pos)
    assert listed.optimal
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)
    flowed = solve(pos, time_limit=10)
    assert flowed.revenue <= listed.revenue <= flowed.bound
    if flowed.optimal:
        assert flowed.revenue == listed.revenue
    _legal(flowed, None)


def test_full_size_board_gets_a_legal_run_and_an_honest_bound():
    # 48 hexes, 11-13 tokens, both commuter runs, the Delaware: about 10^7 paths, too
    # many to list; the flow model answers within the time limit with a legal run
    pos = board_1831(1, n_hexes=48)
    run = solve(pos, time_limit=8)
    assert run.revenue > 0
    assert run.bound >= run.revenue
    _legal(run, None)


# --- listing: chunks, values by token sequence, the audit along declared stops --------

def _model(pos):
    """(model, arrays, valuer, kinds) of position ``pos``."""
    from trainruns.route.compile import compile_board
    from trainruns.route.routeset import train_kinds
    from trainruns.titles.g1831.route.trains import parse_train_name
    from trainruns.titles.load import load_position

    board = load_position(pos)
    model = board.route_model
    arrays = model._arrays(compile_board(board))
    kinds = train_kinds(board)
    valuer = model._valuer(arrays, [parse_train_name(k.name) for k in kinds], 1 << len(model.facts.rights))
    return model, arrays, valuer, kinds


def _listed(pos):
    """``_model(pos)`` and the paths listed."""
    model, arrays, valuer, kinds = _model(pos)
    return model, arrays, valuer, kinds, model._paths(arrays, valuer, None, None)


def _reference_values(model, arrays, kinds, ptr, stops):
    """kernels.best_counts on every whole path (no sequence shared between paths)."""
    import numpy as np

    from trainruns.titles.g1831.route import kernels
    from trainruns.titles.g1831.route.model import TYPE_CODE
    from trainruns.titles.g1831.route.trains import parse_train_name

    types = [parse_train_name(k.name) for k in kinds]
    caps = np.array([model.type_caps(t) for t in types], np.int64).reshape(-1, 2)
    out = np.empty((len(ptr) - 1, len(types), 1 << len(model.facts.rights)), np.int64)
    kernels.best_counts(ptr, stops, arrays.stop_group, arrays.st_val, arrays.yd_val, arrays.st_right,
                        arrays.yd_right, np.array([TYPE_CODE[t.type] for t in types], np.int64),
                        np.array([t.size for t in types], np.int64), np.ascontiguousarray(caps[:, 0]),
                        np.ascontiguousarray(caps[:, 1]), model.strict, out.shape[2], out)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_5_6_2_3_a_path_earns_by_the_tokens_it_passes_alone(seed):
    # a passed city without the corporation's token earns nothing (5.6.2.3): the model
    # values each sequence of tokens once for all the paths that share it; the values
    # must be those of every whole path valued on its own
    import numpy as np

    for pos in [board_1831(seed, n_hexes=20, own_tokens=8)] + [random_position(s) for s in range(seed, 120, 2)]:
        model, arrays, valuer, kinds, (ptr, stops, _, _, values, complete) = _listed(pos)
        assert complete
        if model.options.delaware_south == "run_to":
            continue  # those paths are valued again on the whole path anyway
        assert np.array_equal(values, _reference_values(model, arrays, kinds, ptr, stops))


def test_listing_in_small_chunks_lists_the_same_paths(monkeypatch):
    # the walk stops when its buffers are full and goes on where it stopped: chunks of 3
    # paths give the same paths, in the same order, as one chunk
    import numpy as np

    pos = board_1831(1, n_hexes=20, own_tokens=8)
    whole = _listed(pos)[4]
    monkeypatch.setattr(model_1831, "CHUNK", 3)
    chunked = _listed(pos)[4]
    assert len(whole[0]) > 1000
    for a, b in zip(whole[:5], chunked[:5]):
        assert np.array_equal(a, b)


def _keeps_nothing(n_stops, n_chains):
    """A priced cut (kernels.token_paths) that lets every chain be taken but keeps no
    path: no gains, a reach far above the floor, a cap above it (the walk of 5.6.2 in
    full, none of its paths worth listing)."""
    import numpy as np

    return (np.zeros(n_chains, np.int64), np.zeros((1, n_stops), np.int64), np.full((1, n_stops, 1), 10**6, np.int64),
            np.array([100], np.int64), np.zeros(1, np.int64), np.full(n_stops, -1, np.int64))


def test_5_6_2_a_priced_listing_that_keeps_nothing_still_looks_at_the_clock(monkeypatch):
    # the priced cut may walk a full-size map for minutes without keeping a path: with a
    # deadline the walk goes in slices of COUNT_STEPS steps and the clock is read between
    # them, not only between full chunks. The clock here is counted: past the deadline
    # at its third look, so two slices at most are walked
    from types import SimpleNamespace

    from trainruns.titles.g1831.route import kernels

    model, arrays, valuer, kinds = _model(board_1831(1, n_hexes=20, own_tokens=8))
    prices = _keeps_nothing(arrays.compiled.n_stops, arrays.compiled.n_chains)
    token_paths, walked = kernels.token_paths, []

    def counted(*args):
        n = token_paths(*args)
        walked.append(int(args[-2][1]))  # the walk's steps so far (meta[1])
        return n

    monkeypatch.setattr(kernels, "token_paths", counted)
    monkeypatch.setattr(model_1831, "COUNT_STEPS", 100)
    ptr, *_, complete = model._paths(arrays, valuer, None, None, prices=prices)
    # (no deadline: a call a token, each its whole walk; nothing kept, a long walk)
    assert len(ptr) == 1 and complete and max(walked) > 5 * 100
    looks = iter([0.0, 0.0])
    monkeypatch.setattr(model_1831, "time", SimpleNamespace(perf_counter=lambda: next(looks, 2.0)))
    walked.clear()
    assert model._paths(arrays, valuer, 1.0, None, give_up=True, prices=prices) is None
    assert len(walked) == 2 and max(walked) <= 2 * 100 + 1


def test_5_6_2_listing_in_slices_lists_the_same_paths_and_keeps_the_step_budget(monkeypatch):
    # the slices resume the walk where it stopped: the same paths in the same order, with
    # and without a game's step budget (Work.path_steps: per token, a slice's end is no cut)
    import numpy as np

    model, arrays, valuer, kinds = _model(board_1831(1, n_hexes=20, own_tokens=8))
    whole = model._paths(arrays, valuer, None, None)
    budgeted = model._paths(arrays, valuer, None, None, path_steps=500)
    monkeypatch.setattr(model_1831, "COUNT_STEPS", 7)
    far = model_1831.time.perf_counter() + 3600
    sliced = model._paths(arrays, valuer, far, None)
    sliced_budgeted = model._paths(arrays, valuer, far, None, path_steps=500)
    assert len(whole[0]) > 1000 and whole[5] and sliced[5] and not budgeted[5] and not sliced_budgeted[5]
    assert len(budgeted[0]) < len(whole[0])
    for a, b in [*zip(whole[:5], sliced[:5]), *zip(budgeted[:5], sliced_budgeted[:5])]:
        assert np.array_equal(a, b)


@pytest.mark.parametrize("chunk", range(2))
def test_5_6_small_chunks_match_brute_force(monkeypatch, chunk):
    monkeypatch.setattr(model_1831, "CHUNK", 2)
    checked = sum(_check(random_position(seed)) for seed in range(200 + chunk, 280, 2))
    assert checked > 20


def test_audit_of_a_full_size_board_lists_only_along_the_declared_stops():
    # a full-size map has about 10^7 token-to-token paths: the audit must not list them
    # all, only those along the stops declared, and still find a declared path legal
    # and valued as the model values it (the path: the first the walk finds that a
    # train earns on, 5.6.2.5)
    import numpy as np

    from trainruns.services.audit import audit
    from trainruns.titles.g1831.route import kernels

    board_pos = board_1831(1, n_hexes=48)
    model, arrays, valuer, kinds = _model({**board_pos, "trains": ["7S"]})
    comp = arrays.compiled
    root = int(np.flatnonzero(arrays.stop_own)[0])
    ptr = np.zeros(65, np.int64)
    stops = np.empty(64 * (comp.n_stops + 2), np.int64)
    bits = np.empty((64, comp.words), np.uint64)
    n = kernels.token_paths(comp.adj_ptr, comp.chain_to, arrays.chain_bits, arrays.chain_und,
                            arrays.stop_group, arrays.stop_pass, arrays.stop_own, arrays.rev_a, arrays.rev_b,
                            ptr, stops, stops.copy(), bits, 1 << 40, 0,
                            *kernels.no_prices(comp.n_stops, comp.n_chains),
                            *kernels.walk_state(comp.n_stops, len(arrays.rev_a), comp.words, root),
                            np.zeros(1, np.int64))
    values = valuer(ptr[: n + 1], stops[: ptr[n]])
    r = next(i for i in range(n) if values[i, 0, 0] > 0)
    path = stops[ptr[r]:ptr[r + 1]].tolist()
    labels = [f"{comp.stop_refs[s][0]}.{comp.stop_refs[s][1]}" for s in path]
    pos = {**board_pos, "trains": ["7S"]}
    best = solve(pos, time_limit=1)
    result = audit(pos, {"routes": [{"train": "7S", "stops": labels}]}, best=best)
    assert result.legal
    assert result.declared_revenue == values[r, 0, 0]
    rs = model.all_routes(comp, kinds, along=[path])
    assert 1 <= len(rs) < 1000
    assert any(rs.stops[rs.ptr[k]:rs.ptr[k + 1]].tolist() in (path, path[::-1]) for k in range(len(rs)))


def test_a_game_step_budget_is_per_token():
    # the game's bound on work (Work.path_steps, an option of the solve: route/limits.py):
    # the paths found in that many steps from EACH token; a cut walk goes on to the next one
    import numpy as np

    model, arrays, valuer, kinds = _model(board_1831(1, n_hexes=20, own_tokens=8))
    ptr, stops, _, _, _, complete = model._paths(arrays, valuer, None, None, path_steps=50)
    roots = set(np.flatnonzero(arrays.stop_own).tolist())
    firsts = set(stops[ptr[:-1]].tolist())
    assert not complete
    assert firsts <= roots and len(firsts) >= len(roots) - 1


# --- commuter cities: track round them outside the city; track round within one -----

# board_1831 cut to 20 hexes, whose commuter city (New York or Long Island West, its red
# extension with it) has track that leaves it and comes back into it besides the track
# inside it; bought rights dropped, so that the priced proof follows the flow model
_ROUND_CITY = [22, 35, 41]


def _round_city_board(seed):
    pos = board_1831(seed, n_hexes=20, own_tokens=8)
    pos["track_rights"] = []
    return pos


def _two_tracks_inside(monkeypatch):
    """As on a board whose commuter city has two tracks inside it between the same
    stops (none of the generated boards has one): the flow model's commuter circuit,
    which never comes back to a stop of its city, does not take the city."""
    from trainruns.titles.g1831.route import flow

    monkeypatch.setattr(flow, "_member_track_is_forest", lambda arrays: False)


@pytest.mark.parametrize("seed", _ROUND_CITY + [-11])
def test_5_2_3_10_track_leaving_a_commuter_city_and_coming_back_is_no_track_round_within_it(seed):
    # 5.2.3.10 / 5.6.2.1: a chain between two stops of New York through another hex
    # leaves the city and enters it again; no visit moves along it (commuter.py, the
    # model), so the city's own track, one chain, has no cycle and the commuter circuit
    # takes the board: CP-SAT alone proves the run listing (the independent engine)
    # proves, commuter runs and bought rights included (-11: seed 11 at 24 hexes, with
    # its right)
    from trainruns.titles.g1831.route import flow

    pos = board_1831(11, n_hexes=24, own_tokens=8) if seed < 0 else _round_city_board(seed)
    model, arrays, _, _ = _model(pos)
    board = model.board
    comp = arrays.compiled
    members = {arrays.group_id[g] for run in arrays.facts.commuter for g in run["cycle"]}
    assert any(arrays.chain_reenters[c] and arrays.stop_group[comp.chain_from[c]] in members
               for c in range(comp.n_chains))
    assert flow._member_track_is_forest(arrays)
    listed = solve(pos)
    assert listed.optimal
    chosen, proven, bound = flow.solve(arrays, list(board.trains))
    assert proven and bound == listed.revenue
    assert sum(flow._value(arrays, list(board.trains), c) for c in chosen) == listed.revenue


@pytest.mark.parametrize("seed", _ROUND_CITY)
def test_5_6_7_flow_model_runs_paths_alone_round_a_commuter_city_never_proven_by_itself(seed, monkeypatch):
    from trainruns.titles.g1831.route import flow

    _two_tracks_inside(monkeypatch)
    model, arrays, _, _ = _model(_round_city_board(seed))
    board = model.board
    assert flow.solve(arrays, list(board.trains)) is None  # the listing route, as before
    chosen, proven, _ = flow.solve(arrays, list(board.trains), paths_alone=True)
    # 5.6.7: a Station train of 5 or more could run a commuter run the model left out,
    # so CP-SAT's optimum of the paths alone proves nothing; every train runs a path
    assert chosen and not proven
    assert not any(is_commuter for *_, is_commuter, _mask in chosen)


@pytest.mark.parametrize("seed", _ROUND_CITY)
def test_5_6_round_a_commuter_city_the_priced_proof_settles_the_flow_models_run(seed, monkeypatch):
    # listing (the independent engine) proves the best run; the flow model alone (its
    # paths alone, then the commuter runs' bound or else the priced proof with the
    # commuter runs walked) must prove the same
    listed = solve(_round_city_board(seed))
    assert listed.optimal
    _two_tracks_inside(monkeypatch)
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)
    proofs, settled = [], []
    orig, orig_settled = model_1831.Model1831._priced_proof, model_1831.Model1831._commuters_bounded

    def watched(self, *a, **k):
        out = orig(self, *a, **k)
        proofs.append(out is not None and out.complete)
        return out

    def watched_settled(self, *a, **k):
        settled.append(orig_settled(self, *a, **k))
        return settled[-1]

    monkeypatch.setattr(model_1831.Model1831, "_priced_proof", watched)
    monkeypatch.setattr(model_1831.Model1831, "_commuters_bounded", watched_settled)
    flowed = solve(_round_city_board(seed), time_limit=60)
    assert flowed.optimal and flowed.revenue == listed.revenue
    assert settled and (settled[0] or proofs and proofs[-1])
    _legal(flowed, None)


@pytest.mark.parametrize("seed", [0, 11])
def test_5_6_5_with_bought_rights_the_commuter_bound_settles_the_flow_models_run(seed, monkeypatch):
    # board_1831 cut to 24 hexes, its commuter city taken as walked round within itself
    # and a token bought as a track right (5.5, 5.6.5): the priced proof does not take
    # rights, but the flow model's proof of the paths alone and the commuter runs' bound
    # (5.6.7) prove its run, which listing (the independent engine) proves too
    pos = board_1831(seed, n_hexes=24, own_tokens=8)
    assert pos["track_rights"]
    listed = solve(pos)
    assert listed.optimal
    _two_tracks_inside(monkeypatch)
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)
    settled = []
    orig = model_1831.Model1831._commuters_bounded

    def watched(self, *a, **k):
        settled.append(orig(self, *a, **k))
        return settled[-1]

    monkeypatch.setattr(model_1831.Model1831, "_commuters_bounded", watched)
    flowed = solve(pos, time_limit=30)
    assert settled == [True]
    assert flowed.optimal and flowed.revenue == listed.revenue
    _legal(flowed, None)


def test_a_board_past_the_path_limit_goes_to_the_flow_model_by_its_count_not_the_clock(monkeypatch):
    # the choice between listing and the flow model is a count of paths (PATH_LIMIT),
    # so a board takes the same way under any load; the flow model's run is the one
    # listing proves (board_1831 cut to 20 hexes: some thousands of paths)
    pos = board_1831(2, n_hexes=20, own_tokens=8)
    listed = solve(pos)
    assert listed.optimal
    calls = []
    orig = model_1831.Model1831._flow_routes

    def watched(self, *a, **k):
        calls.append(1)
        return orig(self, *a, **k)

    monkeypatch.setattr(model_1831.Model1831, "_flow_routes", watched)
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 1_000)
    # a clock that never runs out: only the count can hand the board over
    flowed = solve(pos, time_limit=60)
    assert calls
    assert flowed.revenue <= listed.revenue
    if flowed.optimal:
        assert flowed.revenue == listed.revenue
    calls.clear()
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 1_000_000)
    again = solve(pos, time_limit=60)
    assert not calls and again.optimal and again.revenue == listed.revenue


def _solver_calls(monkeypatch):
    """A list that gets, for each model handed to CP-SAT (route.cpsat.run_solver), its
    solver's (workers, linearization level, subsolvers); the model is solved as before."""
    from trainruns.route import cpsat

    calls = []
    real = cpsat.run_solver

    def spy(solver, model, *args, **kwargs):
        params = solver.parameters
        calls.append((params.num_workers, params.linearization_level, tuple(params.subsolvers)))
        return real(solver, model, *args, **kwargs)

    monkeypatch.setattr(cpsat, "run_solver", spy)
    return calls


def test_a_part_gets_few_cp_sat_workers_on_a_short_limit_and_all_on_a_long_one(monkeypatch):
    """flow.PART_WORKERS for a part of the model (commute or revisit not "model") given
    PART_SECONDS at most, which CP-SAT proves sooner, with PART_LINEARIZATION and its
    core-based search alone (PART_SUBSOLVERS), beside a rival of one worker searching
    on that linear relaxation (route.cpsat.run_with_rival); WORKERS, CP-SAT's own
    linearization and its own portfolio for a longer part and for the whole model,
    which move its bound further (benchmarks/README.md)."""
    import time

    from trainruns.route import cpsat
    from trainruns.titles.g1831.route import flow

    seen = _solver_calls(monkeypatch)
    rivals = []
    real = cpsat.run_with_rival

    def spy(solver, model, rival, *args, **kwargs):
        p = rival.parameters
        rivals.append((p.num_workers, p.linearization_level, tuple(p.subsolvers)))
        return real(solver, model, rival, *args, **kwargs)

    monkeypatch.setattr(cpsat, "run_with_rival", spy)
    model, arrays, _, _ = _model(random_position(0))
    trains = list(model.board.trains)
    default = cpsat.load_cp_model().CpSolver().parameters.linearization_level
    assert flow.PART_WORKERS != flow.WORKERS and flow.PART_LINEARIZATION != default
    assert flow.PART_SUBSOLVERS == ("core",)
    part = (flow.PART_WORKERS, flow.PART_LINEARIZATION, flow.PART_SUBSOLVERS)
    whole = (flow.WORKERS, default, ())
    for seconds, commute, want in ((5, "none", part), (flow.PART_SECONDS + 30, "none", whole), (5, "model", whole)):
        seen.clear()
        rivals.clear()
        assert flow.solve(arrays, trains, deadline=time.perf_counter() + seconds, commute=commute) is not None
        assert seen == [want]
        assert rivals == ([(1, flow.PART_LINEARIZATION, ())] if want == part else [])


def test_a_model_goes_to_cp_sat_with_its_measured_set_up_time_left_and_not_with_less(monkeypatch):
    """CP-SAT's set-up of the flow model ignores its time limit, so a model is handed
    over only with that set-up time left (flow.SETUP_SECONDS_PER_LITERAL, measured on
    this model), else no run and nothing proven. A part held above the best run, the
    time nearly out, is still tried: presolve often closes it at once (5.6.7's runs
    after the paths alone)."""
    import time

    from trainruns.titles.g1831.route import flow
    from trainruns.titles.g1831.route.first import FirstRun

    calls = _solver_calls(monkeypatch)
    model, arrays, _, _ = _model(board_1831(1, n_hexes=48))   # full size, as the family
    trains = list(model.board.trains)
    lits = []
    setup = flow._setup_seconds
    monkeypatch.setattr(flow, "_setup_seconds", lambda n: lits.append(n) or setup(n))
    first = FirstRun([], 10_000, 0)   # above every run: held above it, CP-SAT proves none
    left = 0.5
    out = flow.solve(arrays, trains, deadline=time.perf_counter() + left, first=first, hold=True, commute="none")
    assert calls and out[2] == first.revenue
    # the old guard (the core flow model's measure) would have refused this model
    assert lits[0] * flow.SECONDS_PER_CHAIN_LITERAL > left
    assert flow.SETUP_SECONDS_PER_LITERAL * lits[0] < left
    calls.clear()
    monkeypatch.setattr(flow, "_setup_seconds", lambda n: left + 1.0)
    out = flow.solve(arrays, trains, deadline=time.perf_counter() + left, first=first, hold=True, commute="none")
    assert not calls and out[1] is False and out[2] is None

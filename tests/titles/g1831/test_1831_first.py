"""The first run of a full-size 1831 board (titles/g1831/route/first.py): found with a
counted amount of work before CP-SAT, legal (5.6.2: no track twice; 5.6.2.3, 5.6.2.5,
5.6.3: each path valued as the listing values it; 5.6.5: every bought right run to),
and the answer when CP-SAT finds nothing (a busy machine)."""

import numpy as np
import pytest

from trainruns.route.compile import compile_board
from trainruns.route.routeset import train_kinds
from trainruns.services.audit import audit
from trainruns.services.generate import board_1831
from trainruns.titles.g1831.route import bound as bound_1831
from trainruns.titles.g1831.route import first, flow
from trainruns.titles.g1831.route.trains import parse_train_name
from trainruns.titles.load import load_position, solve

# full-size boards (10^6-10^7 paths, too many to list): the flow model's own, one with
# a bought right, one with mixed and yard trains only
BOARDS = [(1, 48, {}), (8, 48, {"n_rights": 1}), (17, 48, {"trains": ("8MX", "6YD", "6YD")})]


def _first(pos, steps=first.FIRST_STEPS, priced=False):
    board = load_position(pos)
    model = board.route_model
    arrays = model._arrays(compile_board(board))
    kinds = train_kinds(board)
    valuer = model._valuer(arrays, [parse_train_name(k.name) for k in kinds], 1 << len(model.facts.rights))
    prices = bound_1831.priced(arrays) if priced else None
    return board, arrays, first.first_run(arrays, list(board.trains), valuer, [k.name for k in kinds], steps,
                                          priced=prices)


def _assert_legal(board, arrays, run):
    used = np.zeros(arrays.compiled.words, np.uint64)
    rights = 0
    for ti, stops, chains, mask, value in run.chosen:
        assert len(chains) == len(stops) - 1
        bits = np.zeros_like(used)
        for c in chains:
            bits |= arrays.chain_bits[c]
        assert not (bits & used).any(), "two trains share track (5.6.2)"
        used |= bits
        rights |= mask
        assert value > 0
    assert rights == (1 << len(board.route_model.facts.rights)) - 1, "a bought right not run to (5.6.5)"


@pytest.mark.parametrize("seed,n,options", BOARDS, ids=[f"s{s}" for s, _, _ in BOARDS])
def test_5_6_2_first_run_is_legal_and_found_by_counted_work(seed, n, options):
    board, arrays, run = _first(board_1831(seed, n_hexes=n, **options))
    assert run is not None and run.revenue > 0
    assert run.steps <= first.FIRST_STEPS
    _assert_legal(board, arrays, run)
    # counted work, not the clock: the same run again
    assert _first(board_1831(seed, n_hexes=n, **options))[2] == run


def test_5_6_2_first_run_stops_at_its_step_budget():
    _, _, run = _first(board_1831(1, n_hexes=48), steps=20_000)
    assert run is None or run.steps <= 20_000


def test_5_6_first_run_is_the_answer_when_cp_sat_finds_none(monkeypatch):
    # a busy machine: CP-SAT gets no time and finds no run. The answer is the first run,
    # not 0: legal by the audit's own checks (the validator of declared runs), not
    # proven, with the bound
    monkeypatch.setattr(flow, "_solve", lambda *args: ([], False, None))
    pos = board_1831(1, n_hexes=48)
    run = solve(pos, time_limit=8)
    _, _, found = _first(pos)
    assert run.revenue >= found.revenue > 0
    assert not run.optimal and run.bound > run.revenue
    declared = [{k: r[k] for k in ("train", "stops", "hexes")} for r in run.to_json()["routes"]]
    checked = audit(load_position(pos), {"routes": declared}, best=run)
    assert checked.problems == []
    assert checked.declared_revenue == run.revenue


def test_5_6_cp_sat_held_above_the_first_run_proves_the_same_runs(monkeypatch):
    # flow.solve(hold=True): CP-SAT told a run earns more than the first run; finding
    # none proves the first run best. Every board to the flow model: the answers are
    # the brute force's (tests/boards1831.py), proven
    from boards1831 import brute_force, random_position

    from trainruns import solve as solve_position
    from trainruns.titles.g1831.route import model as model_1831

    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)
    monkeypatch.setattr(model_1831, "HOLD_TO_FIRST", True)
    held = []
    orig = flow.solve

    def counted(*args, **kwargs):
        out = orig(*args, **kwargs)
        first_run = kwargs.get("first")
        if kwargs.get("hold") and first_run is not None and out is not None:
            # CP-SAT found no better run: the first run returned, proven
            held.append(out[1] and [c[1] for c in out[0]] == [c[1] for c in first_run.chosen])
        return out

    monkeypatch.setattr(flow, "solve", counted)
    checked = 0
    for seed in range(0, 80, 4):
        pos = random_position(seed)
        expected = brute_force(pos)
        if expected is None or pos.get("track_rights"):
            continue
        run = solve_position(pos)
        assert run.optimal and run.revenue == expected
        checked += 1
    assert checked > 5 and any(held)


@pytest.mark.parametrize("seed,n,options", BOARDS + [(22, 42, {"density": 0.9}), (6, 50, {"commuter": False})],
                         ids=[f"s{s}" for s, _, _ in BOARDS] + ["density90-s22", "nocommute-s6"])
def test_5_6_2_the_priced_start_is_legal_and_never_earns_less(seed, n, options):
    # the start from the track prices' claims (first._priced_start) is one more start:
    # the first run with it is legal (5.6.2, 5.6.5), counted work (the same run again),
    # and earns at least the run by value alone, whose steps it leaves as they were
    pos = board_1831(seed, n_hexes=n, **options)
    board, arrays, by_value = _first(pos)
    _, _, run = _first(pos, priced=True)
    assert run is not None
    _assert_legal(board, arrays, run)
    assert run.revenue >= by_value.revenue
    assert run.steps <= 2 * first.FIRST_STEPS
    assert _first(pos, priced=True)[2] == run


def test_5_6_2_3_two_trains_exchange_paths_when_the_larger_runs_to_more():
    """first._swaps, worked by hand (5.6.2.3: an S train runs to at most its size in
    Stations; 5.6.2.5: a path starts and ends at tokens it runs to; 5.6.3: city + $10
    Station in phase 3). Two lines of track, each city with our Station: A1 (30) - B2
    (20) - C3 (20) - D4 (30), and F6 (10) - G7 (10). Given the 4S on F6 - G7 (20 + 20 =
    40) and the 2S on the long line (A1 and D4, its ends: 40 + 40 = 80), 120, the
    exchange gives the 4S the long line (40 + 30 + 30 + 40 = 140) and the 2S F6 - G7
    (40): 180, the brute force's best."""
    from boards1831 import brute_force, city, line

    S = "station"
    pos = line([(30, [S]), (20, [S]), (20, [S]), (30, [S])], trains=["4S", "2S"],
               tokens=[(h, 0, "A") for h in ("A1", "B2", "C3", "D4", "F6", "G7")])
    pos["map"]["hexes"] += [city("F6", 10, [S], [["s0", 5]]), city("G7", 10, [S], [[2, "s0"]])]
    assert brute_force(pos) == 180
    board = load_position(pos)
    model = board.route_model
    arrays = model._arrays(compile_board(board))
    kinds = train_kinds(board)
    valuer = model._valuer(arrays, [parse_train_name(k.name) for k in kinds], 1)
    trains = list(board.trains)
    search = first._Searcher(arrays, trains, valuer, [k.name for k in kinds])
    comp = arrays.compiled
    stop = {ref[0]: s for s, ref in enumerate(comp.stop_refs)}

    def route(hexes, value):
        stops = [stop[h] for h in hexes]
        chains = [next(c for c in range(comp.n_chains) if (comp.chain_from[c], comp.chain_to[c]) == (a, b))
                  for a, b in zip(stops, stops[1:])]
        return stops, chains, arrays.track_bits(chains), 0, value

    long_line, pair = route(["A1", "B2", "C3", "D4"], 80), route(["F6", "G7"], 40)
    four, two = (next(i for i, t in enumerate(trains) if t.name == n) for n in ("4S", "2S"))
    given = [None, None]
    given[four], given[two] = pair, long_line
    swapped = first._swaps(search, given, 0)
    assert swapped[four][0] == long_line[0] and swapped[four][4] == 140
    assert swapped[two][0] == pair[0] and swapped[two][4] == 40
    # the run as it was, had it been the better one, stays
    assert first._swaps(search, swapped, 0) == swapped

"""1831 at full size: invented boards the size of the printed map
(``trainruns.services.generate.board_1831``), too many paths to list, go to the flow model
(titles/g1831/route/flow.py). Its CP-SAT model is built in Python, which the solver's time
limit does not cover: the build looks at the clock itself, and past the deadline the
answer is no run, not proven, with the route model's upper bound (brief: "a bounded
answer says it is not proven and gives its bound"). No timed assertion: the tests
check what is reported and that the build looked at the clock."""

import time

import numpy as np
import pytest

from trainruns import solve
from trainruns.route.compile import compile_board
from trainruns.services.generate import board_1831
from trainruns.titles.g1831.route import flow
from trainruns.titles.g1831.route import model as model_1831
from trainruns.titles.load import load_position


def _arrays(pos):
    board = load_position(pos)
    model = board.route_model
    compiled = compile_board(board)
    return board, model, compiled, model._arrays(compiled)


class _StopAfter(flow._Clock):
    """A clock whose deadline passes at its ``n``-th look (a deadline that has passed
    by the time the build is under way, whatever the machine's speed)."""

    def __init__(self, n):
        super().__init__(deadline=time.perf_counter() + 3600)
        self.n = n

    def now(self):
        super().now()
        if self.looked >= self.n:
            raise flow._Late


def test_the_flow_models_build_looks_at_the_clock_and_stops_past_the_deadline():
    # 48 hexes, both commuter runs (5.6.7), the Delaware (5.6.2.1): the first look is
    # before the build, the next ones are inside it (every CLOCK_EVERY literals)
    board, model, compiled, arrays = _arrays(board_1831(1, n_hexes=48))
    clock = _StopAfter(3)
    out = flow.solve(arrays, list(board.trains), deadline=clock.deadline, clock=clock)
    assert out == ([], False, None)
    assert clock.looked == 3


def test_a_deadline_already_passed_builds_nothing():
    board, model, compiled, arrays = _arrays(board_1831(1, n_hexes=48))
    clock = flow._Clock(time.perf_counter() - 1)
    assert flow.solve(arrays, list(board.trains), deadline=clock.deadline, clock=clock) == ([], False, None)


def test_a_model_beyond_the_memory_budget_is_not_built():
    board, model, compiled, arrays = _arrays(board_1831(1, n_hexes=48))
    clock = flow._Clock(None)
    assert flow.solve(arrays, list(board.trains), memory=1 << 20, clock=clock) == ([], False, None)
    assert clock.looked == 1  # the look before the build only: no model was built


@pytest.mark.parametrize("seed", [0, 1])
def test_a_tiny_time_limit_on_a_full_size_board_is_not_proven_and_gives_its_bound(seed, monkeypatch):
    # every board to the flow model; a limit far too short for its build: the answer
    # is not proven, and its bound is the route model's upper bound (no run earns more:
    # each train its best tokens, 5.6.3; the track prices' bound, bound.py, as far as
    # it got in the time), never below the revenue
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)
    pos = board_1831(seed, n_hexes=48)
    board, model, compiled, arrays = _arrays(pos)
    run = solve(pos, time_limit=0.5)
    assert not run.optimal
    assert model.upper_bound(compiled) <= run.bound <= model.token_bound(compiled)
    assert run.bound > run.revenue


def test_kernels_not_ready_by_the_deadline_answer_no_run_with_the_token_bound(monkeypatch):
    """The first solve on a machine compiles the kernels (a minute or so). An 1831 solve
    has no quick run to answer with meanwhile, so with a time limit it waits for them
    until the deadline only (brief: "time is bounded everywhere ... a bounded answer
    says it is not proven and gives its bound"): no run, not proven, with the route
    model's bound that needs no kernel (each train at its best tokens, 5.6.3), above
    the proven best run; the terminal's progress says why. Simulated: the kernels
    reported not loaded, and not ready by the deadline."""
    import io

    from trainruns.cli.progress import TerminalProgress
    from trainruns.route import search

    pos = board_1831(0, n_hexes=40)
    board, model, compiled, _ = _arrays(pos)
    best = solve(pos, time_limit=60)
    monkeypatch.setattr(search, "kernels_ready_at_once", lambda: False)
    monkeypatch.setattr(search, "kernels_ready_by", lambda deadline, tick=0.1: False)
    stream = io.StringIO()
    run = solve(pos, time_limit=5, progress=TerminalProgress(stream=stream))
    assert (run.revenue, run.optimal, len(run.routes)) == (0, False, 0)
    assert run.bound == model.token_bound(compiled) >= best.revenue > 0
    assert "not ready within the time limit" in stream.getvalue()
    # without a time limit the solve waits for the kernels, as before
    assert solve(pos).revenue == best.revenue


# --- trains assigned by value classes (model._assign_by_value) ------------------------

class _Count:
    """Counts the answers of Model1831._assign_by_value (None: it handed every route
    to the core)."""

    def __init__(self, monkeypatch):
        monkeypatch.setattr(model_1831, "BY_VALUE", True)
        self.answered = 0
        orig = model_1831.Model1831._assign_by_value

        def counted(model, found, values, *rest):
            out = orig(model, found, values, *rest)
            self.answered += out is not None
            return out

        monkeypatch.setattr(model_1831.Model1831, "_assign_by_value", counted)


def _without_rights(pos):
    # track rights (5.6.5) take the rights-covering assignment instead
    return dict(pos, track_rights=[])


@pytest.mark.parametrize("chunk", range(4))
def test_5_6_2_assignment_by_value_classes_matches_brute_force(monkeypatch, chunk):
    # seeded random typed boards (tests/boards1831.py), every rule of 5.6.2-5.6.3 and
    # 5.6.7's commuter runs: the run found by value classes, track resolved for the
    # chosen ones only, earns what the plain-Python brute force finds
    from boards1831 import brute_force, random_commuter_position, random_position

    count = _Count(monkeypatch)
    checked = earning = 0
    boards = [random_position(s) for s in range(chunk, 240, 4)]
    boards += [random_commuter_position(s) for s in range(500 + chunk, 640, 4)]
    for pos in boards:
        pos = _without_rights(pos)
        expected = brute_force(pos)
        run = solve(pos)
        assert run.optimal
        assert run.revenue == expected
        checked += 1
        earning += expected > 0
    # every board where some run earns was answered by value classes
    assert count.answered >= earning > 30


@pytest.mark.parametrize("seed", range(6))
def test_assignment_by_value_classes_matches_the_core_on_every_route(monkeypatch, seed):
    # a board_1831 map cut down to 16-20 hexes (dense track, passing cities freely,
    # red extensions, the Delaware, commuter runs): by value classes against the core's
    # branch and bound over every route listed, both proven
    pos = board_1831(seed, n_hexes=16 + seed % 5, own_tokens=6, rights=False)
    count = _Count(monkeypatch)
    by_value = solve(pos)
    assert count.answered == 1
    monkeypatch.setattr(model_1831, "BY_VALUE", False)
    every_route = solve(pos)
    assert by_value.optimal and every_route.optimal
    assert by_value.revenue == every_route.revenue


def test_listing_where_the_flow_model_does_not_apply_keeps_to_the_memory_budget(monkeypatch):
    # the flow model declines some boards (a Delaware of two stops, a commuter city
    # walkable round within itself: flow.py's docstring); paths are then listed, within
    # the memory budget (64 MB here, the least a search gets): the routes held by then,
    # marked incomplete, never the 10^7 paths of a full-size map (they took 16 GB)
    from trainruns.route.limits import Limits
    from trainruns.route.routeset import train_kinds

    monkeypatch.setattr(flow, "solve", lambda *a, **k: None)
    board, model, compiled, arrays = _arrays(board_1831(0, n_hexes=54))
    # array_budget(): its floor, 64 MB. The paths stop at the budget within a second;
    # the commuter runs' walk of this map then goes on to the deadline (it passes
    # cities freely: without one it would not end), which only cuts the set further
    limits = Limits(time_limit=5, memory=1)
    rs = model.routes(compiled, train_kinds(board), deadline=limits.deadline, limits=limits)
    assert not rs.complete
    held = sum(a.nbytes for a in (rs.ptr, rs.stops, rs.chains, rs.bits, rs.values))
    assert 0 < held <= limits.array_budget() + (64 << 20)  # (one chunk past it at most)


def test_listing_where_the_flow_model_does_not_apply_leaves_half_the_time_to_join_and_assign(monkeypatch):
    # the paths kept are joined and the core assigns them after the listing ends (on a
    # full-size map, seconds): the search's listing stops halfway to the deadline
    import time

    from trainruns.route.limits import Limits
    from trainruns.route.routeset import train_kinds

    monkeypatch.setattr(flow, "solve", lambda *a, **k: None)
    board, model, compiled, arrays = _arrays(board_1831(0, n_hexes=54))
    asked = []
    orig = model_1831.Model1831._paths

    def watched(self, arrays, value, deadline, *args, keep_cut=False, **kwargs):
        if keep_cut:
            asked.append((time.perf_counter(), deadline))
        return orig(self, arrays, value, deadline, *args, keep_cut=keep_cut, **kwargs)

    monkeypatch.setattr(model_1831.Model1831, "_paths", watched)
    limits = Limits(time_limit=5, memory=1)
    model.routes(compiled, train_kinds(board), deadline=limits.deadline, limits=limits)
    (at, until), = asked
    # (on a busy machine the walks before it may have used the time up: then it is now)
    assert until <= at + model_1831.LIST_SHARE * max(0.0, limits.deadline - at) + 1e-3
    assert until < limits.deadline or at >= limits.deadline


def test_a_search_that_starts_past_its_deadline_makes_one_short_call():
    # (a title's listing may use the time up): a run from LATE_BUDGET nodes at most, not
    # proven, where a full budget is 65,536 nodes (seconds on a million candidates)
    import time

    from trainruns.route import assignment
    from trainruns.route.enumeration import enumerate_all
    from trainruns.services.generate import hard_board

    routes = enumerate_all(compile_board(load_position(hard_board(2, n_hexes=40))))
    run = assignment.assign_trains(routes, deadline=time.perf_counter() - 1)
    assert run.nodes <= assignment.LATE_BUDGET and not run.optimal
    assert assignment.assign_trains(routes).nodes > assignment.LATE_BUDGET  # (this board needs more)


# --- bounded without a time limit (brief: "time and memory bounded everywhere") -------

def test_5_6_7_the_commuter_walk_is_capped_without_a_time_limit_and_the_answer_says_not_proven(monkeypatch):
    # 54 hexes, the flow model declining it (as it does a commuter city with two tracks
    # inside it unless a priced proof follows: here it is told to), so the paths are
    # listed within the memory budget and the commuter runs (5.6.7) walked; passing cities freely, that walk has no end in sight. With no time limit
    # it stops at COMMUTER_STEPS (made small here), and the answer is not proven, with
    # the route model's bound, never below the revenue
    from trainruns.titles.g1831.route import commuter

    monkeypatch.setattr(model_1831, "COMMUTER_STEPS", 2000)
    monkeypatch.setattr(model_1831, "FLOW_COMMUTER_STEPS", 1000)
    walks = []
    orig = commuter.commuter_paths

    def counted(ctx, max_size, max_steps=None, deadline=None):
        walks.append(max_steps)
        try:
            yield from orig(ctx, max_size, max_steps, deadline)
        except commuter.TooManySteps as e:
            walks.append(e.out_of_steps)
            raise

    monkeypatch.setattr(model_1831, "commuter_paths", counted)
    pos = board_1831(0, n_hexes=54)
    board, model, compiled, arrays = _arrays(pos)
    monkeypatch.setattr(flow, "solve", lambda *a, **k: None)
    run = solve(pos, memory=1)  # (the least budget: the paths listed stop at 64 MB)
    # every walk was given a cap and ran out of its steps: the flow model declining,
    # the listing's (the flow model's own walk, for a priced proof of its run, never
    # came; the cut set is not walked again)
    assert walks == [2000, True]
    assert not run.optimal
    assert model.upper_bound(compiled) <= run.bound <= model.token_bound(compiled)
    assert run.bound > run.revenue > 0


def test_5_6_5_the_covering_search_is_stopped_from_another_thread():
    # a bought right no run can cover, and 200,000 candidates per train that all share
    # the same track: each node passes over the rest of the list (about 2 * 10^10 looks
    # in all, far past any node budget's reach), so only the flag ends it; the model
    # sets it at the deadline (limits.on_thread)
    import threading

    from trainruns.titles.g1831.route import kernels

    k = 200_000
    z = lambda n: np.zeros(n, np.int64)  # noqa: E731
    values = np.arange(k, 0, -1, dtype=np.int64)
    args = (z(2), np.full(2, k, np.int64), np.array([False, True]), np.arange(k, dtype=np.int64), values, z(k),
            np.ones((k, 1), np.uint64), np.array([2 * k, k, 0], np.int64), 1, np.full(2, -1, np.int64), -1,
            np.zeros(1, np.bool_))
    stop, started, out = z(1), threading.Event(), []

    def search():
        started.set()
        out.append(kernels.assign_covering(*args, stop))

    t = threading.Thread(target=search, daemon=True)
    t.start()
    started.wait()
    stop[0] = 1
    t.join()
    assert out == [-1] and args[-1][0]  # no covering run found, and said to be cut short


def test_board_1831_options_vary_what_they_say_and_nothing_else_by_default():
    # the widened benchmark's boards (benchmarks/boards.py FAMILY_1831): each option
    # changes what it names; the defaults give the same board for a seed as before
    base = board_1831(3, n_hexes=40)
    assert board_1831(3, n_hexes=40, density=0.75, city_share=0.4, commuter=True, delaware=True) == base
    assert board_1831(3, n_hexes=40, commuter=False)["map"]["commuter_runs"] == []
    assert not any("revisit_after" in h for h in board_1831(3, n_hexes=40, delaware=False)["map"]["hexes"])
    assert len(board_1831(3, n_hexes=40, n_rights=2)["track_rights"]) == 2
    red = board_1831(3, n_hexes=40, red_tokens=True)
    extensions = {h["id"] for h in red["map"]["hexes"] if "part_of" in h}
    assert len(extensions) == 3 and {t["hex"] for t in red["tokens"] if t["corporation"] == "A"} >= extensions
    held = board_1831(3, n_hexes=40, receivership=True, n_rights=1, trains=("7S", "5MX"))
    assert held["receivership"] and held["track_rights"] == [] and held["trains"] == ["7S", "5MX"]
    assert [t.name for t in load_position(held).trains] == ["7S", "5MX"]  # (5.3.6: the 5MX runs)
    sparse, dense = (board_1831(3, n_hexes=40, density=d) for d in (0.5, 0.95))
    sides = lambda pos: sum(len(h["paths"]) for h in pos["map"]["hexes"])  # noqa: E731
    assert sides(sparse) < sides(base) < sides(dense)

"""Bounded time and memory: one deadline and one memory budget for every stage,
a quick legal run that no answer falls below, the best bound known, an audit linear in
the declaration, and Ctrl-C at any moment.

No assertion here times the machine except where stated: a stopped search is judged by
its honesty (``optimal`` false, ``bound >= revenue``, the run legal by the audit, never
below the quick run) and against the exact answer of an unstopped search. Memory is
measured with ``resource.getrusage`` in a child process.
"""

import itertools
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from boards import random_position

from trainruns import InputError, load_position, solve
from trainruns.cli.main import main
from trainruns.route.compile import compile_board
from trainruns.route.greedy import greedy_run
from trainruns.route.limits import Limits
from trainruns.route.value import stop_value_bound
from trainruns.services.audit import audit
from trainruns.services.generate import hard_board, random_board

ROOT = Path(__file__).resolve().parents[2]
LATE = ROOT / "fixtures" / "1832" / "whatif_late.json"


def declared(run):
    return {"routes": [{"train": r.train, "stops": r.stop_labels()} for r in run.routes]}


def honest(run, exact_revenue=None):
    """What a stopped answer must be (docs/position-format.md, --time-limit): not claimed proven
    unless its bound equals its revenue, a bound at least the revenue (and at least the
    true optimum when that is known), routes that add up."""
    assert run.bound >= run.revenue
    assert run.optimal == (run.bound == run.revenue)
    assert sum(r.revenue for r in run.routes) == run.revenue
    if exact_revenue is not None:
        assert run.revenue <= exact_revenue <= run.bound


def all_paths_board(n_hexes, seed=0):
    """``n_hexes`` hexes: two token-less... cities at the ends of the blob, every other hex
    carrying all 15 side-to-side paths (the issue's board: chains between two stops are
    exponentially many)."""
    pos = random_board(seed, n_hexes=n_hexes, own_tokens=1, offboards=0)
    hexes = pos["map"]["hexes"]
    for i, h in enumerate(hexes):
        h.pop("junctions", None)
        if i in (0, n_hexes - 1):
            h["stops"] = [{"kind": "city", "value": 40, "slots": 2}]
            h["paths"] = [[e, "s0"] for e in range(6)]
        else:
            h["stops"] = []
            h["paths"] = [[a, b] for a, b in itertools.combinations(range(6), 2)]
    pos["tokens"] = [{"hex": hexes[0]["id"], "stop": 0, "corporation": "A"}]
    return pos


# --- the quick run: never below it, even with no time at all ---------------------------

def test_no_time_at_all_still_gives_the_quick_run():
    # a failure this guards against: whatif_late with --time-limit 0.001 answered 0 every time
    board = load_position(LATE)
    exact = solve(board)
    stopped = solve(board, time_limit=1e-6)
    quick = greedy_run(compile_board(board), stop_value_bound(compile_board(board)))
    assert quick.revenue > 0
    assert stopped.revenue >= quick.revenue
    honest(stopped, exact.revenue)
    # the run is legal by the rules the audit checks (1832 "Operate Trains")
    verdict = audit(board, declared(stopped), best=exact)
    assert verdict.legal, verdict.problems
    assert verdict.declared_revenue == stopped.revenue


def test_kernels_still_compiling_at_the_deadline_give_the_quick_run(monkeypatch):
    # "a time limit holds in every stage": the first solve on a machine compiles
    # the kernels (minutes on a busy machine, seen: 288 s) and cannot be cut short; with a
    # limit the quick run answers while they go on compiling behind
    import threading

    import trainruns.route.kernels as kernels

    board = load_position(LATE)
    exact = solve(board)
    release = threading.Event()
    monkeypatch.setattr(kernels, "_loaded", False)
    monkeypatch.setattr(kernels, "_warming", None)
    monkeypatch.setattr(kernels, "warm_up", lambda: release.wait(30))
    try:
        stopped = solve(board, time_limit=1.5)
    finally:
        release.set()
    assert kernels._warming is not None  # the loading was started, and left running
    assert not stopped.optimal and stopped.candidates == 0
    assert stopped.revenue > 0
    honest(stopped, exact.revenue)


@pytest.mark.parametrize("seed", range(6))
def test_quick_run_is_legal_and_below_the_optimum(seed):
    # docs/custom-map.md plain rules: the quick run is a run like any other
    pos = hard_board(seed, n_hexes=22, trains=("5", "4", "3"), own_tokens=2) if seed % 2 else \
        random_position(seed, trains=["4", "3", "2"], size=(6, 5), density=0.85)
    board = load_position(pos)
    compiled = compile_board(board)
    exact = solve(board)
    quick = greedy_run(compiled, stop_value_bound(compiled))
    assert 0 < quick.revenue <= exact.revenue <= quick.bound
    verdict = audit(board, declared(quick), best=exact)
    assert verdict.legal, verdict.problems
    assert verdict.declared_revenue == quick.revenue


def test_command_answers_with_the_quick_run(tmp_path, capsys):
    assert main(["solve", str(LATE), "--json", "--quiet", "--time-limit", "0.000001"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["revenue"] > 0 and out["bound"] >= 310 >= out["revenue"]


# --- compiling the board: bounded, and honest when cut ---------------------------------

def test_compiling_stops_at_its_step_cap_and_says_so(monkeypatch):
    import trainruns.route.compile as compile_module

    board = load_position(all_paths_board(10))
    full = compile_board(board)
    exact = solve(board)
    assert full.complete and full.n_chains > 1000
    monkeypatch.setattr(compile_module, "MAX_CHAIN_STEPS", 4096)
    cut = compile_board(board)
    assert not cut.complete and 0 < cut.n_chains < full.n_chains
    run = solve(board)
    # a board compiled in part proves nothing but what the stop values prove
    assert run.bound == max(run.revenue, stop_value_bound(cut))
    honest(run, exact.revenue)


def test_compiling_stops_at_the_deadline():
    board = load_position(all_paths_board(12))
    past = Limits(time_limit=0.0)
    cut = compile_board(board, past)
    # the token city's track is walked first, so a cut board still has routes to run
    assert not cut.complete and cut.n_chains > 0
    run = solve(board, time_limit=1e-6)
    assert run.revenue > 0 and not run.optimal and run.bound >= run.revenue


def test_far_track_is_not_compiled_for_solve():
    # a big map's track that no token reaches costs no bits in the route masks
    pos = random_board(0, n_hexes=400)
    board = load_position(pos)
    whole = compile_board(board)
    own = compile_board(board, own_only=True)
    assert own.n_bits < whole.n_bits
    assert solve(board).revenue == solve(board, engine="cpsat").revenue


# --- memory -----------------------------------------------------------------------------

def _child(code):
    """Run ``code`` in a fresh interpreter; it prints JSON, to which the peak resident
    memory (MB) is added. The peak is the process's own VmHWM: ``ru_maxrss`` is kept
    across exec, so after the vfork of ``subprocess`` it starts at the peak of pytest's
    own process (which made this test fail on CI at 618 MB for a 300 MB solve)."""
    wrapped = code + "\nhwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n" \
                     "print(json.dumps(dict(out, rss=int(hwm.split()[1]) / 1024)))"
    done = subprocess.run([sys.executable, "-c", wrapped], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_ten_thousand_trains_need_no_square_arrays(tmp_path):
    # a failure this guards against: arrays of size (n+1)^2 took 1.7 GB for 10,000 trains; at most as many
    # trains as there are track bits can run (each route takes one at least). A position
    # file may list at most 100 trains (the schema's cap), so the board is built in Python.
    path = tmp_path / "trains.json"
    path.write_text(json.dumps(random_board(0, trains=["2"])))
    make = (f"import json, trainruns\nb = trainruns.load_position({str(path)!r})\n"
            "b.trains = b.trains * 10_000\n")
    out = _child(make + "r = trainruns.solve(b)\n"
                 "out = dict(revenue=r.revenue, optimal=r.optimal, idle=len(r.idle), routes=len(r.routes))")
    assert out["rss"] < 800
    board = load_position(str(path))
    board.trains = board.trains * 10_000
    exact = solve(board, engine="cpsat")  # CP-SAT counts trains per kind: no per-train arrays
    assert out["optimal"] and out["revenue"] == exact.revenue
    assert out["idle"] + out["routes"] == 10_000


def test_memory_budget_is_kept_and_the_answer_is_honest(tmp_path):
    # a failure this guards against: a 99-train on a dense 200-hex board took 1.6 GB in one second
    path = tmp_path / "dense.json"
    path.write_text(json.dumps(hard_board(0, n_hexes=200, trains=("99",))))
    out = _child(f"import json, trainruns\nr = trainruns.solve({str(path)!r}, time_limit=4, memory=600 << 20)\n"
                 "out = dict(revenue=r.revenue, optimal=r.optimal, bound=r.bound)")
    assert out["rss"] < 600
    # on a quiet machine the search may even finish in time: then it is proven
    assert out["bound"] >= out["revenue"] > 0
    assert out["optimal"] == (out["bound"] == out["revenue"])


def test_memory_option(tmp_path, capsys):
    assert main(["solve", str(LATE), "--json", "--quiet", "--memory", "1G"]) == 0
    assert json.loads(capsys.readouterr().out)["revenue"] == 310
    assert main(["solve", str(LATE), "--memory", "lots"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--memory" in err


SMALL = ROOT / "fixtures" / "custom" / "draw_small.json"


def test_memory_as_text_in_the_api_is_read_as_the_command_reads_it():
    """``trainruns.solve(..., memory="1G")`` takes what ``--memory`` takes (docs/api.md);
    text it would refuse is bad input, not a crash or a budget of no meaning."""
    assert solve(SMALL, memory="1G").revenue == solve(SMALL, memory=1 << 30).revenue
    for bad, why in [("lots", "not a memory size"), ("100M", "less than the 256M"), ("", "not a memory size")]:
        with pytest.raises(InputError, match=why):
            solve(SMALL, memory=bad)
        assert main(["solve", str(SMALL), "--memory", bad]) == 2


def test_cut_route_list_never_answers_below_the_quick_run(monkeypatch):
    import trainruns.route.cpsat_flow as flow
    import trainruns.route.enumeration as enumeration

    pos = hard_board(1, n_hexes=30)
    exact = solve(pos)
    monkeypatch.setattr(enumeration, "MAX_ROUTES", 30)
    monkeypatch.setattr(flow, "improve", lambda compiled, run, **kw: run)
    board = load_position(pos)
    compiled = compile_board(board)
    quick = greedy_run(compiled, stop_value_bound(compiled))
    cut = solve(board)
    assert cut.revenue >= quick.revenue
    honest(cut, exact.revenue)


# --- the bound: the best one known -------------------------------------------------------

def test_stopped_search_reports_the_lowest_bound_it_saw():
    from trainruns.route.assignment import assign_trains
    from trainruns.route.enumeration import enumerate_all
    from trainruns.route.progress import Progress

    class Seen(Progress):
        def __init__(self):
            self.bounds = []

        def update(self, stage, **info):
            if stage == "assign":
                self.bounds.append(info["bound"])

    pos = hard_board(2, n_hexes=40)
    exact = solve(pos)
    routes = enumerate_all(compile_board(load_position(pos)))
    seen = Seen()
    run = assign_trains(routes, budget=50, max_nodes=3000, progress=seen)
    assert seen.bounds and run.bound <= min(seen.bounds)
    honest(run, exact.revenue)


# --- the audit: linear in the declaration, no recursion per leg --------------------------

def _line(n, trains):
    """A line of ``n`` stops: a token city A1, then towns A3, A5, ... (flat layout)."""
    hexes = [{"id": "A1", "stops": [{"kind": "city", "value": 20, "slots": 1}], "paths": [["s0", 0]]}]
    for k in range(1, n):
        hexes.append({"id": f"A{2 * k + 1}", "stops": [{"kind": "town", "value": 10}],
                      "paths": [[3, "s0"], ["s0", 0]] if k < n - 1 else [[3, "s0"]]})
    return load_position({"map": {"layout": "flat", "hexes": hexes}, "corporation": "A", "trains": trains,
                          "tokens": [{"hex": "A1", "stop": 0, "corporation": "A"}]})


def test_a_legal_route_of_1100_stops_is_legal():
    # a failure this guards against: track choice recursed once per leg and hit Python's recursion limit
    board = _line(1100, ["1100"])
    stops = [f"A{2 * k + 1}.0" for k in range(1100)]
    verdict = audit(board, {"routes": [{"train": "1100", "stops": stops}]})
    assert verdict.legal, verdict.problems[:3]
    assert verdict.declared_revenue == 20 + 10 * 1099 == verdict.best_revenue


def test_many_copies_of_one_route_cost_linear_work(monkeypatch):
    # a failure this guards against: 1,000 copies of one 2-stop route ran past 200 s (every pair tried); a
    # declaration and a position list at most 100 trains (the schemas' caps)
    n = 100
    board = _line(3, ["2"] * n)
    calls = []
    audit_module = sys.modules["trainruns.services.audit"]  # (trainruns.audit is the function)
    real = audit_module.choose_track
    monkeypatch.setattr(audit_module, "choose_track", lambda *a: calls.append(1) or real(*a))
    verdict = audit(board, {"routes": [{"train": "2", "stops": ["A1.0", "A3.0"]}] * n},
                    best=solve(board))
    shared = [p for p in verdict.problems if p.rule == "track-shared"]
    # each copy after the first is named once, with the first copy as the other train
    assert len(shared) == n - 1
    assert all("route 1" in p.message for p in shared)
    assert len(calls) <= 2 * n + 10


# --- Ctrl-C, as a user presses it: real processes, SIGINT at chosen moments --------------

# the command as ``python -m trainruns.cli.main`` runs it; with ``listed``, the search lists
# every route of a board it would otherwise prove unlisted (the count's estimate says
# millions: enumeration.HUGE_FACTOR; search.PROOF_FIRST_ROUTES), so Ctrl-C can land
# inside the listing kernels
_CLI = "import sys; from trainruns.cli.main import main; sys.exit(main())"
_LISTED = ("import trainruns.route.enumeration as e, trainruns.route.search as s; "
           "e.HUGE_FACTOR = 1e9; s.PROOF_FIRST_ROUTES = 10 ** 12; ")


def _start(tmp_path, *args, listed=False):
    path = tmp_path / "hard.json"
    path.write_text(json.dumps(hard_board(0, n_hexes=80)))
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    code = (_LISTED if listed else "") + _CLI
    return subprocess.Popen([sys.executable, "-c", code, "solve", str(path), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _loading_numpy(proc, timeout=60):
    """Wait until the child is loading numpy: trainruns' command has started and is
    importing its modules (numpy, then numba: a second or more). Before the interpreter
    runs any of trainruns, Ctrl-C is Python's own business (a traceback from its
    start-up, exit 1); Linux's /proc shows the library being mapped."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if "numpy" in Path(f"/proc/{proc.pid}/maps").read_text():
                return
        except OSError:
            break
        time.sleep(0.002)
    time.sleep(0.5)  # not Linux: a moment by which the interpreter has surely started


def _wait_for(proc, text, timeout=120):
    """Read stderr lines until one contains ``text``; return them."""
    lines, end = [], time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stderr], [], [], 1.0)
        if ready:
            line = proc.stderr.readline()
            if not line:
                break
            lines.append(line)
            if text in line:
                return lines
    raise AssertionError(f"no {text!r} on stderr: {lines}")


def _interrupt(proc, wait=5):
    """SIGINT, then the process's exit status, stdout and the rest of stderr. ``wait``
    is generous (an answer is due in half a second): it only tells "ended soon after
    Ctrl-C" from "ran on regardless" (which would be up to 10 s late)."""
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=wait)
    return proc.returncode, out, err


def test_ctrl_c_during_start_up(tmp_path):
    # a failure this guards against: in the first moments (modules loading) it printed a Python traceback
    proc = _start(tmp_path, "--json")
    _loading_numpy(proc)
    code, out, err = _interrupt(proc)
    assert code == 130 and out == ""
    assert err.endswith("trainruns: interrupted\n") and "Traceback" not in err


def test_ctrl_c_while_routes_are_listed(tmp_path):
    # a failure this guards against: inside a route-listing kernel it exited up to 10 s late. A progress line
    # ("[   1.2s] ...") comes after the quick run; the listing of this board's 6M routes
    # takes seconds (it is proven without them unless told to list, ``listed``)
    proc = _start(tmp_path, "--json", listed=True)
    _wait_for(proc, "s] ")
    time.sleep(1.0)
    code, out, err = _interrupt(proc)
    assert code == 130 and out == ""
    assert err.endswith("trainruns: interrupted\n") and "Traceback" not in err


def test_ctrl_c_with_a_time_limit_prints_the_best_run_so_far(tmp_path):
    proc = _start(tmp_path, "--json", "--time-limit", "120")
    _wait_for(proc, "s] ")  # past the quick run: there is a best run to print
    time.sleep(1.0)
    code, out, err = _interrupt(proc)
    assert code == 130
    run = json.loads(out)
    assert run["optimal"] is False and run["bound"] >= run["revenue"] > 0
    assert err.endswith("trainruns: interrupted\n") and "Traceback" not in err


def test_ctrl_c_under_cp_sat(tmp_path):
    # a failure this guards against: under CP-SAT it printed a partial run with exit 0
    proc = _start(tmp_path, "--json", "--engine", "flow")
    time.sleep(5)  # the flow model takes minutes on this board; by now it is being built or solved
    code, out, err = _interrupt(proc)
    assert code == 130 and out == ""
    assert err.endswith("trainruns: interrupted\n") and "Traceback" not in err


def test_ctrl_c_after_the_cp_sat_fallback_in_auto(tmp_path):
    # a failure this guards against: after auto's CP-SAT fallback the process died with no message (CP-SAT's
    # own SIGINT handler had been installed). The fallback is forced early here by
    # lowering auto's node count; the branch and bound then runs on for minutes
    path = tmp_path / "h45.json"
    path.write_text(json.dumps(hard_board(1, n_hexes=45, trains=("6", "5", "4", "3", "3"))))
    code = ("import sys, trainruns.route.search as s\n"
            "s.AUTO_NODES, s.AUTO_CPSAT_COLUMNS, real = 1000, 10 ** 9, s.assign_cpsat\n"
            "def loud(*a, **k):\n"
            "    run = real(*a, **k)\n"
            "    sys.stderr.write('fallback done\\n')\n"
            "    sys.stderr.flush()\n"
            "    return run\n"
            "s.assign_cpsat = loud\n"
            "from trainruns.cli.main import main\n"
            "sys.exit(main())\n")
    proc = subprocess.Popen([sys.executable, "-c", code, "solve", str(path), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(proc, "fallback done")
    time.sleep(0.5)
    code, out, err = _interrupt(proc)
    assert code == 130 and out == ""
    assert err.endswith("trainruns: interrupted\n") and "Traceback" not in err


def test_drawing_a_declared_route_of_1100_stops_copies_no_graph_per_leg(monkeypatch):
    # the drawing aid found each leg's track on a fresh copy of the board's graph:
    # quadratic in a long declaration. Its track must still follow every leg
    import networkx as nx

    from trainruns.services.declared import find_track

    board = _line(1100, ["1100"])
    stops = [(f"A{2 * k + 1}", 0) for k in range(1100)]

    def refuse(self, *a, **k):
        raise AssertionError("graph copied")

    monkeypatch.setattr(nx.DiGraph, "copy", refuse)
    track = find_track(board, stops)
    # each leg: the path out of one stop and the path into the next (docs/custom-map.md, plain rules)
    assert len(track) == 2 * 1099


def test_resident_is_the_resident_set_the_kernel_reports():
    """:func:`limits.resident` is the process's resident memory: within a few MB of the
    kernel's VmRSS read the other way (/proc/self/status), a moment apart."""
    from trainruns.route.limits import resident

    if not sys.platform.startswith("linux"):
        pytest.skip("/proc is Linux's")
    with open("/proc/self/status") as f:
        rss = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))
    held = resident()
    assert held is not None and abs(held - rss) < 16 << 20, (held, rss)

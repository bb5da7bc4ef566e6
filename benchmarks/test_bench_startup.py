"""Answering as a whole process: what a player typing `trainruns solve`
waits for, what a game engine pays per call to the core, and a sweep on a local Dask
cluster.

    pytest benchmarks/test_bench_startup.py --benchmark-only
    pytest benchmarks/test_bench_startup.py --benchmark-only -k "help or real/"   # a few
    BENCH_ROUNDS=3 BENCH_DAEMON_ROUNDS=10 pytest ...                            # rounds

Every shipped position is solved as a whole process (the installed ``trainruns``
script, output to /dev/null, warm cache: the kernels compiled ahead of time,
:mod:`trainruns.route.kernels.aot`, or numba's cached kernels where that module cannot be
built; the summary says which): in-process (``TRAINRUNS_DAEMON=0``) and
answered by the daemon (a plain ``trainruns solve``: the default), both as medians of
wall time and of the client process's CPU time (user + system, from the kernel's
accounting of the finished child: steadier than wall time on a busy machine). Each row
carries a baseline measured in the same run: the bare interpreter's start
(``python -c pass``). The module's end prints (and writes to
``$BENCH_STARTUP_SUMMARY``, if set) the medians over all positions. No test anywhere
asserts a time.
"""

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import pytest
from boards import shipped

HERE = os.path.dirname(os.path.abspath(__file__))
TRAINRUNS = [sys.executable, "-m", "trainruns"]
# the environment's own `trainruns` script (beside this interpreter: an environment not
# on PATH, e.g. `.venv/bin/python -m pytest`, still times it), else the one on PATH;
# without either, `python -m trainruns`, which imports more before the client starts
# (27.8 against 20.0 ms a call on the 9 1889 and 1833NE positions, 2026-12-06)
SCRIPT = next((p for p in (os.path.join(os.path.dirname(sys.executable), "trainruns"), shutil.which("trainruns"))
               if p and os.access(p, os.X_OK)), None)
COMMAND = [SCRIPT] if SCRIPT else TRAINRUNS
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
DAEMON_ROUNDS = int(os.environ.get("BENCH_DAEMON_ROUNDS", "10"))
SWEEP_N = int(os.environ.get("BENCH_SWEEP_N", "1000"))
IN_PROCESS = dict(os.environ, TRAINRUNS_DAEMON="0")
ROWS = []  # (position, in-process wall, daemon wall, in-process cpu, daemon client cpu)
INTERPRETER = []  # wall, cpu


def _wall(argv, env=IN_PROCESS):
    """Wall and CPU seconds of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def _median(argv, env=IN_PROCESS, rounds=ROUNDS):
    """Median wall and median CPU seconds over ``rounds`` runs."""
    runs = [_wall(argv, env) for _ in range(rounds)]
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


@pytest.fixture(scope="module")
def interpreter():
    """The baseline of every whole-process row: the interpreter starting and ending."""
    _wall([sys.executable, "-c", "pass"])
    INTERPRETER[:] = _median([sys.executable, "-c", "pass"], rounds=max(ROUNDS, 10))
    return tuple(INTERPRETER)


@pytest.fixture(scope="module")
def daemon():
    """A daemon of its own (a private runtime folder), stopped at the end; the
    module's summary printed then."""
    runtime = tempfile.mkdtemp(prefix="trainruns-bench-")
    os.chmod(runtime, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, TRAINRUNS_DAEMON_IDLE="600")
    env.pop("TRAINRUNS_DAEMON", None)
    subprocess.run(COMMAND + ["daemon", "start"], env=env, check=True, stdout=subprocess.DEVNULL)
    yield env
    subprocess.run(COMMAND + ["daemon", "stop"], env=env, check=False, stdout=subprocess.DEVNULL)
    shutil.rmtree(runtime, ignore_errors=True)
    _summary()


def _summary():
    if not ROWS:
        return
    ms = lambda values: round(1000 * statistics.median(values), 1)  # noqa: E731
    summary = {"positions": len(ROWS), "in_process_wall_ms": ms([r[1] for r in ROWS]),
               "daemon_wall_ms": ms([r[2] for r in ROWS]), "in_process_cpu_ms": ms([r[3] for r in ROWS]),
               "daemon_client_cpu_ms": ms([r[4] for r in ROWS]),
               "daemon_wall_max_ms": round(1000 * max(r[2] for r in ROWS), 1),
               "load_average": round(os.getloadavg()[0], 1)}
    # which kernels answered in-process: compiled ahead of time (no numba imported) or numba's
    from trainruns.route.kernels import aot

    summary["command"] = " ".join(COMMAND)
    summary["kernels"] = "compiled ahead of time" if aot.load() is not None else f"numba ({aot.failed()})"
    if INTERPRETER:
        summary.update({"interpreter_ms": round(1000 * INTERPRETER[0], 1),
                        "interpreter_cpu_ms": round(1000 * INTERPRETER[1], 1)})
    print("\nwhole-process solve, medians over the positions:", json.dumps(summary))
    if os.environ.get("BENCH_STARTUP_SUMMARY"):
        with open(os.environ["BENCH_STARTUP_SUMMARY"], "w") as fh:
            json.dump({"summary": summary, "rows": ROWS}, fh, indent=1)


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["solve", "--help"]], ids=" ".join)
def test_help(benchmark, interpreter, argv):
    cpu = []

    def once():
        cpu.append(_wall(COMMAND + argv)[1])

    benchmark.pedantic(once, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    benchmark.extra_info.update({"cpu_ms": round(1000 * statistics.median(cpu), 1),
                                 "interpreter_ms": round(1000 * interpreter[0], 1),
                                 "interpreter_cpu_ms": round(1000 * interpreter[1], 1)})


@pytest.mark.parametrize("name,path", shipped(), ids=[n for n, _ in shipped()])
def test_solve_whole_process(benchmark, interpreter, daemon, name, path):
    """`trainruns solve --quiet POSITION` answered by the daemon (the default; timed by
    pytest-benchmark), then in-process with TRAINRUNS_DAEMON=0 (warm numba cache);
    extra_info: medians of wall and CPU time and the ratios."""
    argv = COMMAND + ["solve", "--quiet", path]
    _wall(argv)  # the kernels' cache is warm
    _wall(argv, daemon)  # (and the daemon has read this title)
    cpu = []

    def once():
        cpu.append(_wall(argv, daemon)[1])

    benchmark.pedantic(once, rounds=DAEMON_ROUNDS, iterations=1)
    by_daemon = benchmark.stats.stats.median
    own, own_cpu = _median(argv)
    daemon_cpu = statistics.median(cpu)
    ROWS.append((name, own, by_daemon, own_cpu, daemon_cpu))
    benchmark.extra_info.update({
        "daemon_ms": round(1000 * by_daemon, 1), "daemon_client_cpu_ms": round(1000 * daemon_cpu, 1),
        "in_process_ms": round(1000 * own, 1), "in_process_cpu_ms": round(1000 * own_cpu, 1),
        "interpreter_ms": round(1000 * interpreter[0], 1),
        "daemon_over_interpreter": round(by_daemon / interpreter[0], 1),
        "daemon_speedup": round(own / by_daemon, 1)})


def _game_positions():
    """The positions a seeded self-played 1832 game asks the core to solve."""
    from trainruns.game import route_adapter
    from trainruns.game.selfplay import play

    keys = []
    real = route_adapter._solved

    def spy(position):
        keys.append(json.dumps(position, sort_keys=True))
        return real(position)

    route_adapter.clear()
    saved = route_adapter._solved
    route_adapter._solved = spy
    try:
        play("1832", ["A", "B", "C", "D"], 1001, max_actions=int(os.environ.get("BENCH_GAME_ACTIONS", "1500")))
    finally:
        route_adapter._solved = saved
    return keys


def test_solve_per_game_action(benchmark):
    """Building (schema, title rules), compiling and solving each position a game asks
    for, in-process; baseline: reading the position alone (JSON to dict)."""
    import warnings

    from trainruns import load_position
    from trainruns.errors import InputWarning
    from trainruns.route.search import solve

    keys = _game_positions()
    times, reads, cpu = [], [], []

    def one_pass():
        times.clear()
        reads.clear()
        cpu.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InputWarning)
            for key in keys:
                t, c = time.perf_counter(), time.process_time()
                data = json.loads(key)
                r = time.perf_counter()
                solve(load_position(data))
                times.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)  # (all threads: steadier on a busy machine)
                reads.append(r - t)

    benchmark.pedantic(one_pass, rounds=3, iterations=1, warmup_rounds=1)
    benchmark.extra_info.update({"positions": len(keys), "median_ms": round(1000 * statistics.median(times), 2),
                                 "p90_ms": round(1000 * sorted(times)[int(0.9 * len(times))], 2),
                                 "cpu_median_ms": round(1000 * statistics.median(cpu), 2),
                                 "read_median_ms": round(1000 * statistics.median(reads), 3)})


@pytest.fixture(scope="module")
def thousand():
    """SWEEP_N seeded random custom boards (trainruns.services.generate), as files."""
    from trainruns.services.generate import random_board

    folder = tempfile.mkdtemp(prefix="trainruns-sweep-")
    for seed in range(SWEEP_N):
        with open(os.path.join(folder, f"{seed:04d}.json"), "w") as fh:
            json.dump(random_board(seed, n_hexes=12 + seed % 20, trains=("4", "3")), fh)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _cpu():
    """CPU seconds (user + system) of this process and its finished children: the
    local cluster's workers are children, counted once they have closed."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def test_bench_sweep(benchmark, thousand):
    """`trainruns bench` of SWEEP_N positions serially, on 2 local worker processes
    (`--workers 2`) and on a local Dask cluster of 2 workers (reached by its address,
    as `--scheduler` reaches one; cluster start and close included), back to back,
    BENCH_SWEEP_ROUNDS times in turn; the rows must agree. Wall and CPU (user + system,
    workers included) side by side, with the load average: on a shared machine the
    kernel's autogroup scheduler gives each terminal session one fair share of the
    cores however many processes it runs, so while other sessions are busy 2 workers
    cannot get more CPU than 1 process, and CPU seconds are what the sweep costs."""
    from trainruns.cli.bench import bench_job, bench_warm, collect
    from trainruns.services.sweep import local_cluster, run_all

    jobs = [(f, None) for f in collect([thousand])]
    bench_warm()  # the kernels, loaded before any clock starts (every way loads them once)
    rounds = int(os.environ.get("BENCH_SWEEP_ROUNDS", "1"))
    times = {"serial": [], "workers_2": [], "dask_2_workers": []}
    load = [round(os.getloadavg()[0], 1)]
    same = True
    key = lambda rows: [(r.path, r.revenue, r.optimal, r.bound, r.candidates) for r in rows]  # noqa: E731

    def timed(name, run):
        c, t = _cpu(), time.perf_counter()
        rows = run()
        times[name].append((time.perf_counter() - t, _cpu() - c))
        return rows

    def on_dask():
        cluster = local_cluster(2, warm=bench_warm)
        try:
            return run_all(bench_job, jobs, scheduler=cluster.scheduler_address)
        finally:
            cluster.close()

    for i in range(rounds):
        serial = lambda: timed("serial", lambda: run_all(bench_job, jobs))  # noqa: E731
        reference = benchmark.pedantic(serial, rounds=1, iterations=1) if i == 0 else serial()
        same = same and key(timed("workers_2", lambda: run_all(bench_job, jobs, workers=2, warm=bench_warm))) == \
            key(reference)
        same = same and key(timed("dask_2_workers", on_dask)) == key(reference)
        load.append(round(os.getloadavg()[0], 1))
    info = {"positions": len(jobs), "rounds": rounds}
    for name, xs in times.items():
        info[f"{name}_s"] = round(statistics.median(x[0] for x in xs), 2)
        info[f"{name}_cpu_s"] = round(statistics.median(x[1] for x in xs), 2)
    info.update({"load_average": load, "same_rows": same})
    benchmark.extra_info.update(info)
    print("\nsweep of", len(jobs), "positions:", json.dumps(info))

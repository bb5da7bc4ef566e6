"""Answering as a whole process (issue 20): what a player typing `trainruns solve`
waits for, what a game engine pays per call to the core, and a sweep on a local Dask
cluster.

    pytest benchmarks/test_bench_startup.py --benchmark-only
    pytest benchmarks/test_bench_startup.py --benchmark-only -k "help or 1889"   # a few

Each row carries a ratio against a baseline measured in the same run, which survives a
busy machine better than the times: the whole-process solve against the bare
interpreter's start (``python -c pass``), the daemon's answer against the in-process
command, the 2-worker sweep against the serial one. No test anywhere asserts a time.
"""

import json
import os
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
SCRIPT = shutil.which("trainruns") or None
COMMAND = [SCRIPT] if SCRIPT else TRAINRUNS
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
SWEEP_N = int(os.environ.get("BENCH_SWEEP_N", "1000"))


def _wall(argv, env=None):
    t = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return time.perf_counter() - t


def _median(argv, env=None, rounds=ROUNDS):
    return statistics.median(_wall(argv, env) for _ in range(rounds))


@pytest.fixture(scope="module")
def interpreter():
    """The baseline of every whole-process row: the interpreter starting and ending."""
    _wall([sys.executable, "-c", "pass"])
    return _median([sys.executable, "-c", "pass"])


@pytest.fixture(scope="module")
def daemon():
    """A daemon of its own (a private runtime folder), stopped at the end."""
    runtime = tempfile.mkdtemp(prefix="trainruns-bench-")
    os.chmod(runtime, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, TRAINRUNS_DAEMON_IDLE="600")
    subprocess.run(COMMAND + ["daemon", "start"], env=env, check=True, stdout=subprocess.DEVNULL)
    yield env
    subprocess.run(COMMAND + ["daemon", "stop"], env=env, check=False, stdout=subprocess.DEVNULL)
    shutil.rmtree(runtime, ignore_errors=True)


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["solve", "--help"]], ids=" ".join)
def test_help(benchmark, interpreter, argv):
    wall = benchmark.pedantic(_wall, args=(COMMAND + argv,), rounds=ROUNDS, iterations=1, warmup_rounds=1)
    benchmark.extra_info.update({"interpreter_ms": round(1000 * interpreter, 1)})
    del wall


@pytest.mark.parametrize("name,path", shipped(), ids=[n for n, _ in shipped()])
def test_solve_whole_process(benchmark, interpreter, daemon, name, path):
    """`trainruns solve --quiet POSITION` in-process (warm numba cache), then the same
    answered by the daemon; extra_info: medians and ratios."""
    argv = COMMAND + ["solve", "--quiet", path]
    _wall(argv)  # the kernels' cache is warm
    in_process = benchmark.pedantic(_median, args=(argv,), kwargs={"rounds": 1}, rounds=ROUNDS, iterations=1)
    del in_process
    own = benchmark.stats.stats.median
    by_daemon = _median(COMMAND + ["solve", "--daemon", "--quiet", path], env=daemon)
    benchmark.extra_info.update({
        "in_process_ms": round(1000 * own, 1), "daemon_ms": round(1000 * by_daemon, 1),
        "interpreter_ms": round(1000 * interpreter, 1),
        "in_process_over_interpreter": round(own / interpreter, 1),
        "daemon_speedup": round(own / by_daemon, 1)})


def _game_positions():
    """The positions a seeded self-played 1832 game asks the core to solve."""
    from trainruns.game.selfplay import play
    from trainruns.titles.g1832 import game_moves

    keys = []
    real = game_moves._run.__wrapped__

    def spy(key):
        keys.append(key)
        return real(key)

    game_moves._run.cache_clear()
    saved = game_moves._run
    game_moves._run = spy
    try:
        play("1832", ["A", "B", "C", "D"], 1001, max_actions=int(os.environ.get("BENCH_GAME_ACTIONS", "1500")))
    finally:
        game_moves._run = saved
    return keys


def test_solve_per_game_action(benchmark):
    """Building (schema, title rules), compiling and solving each position a game asks
    for, in-process; baseline: reading the position alone (JSON to dict)."""
    import warnings

    from trainruns import load_position
    from trainruns.errors import InputWarning
    from trainruns.search import solve

    keys = _game_positions()
    times, reads = [], []

    def one_pass():
        times.clear()
        reads.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InputWarning)
            for key in keys:
                t = time.perf_counter()
                data = json.loads(key)
                r = time.perf_counter()
                solve(load_position(data))
                times.append(time.perf_counter() - t)
                reads.append(r - t)

    benchmark.pedantic(one_pass, rounds=3, iterations=1, warmup_rounds=1)
    benchmark.extra_info.update({"positions": len(keys), "median_ms": round(1000 * statistics.median(times), 2),
                                 "p90_ms": round(1000 * sorted(times)[int(0.9 * len(times))], 2),
                                 "read_median_ms": round(1000 * statistics.median(reads), 3)})


@pytest.fixture(scope="module")
def thousand():
    """SWEEP_N seeded random custom boards (trainruns.generate), as files."""
    from trainruns.generate import random_board

    folder = tempfile.mkdtemp(prefix="trainruns-sweep-")
    for seed in range(SWEEP_N):
        with open(os.path.join(folder, f"{seed:04d}.json"), "w") as fh:
            json.dump(random_board(seed, n_hexes=12 + seed % 20, trains=("4", "3")), fh)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_bench_sweep(benchmark, thousand):
    """`trainruns bench` of SWEEP_N positions serially, then on a local Dask cluster of
    2 workers (cluster start included); the rows must agree."""
    from trainruns.commands.bench import bench_job, collect
    from trainruns.sweep import run_all

    jobs = [(f, None) for f in collect([thousand])]
    serial = {}

    def run_serial():
        serial["rows"] = run_all(bench_job, jobs)

    benchmark.pedantic(run_serial, rounds=1, iterations=1)
    t = time.perf_counter()
    rows = run_all(bench_job, jobs, workers=2)
    dask_s = time.perf_counter() - t
    same = [(r.path, r.revenue, r.optimal, r.bound, r.candidates) for r in rows] == \
        [(r.path, r.revenue, r.optimal, r.bound, r.candidates) for r in serial["rows"]]
    own = benchmark.stats.stats.median
    benchmark.extra_info.update({"positions": len(jobs), "serial_s": round(own, 2), "dask_2_workers_s": round(dask_s, 2),
                                 "speedup": round(own / dask_s, 2), "same_rows": same})

"""trainruns.services.sweep in-process: the serial run, N local worker processes and a Dask
cluster give the same results for the same jobs, in job order, with one progress tick
per job. The serial run is the reference: the same function on
the same jobs in one process, so any difference is the engine's (a chunk put back in
the wrong place, a job lost or run twice, a worker that computed with other data)."""

import glob
import os
import sys

import pytest

from trainruns.cli.bench import bench_job, bench_warm
from trainruns.game.selfplay import play_one, warm
from trainruns.services.sweep import SweepError, _chunks, local_cluster, run_all

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
POSITIONS = sorted(glob.glob(os.path.join(ROOT, "fixtures", "1832", "*.json")))[:12] + \
    sorted(glob.glob(os.path.join(ROOT, "fixtures", "real", "*.json")))[:6]
GAMES = [{"title": "1832", "players": ["P1", "P2", "P3"], "seed": seed, "max_actions": 120} for seed in (4, 5, 6)]


def _rows(rows):
    # every field of a row but the search time, the one that differs between runs
    return [(r.path, r.revenue, r.optimal, r.bound, r.candidates, r.expected, r.error) for r in rows]


def _ticked(**where):
    """run_all's results and ticks for the positions and the games."""
    ticks = []
    tick = lambda done, total, result: ticks.append((done, total, result))  # noqa: E731
    rows = run_all(bench_job, [(p, None) for p in POSITIONS], tick=tick, warm=bench_warm, **where)
    games = run_all(play_one, GAMES, tick=tick, warm=lambda: warm(GAMES[0]), **where)
    return rows, games, ticks


@pytest.fixture(scope="module")
def serial():
    return _ticked()


@pytest.fixture(scope="module")
def cluster():
    """A local Dask cluster of 2 worker processes, reached by its address as
    `--scheduler` reaches a cluster of several machines."""
    c = local_cluster(2, warm=bench_warm)
    yield c.scheduler_address
    c.close()


def _check(serial, other):
    rows, games, ticks = other
    assert _rows(rows) == _rows(serial[0])
    assert games == serial[1]
    # one tick per job, counting up, and ticking each job's own result
    n = len(POSITIONS)
    assert [t[:2] for t in ticks] == [(i, n) for i in range(1, n + 1)] + [(i, len(GAMES)) for i in
                                                                          range(1, len(GAMES) + 1)]
    assert sorted(_rows([t[2] for t in ticks[:n]])) == sorted(_rows(rows))
    assert sorted(t[2]["seed"] for t in ticks[n:]) == [g["seed"] for g in GAMES]


def test_the_serial_reference_is_worth_comparing(serial):
    rows, games, _ = serial
    # the positions solve (the fixtures' expected revenues, where they carry one) and
    # the games differ: equal results below are not equal because they are empty
    assert all(r.error is None and r.match is not False for r in rows)
    assert sum(r.match is True for r in rows) >= 10
    assert [g["seed"] for g in games] == [4, 5, 6] and len({g["state_digest"] for g in games}) == 3
    assert all(g["actions"] == 120 and g["problems"] == [] for g in games)


def test_two_local_worker_processes_give_the_serial_results_in_order(serial):
    _check(serial, _ticked(workers=2))


def test_a_dask_cluster_of_two_workers_gives_the_serial_results_in_order(serial, cluster):
    _check(serial, _ticked(scheduler=cluster))


def test_chunks_cover_every_job_once_in_order():
    for n in (1, 2, 7, 16, 17, 1000):
        for slots in (1, 2, 3):
            chunks = _chunks(n, slots)
            assert [i for a, b in chunks for i in range(a, b)] == list(range(n))
            assert len(chunks) <= slots * 8


def test_a_local_worker_that_dies_is_reported_not_hung():
    # os._exit ends the worker process at once, as the kernel's out-of-memory killer would
    with pytest.raises(SweepError, match="a worker process died"):
        run_all(os._exit, [3, 4, 5], workers=2)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups and pgrep of Linux")
def test_ctrl_c_stops_the_command_and_its_local_workers():
    """Ctrl-C reaches the terminal's whole process group: the command says so once
    (exit 130, as in-process) and no worker is left running or printing."""
    import signal
    import subprocess
    import time

    game = [sys.executable, "-m", "trainruns", "play", "selfplay", "1832", "--players", "4", "--games", "6",
            "--workers", "2", "--quiet"]
    p = subprocess.Popen(game, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=ROOT, env=dict(os.environ, TRAINRUNS_DAEMON="0"))
    try:
        # wait until both workers are forked (and busy with the six games, minutes of work)
        while len(subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()) < 2:
            assert p.poll() is None, p.stderr.read()
            time.sleep(0.1)
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130 and out == ""
    assert err.splitlines() == ["trainruns: interrupted"]
    assert subprocess.run(["pgrep", "-g", str(p.pid)], capture_output=True, text=True).stdout.split() == []

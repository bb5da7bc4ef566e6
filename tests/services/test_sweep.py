"""Scale-out (trainruns.services.sweep; docs/cluster.md): `bench` and `play selfplay` on
several local processes (--workers, a local Dask cluster) or on a Dask cluster
(--scheduler) give the rows of the serial run, in the same order. The serial run is
the reference: the same function on the same jobs in one process."""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
COMMAND = [sys.executable, "-m", "trainruns"]
BENCH = [os.path.join(ROOT, "fixtures", "1832"), os.path.join(ROOT, "fixtures", "real")]


def _run(args):
    p = subprocess.run(COMMAND + args, capture_output=True, text=True, timeout=900, cwd=ROOT)
    return p.returncode, p.stdout, p.stderr


def _rows(out):
    rows = json.loads(out)["positions"]
    for r in rows:
        r.pop("seconds")  # the one field that differs between runs
    return rows


def _games(out):
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture(scope="module")
def scheduler():
    """A Dask cluster of 2 worker processes, reached by its scheduler's address as a
    cluster on other machines would be."""
    from distributed import LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    yield cluster.scheduler_address
    cluster.close()


def test_bench_on_two_workers_gives_the_serial_rows_in_order():
    code_s, out_s, _ = _run(["bench", "--json", "--quiet"] + BENCH)
    code_w, out_w, err_w = _run(["bench", "--json", "--quiet", "--workers", "2"] + BENCH)
    assert code_w == code_s == 0, err_w
    serial = _rows(out_s)
    assert len(serial) > 20 and all(r["match"] is not False and r["error"] is None for r in serial)
    assert _rows(out_w) == serial


def test_bench_and_selfplay_on_a_cluster_give_the_serial_results(scheduler):
    code_s, out_s, _ = _run(["bench", "--json", "--quiet"] + BENCH[:1])
    code_c, out_c, err_c = _run(["bench", "--json", "--quiet", "--scheduler", scheduler] + BENCH[:1])
    assert code_c == code_s == 0, err_c
    assert _rows(out_c) == _rows(out_s)
    game = ["play", "selfplay", "1832", "--players", "3", "--games", "3", "--seed", "7", "--max-actions", "80",
            "--quiet"]
    code_s, out_s, _ = _run(game)
    code_c, out_c, err_c = _run(game + ["--scheduler", scheduler])
    assert code_c == code_s == 0, err_c
    games = _games(out_s)
    # three games, each its own seed (different games), then the summary line
    assert [g.get("seed") for g in games[:3]] == [7, 8, 9] and len({g["state_digest"] for g in games[:3]}) == 3
    # stopped at 80 actions, none by the game: each is named capped, and so is the count
    assert all(g["capped"] and not g["finished"] for g in games[:3])
    assert games[3] == {"games": 3, "finished": 0, "ended": {}, "capped": 3, "actions": 240, "broken": 0}
    assert _games(out_c) == games


def test_selfplay_on_two_workers_gives_the_serial_games():
    game = ["play", "selfplay", "1832", "--players", "4", "--games", "2", "--seed", "3", "--max-actions", "60",
            "--quiet"]
    code_s, out_s, _ = _run(game)
    code_w, out_w, err_w = _run(game + ["--workers", "2"])
    assert code_w == code_s == 0, err_w
    assert _games(out_w) == _games(out_s)


def test_a_scheduler_nobody_runs_is_bad_input():
    code, out, err = _run(["bench", "--quiet", "--scheduler", "tcp://127.0.0.1:9", os.path.join(ROOT, "fixtures", "1831")])
    assert code == 2 and out == ""
    assert err.startswith("trainruns: error: --scheduler: no Dask scheduler answers at tcp://127.0.0.1:9")
    assert len(err.strip().splitlines()) == 1

"""1831 at full size: invented boards the size of the printed map
(``trainruns.services.generate.board_1831``: 40-54 hexes of dense brown track, New York,
Cleveland and Buffalo with red hexes, the Delaware, both commuter runs, 11-13 tokens,
phase 9, trains 9S 12MX 7YD 7S). Most have 10^7 token-to-token paths or more: the
route model lists paths only while their arrays fit the memory budget and they are
``PATH_LIMIT`` (500,000) at most (a counting walk decides first), else it hands the
board to its flow model (titles/g1831/route/flow.py).

Four groups:

- ``family``: 33 full-size boards (benchmarks/boards.py ``FAMILY_1831``: the boards
  above and variants without commuter runs, with one or two track rights, without the
  Delaware's revisit, with tokens on the red extensions, in receivership, with mixed
  and yard trains, sparser and denser track, fewer and more cities, the rules'
  readings, phase 7), each solved as a whole process (``trainruns solve --json
  --time-limit BENCH_1831_LIMIT``, 10 s by default, ``TRAINRUNS_DAEMON=0``):
  extra_info has the revenue, proven or its bound, wall and CPU seconds and peak RSS
  (a process still running ``OVERRUN`` time limits and a minute after its start is
  ended, and said so).
  With ``BENCH_1831_BASE`` set to another checkout's ``src`` folder, each board is
  solved by that code too, right after, in the same way (``base_*`` in extra_info),
  so a change is measured against its start in one run under the same load. The
  module's end prints the table (and writes it to ``$BENCH_1831_SUMMARY``, if set).

- ``full``: the full-size boards, each solved with a 30 s time limit; extra_info has
  the revenue, its bound and whether it is proven. The bound is the track prices'
  (titles/g1831/route/bound.py: the Lagrangian relaxation of "no track twice", each train's
  priced route over its tokens): 1,616-2,164 where each train's best tokens said
  3,500-4,040; the flow model is held to it. With CP-SAT's portfolio (flow.WORKERS, and
  flow.PART_WORKERS for the model's parts) it proves every one of these at --time-limit 60 (whole processes: 4.5-38.5 s; the 30 s
  limit here may be short for 48hex-s2). With 20 s or more an unproven run goes to the
  priced proof (model._priced_proof), bought rights or not. The limit holds in every stage (the
  flow model's Python build looks at the clock): before it did, 40hex-s0 answered after
  131 s and 54hex-s0 was stopped by hand after 22 minutes at 2.5 GB, on a 60 s limit.
- ``listed``: a full-size board of 1.8 million token-to-token paths, few enough to
  list within the default budget but past ``PATH_LIMIT``, so the flow model takes it
  (with the limit lifted, its commuter runs' walk, commuter.py, plain Python, passes
  ``COMMUTER_STEPS`` and hands it over all the same), unproven. Its
  paths alone (commuter runs left out) fall into 368 classes of equal value: passing
  cities freely multiplies track, not values (model._assign_by_value).
- ``small``: the same generator cut to 20 hexes, where listing does prove: listing
  (the baseline) and the flow model timed one after the other in the same process,
  their ratio and whether they agree in extra_info.
"""

import json
import os
import subprocess
import sys
import tempfile
import threading
import time

import pytest
from boards import FAMILY_1831, family_1831

from trainruns.route.search import solve
from trainruns.services.generate import board_1831
from trainruns.titles.g1831.route import model as model_1831
from trainruns.titles.load import load_position

FULL = [(48, 0), (48, 1), (48, 2), (40, 0), (54, 0)]
SMALL = [(20, 0), (20, 1), (20, 2)]
LISTED = [(52, 4)]


@pytest.mark.parametrize("n,seed", FULL, ids=[f"1831-{n}hex-s{s}" for n, s in FULL])
def test_full(benchmark, n, seed):
    benchmark.group = "1831 full size"
    pos = board_1831(seed, n_hexes=n)
    run = benchmark.pedantic(lambda: solve(load_position(pos), time_limit=30.0), rounds=1, iterations=1)
    benchmark.extra_info.update(revenue=run.revenue, bound=run.bound, proven=run.optimal,
                                tokens=sum(t["corporation"] == "A" for t in pos["tokens"]),
                                rights=len(pos["track_rights"]))


@pytest.mark.parametrize("n,seed", LISTED, ids=[f"1831-{n}hex-s{s}" for n, s in LISTED])
def test_listed(benchmark, n, seed):
    benchmark.group = "1831 full size, listed"
    pos = board_1831(seed, n_hexes=n)
    run = benchmark.pedantic(lambda: solve(load_position(pos), time_limit=600.0), rounds=1, iterations=1)
    benchmark.extra_info.update(revenue=run.revenue, bound=run.bound, proven=run.optimal)


@pytest.mark.parametrize("n,seed", SMALL, ids=[f"1831-{n}hex-s{s}" for n, s in SMALL])
def test_small(benchmark, monkeypatch, n, seed):
    benchmark.group = "1831 cut down: listing against flow"
    pos = board_1831(seed, n_hexes=n, own_tokens=8)
    t0 = time.perf_counter()
    listed = solve(load_position(pos))
    listing_s = time.perf_counter() - t0
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)
    run = benchmark.pedantic(lambda: solve(load_position(pos), time_limit=60.0), rounds=1, iterations=1)
    flow_s = benchmark.stats.stats.max
    benchmark.extra_info.update(listing_revenue=listed.revenue, listing_s=listing_s, flow_revenue=run.revenue,
                                flow_bound=run.bound, flow_proven=run.optimal, flow_over_listing=flow_s / listing_s)


LIMIT = float(os.environ.get("BENCH_1831_LIMIT", "10"))
# a solve still running this many time limits (and a minute) after its start is ended
OVERRUN = 6
BASE = os.environ.get("BENCH_1831_BASE")
FAMILY_ROWS = []


def whole_process(position, src=None):
    """``trainruns solve --json --time-limit LIMIT`` of ``position`` in a process of its
    own (the code of ``src`` when given): its answer, wall and CPU seconds, peak RSS (MB)
    and the load average when it started."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(position, fh)
    env = dict(os.environ, TRAINRUNS_DAEMON="0")
    if src:
        env["PYTHONPATH"] = src
    load = os.getloadavg()[0]
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "trainruns", "solve", "--json", "--time-limit", str(LIMIT), fh.name],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    # a process far past its time limit is ended (and reported so): the run goes on
    killer = threading.Timer(OVERRUN * LIMIT + 60, p.kill)
    killer.start()
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    killer.cancel()
    wall = time.perf_counter() - t
    os.remove(fh.name)
    code = os.waitstatus_to_exitcode(status)
    answer = json.loads(out) if code == 0 else {}
    return {"revenue": answer.get("revenue"), "proven": answer.get("optimal"), "bound": answer.get("bound"),
            "wall_s": round(wall, 2), "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
            "peak_mb": round(usage.ru_maxrss / 1024), "load": round(load, 1), "exit": code}


def _said(row):
    if row["exit"] != 0:
        return f"no answer (exit {row['exit']})"
    return "yes" if row["proven"] else f"no ({row['bound']})"


@pytest.fixture(scope="module")
def family_summary():
    yield
    if not FAMILY_ROWS:
        return
    lines = ["| board | revenue | proven / bound | wall s | CPU s | peak MB | load |" + (" base |" if BASE else ""),
             "|---|---:|---|---:|---:|---:|---:|" + ("---|" if BASE else "")]
    for name, row, base in FAMILY_ROWS:
        cells = [name, str(row["revenue"]), _said(row), str(row["wall_s"]), str(row["cpu_s"]), str(row["peak_mb"]),
                 str(row["load"])]
        if base:
            cells.append(f"{base['revenue']}, {_said(base)}, {base['wall_s']} s, {base['peak_mb']} MB")
        lines.append("| " + " | ".join(cells) + " |")
    proven = sum(1 for _, row, _ in FAMILY_ROWS if row["proven"])
    lines.append(f"\n{proven}/{len(FAMILY_ROWS)} proven within --time-limit {LIMIT:g}")
    print("\n" + "\n".join(lines))
    if os.environ.get("BENCH_1831_SUMMARY"):
        with open(os.environ["BENCH_1831_SUMMARY"], "w") as fh:
            json.dump({"limit": LIMIT, "rows": FAMILY_ROWS}, fh, indent=1)


@pytest.mark.parametrize("name,position", family_1831(), ids=[name for name, *_ in FAMILY_1831])
def test_family(benchmark, family_summary, name, position):
    benchmark.group = "1831 family, whole process"
    rows = []
    benchmark.pedantic(lambda: rows.append(whole_process(position)), rounds=1, iterations=1)
    row = rows[0]
    base = whole_process(position, BASE) if BASE else None
    FAMILY_ROWS.append((name, row, base))
    benchmark.extra_info.update(row)
    if base:
        benchmark.extra_info.update({f"base_{k}": v for k, v in base.items()})

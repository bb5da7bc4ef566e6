"""One measurement of one board: stages timed apart, work counted, a baseline beside.

Timings on a shared machine are noisy, so every row also carries machine-independent
work (candidate routes, search nodes, blocks of 64 candidates checked) and a ratio
against a baseline measured in the same process right after: the branch and bound as
it was before this work (benchmarks/baseline.py: static bound, one mask comparison per
candidate), or, on tiny boards, a plain Python brute force. The ratio compares the
assignment stage only (enumeration is shared).
"""

import itertools
import time

from trainruns.route.assignment import assign_trains
from trainruns.route.compile import compile_board
from trainruns.route.enumeration import enumerate_all
from trainruns.titles.load import load_position

BRUTE_LIMIT = 40  # routes: plain brute force only below this (it is exponential in trains)


def brute_force(routes, trains):
    """Every choice of one route (or none) per train; pure Python, no pruning."""
    kind = [routes.kinds.index(t.name) for t in trains]
    bits = [int.from_bytes(routes.bits[r].tobytes(), "little") for r in range(len(routes))]
    options = [[-1] + [r for r in range(len(routes)) if routes.values[r, k] > 0] for k in kind]
    best = 0
    for combo in itertools.product(*options):
        used, total = 0, 0
        for k, r in zip(kind, combo):
            if r >= 0:
                if used & bits[r]:
                    break
                used |= bits[r]
                total += int(routes.values[r, k])
        else:
            best = max(best, total)
    return best


def measure(position, time_limit=30.0, baseline=True):
    """A dict of figures for one board (see the module docstring)."""
    t0 = time.perf_counter()
    board = load_position(position)
    compiled = compile_board(board)
    t1 = time.perf_counter()
    deadline = t1 + time_limit
    routes = enumerate_all(compiled, deadline=deadline)
    t2 = time.perf_counter()
    run = assign_trains(routes, deadline=deadline, budget=4096)
    t3 = time.perf_counter()
    row = {
        "routes": len(routes), "complete": routes.complete, "trains": "+".join(t.name for t in board.trains),
        "revenue": run.revenue, "bound": run.bound, "optimal": run.optimal,
        "nodes": run.nodes, "checks": run.checks,
        "load_ms": (t1 - t0) * 1e3, "enum_ms": (t2 - t1) * 1e3, "assign_ms": (t3 - t2) * 1e3,
        "best_ms": (t2 - t1 + run.time_to_best) * 1e3, "proof_ms": (t3 - t1) * 1e3,
    }
    if baseline and routes.complete:
        if len(routes) <= BRUTE_LIMIT and len(board.trains) <= 3:
            tb = time.perf_counter()
            value = brute_force(routes, board.trains)
            row["baseline"] = "brute force"
            row["base_ms"] = (time.perf_counter() - tb) * 1e3
            assert value == run.revenue or not run.optimal
        else:
            from baseline import baseline_assign

            tb = time.perf_counter()
            value, proven = baseline_assign(routes, deadline=tb + time_limit)
            row["baseline"] = "old B&B"
            row["base_ms"] = (time.perf_counter() - tb) * 1e3
            row["base_proven"] = proven
            assert not (proven and run.optimal) or value == run.revenue
        # the baseline does the assignment only: compare with our assignment
        row["speedup"] = row["base_ms"] / max(row["assign_ms"], 1e-3)
    return row

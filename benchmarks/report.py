"""Print the tables of benchmarks/README.md:
``python benchmarks/report.py [compile] [real] [scaling] [hard] [engines]``.

Same boards and figures as the pytest-benchmark files, one row per board."""

import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from boards import hard, scaling, shipped  # noqa: E402
from measure import measure  # noqa: E402


def table(rows, title):
    print(f"\n### {title}\n")
    print("| board | trains | routes | nodes | checks | revenue | proven | enum ms | best ms | proof ms | baseline | base ms | speedup |")
    print("|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|---:|---:|")
    for name, r in rows:
        proven = "yes" if r["optimal"] else f"no (bound {r['bound']})"
        base = r.get("baseline", "")
        if not r.get("base_proven", True):
            base += " (timed out: ratio is a lower bound)"
        print(f"| {name} | {r['trains']} | {r['routes']:,} | {r['nodes']:,} | {r['checks']:,} | {r['revenue']} | "
              f"{proven} | {r['enum_ms']:.1f} | {r['best_ms']:.1f} | {r['proof_ms']:.1f} | {base} | "
              f"{r.get('base_ms', 0):.1f} | {r.get('speedup', 0):.1f}x |")
    times = [r["proof_ms"] for _, r in rows]
    print(f"\nmedian proof {statistics.median(times):.1f} ms, max {max(times):.1f} ms, "
          f"{sum(r['optimal'] for _, r in rows)}/{len(rows)} proven")
    sys.stdout.flush()


def main(which):
    from trainruns.route.kernels import warm_up

    warm_up()
    if "compile" in which:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import tempfile

        from test_bench_compile import run_fresh

        with tempfile.TemporaryDirectory() as cache:
            cold, warm = run_fresh(cache), run_fresh(cache)
        print(f"\nnumba: compile every kernel {cold:.2f} s (empty cache), load from cache {warm:.2f} s")
    if "real" in which:
        table([(n, measure(p)) for n, p in shipped()], "Shipped positions")
    if "scaling" in which:
        table([(n, measure(p, time_limit=20.0)) for n, p in scaling()], "Scaling series")
    if "engines" in which:
        import time

        from trainruns.route.search import solve

        print("\n### Engines: branch and bound against CP-SAT\n")
        print("| board | routes | search | search ms | cpsat | cpsat ms |")
        print("|---|---:|---:|---:|---:|---:|")
        boards = shipped()[:6] + [b for b in scaling() if "10hex" in b[0] or "30hex" in b[0]][:6] + hard()[:6]
        for name, pos in boards:
            row = []
            for engine in ("search", "cpsat"):
                t = time.perf_counter()
                run = solve(pos, engine=engine, time_limit=20.0)
                ms = (time.perf_counter() - t) * 1e3
                row.append((run.revenue if run.optimal else f"{run.revenue} (bound {run.bound})", ms, run.candidates))
            print(f"| {name} | {row[0][2]:,} | {row[0][0]} | {row[0][1]:.1f} | {row[1][0]} | {row[1][1]:.1f} |")
            sys.stdout.flush()
    if "hard" in which:
        table([(n, measure(p, time_limit=20.0)) for n, p in hard()], "Hard late-game family")


if __name__ == "__main__":
    main(sys.argv[1:] or ["compile", "real", "scaling", "hard", "engines"])

"""Print the tables of benchmarks/README.md: ``python benchmarks/report.py [real|scaling|hard|compile]...``.

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
        if base == "static bound" and not r.get("base_proven", True):
            base += " (timed out)"
        print(f"| {name} | {r['trains']} | {r['routes']:,} | {r['nodes']:,} | {r['checks']:,} | {r['revenue']} | "
              f"{proven} | {r['enum_ms']:.1f} | {r['best_ms']:.1f} | {r['proof_ms']:.1f} | {base} | "
              f"{r.get('base_ms', 0):.1f} | {r.get('speedup', 0):.1f}x |")
    times = [r["proof_ms"] for _, r in rows]
    print(f"\nmedian proof {statistics.median(times):.1f} ms, max {max(times):.1f} ms, "
          f"{sum(r['optimal'] for _, r in rows)}/{len(rows)} proven")
    sys.stdout.flush()


def main(which):
    from trainruns.kernels import warm_up

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
    if "hard" in which:
        table([(n, measure(p, time_limit=30.0)) for n, p in hard()], "Hard late-game family")


if __name__ == "__main__":
    main(sys.argv[1:] or ["compile", "real", "scaling", "hard"])

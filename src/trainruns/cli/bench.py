"""``trainruns bench POSITIONS...``: solve many positions and tabulate the results.

Each argument is a position file or a folder (searched recursively for ``*.json``).
For every position: the best revenue, whether it is proven, the number of candidate
routes, the search time, and, when the file carries ``expected_revenue``, whether the
best revenue matches it. A position that fails to load or to solve is a row with its
error, not a crash: a benchmark over a folder should report every file. The exit
status is 1 when any row is an ERROR or a MISMATCH (so a CI job can rely on it), else 0;
2 for a bad argument (a missing path, a folder without positions, a bad ``--time-limit``).
"""

import csv
import io
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from trainruns.cli import add_scale_out, add_time_limit
from trainruns.cli.progressbar import ProgressBar
from trainruns.cli.solve import compile_notice
from trainruns.errors import InputError


def register(sub):
    p = sub.add_parser("bench", help="solve many positions: revenue, proof, time, expected-revenue match")
    p.add_argument("positions", nargs="+", metavar="POSITION", help="position files or folders (recursive *.json)")
    add_time_limit(p, "bound each position's search")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print the rows as a JSON list")
    fmt.add_argument("--csv", action="store_true", help="print the rows as CSV")
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    add_scale_out(p)
    p.set_defaults(func=run)


@dataclass
class BenchRow:
    """One position's outcome; ``error`` is set (and the rest empty) when it failed."""

    path: str
    revenue: int | None = None
    optimal: bool | None = None
    bound: int | None = None
    candidates: int | None = None
    seconds: float | None = None
    expected: int | None = None
    error: str | None = None

    @property
    def match(self):
        """True/False when the file names an expected revenue and the solve worked."""
        if self.expected is None or self.revenue is None:
            return None
        return self.revenue == self.expected

    def to_json(self):
        return {"path": self.path, "revenue": self.revenue, "optimal": self.optimal,
                "bound": self.bound, "candidates": self.candidates,
                "seconds": None if self.seconds is None else round(self.seconds, 6),
                "expected_revenue": self.expected, "match": self.match, "error": self.error}


def collect(paths):
    """Position files named by the arguments, folders expanded recursively (sorted, so
    runs are comparable). A missing path is a bad argument."""
    files = []
    for arg in paths:
        p = Path(arg)
        if p.is_dir():
            found = sorted(q for q in p.rglob("*.json") if q.is_file())
            if not found:
                raise InputError("folder holds no *.json positions", arg)
            files.extend(found)
        elif p.is_file():
            files.append(p)
        else:
            raise InputError("no such position file or folder", arg)
    return [str(f) for f in files]


def bench_one(path, time_limit=None):
    """Solve one position file into a :class:`BenchRow`; never raises on a bad file."""
    from trainruns.position.reader import read_json
    from trainruns.route.search import solve
    from trainruns.titles.load import load_position

    row = BenchRow(path=path)
    try:
        data = read_json(path)
        if isinstance(data, dict):
            exp = data.get("expected_revenue")
            if isinstance(exp, int) and not isinstance(exp, bool):
                row.expected = exp
        board = load_position(data if isinstance(data, dict) else path, where=path)
        run_ = solve(board, time_limit=time_limit)
    except InputError as e:
        row.error = str(e)
        return row
    except Exception as e:  # a bug on one file must not hide the other files' results
        row.error = f"internal error ({type(e).__name__}: {e})"
        return row
    row.revenue, row.optimal, row.bound = run_.revenue, run_.optimal, run_.bound
    row.candidates, row.seconds = run_.candidates, run_.seconds
    return row


def bench(paths, time_limit=None, bar=None):
    """Rows for every position file in ``paths`` (files or folders)."""
    rows = []
    for f in paths:
        if bar:
            bar.advance(0, label=os.path.basename(f))
        rows.append(bench_one(f, time_limit))
        if bar:
            bar.advance(1)
    return rows


def bench_warm(quiet=True):
    """What :func:`bench_one` loads at its first position, loaded now (saying so when
    the kernels must be compiled): local workers are forked from this process after it
    (trainruns.services.sweep) and start with the kernels ready."""
    from trainruns.position import reader as position  # noqa: F401
    from trainruns.route import search  # noqa: F401
    from trainruns.titles import load  # noqa: F401

    compile_notice(quiet)


def bench_job(job):
    """:func:`bench_one` of ``(path, time_limit)``: one job of a sweep (trainruns.services.sweep)."""
    return bench_one(*job)


def run(args):
    files = collect(args.positions)
    bar = None if args.quiet else ProgressBar(len(files), "bench")
    quiet = args.quiet or args.json or args.csv
    t0 = time.perf_counter()
    if args.workers == 1 and args.scheduler is None:
        compile_notice(quiet)
        rows = bench(files, args.time_limit, bar)
        if bar:
            bar.close()
    else:
        # local workers start with the kernels loaded here (bench_warm); a remote worker
        # loads (or compiles) them once, at its first position; the positions must be
        # readable at the same paths on every worker (docs/cluster.md)
        from trainruns.cli.scale import run_jobs

        jobs = [(os.path.abspath(f), args.time_limit) for f in files]
        rows = run_jobs(bench_job, jobs, args, bar, warm=lambda: bench_warm(quiet))
        for row, f in zip(rows, files):
            row.path = f
    wall = time.perf_counter() - t0
    if args.json:
        print(json.dumps({"positions": [r.to_json() for r in rows], "summary": summary(rows, wall)}))
    elif args.csv:
        sys.stdout.write(format_csv(rows))
    else:
        print(format_table(rows, wall))
    return 1 if any(r.error is not None or r.match is False for r in rows) else 0


def summary(rows, wall):
    """Counts a reader wants first: how many solved, proven, matched, failed."""
    return {
        "positions": len(rows),
        "errors": sum(r.error is not None for r in rows),
        "proven": sum(bool(r.optimal) for r in rows),
        "with_expected": sum(r.match is not None for r in rows),
        "matched": sum(r.match is True for r in rows),
        "mismatched": sum(r.match is False for r in rows),
        "search_seconds": round(sum(r.seconds or 0 for r in rows), 6),
        "wall_seconds": round(wall, 6),
    }


CSV_FIELDS = ["path", "revenue", "optimal", "bound", "candidates", "seconds", "expected_revenue", "match", "error"]


def format_csv(rows):
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if v is None else v) for k, v in r.to_json().items()})
    return out.getvalue()


def format_table(rows, wall):
    """One line per position, then the summary."""
    names = [_short(r.path) for r in rows]
    width = max([len(n) for n in names] + [8])
    head = f"{'position':<{width}}  {'revenue':>7}  {'proven':>6}  {'routes':>8}  {'ms':>9}  {'expected':>8}  match"
    lines = [head, "-" * len(head)]
    for name, r in zip(names, rows):
        if r.error:
            lines.append(f"{name:<{width}}  ERROR: {r.error}")
            continue
        match = {None: "", True: "ok", False: "MISMATCH"}[r.match]
        proven = "yes" if r.optimal else f"no<={r.bound}"
        lines.append(f"{name:<{width}}  {r.revenue:>7}  {proven:>6}  {r.candidates:>8}  "
                     f"{r.seconds * 1000:>9.1f}  {'' if r.expected is None else r.expected:>8}  {match}")
    s = summary(rows, wall)
    lines.append("-" * len(head))
    lines.append(f"{s['positions']} positions: {s['proven']} proven, {s['errors']} errors; "
                 f"{s['matched']}/{s['with_expected']} match expected_revenue"
                 + (f", {s['mismatched']} MISMATCH" if s["mismatched"] else "")
                 + f"; search {s['search_seconds']:.2f} s, wall {wall:.2f} s")
    return "\n".join(lines)


def _short(path):
    """Paths relative to the working folder when that is shorter."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return rel if len(rel) < len(path) else path

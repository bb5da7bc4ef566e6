"""``trainruns bench POSITIONS...``: solve many positions and tabulate the results.

Each argument is a position file, a corpus file of positions (``*.jsonl``, or gzipped
``*.jsonl.gz``: one position per line, as benchmarks/corpus/ holds them) or a folder
(searched recursively for both). For every position: the best revenue, whether it is
proven, the number of candidate routes, the search time, and, when the position carries
``expected_revenue``, whether the best revenue matches it; then the search time by title
and phase of the game (count, median, 90th percentile, max, how many proven). A
position that fails to load or to solve is a row with its error, not a crash: a
benchmark over a folder should report every file. The exit
status is 1 when any row is an ERROR or a MISMATCH (so a CI job can rely on it), else 0;
2 for a bad argument (a missing path, a folder without positions, a bad ``--time-limit``).
"""

import csv
import io
import json
import os
import re
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from trainruns.cli import add_scale_out, add_time_limit
from trainruns.cli.progressbar import ProgressBar
from trainruns.cli.solve import compile_notice
from trainruns.errors import InputError


def register(sub):
    p = sub.add_parser("bench", help="solve many positions: revenue, proof, time, expected-revenue match")
    p.add_argument("positions", nargs="+", metavar="POSITION",
                   help="position files, corpus files (*.jsonl, *.jsonl.gz) or folders (recursive)")
    add_time_limit(p, "bound each position's search")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true",
                     help='print one JSON object: {"positions": [rows], "phases": [...], "summary": {...}} '
                          "(docs/position-format.md)")
    fmt.add_argument("--csv", action="store_true", help="print the rows as CSV, one line per position")
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    p.add_argument("--phases-only", action="store_true",
                   help="the table by title and phase and the summary, without a line per position")
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
    title: str | None = None
    phase: str | None = None

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
                "expected_revenue": self.expected, "match": self.match, "error": self.error,
                "title": self.title, "phase": self.phase}


CORPUS_SUFFIXES = (".jsonl", ".jsonl.gz")
# a corpus file holds one game's positions (a few hundred kB); a line is one position,
# held to the one reader's limit for a file
MAX_CORPUS_BYTES = 64 * 1024 * 1024


def _is_corpus(path) -> bool:
    return str(path).endswith(CORPUS_SUFFIXES)


def _is_position_source(path) -> bool:
    return path.is_file() and (path.suffix == ".json" or _is_corpus(path))


# what a folder may hold beside positions: game logs and 1831 game configs say so in
# their "format" field near the top (docs/game-log.md, docs/game-1831.md)
_OTHER_FORMAT = re.compile(rb'"format"\s*:\s*"(trainruns-game|trainruns-1831-config)/')


def _other_files(found) -> set:
    """The files among ``found`` that are not positions: game logs, 1831 game configs and
    the map and tile files a config names beside it."""
    other = set()
    for q in found:
        if q.suffix != ".json":
            continue
        with open(q, "rb") as f:
            m = _OTHER_FORMAT.search(f.read(8192))
        if not m:
            continue
        other.add(q)
        if m.group(1) == b"trainruns-1831-config":
            try:
                config = json.loads(q.read_text())
            except (OSError, ValueError):
                continue
            other.update(q.parent / config[k] for k in ("map", "tiles") if isinstance(config.get(k), str))
    return other


def collect(paths, skipped=None):
    """The positions named by the arguments, folders expanded recursively (sorted, so
    runs are comparable): a position file as its path, each line of a corpus file as
    ``PATH:LINE`` (from 1). A folder's game logs and 1831 game configs are not positions:
    they are left out, and added to ``skipped`` when given. A missing path is a bad
    argument; a corpus file that cannot be read is one entry, its path, which
    :func:`bench_one` reports as an error row."""
    files = []
    for arg in paths:
        p = Path(arg)
        if p.is_dir():
            found = sorted(q for q in p.rglob("*") if _is_position_source(q))
            other = _other_files(found)
            found = [q for q in found if q not in other]
            if skipped is not None:
                skipped.extend(sorted(str(q) for q in other))
            if not found:
                raise InputError("folder holds no *.json, *.jsonl or *.jsonl.gz positions", arg)
            files.extend(found)
        elif p.is_file():
            files.append(p)
        else:
            raise InputError("no such position file or folder", arg)
    out = []
    for f in files:
        if not _is_corpus(f):
            out.append(str(f))
            continue
        try:
            n = len(corpus_lines(str(f)))
        except InputError:
            out.append(str(f))
            continue
        out.extend(f"{f}:{i}" for i in range(1, n + 1))
    return out


def _entry(path):
    """``(file, line)`` of a corpus entry ``FILE:LINE``; ``(path, None)`` otherwise."""
    head, sep, tail = str(path).rpartition(":")
    if sep and _is_corpus(head) and tail.isdigit():
        return head, int(tail)
    return str(path), None


@lru_cache(maxsize=4)
def corpus_lines(path) -> tuple:
    """The lines (bytes) of a corpus file, gunzipped when its name ends in ``.gz``; kept
    for the next entries of the same file. Unreadable, not gzip, or over
    ``MAX_CORPUS_BYTES`` unpacked: bad input naming the file."""
    import gzip
    import zlib

    try:
        with (gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")) as fh:
            raw = fh.read(MAX_CORPUS_BYTES + 1)
    except FileNotFoundError:
        raise InputError("no such corpus file", path) from None
    except (OSError, EOFError, zlib.error) as e:
        raise InputError(f"cannot read the corpus file ({e})", path) from None
    if len(raw) > MAX_CORPUS_BYTES:
        raise InputError(f"corpus file unpacks to more than {MAX_CORPUS_BYTES} bytes", path)
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()   # the newline that ends the last line
    return tuple(lines)


def _read_position(path):
    """The JSON of a position file, or of one line of a corpus file, by the one strict
    reader (a malformed line names its file and line)."""
    from trainruns.position.reader import parse_json, read_json

    file, line = _entry(path)
    if line is None:
        if _is_corpus(file):
            corpus_lines(file)   # the reason this corpus file could not be listed
        return read_json(path)
    lines = corpus_lines(file)
    if line > len(lines):
        raise InputError(f"the corpus file has {len(lines)} lines", path)
    return parse_json(lines[line - 1], path)


def bench_one(path, time_limit=None):
    """Solve one position (a file, or a corpus line ``FILE:LINE``) into a
    :class:`BenchRow`; never raises on bad input."""
    from trainruns.route.search import solve
    from trainruns.titles.load import load_position

    row = BenchRow(path=path)
    try:
        data = _read_position(path)
        if isinstance(data, dict):
            exp = data.get("expected_revenue")
            if isinstance(exp, int) and not isinstance(exp, bool):
                row.expected = exp
            row.title, row.phase = _label(data.get("title")), _label(data.get("phase"))
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


def _label(value):
    """A title or phase as the phase table names it (a custom map has neither)."""
    return value if isinstance(value, str) else None


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
    skipped = []
    files = collect(args.positions, skipped)
    bar = None if args.quiet else ProgressBar(len(files), "bench")
    quiet = args.quiet or args.json or args.csv
    if skipped and not quiet:
        print(f"bench: left out {len(skipped)} files that are not positions (game logs, 1831 game configs)",
              file=sys.stderr)
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
        out = {"positions": [r.to_json() for r in rows], "phases": phases(rows), "summary": summary(rows, wall)}
        if args.phases_only:
            del out["positions"]
        print(json.dumps(out))
    elif args.csv:
        sys.stdout.write(format_csv(rows))
    else:
        print(format_table(rows, wall, per_position=not args.phases_only))
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


def phases(rows):
    """The search time by title and phase of the game: for each, how many positions
    were solved (error rows are left out), the median, 90th percentile and largest
    search time in seconds, and how many were proven; ordered by title,
    then phase (``"2"`` before ``"10"``, ``"II"`` before ``"IV"``)."""
    groups = {}
    for r in rows:
        if r.error is None:
            groups.setdefault((r.title, r.phase), []).append(r)
    out = []
    for (title, phase), group in sorted(groups.items(), key=lambda kv: (_order(kv[0][0]), _order(kv[0][1]))):
        times = sorted(r.seconds for r in group)
        out.append({"title": title, "phase": phase, "count": len(group),
                    "median_seconds": round(_median(times), 6), "p90_seconds": round(_p90(times), 6),
                    "max_seconds": round(times[-1], 6), "proven": sum(bool(r.optimal) for r in group)})
    return out


def _median(ordered):
    """The median of sorted values (the mean of the middle two of an even count)."""
    n = len(ordered)
    return ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2


def _p90(ordered):
    """The 90th percentile of sorted values by nearest rank: the smallest value with at
    least 90% of them at or below it (a value that was measured, never interpolated)."""
    return ordered[-(-9 * len(ordered) // 10) - 1]


ROMAN = {"I": 1, "V": 5, "X": 10}


def _order(name):
    """A sort key that puts phases in the order a game reaches them: numbers by value
    (``"2"``, ``"3"``, ``"10"``; ``"3½"`` after ``"3"``), Roman numerals by value, other
    names after them by text, none last."""
    if name is None:
        return (3, 0, "")
    digits = len(name) - len(name.lstrip("0123456789"))
    if digits:
        return (0, int(name[:digits]), name[digits:])
    if name and set(name) <= set(ROMAN):
        values = [ROMAN[c] for c in name]
        return (1, sum(-v if v < w else v for v, w in zip(values, values[1:] + [0])), "")
    return (2, 0, name)


def format_phases(table):
    """The phase table as text: one line per title and phase, times in milliseconds."""
    head = f"{'title':<8}  {'phase':<6}  {'count':>6}  {'median ms':>9}  {'p90 ms':>9}  {'max ms':>9}  {'proven':>6}"
    lines = [head, "-" * len(head)]
    for g in table:
        lines.append(f"{g['title'] or '-':<8}  {g['phase'] or '-':<6}  {g['count']:>6}  "
                     f"{g['median_seconds'] * 1000:>9.1f}  {g['p90_seconds'] * 1000:>9.1f}  "
                     f"{g['max_seconds'] * 1000:>9.1f}  {g['proven']:>6}")
    return lines


CSV_FIELDS = ["path", "revenue", "optimal", "bound", "candidates", "seconds", "expected_revenue", "match", "error",
              "title", "phase"]


def format_csv(rows):
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if v is None else v) for k, v in r.to_json().items()})
    return out.getvalue()


def format_table(rows, wall, per_position=True):
    """One line per position (unless ``per_position`` is False), the search time by
    title and phase, then the summary."""
    lines = format_positions(rows) + [""] if per_position else []
    phase_lines = format_phases(phases(rows))
    lines += phase_lines + [phase_lines[1]]
    s = summary(rows, wall)
    lines.append(f"{s['positions']} positions: {s['proven']} proven, {s['errors']} errors; "
                 f"{s['matched']}/{s['with_expected']} match expected_revenue"
                 + (f", {s['mismatched']} MISMATCH" if s["mismatched"] else "")
                 + f"; search {s['search_seconds']:.2f} s, wall {wall:.2f} s")
    return "\n".join(lines)


def format_positions(rows):
    """One line per position, under a header."""
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
    return lines


def _short(path):
    """Paths relative to the working folder when that is shorter."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return rel if len(rel) < len(path) else path

"""The corpus (benchmarks/corpus/, written by tools/make_corpus.py): the position of
every operating turn of seeded advisor games of 1832, 1833NE and 1831, solved by title
and phase of the game; and the same for the random policy's games
(benchmarks/corpus-random/, its benchmarks named ``random-...``).

One benchmark per corpus, title and phase: a round solves every position of the group once,
from its JSON (reading and building the board included, as `trainruns bench` does).
Each position must be proven at the revenue the corpus records (a benchmark that
measured a wrong answer would measure nothing); extra_info holds the group's count and
its search times (``solve``'s own ``seconds``: median, 90th percentile by nearest rank,
max) from the first round.

    python -m pytest benchmarks/test_bench_corpus.py --benchmark-only --benchmark-sort=name \
        --benchmark-json=corpus.json
    python benchmarks/report_tables.py corpus.json --extra-keys positions,proven,median_ms,p90_ms,max_ms
"""

import gzip
import json
import statistics
from pathlib import Path

import pytest

from trainruns.cli.bench import _order, _p90

HERE = Path(__file__).resolve().parent
# the advisor's games (the corpus) and the random policy's, each with its name's prefix
CORPORA = {"": HERE / "corpus", "random-": HERE / "corpus-random"}
# a group whose round takes longer than this is timed once, not three times
ONE_ROUND_SECONDS = 5.0


def _phase_key(group):
    return tuple(_order(x) for x in group)


def _groups() -> dict:
    groups = {}
    for prefix, folder in CORPORA.items():
        for path in sorted(folder.glob("*/*.jsonl.gz")):
            for line in gzip.decompress(path.read_bytes()).decode().splitlines():
                p = json.loads(line)
                groups.setdefault((prefix, p["title"], p["phase"]), []).append(p)
    return dict(sorted(groups.items(), key=lambda kv: _phase_key(kv[0])))


GROUPS = _groups()


def _ids() -> list:
    """``1833NE-02-phase-II`` (``random-1833NE-02-phase-II``): each group numbered in
    its corpus and title in the order of the game's phases, so that
    ``--benchmark-sort=name`` lists them in that order."""
    out, seen = [], {}
    for prefix, title, phase in GROUPS:
        seen[prefix, title] = seen.get((prefix, title), 0) + 1
        out.append(f"{prefix}{title}-{seen[prefix, title]:02d}-phase-{phase}")
    return out


@pytest.mark.parametrize("prefix,title,phase", list(GROUPS), ids=_ids())
def test_corpus(benchmark, prefix, title, phase):
    from trainruns import solve

    positions = GROUPS[prefix, title, phase]
    benchmark.group = f"{prefix}corpus {title}"
    first = [solve(p) for p in positions]
    assert all(r.optimal for r in first)
    assert [r.revenue for r in first] == [p["expected_revenue"] for p in positions]
    times = sorted(r.seconds for r in first)
    benchmark.extra_info.update({
        "positions": len(positions), "proven": sum(r.optimal for r in first),
        "median_ms": round(statistics.median(times) * 1000, 2),
        "p90_ms": round(_p90(times) * 1000, 2), "max_ms": round(times[-1] * 1000, 2)})
    rounds = 1 if sum(times) > ONE_ROUND_SECONDS else 3
    runs = benchmark.pedantic(lambda: [solve(p) for p in positions], rounds=rounds, iterations=1)
    assert [r.revenue for r in runs] == [p["expected_revenue"] for p in positions]

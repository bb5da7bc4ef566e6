"""The corpus of benchmarks/corpus/ and `trainruns bench` over it: positions of the
operating turns of seeded advisor games, each run's proven best revenue (1832 [8]
Route Value; 1833NE "Operating Trains"; 1831 5.6), solved again by `bench` with no
mismatch, and the search time by title and phase of the game.

The whole corpus runs in benchmarks/test_bench_corpus.py; here, one game's file per
title, the corpus reading, the phase table and the tool that writes the corpus."""

import gzip
import json
import statistics
import sys
from pathlib import Path

import pytest

from trainruns.cli.main import main
from trainruns.cli.bench import BenchRow, collect, phases

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "benchmarks" / "corpus"
RANDOM_CORPUS = ROOT / "benchmarks" / "corpus-random"
TITLES = ("1831", "1832", "1833NE")
sys.path.insert(0, str(ROOT / "tools"))

import make_corpus  # noqa: E402


def _positions(path):
    return [json.loads(line) for line in gzip.decompress(path.read_bytes()).decode().splitlines()]


def _bench(capsys, *args):
    status = main(["bench", *map(str, args), "--json", "--quiet"])
    out = capsys.readouterr().out
    return status, json.loads(out)


def test_the_corpora_hold_2000_positions_of_every_title():
    """Issue 32: the advisor's corpus holds at least 2,000 positions across the three
    titles (benchmarks/README.md says how many of each); with the random policy's
    corpus, at least 100 of each title."""
    advisor = {t: sum(len(_positions(f)) for f in (CORPUS / t).glob("*.jsonl.gz")) for t in TITLES}
    both = {t: advisor[t] + sum(len(_positions(f)) for f in (RANDOM_CORPUS / t).glob("*.jsonl.gz"))
            for t in TITLES}
    assert all(advisor.values()), advisor
    assert sum(advisor.values()) >= 2000, advisor
    assert all(n >= 100 for n in both.values()), both


@pytest.mark.parametrize("corpus", [CORPUS, RANDOM_CORPUS], ids=["advisor", "random"])
@pytest.mark.parametrize("title", TITLES)
def test_bench_proves_one_game_of_each_title_as_recorded(capsys, corpus, title):
    """A game's positions: every one proven, its best revenue the recorded one; the
    phase table counts each position once, under its own phase."""
    files = sorted((corpus / title).glob("*.jsonl.gz"))
    if not files:   # the advisor's games of a title not yet written (benchmarks/README.md)
        pytest.skip(f"no game of {title} in {corpus.relative_to(ROOT)} yet")
    path = files[0]
    positions = _positions(path)
    status, out = _bench(capsys, path)
    assert status == 0
    rows = out["positions"]
    assert [r["path"] for r in rows] == [f"{path}:{i}" for i in range(1, len(positions) + 1)]
    assert all(r["error"] is None and r["optimal"] and r["match"] for r in rows)
    assert [r["revenue"] for r in rows] == [p["expected_revenue"] for p in positions]
    by_phase = {}
    for p in positions:
        by_phase[p["phase"]] = by_phase.get(p["phase"], 0) + 1
    assert {(g["title"], g["phase"]): g["count"] for g in out["phases"]} == {(title, k): v for k, v in
                                                                            by_phase.items()}
    assert all(g["proven"] == g["count"] for g in out["phases"])
    assert out["summary"]["matched"] == len(positions) and out["summary"]["mismatched"] == 0


def test_a_wrong_recorded_revenue_is_a_mismatch(tmp_path, capsys):
    """bench compares with the corpus's revenue: one changed by 10 is a MISMATCH (exit 1)."""
    positions = _positions(sorted((CORPUS / "1833NE").glob("*.jsonl.gz"))[0])[:3]
    positions[1]["expected_revenue"] += 10
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in positions))
    status, out = _bench(capsys, path)
    assert status == 1
    assert [r["match"] for r in out["positions"]] == [True, False, True]


def test_a_bad_corpus_line_is_its_own_error_row(tmp_path, capsys):
    """Bad input is named by file and line; the other lines are still solved."""
    good = _positions(sorted((CORPUS / "1833NE").glob("*.jsonl.gz"))[0])[0]
    bad = dict(good, phase=7)
    path = tmp_path / "g.jsonl.gz"
    path.write_bytes(gzip.compress((json.dumps(good) + "\n{\"title\": \n" + json.dumps(bad) + "\n").encode()))
    status, out = _bench(capsys, tmp_path)
    assert status == 1
    rows = out["positions"]
    assert rows[0]["error"] is None and rows[0]["match"]
    assert rows[1]["error"].startswith(f"{path}:2: malformed JSON")
    assert rows[2]["error"].startswith(f"{path}:3: ") and "phase" in rows[2]["error"]


def test_a_corpus_file_that_is_not_gzip_is_one_error_row(tmp_path, capsys):
    path = tmp_path / "g.jsonl.gz"
    path.write_bytes(b"not gzip\n")
    assert collect([tmp_path]) == [str(path)]
    status, out = _bench(capsys, path)
    assert status == 1
    assert out["positions"][0]["error"].startswith(f"{path}: cannot read the corpus file")


def test_phase_table_by_title_then_phase_in_game_order():
    """Phases in the order a game reaches them ("2" before "10", "II" before "IV"); the
    median and the 90th percentile (nearest rank) of the search times; error rows left out."""
    def row(title, phase, ms, optimal=True):
        return BenchRow(path="x", revenue=10, optimal=optimal, seconds=ms / 1000, title=title, phase=phase)

    rows = [row("1832", "10", 5), row("1832", "2", 1), row("1833NE", "IV", 3), row("1833NE", "II", 2),
            row("1832", "2", 3, optimal=False), BenchRow(path="y", error="bad", title="1832", phase="2")]
    rows += [row("1831", "3", ms) for ms in range(1, 21)]
    table = phases(rows)
    assert [(g["title"], g["phase"], g["count"], g["proven"]) for g in table] == [
        ("1831", "3", 20, 20), ("1832", "2", 2, 1), ("1832", "10", 1, 1), ("1833NE", "II", 1, 1),
        ("1833NE", "IV", 1, 1)]
    assert table[0]["median_seconds"] == statistics.median(range(1, 21)) / 1000
    assert table[0]["p90_seconds"] == 0.018 and table[0]["max_seconds"] == 0.02


def test_the_tool_writes_each_run_position_once_with_its_proven_revenue(tmp_path):
    """make_corpus: a position per operating turn that ran (the company holds trains),
    distinct, each with the revenue the route core proves; the same bytes when written again."""
    from trainruns import solve

    # a turn may list run_routes twice with the same position, before and after an issue
    # or a redemption (1833NE "Corporations issue and redeem shares"): kept once. Seed 3's
    # game has 11 runs (seed 1's, which had that case, ends with 2 since a forced buyer
    # may take another corporation's train)
    lines = make_corpus.corpus_lines("1833NE", 3, 3)
    positions = [json.loads(x) for x in lines]
    assert len(positions) >= 3
    bare = [{k: v for k, v in p.items() if k not in ("expected_revenue", "notes")} for p in positions]
    assert len({json.dumps(p, sort_keys=True) for p in bare}) == len(bare)
    assert all(p["trains"] for p in bare)
    assert [p["expected_revenue"] for p in positions] == [solve(p).revenue for p in bare]
    a, b = tmp_path / "a.jsonl.gz", tmp_path / "b.jsonl.gz"
    make_corpus.write_gz(a, lines)
    make_corpus.write_gz(b, list(lines))
    assert a.read_bytes() == b.read_bytes()
    assert gzip.decompress(a.read_bytes()).decode().splitlines() == lines


def test_the_tool_reads_seeds_and_player_counts():
    assert make_corpus.parse_seeds("5,9,12-14,9") == [5, 9, 12, 13, 14]
    # seed S: the (S - 1) % n-th of the title's player counts (1833NE seats 3 to 5)
    assert make_corpus.jobs(["1833NE", "1831"], [1, 2, 3, 4]) == [
        ("1833NE", 3, 1), ("1833NE", 4, 2), ("1833NE", 5, 3), ("1833NE", 3, 4),
        ("1831", 3, 1), ("1831", 4, 2), ("1831", 5, 3), ("1831", 6, 4)]
    assert make_corpus.jobs(["1832"], [7], [6, 3]) == [("1832", 6, 7), ("1832", 3, 7)]


@pytest.mark.parametrize("argv", [["--seeds", "0"], ["--seeds", "3-1"], ["--seeds", "a"],
                                  ["--titles", "1833NE", "--players", "6", "--seeds", "1"]])
def test_the_tool_refuses_bad_jobs_with_exit_2(tmp_path, capsys, argv):
    assert make_corpus.main([*argv, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("make_corpus: --")
    assert not any(tmp_path.iterdir())


def test_the_tool_skips_a_game_whose_file_exists(tmp_path, capsys):
    """Resumable: a second run of the same command plays no game again; --overwrite does."""
    argv = ["--policy", "random", "--titles", "1833NE", "--seeds", "1", "--out", str(tmp_path)]
    path = tmp_path / "1833NE" / "1833NE-3p-seed1.jsonl.gz"
    assert make_corpus.main(argv) == 0
    n = len(_positions(path))
    assert f"1833NE-3p-seed1: {n} positions, 0 left out, " in capsys.readouterr().err
    stand_in = gzip.compress(b"{}\n", mtime=0)
    path.write_bytes(stand_in)   # played again, the game would replace it
    assert make_corpus.main(argv) == 0
    assert capsys.readouterr().err == "1833NE-3p-seed1: 1 positions, kept (its file exists)\n"
    assert path.read_bytes() == stand_in
    assert make_corpus.main([*argv, "--overwrite"]) == 0
    assert len(_positions(path)) == n
    assert [p.name for p in (tmp_path / "1833NE").iterdir()] == [path.name]   # no .part left


def test_a_game_stopped_by_the_action_cap_is_a_part_the_whole_game_replaces(tmp_path, capsys):
    """A capped game's file names its cap (seed 3's random game: 294 actions); its positions are the whole game's first ones
    (the same seed plays the same actions), and the whole game's file removes it."""
    argv = ["--policy", "random", "--titles", "1833NE", "--seeds", "3", "--out", str(tmp_path)]
    folder = tmp_path / "1833NE"
    assert make_corpus.main([*argv, "--max-actions", "150"]) == 0
    part = folder / "1833NE-5p-seed3-first150.jsonl.gz"
    assert "1833NE-5p-seed3-first150: " in capsys.readouterr().err
    assert make_corpus.main([*argv, "--max-actions", "150"]) == 0
    assert capsys.readouterr().err.endswith(" positions, kept (its file exists)\n")
    first = _positions(part)
    assert make_corpus.main(argv) == 0
    whole = _positions(folder / "1833NE-5p-seed3.jsonl.gz")
    assert [p.name for p in folder.iterdir()] == ["1833NE-5p-seed3.jsonl.gz"]
    assert 0 < len(first) < len(whole) and whole[:len(first)] == first

"""tools/selfplay_record.py keeps a sweep of seeded games that is played in several
sittings: a game is recorded once, whole, the moment it ends; a stopped sweep goes on
from the seeds it lacks; a recorded game replays to its recorded digest."""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import selfplay_record


@pytest.fixture
def results(tmp_path, monkeypatch):
    monkeypatch.setattr(selfplay_record, "RESULTS", tmp_path)
    return tmp_path


def test_a_sweep_goes_on_where_it_stopped(results, capsys):
    run = ["run", "1833NE", "--policy", "random", "--players", "3", "--first", "5"]
    assert selfplay_record.main(run + ["--games", "2"]) == 0
    path = results / "selfplay-random-1833NE-3p.jsonl"
    first = [json.loads(x) for x in path.read_text().splitlines()]
    assert [g["seed"] for g in first] == [5, 6]
    assert all(g["players"] == 3 and g["policy"] == "random" and g["commit"] for g in first)
    # a writer stopped in the middle of a line: that line is not a game
    path.write_text(path.read_text() + '{"seed": 7, "act')
    assert [g["seed"] for g in selfplay_record.read(path)] == [5, 6]
    # three games asked for: only the missing one is played
    assert selfplay_record.main(run + ["--games", "3"]) == 0
    assert "2 recorded, 1 to play" in capsys.readouterr().err
    assert [g["seed"] for g in selfplay_record.read(path)] == [5, 6, 7]


def test_a_recorded_game_replays_to_its_digest(results, capsys):
    args = ["1833NE", "--policy", "random", "--players", "3"]
    assert selfplay_record.main(["run", *args, "--games", "1", "--first", "5"]) == 0
    assert selfplay_record.main(["check", *args, "--sample", "1"]) == 0
    assert "seed 5: same" in capsys.readouterr().out
    # a record the code no longer plays the same way is found out
    path = results / "selfplay-random-1833NE-3p.jsonl"
    g = json.loads(path.read_text())
    path.write_text(json.dumps(dict(g, state_digest="0" * 16)) + "\n")
    assert selfplay_record.main(["check", *args, "--sample", "1"]) == 1
    assert "DIFFERS" in capsys.readouterr().out


def test_check_replays_the_seeds_named(results, capsys):
    """``check --seeds``: the recorded games of those seeds, not a sample; a seed not
    recorded is bad input (exit 2, one line)."""
    args = ["1833NE", "--policy", "random", "--players", "3"]
    assert selfplay_record.main(["run", *args, "--games", "3", "--first", "5"]) == 0
    capsys.readouterr()
    assert selfplay_record.main(["check", *args, "--seeds", "7", "5"]) == 0
    out = capsys.readouterr().out
    assert [x.split(":")[0] for x in out.splitlines()] == ["seed 5", "seed 7"]
    assert selfplay_record.main(["check", *args, "--seeds", "9"]) == 2
    assert capsys.readouterr().err.strip().endswith("seed 9 is not recorded")


def test_the_report_counts_each_end(results, capsys):
    path = results / "selfplay-advisor-1832-4p.jsonl"
    games = [{"seed": s, "players": 4, "policy": "advisor", "title": "1832", "end_reason": e, "capped": False, "problems": [],
                  "revenue_per_or": r, "cpu_s": 10.0, "actions": 100, "state_digest": "x"} for s, e, r in
             [(1, "bank_broken", 300.0), (2, "bank_broken", 500.0), (3, "stalled", 100.0)]]
    path.write_text("".join(json.dumps(g) + "\n" for g in games))
    assert selfplay_record.main(["report"]) == 0
    row = capsys.readouterr().out.splitlines()[-1]
    assert row == "| 1832 | advisor | 4 | 3 | bank_broken 2, stalled 1 | 1 / 0 / 0 | 300.0 (100.0-500.0) | 10.0 |"


def test_a_sweep_writes_the_corpus_from_the_same_play(results, tmp_path, capsys):
    """``run --corpus``: one play gives the record line and the game's corpus file, and
    that file is byte for byte the one tools/make_corpus.py writes for the same game
    (a seed plays the same actions whatever the seats are called)."""
    import make_corpus

    corpus, alone = tmp_path / "corpus", tmp_path / "alone"
    run = ["run", "1833NE", "--policy", "random", "--players", "3", "--first", "1", "--games", "1"]
    assert selfplay_record.main(run + ["--corpus", str(corpus)]) == 0
    g = selfplay_record.read(results / "selfplay-random-1833NE-3p.jsonl")[0]
    assert g["corpus"]["positions"] > 0 and g["corpus"]["left_out"] == 0
    assert make_corpus.main(["--titles", "1833NE", "--seeds", "1", "--players", "3", "--policy", "random",
                             "--out", str(alone)]) == 0
    name = "1833NE/1833NE-3p-seed1.jsonl.gz"
    assert (corpus / name).read_bytes() == (alone / name).read_bytes()


def test_merge_takes_the_games_another_clone_played(results, tmp_path, capsys, monkeypatch):
    # a sweep split over two clones: each plays its seeds; merge takes the other's in,
    # in seed order, never a seed recorded here already, with its corpus file
    other = tmp_path / "other"
    monkeypatch.setattr(selfplay_record, "ROOT", tmp_path)
    monkeypatch.setattr(selfplay_record, "RESULTS", tmp_path / "benchmarks" / "results")
    here = selfplay_record.record_path("1833NE", "random", 3)
    there = other / here.relative_to(tmp_path)
    there.parent.mkdir(parents=True)
    line = {"seed": 0, "players": 3, "policy": "random", "title": "1833NE", "corpus": {"positions": 1}}
    here.parent.mkdir(parents=True)
    here.write_text(json.dumps(dict(line, seed=9, mine=True)) + "\n")
    there.write_text("".join(json.dumps(dict(line, seed=s)) + "\n" for s in (12, 9, 10)))
    corpus = tmp_path / "benchmarks" / "corpus"
    for s in (12, 10):
        f = other / "benchmarks" / "corpus" / "1833NE" / f"1833NE-3p-seed{s}.jsonl.gz"
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(b"game %d" % s)
    args = ["merge", "1833NE", str(other), "--policy", "random", "--players", "3", "--corpus", str(corpus)]
    assert selfplay_record.main(args) == 0
    games = selfplay_record.read(here)
    assert [g["seed"] for g in games] == [9, 10, 12] and games[0].get("mine")
    assert (corpus / "1833NE" / "1833NE-3p-seed12.jsonl.gz").read_bytes() == b"game 12"
    assert "2 added (10, 12), 3 recorded" in capsys.readouterr().err
    # a game whose corpus file is missing is not taken in silently
    there.write_text(there.read_text() + json.dumps(dict(line, seed=13)) + "\n")
    assert selfplay_record.main(args) == 2
    assert "no corpus file of seed 13" in capsys.readouterr().err
    # a corpus folder outside the project has no place in the clones: one line, exit 2
    assert selfplay_record.main(args[:-1] + [str(other.parent.parent / "elsewhere")]) == 2
    assert "not a folder of this project" in capsys.readouterr().err

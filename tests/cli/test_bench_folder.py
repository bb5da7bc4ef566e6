"""`trainruns bench FOLDER` solves the folder's positions; the game logs and 1831 game
configs kept beside them (docs/game-log.md, docs/game-1831.md) are not positions and are
left out, said once on stderr, never reported as error rows."""

import json
import shutil

from conftest import ROOT

from trainruns.cli.bench import collect
from trainruns.cli.main import main

GAMES = ROOT / "fixtures" / "games"


def _folder(tmp_path):
    shutil.copy(ROOT / "fixtures" / "1832" / "01-phase2-two-train-exactly-two.json", tmp_path / "p.json")
    shutil.copy(GAMES / "1833NE_random_3p.json", tmp_path / "log.json")
    shutil.copytree(GAMES / "1831-configs", tmp_path / "configs")
    return tmp_path


def test_game_logs_and_1831_configs_are_left_out_of_a_folder(tmp_path):
    folder = _folder(tmp_path)
    skipped = []
    assert collect([folder], skipped) == [str(folder / "p.json")]
    configs = sorted(str(p) for p in (folder / "configs").glob("*.json"))
    assert skipped == sorted([str(folder / "log.json"), *configs])
    assert len(configs) == 6   # two configs, each with its map and tiles


def test_a_folder_of_game_logs_only_holds_no_positions(tmp_path, capsys):
    shutil.copy(GAMES / "1833NE_random_3p.json", tmp_path / "log.json")
    assert main(["bench", str(tmp_path)]) == 2
    assert "holds no" in capsys.readouterr().err


def test_bench_of_a_folder_says_what_it_left_out_and_has_no_error_rows(tmp_path, capsys):
    folder = _folder(tmp_path)
    assert main(["bench", "--json", str(folder)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["positions"] == 1 and out["summary"]["errors"] == 0
    main(["bench", str(folder)])
    assert "left out 7 files that are not positions" in capsys.readouterr().err


def test_a_game_log_named_on_its_own_is_still_an_error_row(tmp_path, capsys):
    """Only a folder's walk leaves files out: a file the user names is benched, and a game
    log says why it is no position."""
    assert main(["bench", "--json", str(GAMES / "1833NE_random_3p.json")]) == 1
    row = json.loads(capsys.readouterr().out)["positions"][0]
    assert "phase" in row["error"]

"""`trainruns play repair` (docs/game-log.md "A log from before a rules fix"): a log
recorded before a fix that offers a new choice is refused where its next decision comes;
repair inserts the pass that declines the choice, and nothing else.

The case is real: 1832 [6.5.2] P5 (the West Virginia Coal Fields token in place of a
yellow lay, offered since dd550b9 even when no tile may be laid). fixtures/games/
1832-4p-seed44.game holds the pass that declines it at its action 552, inserted by hand
when the fix came; without it, the log is the one the engine recorded before the fix."""

from __future__ import annotations

import json
import os

import pytest

from trainruns.cli.main import main
from trainruns.game.game import Game

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "games", "1832-4p-seed44.game")
DECLINED = 552   # the pass declining the WVCF token, SOU's turn after its lone lay


@pytest.fixture(scope="module")
def kept():
    with open(FIXTURE) as fh:
        return json.load(fh)


@pytest.fixture
def older(kept, tmp_path):
    """The fixture's log as recorded before the fix: the pass at DECLINED removed."""
    log = json.loads(json.dumps(kept["log"]))
    assert log["actions"][DECLINED] == {"type": "pass", "corporation": "SOU"}
    del log["actions"][DECLINED]
    path = tmp_path / "older.json"
    path.write_text(json.dumps(log))
    return path


def run(capsys, *argv):
    code = main([str(x) for x in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_older_log_is_refused_with_the_way_out(older, capsys):
    code, out, err = run(capsys, "play", "actions", older)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "decision 552 is illegal" in err and "play repair" in err


def test_repair_names_the_pass_and_writes_nothing_unless_asked(older, capsys):
    before = older.read_bytes()
    code, out, _ = run(capsys, "play", "repair", older)
    assert code == 0 and older.read_bytes() == before
    report = json.loads(out)
    assert report["inserted"] == [{"before": DECLINED + 1, "pass": {"type": "pass", "corporation": "SOU"},
                                   "refused": "turn.action"}]
    assert report["written"] is None


def test_the_repaired_log_is_the_game_played_under_the_fixed_rules(older, kept, capsys):
    """[6.5.2]: the repaired log is the fixture's, and replays to its final state."""
    code, out, _ = run(capsys, "play", "repair", older, "--write")
    assert code == 0 and json.loads(out)["written"] == str(older)
    repaired = json.loads(older.read_text())
    assert repaired["actions"] == kept["log"]["actions"]
    assert Game.replay(repaired).to_json() == kept["final_state"]
    # repaired once, nothing left to insert: the log is not written again
    stamp = os.stat(older).st_mtime_ns
    code, out, _ = run(capsys, "play", "repair", older, "--write")
    assert code == 0 and json.loads(out)["inserted"] == [] and os.stat(older).st_mtime_ns == stamp


def test_repair_to_a_new_file(older, kept, tmp_path, capsys):
    new = tmp_path / "new.json"
    code, out, _ = run(capsys, "play", "repair", older, "--out", new)
    assert code == 0 and json.loads(new.read_text())["actions"] == kept["log"]["actions"]
    assert run(capsys, "play", "repair", older, "--out", new)[0] == 2   # a new file, unless --force
    assert run(capsys, "play", "repair", older, "--out", new, "--force")[0] == 0
    assert run(capsys, "play", "repair", older, "--out", new, "--write")[0] == 2


def test_a_refusal_no_pass_lifts_stays_bad_input(older, capsys):
    """A decision that is wrong, not merely older (a train bought for a price no rule
    allows, [10]), is not repaired: exit 2, the log untouched."""
    log = json.loads(older.read_text())
    at = next(i for i, a in enumerate(log["actions"]) if a["type"] == "buy_train" and a.get("price", 0) > 1)
    log["actions"][at]["price"] = 1
    older.write_text(json.dumps(log))
    before = older.read_bytes()
    code, out, err = run(capsys, "play", "repair", older, "--write")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "train.price" in err
    assert older.read_bytes() == before


def test_a_players_pass_is_a_decision_and_never_inserted(tmp_path, capsys):
    """1832 [5.7]: A chooses first in the initial round. B's purchase recorded first is
    legal after A passes, but A's pass is A's decision, not a choice older rules lacked:
    the log is refused, and no repair is offered."""
    log = tmp_path / "g.json"
    assert run(capsys, "play", "new", "1832", "--players", "A,B,C", "--out", log)[0] == 0
    data = json.loads(log.read_text())
    data["actions"] = [{"type": "buy_private", "player": "B", "private": "P1"}]
    log.write_text(json.dumps(data))
    code, out, err = run(capsys, "play", "repair", log, "--write")
    assert code == 2 and "decision 0 is illegal" in err and "play repair" not in err

"""``undo`` taken by ``Game.act`` (as ``play act LOG undo``, ``play serve`` and the page
take it) sets the same game object up again and replays the log without its last
decision (docs/game-log.md, guarantee 9: ``log + undo`` equals the log without its last
decision). The title's setup must not see the round of the game being undone: 1831's
companies, set up in a stock round, asked whether that round was a stock round (4.3.2)
and the undo failed with an internal error from the first stock round on."""

import json

import pytest

from trainruns.cli.main import main
from trainruns.game.game import Game
from trainruns.game.selfplay import play


@pytest.mark.parametrize("title, seed, most", [("1831", 31, 150), ("1832", 31, 150), ("1833NE", 31, 100)])
def test_undo_in_place_gives_the_state_before(title, seed, most):
    """Every third decision of a seeded random game (4 players) is undone in place, the
    state compared with the one before it, and taken again."""
    game, problems, n = play(title, ["A", "B", "C", "D"], seed, max_actions=most, check_undo_every=3)
    assert problems == []
    assert n == most or game.finished


def test_play_act_undo_in_1831s_first_stock_round(tmp_path, capsys):
    log = tmp_path / "g.json"
    assert main(["play", "new", "1831", "--players", "A,B,C,D", "--seed", "31", "--out", str(log)]) == 0
    first = json.loads(log.read_text())
    capsys.readouterr()
    assert main(["play", "actions", str(log)]) == 0
    listed = json.loads(capsys.readouterr().out)["actions"]
    assert main(["play", "act", str(log), json.dumps(listed[-1])]) == 0
    assert main(["play", "act", str(log), '{"type": "undo"}']) == 0
    out, err = capsys.readouterr()
    assert err == ""
    undone = json.loads(log.read_text())
    assert Game.replay(undone).to_json()["round"] == Game.replay(first).to_json()["round"]
    assert main(["play", "actions", str(log)]) == 0
    assert json.loads(capsys.readouterr().out)["actions"] == listed

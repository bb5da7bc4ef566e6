"""Finished 1833NE games kept in fixtures/games/ replay to the same end and result
(docs/game-log.md guarantees 9-10), and the play commands work on them from the shell."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from trainruns.game.game import Game

GAMES = sorted((Path(__file__).parents[3] / "fixtures" / "games").glob("1833NE_*.json"))


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_fixture_replays_to_its_result(path):
    log = json.loads(path.read_text())
    game = Game.replay(log)
    s = game.to_json()
    assert s["finished"] and s["end_reason"] == log["end_reason"]
    assert s["result"] == log["result"] == {p["name"]: p["value"] for p in s["players"]}


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "trainruns", *args], capture_output=True, text=True)


def test_cli_position_mid_game_loads_in_solve(tmp_path):
    """`play position` of the corporation operating in a fixture's first operating turn
    is a position `trainruns solve` accepts (guarantee 6)."""
    log = json.loads(GAMES[0].read_text())
    game = Game("1833NE", log["players"], log["seed"])
    k = 0
    while game.round.kind != "operating":
        game.act(log["actions"][k])
        k += 1
    part = tmp_path / "part.json"
    part.write_text(json.dumps(dict(log, actions=log["actions"][:k])))
    r = _cli("play", "position", str(part))
    assert r.returncode == 0, r.stderr
    pos = tmp_path / "pos.json"
    pos.write_text(r.stdout)
    assert json.loads(r.stdout)["title"] == "1833NE"
    r = _cli("solve", str(pos))
    assert r.returncode == 0, r.stderr
    r = _cli("play", "act", str(part), '{"type": "buy_shares", "player": "P0", "corporation": "CV", "from": "market"}')
    assert r.returncode == 1 and "rule" in json.loads(r.stdout)

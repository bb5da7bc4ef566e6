"""A change to the game engine changes nothing a player sees unless it means to: the
kept logs and a seeded game of each title replay to the same state and listed actions,
action by action, as tests/data/replay_digests.json records. tools/replay_digests.py
plays the whole set (every kept log, 96 seeded games) before and after a refactor
(docs/engine.md); this test keeps a part of it on every run. A rule fix that changes
these games rewrites the file (`python tools/replay_digests.py write
tests/data/replay_digests.json --only NAMES`, the names below) and says in its commit
which games changed and why."""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import replay_digests  # noqa: E402

RECORDED = json.loads((ROOT / "tests" / "data" / "replay_digests.json").read_text())
# every kept log, and one seeded game of each title
CHECKED = [n for n, _ in replay_digests.everything() if n.startswith("log:")] + [
    "1832-4p-seed1", "1833NE-3p-seed0", "1831-3p-seed0"]
GAMES = dict(replay_digests.everything(CHECKED))


def test_every_checked_game_is_recorded():
    assert sorted(RECORDED) == sorted(CHECKED)


@pytest.mark.parametrize("name", CHECKED)
def test_replays_to_the_recorded_digests(name):
    got = "".join(d if not d.startswith("problems:") else "|" + d for d in GAMES[name]())
    assert got == RECORDED[name], f"{name}: {replay_digests.first_difference(RECORDED[name], got)}"

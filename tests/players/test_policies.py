"""``trainruns play selfplay --policy advisor`` (docs/advise.md): a seeded game played by
the advisor's players runs through the command, its states checked, with no internal
error, including the turn whose best plan is no decision at all (1833NE's seed 1, three
players: the plan is empty and the player plays on)."""

import json
import subprocess
import sys


def test_advisor_selfplay_runs_through_the_command():
    p = subprocess.run([sys.executable, "-m", "trainruns", "play", "selfplay", "1833NE", "--players", "3",
                        "--games", "1", "--seed", "1", "--quiet", "--policy", "advisor", "--max-actions", "60"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    game = json.loads(p.stdout.splitlines()[0])
    assert game["problems"] == [] and game["actions"] == 60 and game["operating_rounds"] >= 1

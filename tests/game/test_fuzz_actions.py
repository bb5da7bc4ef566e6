"""tools/fuzz_actions.py: hostile actions at states deep in seeded random games of each
title, each tried on a copy of the game. Every mutation is bad input or a refusal with a
rule id (docs/game-log.md "A game log nothing can corrupt"), a refusal leaves the game
unchanged, an accepted one leaves a log that replays, and nothing done to a copy reaches
the game it was copied from. A short sample here; the tool plays whole games."""

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import fuzz_actions


@pytest.mark.parametrize("title, players, seed, every, most", [
    ("1833NE", 4, 901, 5, 400),   # (this seed reaches a train offer between companies)
    ("1832", 4, 3, 25, 600),
    ("1831", 4, 3, 40, 500),
])
def test_hostile_actions_deep_in_a_game(title, players, seed, every, most):
    problems, played, tried = fuzz_actions.fuzz_game(title, players, seed, every, most)
    assert problems == []
    assert played >= min(most, 50) and tried > 500


def test_the_mutations_cover_each_field_and_list():
    action = {"type": "run_routes", "corporation": "X", "routes": [{"train": "2", "stops": ["A1.0", "B2.0"]}],
              "revenue": 40}
    labels = [label for label, _ in fuzz_actions.mutations(action, ["X", "Y"], random.Random(1))]
    for wanted in ("corporation missing", "revenue = 41", "revenue = -40", "routes reversed", "routes doubled",
                   "routes[0].train missing", "routes[0].stops = 'x'", "unknown field", "type misspelled"):
        assert wanted in labels, wanted

"""The table page's facts (serve/facts.py): the time to dry-run every priced action of a
state and gather the game's facts, as ``/api/facts`` does once per version, over the
states of a seeded random game of each title (the stock rounds list the most: every
buy and every count of every sale).

    pytest benchmarks/test_bench_serve_facts.py --benchmark-only
"""

import copy
import random

import pytest

from trainruns.game.game import Game
from trainruns.serve.facts import action_facts, game_facts

STATES = 120


def states(title, seed=7):
    """The first ``STATES`` states of a seeded random game (free amounts at their
    lowest, runs the best)."""
    rng = random.Random(seed)
    game = Game(title, ["Ann", "Bob", "Cat", "Dee"], seed=seed)
    out = []
    for _ in range(STATES):
        actions = game.actions()
        if not actions:
            break
        out.append(copy.deepcopy(game))
        a = {k: (v["min"] if isinstance(v, dict) and "min" in v else v) for k, v in rng.choice(actions).items()}
        if a["type"] == "run_routes":
            a["routes"] = "best"
        game.act(a)
    return out


@pytest.mark.parametrize("title", ["1832", "1833NE", "1831"])
def test_facts_of_every_state(benchmark, title):
    games = states(title)

    def all_facts():
        return [(action_facts(g), game_facts(g)) for g in games]

    out = benchmark.pedantic(all_facts, rounds=1, iterations=1)
    benchmark.extra_info["states"] = len(out)
    benchmark.extra_info["ms_per_state"] = round(1000 * benchmark.stats.stats.mean / len(out), 1)

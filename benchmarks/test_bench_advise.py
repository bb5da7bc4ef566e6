"""The operating-turn advisor's speed (targets: 2 s at horizon 1, 10 s at horizon 2) on an
1832 mid-game turn: phase 4 or 5, 20 or more legal tile lays, a company holding a train.
The turn comes from seeded random play (the first such turn of the seed), so it is the
same on every run of the same engine.

    pytest benchmarks/test_bench_advise.py --benchmark-only
"""

import random

import pytest

from trainruns.game import route_adapter
from trainruns.game.game import Game
from trainruns.game.selfplay import random_choice
from trainruns.players.advise import advise


def mid_game_turn(seed=3, max_actions=3000):
    rng = random.Random(seed)
    game = Game("1832", ["A", "B", "C", "D"], seed)
    for _ in range(max_actions):
        if game.finished:
            break
        listed = game.actions()
        active = game.active() or {}
        s = game.to_json()
        if active.get("corporation") and str(s["phase"]) in ("4", "5"):
            corp = next(c for c in s["corporations"] if c["id"] == active["corporation"])
            if corp["trains"] and sum(a["type"] == "lay_tile" for a in listed) >= 20:
                return game.log()
        game.act(random_choice(listed, rng))
    pytest.skip("no 1832 mid-game turn in the seeded game")


@pytest.fixture(scope="module")
def turn():
    return mid_game_turn()


@pytest.mark.parametrize("horizon", [1, 2])
def test_advise_1832_mid_game(benchmark, turn, horizon):
    def setup():
        route_adapter.clear()   # cold: nothing the route core answered before is kept
        return (Game.replay(turn),), {}

    advice = benchmark.pedantic(lambda g: advise(g, top=5, horizon=horizon), setup=setup, rounds=3)
    benchmark.extra_info.update(considered=advice.considered, pruned=advice.pruned, merged=advice.merged,
                                exact=advice.exact, best=advice.plans[0].score)

"""The game engine's speed (issue 15): actions per second in seeded random 1832 self-play
and the time to replay a finished game, each with the route core's share (the time
spent in titles/g1832/game_moves.py, the one adapter through which the game asks the
route core for tile lays, token cities, best runs and audits).

    pytest benchmarks/test_bench_game.py --benchmark-only
"""

import contextlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from game_selfplay import play  # noqa: E402
from trainruns.game.game import Game  # noqa: E402
from trainruns.titles.g1832 import game_moves  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "games")
CALLS = ("tile_lays", "token_cities", "best_run", "audit_run", "has_route")


@contextlib.contextmanager
def route_core_clock():
    """Time spent in the adapter's calls, with its caches emptied first."""
    spent = {"s": 0.0}
    saved = {n: getattr(game_moves, n) for n in CALLS}
    for fn in (game_moves._tile_moves, game_moves._token_moves, game_moves._run, game_moves._board_of):
        fn.cache_clear()

    def timed(f):
        def wrapper(*a, **k):
            t = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                spent["s"] += time.perf_counter() - t
        return wrapper

    for n, f in saved.items():
        setattr(game_moves, n, timed(f))
    try:
        yield spent
    finally:
        for n, f in saved.items():
            setattr(game_moves, n, f)


def test_selfplay_actions_per_second(benchmark):
    def run():
        with route_core_clock() as core:
            t = time.perf_counter()
            total = 0
            for players, seed in ((["A", "B", "C", "D"], 1001), (["A", "B", "C"], 1002)):
                _game, problems, n = play(players, seed)
                assert problems == []
                total += n
            wall = time.perf_counter() - t
        benchmark.extra_info.update({"actions": total, "actions_per_s": round(total / wall, 1),
                                     "route_core_share": round(core["s"] / wall, 3)})
    benchmark.pedantic(run, rounds=1, iterations=1)


def test_replay_a_finished_game(benchmark):
    name = sorted(f for f in os.listdir(FIXTURES) if f.endswith(".game"))[0]
    with open(os.path.join(FIXTURES, name)) as fh:
        log = json.load(fh)["log"]

    def run():
        with route_core_clock() as core:
            t = time.perf_counter()
            game = Game.replay(log)
            wall = time.perf_counter() - t
        assert game.finished
        benchmark.extra_info.update({"game": name, "actions": len(log["actions"]), "replay_s": round(wall, 3),
                                     "route_core_share": round(core["s"] / wall, 3)})
    benchmark.pedantic(run, rounds=1, iterations=1)

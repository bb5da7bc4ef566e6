"""Seeded random 1831 games through ``trainruns play serve`` on the shipped (invented)
config: 3 to 6 players, 100 games with the ``idle_end`` house rule (docs/game-1831.md
"How a game ends") and 100 without, every state checked (benchmarks/serve_games.py).
The summary counts the games by their end: ``bank`` (6.1), ``idle`` (the house rule),
``stalled`` (the guard) or unfinished at the 3000-action cap.

    pytest benchmarks/test_bench_1831_serve.py --benchmark-only
    python benchmarks/test_bench_1831_serve.py GAMES [FIRST_SEED]     # the house rule's, as a script
"""

import sys

from serve_games import benchmark_games, main

GAMES, FIRST_SEED = 100, 3000


def test_100_seeded_1831_games_with_the_house_rule_through_serve_keep_every_check(benchmark):
    benchmark_games(benchmark, "1831", GAMES, FIRST_SEED, variants=("idle_end",))


def test_100_seeded_1831_games_by_the_rulebook_through_serve_keep_every_check(benchmark):
    benchmark_games(benchmark, "1831", GAMES, FIRST_SEED)


if __name__ == "__main__":
    sys.exit(main("1831", GAMES, FIRST_SEED, variants=("idle_end",)))

"""Seeded random 1833NE games through ``trainruns play serve``: 3 to 5 players (the
game's range), 100 games, every state checked (benchmarks/serve_games.py).

    pytest benchmarks/test_bench_1833ne_serve.py --benchmark-only
    python benchmarks/test_bench_1833ne_serve.py GAMES [FIRST_SEED]     # the same, as a script
"""

import sys

from serve_games import benchmark_games, main

GAMES, FIRST_SEED, SIZES = 100, 3000, (3, 4, 5)


def test_100_seeded_1833ne_games_through_serve_keep_every_check(benchmark):
    benchmark_games(benchmark, "1833NE", GAMES, FIRST_SEED, SIZES)


if __name__ == "__main__":
    sys.exit(main("1833NE", GAMES, FIRST_SEED, SIZES))

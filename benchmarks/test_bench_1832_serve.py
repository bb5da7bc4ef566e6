"""Seeded random 1832 games through ``trainruns play serve``: 3 to 6 players, 100 games,
every state checked (benchmarks/serve_games.py).

    pytest benchmarks/test_bench_1832_serve.py --benchmark-only
    python benchmarks/test_bench_1832_serve.py GAMES [FIRST_SEED]     # the same, as a script

The rules end 1832 only by the bank or a bankruptcy (docs/gaps.md): a game at the
3000-action cap is reported unfinished, not failed.
"""

import sys

from serve_games import benchmark_games, main

GAMES, FIRST_SEED = 100, 3000


def test_100_seeded_1832_games_through_serve_keep_every_check(benchmark):
    benchmark_games(benchmark, "1832", GAMES, FIRST_SEED)


if __name__ == "__main__":
    sys.exit(main("1832", GAMES, FIRST_SEED))

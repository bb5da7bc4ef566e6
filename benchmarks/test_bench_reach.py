"""Listing the tile lays and token cities of late 1832 boards (phase 5, 147-169 tiles;
tests/data/late_1832_positions.json): the reach walked once on the numbered graph
(``trainruns.route.reach.reach``, as the game lists them) against the plain way in the
same run (``plain_reach`` on the networkx graph, walked for the lays and again for the
tokens).

    pytest benchmarks/test_bench_reach.py --benchmark-only

Each round lists every position once; the lays and cities of both ways are compared
before the timing. Nothing asserts a time.

The reach alone on five phase-6 boards of the 5-player game of seed 3050
(tests/data/phase6_1832_positions.json), where a partial run is compared with thousands
of earlier visited sets: the walk within its budget, which counts those comparisons
(``extra_info``: how many walks finished, the stops reached).
"""

import json
import os

import pytest

from trainruns.route.reach import plain_reach, reach
from trainruns.services.whatif import tile_candidates, token_candidates
from trainruns.titles.load import load_engine_position

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "tests", "data", "late_1832_positions.json"), encoding="utf-8") as fh:
    LATE = json.load(fh)["positions"]
with open(os.path.join(HERE, "..", "tests", "data", "phase6_1832_positions.json"), encoding="utf-8") as fh:
    PHASE6 = json.load(fh)["positions"]


def numbered(data, board):
    reached = reach(board)
    return tile_candidates(data, board, reached), token_candidates(data, board, reached)


def plain(data, board):
    return tile_candidates(data, board, plain_reach(board)), token_candidates(data, board, plain_reach(board))


def listing(way, boards):
    return [[[m for m, _ in part] for part in way(data, board)] for data, board in boards]


@pytest.mark.benchmark(group="late 1832 listing")
@pytest.mark.parametrize("way", [numbered, plain], ids=["numbered", "plain"])
def test_bench_late_1832_listing(benchmark, way):
    boards = [(data, load_engine_position(data)) for data in LATE]
    assert listing(way, boards) == listing(numbered if way is plain else plain, boards)
    out = benchmark.pedantic(listing, args=(way, boards), rounds=3, iterations=1)
    benchmark.extra_info.update({"positions": len(boards), "lays": sum(len(x[0]) for x in out)})


def reaches(boards):
    return [reach(board) for board in boards]


@pytest.mark.benchmark(group="phase-6 1832 reach")
def test_bench_phase6_1832_reach(benchmark):
    boards = [load_engine_position(data) for data in PHASE6]
    out = benchmark.pedantic(reaches, args=(boards,), rounds=3, iterations=1)
    benchmark.extra_info.update({"positions": len(boards), "finished": sum(r.complete for r in out),
                                 "stops": [len(r.stops) for r in out]})

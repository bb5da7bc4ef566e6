"""The compiled board's adjacency (route/compile.py): the chains leaving stop s are the chain
ids adj_ptr[s] .. adj_ptr[s + 1] - 1, which the route kernel, 1831's path kernel, the
greedy run and the flow models read directly (no identity map beside it)."""

import json
import pathlib

import numpy as np
import pytest
from boards import random_position
from boards1831 import random_position as random_1831

from trainruns import load_position
from trainruns.route.compile import compile_board

FIX = pathlib.Path(__file__).parents[2] / "fixtures"


def boards():
    for name in ("custom/example.json", "1831/example.json", "1832/worked_example.json",
                 "1833NE/boston_montreal.json"):
        yield name, load_position(json.loads((FIX / name).read_text()), name)
    for seed in range(10):
        yield f"plain {seed}", load_position(random_position(seed))
        yield f"1831 {seed}", load_position(random_1831(seed))


@pytest.mark.parametrize("name, board", list(boards()), ids=lambda x: x if isinstance(x, str) else "")
def test_chains_are_numbered_by_the_stop_they_leave(name, board):
    c = compile_board(board)
    n_stops = len(c.stop_refs)
    assert c.adj_ptr.shape == (n_stops + 1,) and c.adj_ptr[0] == 0 and c.adj_ptr[-1] == len(c.chain_from)
    for s in range(n_stops):
        assert np.all(c.chain_from[c.adj_ptr[s]:c.adj_ptr[s + 1]] == s)
    # every chain's reverse twin leaves the stop it enters (track is walked both ways)
    for ch in range(len(c.chain_from)):
        u = c.chain_to[ch]
        assert c.chain_from[ch] in c.chain_to[c.adj_ptr[u]:c.adj_ptr[u + 1]]

"""The reach walked on the numbered track graph (:func:`trainruns.route.reach.reach`)
equals the walk on the networkx graph (:func:`~trainruns.route.reach.plain_reach`) on
late 1832 boards, and so do the tile lays and token cities the game lists from it
(1832 rulebook "Laying Track": new track continues "an unblocked (by other company
tokens) train run of any length from one of its tokens"; "Placing a Token": the company
"must be able to trace a valid train route from one of its station tokens to the city")."""

import json
import os

import pytest

from trainruns.game import route_adapter
from trainruns.route.reach import BUDGET, plain_reach, reach
from trainruns.services.whatif import tile_candidates, token_candidates
from trainruns.titles.load import load_engine_position

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "data", "late_1832_positions.json"), encoding="utf-8") as fh:
    LATE = json.load(fh)["positions"]


@pytest.mark.parametrize("index_from", [None, 2])
@pytest.mark.parametrize("budget", [BUDGET, 20_000, 4000, 300])
@pytest.mark.parametrize("i", range(len(LATE)))
def test_numbered_reach_is_the_plain_walk_on_late_1832_boards(i, budget, index_from, monkeypatch):
    """The same stops, hex-side arrivals and completeness, also when the budget stops
    the walk part way (the same runs walked in the same order); also with every node's
    earlier visited sets tested by node from the second on (``index_from``: these
    boards' lists stay below the size where the walk starts doing so)."""
    from trainruns.route import reach as reach_module

    if index_from is not None:
        monkeypatch.setattr(reach_module, "INDEX_FROM", index_from)
    board = load_engine_position(LATE[i])
    fast, plain = reach(board, budget), plain_reach(board, budget)
    assert (fast.stops, fast.sides, fast.complete) == (plain.stops, plain.sides, plain.complete)
    assert fast.stops


@pytest.mark.parametrize("i", range(len(LATE)))
def test_the_game_lists_the_lays_and_tokens_of_the_plain_walk(i):
    """The game's listing ([6] Laying Track, [7.2] Placing a Token) from its one reach
    per position is the listing from the plain walk."""
    data = LATE[i]
    board = load_engine_position(data)
    plain = plain_reach(board)
    lays = [{"hex": m["hex"], "tile": m["tile"], "rotation": m["rotation"], "upgrade": bool(m.get("replaces"))}
            for m, _ in tile_candidates(data, board, plain)]
    cities = [(m["hex"], m["stop"]) for m, _ in token_candidates(data, board, plain)]
    route_adapter.clear()
    assert route_adapter.tile_lays(data) == lays
    assert [(h, k) for h, k, _free in route_adapter.token_cities(data)] == cities
    assert route_adapter.reached_stops(data) == frozenset(plain.stops)
    assert lays


def test_the_budget_counts_the_sets_each_dominance_test_compares(monkeypatch):
    """[6] Laying Track's reach within a budget that bounds its time (trainruns.route.reach): a
    walk of few steps whose dominance tests compare thousands of earlier visited sets
    is cut too (``complete`` False: the reach may then miss places, never invent one),
    and both walks cut it at the same run."""
    from trainruns.route import reach as reach_module

    board = load_engine_position(LATE[0])
    monkeypatch.setattr(reach_module, "SETS_PER_STEP", 10**12)
    assert reach(board, 20_000).complete  # its steps alone stay within the budget
    monkeypatch.undo()
    fast, plain = reach(board, 20_000), plain_reach(board, 20_000)
    assert not fast.complete
    assert (fast.stops, fast.sides, fast.complete) == (plain.stops, plain.sides, plain.complete)


@pytest.mark.parametrize("i", range(len(LATE)))
def test_numbered_loose_reach_is_the_plain_search_on_late_1832_boards(i):
    """The loose bound of the reach (a search that may pass a node twice: "Laying Track"'s
    run without its no-repeat rule) on the numbered lists equals the search on the
    networkx graph: the same stops, and the same hex-side arrivals recorded in the same
    order (the order the lays are then listed in); the lists themselves are the graph's,
    node for node and move for move."""
    from trainruns.route.reach import _numbered, graph_numbered, loose_reach

    board = load_engine_position(LATE[i])
    graph = graph_numbered(board)
    assert _numbered(board) == graph
    fast, plain = loose_reach(board), loose_reach(board, graph)
    assert (fast.stops, fast.sides) == (plain.stops, plain.sides)
    assert list(fast.sides) == list(plain.sides)
    assert [sorted(v) for v in fast.sides.values()] == [sorted(v) for v in plain.sides.values()]
    assert fast.stops

"""whatif for 1831 ("whatif --tiles/--tokens/--trains works for every title
that has the data"): token placements on typed sites and train purchases by the rules
of the 1831 rulebook, each ranking equal to solving every legal move on its own."""

import copy
import json
import pathlib

import pytest

from trainruns import InputError, load_position, solve
from trainruns.services.whatif import (
    rank_tokens_full,
    rank_trains_full,
    tile_candidates,
    token_candidates,
    train_candidates,
)

EXAMPLE = pathlib.Path(__file__).parents[3] / "fixtures" / "1831" / "example.json"


def example(**changes):
    data = json.loads(EXAMPLE.read_text())
    data.update(changes)
    return data


def own_sites(data):
    """(hex, stop) -> the site types the running company holds there, read from the
    position's map and tokens directly (not through the package's board)."""
    types = {(h["id"], k): s.get("slot_types", []) for h in data["map"]["hexes"]
             for k, s in enumerate(h.get("stops", []))}
    out = {}
    for t in data["tokens"]:
        if t["corporation"] == data["corporation"]:
            kind = t.get("type") or types[(t["hex"], t.get("stop", 0))][t["slot"]]
            out.setdefault((t["hex"], t.get("stop", 0)), set()).add(kind)
    return out


def test_token_moves_follow_the_typed_site_rules():
    """5.2.7.2: a token goes on a free site of its own type; 5.2.7.6: after the first
    3-train at most one Station and one Rail Yard per city. No candidate gives the
    company a second token of a type it holds in that city, and each is a position
    the loader accepts."""
    data = example()
    held = own_sites(data)
    cands = token_candidates(data)
    assert cands
    for move, variant in cands:
        assert move["type"] not in held.get((move["hex"], move["stop"]), set())
        load_position(variant)


def test_one_token_per_city_before_the_first_3_train():
    """5.2.7.6: "A corporation may own at most one Rail Yard or one Station in any one
    city hex, until the first 3-Train is purchased": in phase 2 no candidate is in a
    city where the company already has a token."""
    data = example(phase="2", trains=["2S"], track_rights=[])
    first = {}
    for t in data["tokens"]:  # a board before 3-trains: one token per company here
        first.setdefault(t["corporation"], t)
    data["tokens"] = list(first.values())
    assert token_candidates(example())  # the full board has candidates; this one too:
    assert token_candidates(data)
    held = own_sites(data)
    for move, _ in token_candidates(data):
        assert (move["hex"], move["stop"]) not in held


def test_best_token_equals_solving_every_legal_placement():
    """The ranking's best equals the best of solving each legal placement alone."""
    data = example()
    ranking = rank_tokens_full(copy.deepcopy(data))
    alone = [solve(load_position(v)).revenue for _, v in token_candidates(data)]
    assert ranking.moves[0].revenue == max(alone)
    assert sorted(m.revenue for m in ranking.moves) == sorted(alone)


def test_train_purchases_are_the_lowest_numbers_and_keep_the_limit():
    """5.3.8: the Bank sells the lowest numbered train left: the phase's number (7) or
    the next one (9), of each type (3.3); 5.3.5: the first 9-train starts phase 9,
    retiring the 5-trains, and lowers the limit to two; 5.3.7: trains over the limit go
    to the pool (one variant per choice)."""
    data = example()
    cands = train_candidates(data)
    names = {m["train"] for m, _ in cands}
    assert names <= {"7S", "7MX", "7YD", "9S", "9MX", "9YD"} and {"7S", "9MX"} <= names
    for move, variant in cands:
        board = load_position(variant)
        nine = move["train"].startswith("9")
        limit, retired = (2, ("2", "3", "4", "5")) if nine else (3, ("2", "3", "4"))  # 5.3.5
        used = [t["name"] for t in variant["trains"] if isinstance(t, dict) and t.get("status") == "used"]
        assert len(board.trains) + sum(1 for n in used if not n.startswith(retired)) <= limit
        if move["train"].startswith("9"):
            assert move["starts_phase"] == "9" and all(not t.name.startswith("5") for t in board.trains)


def solved(variant):
    """The best run of a variant, or None when the rules leave it no legal run (5.6.5:
    a bought track right no run of the kept trains reaches)."""
    try:
        return solve(load_position(variant)).revenue
    except InputError:
        return None


def test_best_train_equals_solving_every_legal_purchase():
    data = example()
    ranking = rank_trains_full(copy.deepcopy(data))
    alone = [r for r in (solved(v) for _, v in train_candidates(data)) if r is not None]
    assert sorted(m.revenue for m in ranking.moves) == sorted(alone)
    assert ranking.moves[0].revenue == max(alone) == 940


def test_no_tile_lays_without_a_tile_set():
    """An 1831 position brings its own map and no tile manifest (docs/gaps.md): tile
    lays need the tile set its map was drawn from named (``tile_set``)."""
    with pytest.raises(InputError) as e:
        tile_candidates(example())
    assert "names its tile set" in str(e.value) and e.value.where == "position.tile_set"

"""The route adapter reads a map once and compiles its track once for every position
that differs only in the company's trains (an advisor solves each plan's purchases and
each train alone on one map). Compared here with the position read and solved whole, on
its own, at every run of seeded random games: 1832 [8] (the best run of the company's
trains; its trains read apart, [10] and Table 1: trains of the phase, within the train
limit) and 1833NE (the board read whole, the track still compiled once a map: a rule
there idles the B&L's trains)."""

from __future__ import annotations

import pytest

from trainruns import solve
from trainruns.errors import InputError
from trainruns.game import route_adapter
from trainruns.game.selfplay import play
from trainruns.game.steps.routes import RoutesStep
from trainruns.titles.load import load_engine_position


def _runs(title, seed, actions):
    """The position of every company at its run in a seeded random game, and the trains
    the bank had on sale then."""
    out = []

    def seen(game, state):
        step = game.round.step() if not game.finished else None
        if isinstance(step, RoutesStep) and not step.done:
            on_sale = [t["train"] for t in state["depot"] if t.get("left") != 0][:2]
            out.append((game.position(step.corp.id), on_sale))
        return []

    _game, problems, _n = play(title, ["A", "B", "C", "D"], seed, max_actions=actions, on_state=seen)
    assert problems == []
    return out


def _train_sets(trains, on_sale):
    """Sets of trains asked about one map, in the order an advisor asks: its own, each
    alone, none, and one more from the bank."""
    sets = [list(trains)] + [[t] for t in dict.fromkeys(trains)] + [[]]
    sets += [list(trains) + [t] for t in on_sale]
    return sets


@pytest.mark.parametrize("title,seed,actions", [("1832", 3, 700), ("1833NE", 8, 700)])
def test_runs_of_one_map_with_other_trains_are_those_of_the_position_read_whole(title, seed, actions):
    runs = _runs(title, seed, actions)
    assert len(runs) >= 10, f"only {len(runs)} runs in the {title} game"
    route_adapter.clear()
    shared = 0
    for position, on_sale in runs:
        for trains in _train_sets(position["trains"], on_sale):
            pos = dict(position, trains=trains)
            try:
                whole = load_engine_position(pos)
            except InputError:   # more trains than the phase's limit: refused alike
                with pytest.raises(InputError):
                    route_adapter.best_run(pos)
                continue
            if title == "1832":
                # the same Board as the position read whole: its map, tokens, rules and trains
                assert route_adapter.board(pos) == whole
            shared += route_adapter.board(pos).hexes is not whole.hexes
            alone = solve(whole)
            revenue, _routes = route_adapter.best_run(pos)
            proof = route_adapter.best_run_proof(pos)
            assert (revenue, proof["proven"], proof["bound"]) == (alone.revenue, alone.optimal, alone.bound), pos
    assert shared
    route_adapter.clear()


def test_a_position_key_is_equal_exactly_when_the_whole_json_text_is():
    """The cache key of a position (its map's text and its trains' text) is equal for
    two positions exactly when their whole canonical JSON texts are, and a position made
    by ``with_trains`` from another of the same map is the position with those trains,
    keyed alike. Checked on every pair of positions at the runs of a seeded 1832 game,
    each with the train sets an advisor asks (1832 [8]: one map, other trains)."""
    import json

    positions = []
    for position, on_sale in _runs("1832", 3, 700)[:12]:
        key = route_adapter.Position(position)
        for trains in _train_sets(position["trains"], on_sale):
            made = key.with_trains(trains)
            alone = route_adapter.Position(dict(position, trains=trains))
            assert made == alone and hash(made) == hash(alone) and made.data == alone.data
            positions.append(alone)
    positions.append(route_adapter.Position({k: v for k, v in positions[0].data.items() if k != "trains"}))
    assert len(positions) > 20
    for a in positions:
        for b in positions:
            same_text = json.dumps(a.data, sort_keys=True) == json.dumps(b.data, sort_keys=True)
            assert (a == b) == same_text

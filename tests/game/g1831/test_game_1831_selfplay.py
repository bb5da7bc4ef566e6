"""Seeded random 1831 games in-process on the shipped (invented) config, played to their
end (6.1: the bank runs out; not the `stalled` guard) for 4 and 6 players, with docs/game-log.md's guarantees checked after every action
by the shared checker (tests/game_selfplay.py: money, shares, presidents by preferred
stock, tokens, result), plus guarantee 6 (positions load in the route core), 8 (listed
actions are accepted) and 9 (log + undo replays to the state before)."""

from __future__ import annotations

import json
import random

import pytest
from game_selfplay import check_state, fill, money

from trainruns import load_position
from trainruns.game.game import Game


def play(n, seed, max_actions=3000, undo_every=397):
    rng = random.Random(seed)
    game = Game("1831", [f"P{i}" for i in range(n)], seed)
    s = game.to_json()
    start = money(s)
    problems = check_state(s, start)
    k = 0
    while not game.finished and k < max_actions and not problems:
        listed = game.actions()
        if not listed:
            return game, [f"no action listed after {k}"], k
        choice = fill(rng.choices(listed, weights=[1.0 if x["type"] == "pass" else 3.0 for x in listed])[0], rng)
        before = json.dumps(dict(s, events=[]), sort_keys=True) if k % undo_every == 0 else None
        game.act(choice)
        k += 1
        s = game.to_json()
        problems += check_state(s, start)
        choosing = {a["corporation"] for a in game.actions() if a["type"] == "discard_train"}
        for c in s["corporations"]:
            # 5.3.5; a system +1 per merger (5.9.7.7); one more while its president
            # chooses which goes to the pool (5.3.7)
            if len(c["trains"]) > 5 + min(2, len(c["absorbed"])) + (c["id"] in choosing):
                problems.append(f"{c['id']} holds {len(c['trains'])} trains")
        if before is not None and not problems:
            undone = Game.replay(dict(game.log(), actions=game.log()["actions"] + [{"type": "undo"}]))
            if json.dumps(dict(undone.to_json(), events=[]), sort_keys=True) != before:
                problems.append(f"undo after action {k} does not give the state before it")
        if s["round"]["kind"] == "operating" and k % 17 == 0:
            for c in s["corporations"]:
                load_position(game.position(c["id"]))     # raises on a position the core refuses
    return game, problems, k


@pytest.mark.parametrize("n,seed", [(4, 3009), (6, 3006)])
def test_random_game_to_the_end(n, seed):
    game, problems, k = play(n, seed)
    assert problems == []
    assert game.finished, f"not finished after {k} actions"
    s = game.to_json()
    # 6.1: the rules' end (the bank ran out during an operating round), not the
    # `stalled` guard; the bank's debts kept on paper (6.2)
    assert s["end_reason"] == "bank" and s["bank"]["broken"]
    # 5.6.6: each "best" run in the log says whether it is proven, with its bound
    runs = [a for a in game.log()["actions"] if a["type"] == "run_routes"]
    assert runs and all(a["bound"] >= a["revenue"] and a["proven"] == (a["bound"] == a["revenue"]) for a in runs)
    assert s["result"] == {p["name"]: p["value"] for p in s["players"]}
    again = Game.replay(json.loads(json.dumps(game.log())))
    assert again.to_json() == s

"""Seeded random 1833NE games in-process, played to their end for 3, 4 and 5 players, with
docs/game-log.md's guarantees checked after every action by the shared checker
(tests/game_selfplay.py: money, shares, presidents, tokens, result), plus guarantee 6
(every corporation's position loads in the route core) and 9 (replay and undo)."""

from __future__ import annotations

import json
import random

import pytest
from game_selfplay import check_state, fill, money

from trainruns import load_position
from trainruns.game.game import Game


def plain(game, listed, rng):
    """The contract's random player: non-passes three times as likely as passes."""
    return fill(rng.choices(listed, weights=[1.0 if x["type"] == "pass" else 3.0 for x in listed])[0], rng)


def investor(game, listed, rng):
    """A random player that always pays out, buys the bank's trains, launches one
    corporation at a low price and buys shares, so the game reaches the late phases; a
    corporation with no route runs its trains for $0 rather than passing (the same run)."""
    types = {x["type"] for x in listed}
    if "run_routes" in types:
        listed = [x for x in listed if x["type"] != "pass"]
    if "dividend" in types:
        return next(x for x in listed if x["kind"] == "payout")
    bank = [x for x in listed if x["type"] == "buy_train" and x["from"] == "bank"]
    if bank:
        return rng.choice(bank)
    pars = [x for x in listed if x["type"] == "par"]
    if pars:
        me = pars[0]["player"]
        if any(c.president == me for c in game.state.corporations if c.started) or rng.random() < 0.5:
            listed = [x for x in listed if x["type"] != "par"]
        else:
            return rng.choice([x for x in pars if x["price"] <= 70])
    weights = {"pass": 1.0, "buy_shares": 6.0, "lay_tile": 2.0, "sell_shares": 0.2, "issue_shares": 0.2}
    return fill(rng.choices(listed, weights=[weights.get(x["type"], 1.0) for x in listed])[0], rng)


def play(n, seed, max_actions=3000, undo_every=97, player=plain):
    rng = random.Random(seed)
    game = Game("1833NE", [f"P{i}" for i in range(n)], seed)
    s = game.to_json()
    start = money(s)
    problems = check_state(s, start)
    k = 0
    while not game.finished and k < max_actions and not problems:
        listed = game.actions()
        if not listed:
            return game, [f"no action listed after {k}"], k
        choice = player(game, listed, rng)
        before = json.dumps(s, sort_keys=True) if k % undo_every == 0 else None
        game.act(choice)
        k += 1
        s = game.to_json()
        problems += check_state(s, start)
        if before is not None and not problems:
            # guarantee 9 on the log: log + undo replays to the state before the decision
            undone = Game.replay(dict(game.log(), actions=game.log()["actions"] + [{"type": "undo"}]))
            if json.dumps(dict(undone.to_json(), events=[]), sort_keys=True) != json.dumps(
                    dict(json.loads(before), events=[]), sort_keys=True):
                problems.append(f"undo after action {k} does not give the state before it")
        if s["round"]["kind"] == "operating" and k % 13 == 0:
            for c in s["corporations"]:
                load_position(game.position(c["id"]))     # raises on a position the core refuses
    return game, problems, k


@pytest.mark.parametrize("n,seed,player", [(3, 1, plain), (4, 2, plain), (4, 5, plain), (5, 3, plain),
                                            (5, 6, plain), (3, 14, investor)])
def test_random_game_to_the_end(n, seed, player):
    game, problems, k = play(n, seed, player=player)
    assert problems == []
    assert game.finished, f"not finished after {k} actions"
    s = game.to_json()
    assert s["result"] == {p["name"]: p["value"] for p in s["players"]}
    if player is investor:
        assert s["phase"] in ("III", "IV", "V")   # the late phases were played
    again = Game.replay(json.loads(json.dumps(game.log())))
    assert again.to_json() == s


@pytest.mark.parametrize("seed", [1000, 1001])
def test_an_emergency_issue_listed_while_a_train_must_be_bought_is_accepted(seed):
    # "Emergency issues to buy a train": in these uniformly random games (the policy of
    # trainruns play selfplay and of outside random-play checks) a company with a route and no train lists
    # an emergency issue_shares, which the buy-train step must not refuse as a title extra
    # ("must buy a train first"); docs/game-log.md: every listed action is accepted
    from trainruns.game.selfplay import play as play_uniform

    game, problems, _n = play_uniform("1833NE", [f"P{i}" for i in range(1, 5)], seed, max_actions=400)
    assert problems == []
    assert any(a["type"] == "issue_shares" and a.get("emergency") for a in game.log()["actions"])

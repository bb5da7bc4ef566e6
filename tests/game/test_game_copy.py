"""Game.copy (docs/engine.md): a game to act on apart from the original, in the same
state, without replaying the log. Acting on the copy leaves the original as it was;
the copy and a replay of the same decisions agree action by action; the rules' tables,
which never change once the game starts, are shared (the advisor makes a copy per
branch of an operating turn)."""

import json
import random

import pytest

from trainruns.game.game import Game
from trainruns.game.selfplay import random_choice


def _digest(game):
    s = game.to_json()
    s.pop("events", None)
    return json.dumps(s, sort_keys=True)


@pytest.mark.parametrize("title,first", [("1832", 150), ("1833NE", 60), ("1831", 150)])
def test_a_copy_plays_on_alone_and_as_a_replay_would(title, first):
    # ``first``: decisions before the copy, well before the game's end (a random 1833NE
    # game of this seed ends by bankruptcy after 114)
    rng = random.Random(4)
    game = Game(title, ["A", "B", "C", "D"], 4)
    for _ in range(first):
        game.act(random_choice(game.actions(), rng))
    before, log = _digest(game), game.log()
    twin = game.copy()
    assert _digest(twin) == before and twin.log() == log
    shared = [id(part) for part in game.rules.fixed()]
    assert shared and shared == [id(part) for part in twin.rules.fixed()]
    assert twin.state is not game.state and twin.round is not game.round
    for _ in range(150):
        if twin.finished:
            break
        twin.act(random_choice(twin.actions(), rng))
    assert _digest(game) == before and game.log() == log   # the original is untouched
    replayed = Game.replay(twin.log())
    assert _digest(replayed) == _digest(twin)
    # and the original still plays: its next decision is accepted as before
    game.act(game.actions()[0])


@pytest.mark.parametrize("title", ["1832", "1833NE", "1831"])
def test_a_copy_keeps_what_the_state_shares_and_the_games_dice(title):
    """One place per thing (docs/game-log.md): a corporation reached by its id and by
    the list of corporations is one object in the copy as in the game, and a title's
    seeded random draws (1831's cards) go on in the copy as they would in the game."""
    rng = random.Random(5)
    game = Game(title, ["A", "B", "C", "D"], 5)
    for _ in range(80):
        game.act(random_choice(game.actions(), rng))
    twin = game.copy()
    for c in twin.state.corporations:
        assert twin.state.corp[c.id] is c
        assert game.state.corp[c.id] is not c
    assert twin.rules.game is twin and twin.round.game is twin
    dice = [(name, value) for name, value in vars(game.rules).items() if isinstance(value, random.Random)]
    for name, value in dice:
        mine = getattr(twin.rules, name)
        assert mine is not value and mine.getstate() == value.getstate()


def _first_state_listing(title, kind, seeds=range(1, 60), most=1500):
    """The first state of a seeded random game (4 players) that lists an action of
    ``kind``, and that action filled in; None when no seed reaches one."""
    for seed in seeds:
        rng = random.Random(seed)
        game = Game(title, ["A", "B", "C", "D"], seed)
        for _ in range(most):
            listed = game.actions()
            if not listed:
                break
            hit = next((a for a in listed if a["type"] == kind), None)
            if hit is not None:
                return game, {k: (v["min"] if isinstance(v, dict) and "min" in v else v) for k, v in hit.items()}
            game.act(random_choice(listed, rng))
    return None


@pytest.mark.parametrize("title, kind", [("1832", "protect"), ("1833NE", "accept"), ("1831", "accept")])
def test_a_decision_taken_on_a_copy_never_reaches_the_original(title, kind):
    """A step may keep what to do once a player decides: an offer's deal, made when the
    other party accepts (docs/game-log.md "Deals between two parties"; 1833NE's trains
    and privates, 1831 5.3.4), and 1832's protection, after which the round resumes
    left of the protecting president ([5.9]). Taken on a copy, that decision changes the
    copy alone: the original then plays on exactly as a replay of its own log does."""
    found = _first_state_listing(title, kind)
    assert found is not None, f"no seeded {title} game reached a {kind}"
    game, decision = found
    before = _digest(game)
    twin = game.copy()
    twin.act(decision)
    assert _digest(twin) != before or twin.active() != game.active()   # the copy took it
    assert _digest(game) == before
    # the original declines instead, as a replay of its log does
    decline = next(a for a in game.actions() if a["type"] == "pass")
    replayed = Game.replay(game.log())
    game.act(decline)
    replayed.act(decline)
    assert _digest(game) == _digest(replayed)
    assert game.active() == replayed.active() and game.actions() == replayed.actions()

"""Seeded random 1832 games in-process, with docs/game-log.md's guarantees checked after
every action (tests/game_selfplay.py): money and shares conserved, presidents hold the
president's certificate, tokens within supply and one per company per city, every
listed action accepted, a finished game's result equal to the players' values, replay
determinism, undo equal to the log without its last decision, and every position
loading in the route core. More games belong in benchmarks/ and `trainruns play selfplay`."""

import json
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from game_selfplay import play  # noqa: E402

from trainruns import load_position  # noqa: E402
from trainruns.game.game import Game  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "games")


def _positions_load(game, s):
    """Guarantee 6: `play position` of every corporation loads (sampled: every 40th
    state of an operating round, and every state where a company has trains to
    discard, over its limit)."""
    active = game.active() or {}
    if s["round"]["kind"] != "operating" or "corporation" not in active:
        return []
    if s["actions_applied"] % 40 and not any(a["type"] == "discard_train" for a in game.actions()):
        return []
    problems = []
    for c in s["corporations"]:
        if c["trains"]:
            try:
                load_position(game.position(c["id"]))
            except Exception as e:  # noqa: BLE001
                problems.append(f"position of {c['id']} does not load: {e}")
    return problems


@pytest.mark.parametrize("players,seed", [(["A", "B", "C"], 31), (["A", "B", "C", "D", "E", "F", "G"], 32)])
def test_random_game_keeps_every_guarantee_and_replays(players, seed):
    """The first 350 decisions of a seeded game (finished games: the fixtures below and
    benchmarks/; `trainruns play selfplay` plays whole games)."""
    game, problems, n = play(players, seed, max_actions=350, check_undo_every=117, on_state=_positions_load)
    assert problems == []
    assert n == 350 or game.finished
    # guarantee 9: the log replays to the same state, twice
    log = game.log()
    a = Game.replay(log).to_json()
    b = Game.replay(json.loads(json.dumps(log))).to_json()
    assert a == b == game.to_json()
    # a prefix replays to the state the game had then; one undo more equals one decision less
    k = len(log["actions"]) // 2
    prefix = Game.replay(log, upto=k)
    undone = Game.replay(dict(log, actions=log["actions"][:k + 1] + [{"type": "undo"}]))
    assert prefix.to_json() == undone.to_json()


def test_kept_finished_games_replay_to_their_final_state():
    """fixtures/games/*.game: finished games (JSON: the log and the final state it
    reached when recorded; not named .json, since every fixtures/**/*.json is a position)."""
    names = sorted(f for f in os.listdir(FIXTURES) if f.endswith(".game"))
    assert names
    for name in names:
        with open(os.path.join(FIXTURES, name)) as fh:
            kept = json.load(fh)
        state = Game.replay(kept["log"]).to_json()
        assert state["finished"]
        assert state == kept["final_state"], name


def test_selfplay_positions_loads_every_company_and_names_one_that_does_not(monkeypatch):
    """`play selfplay --positions K` (guarantee 6): every K-th state, each started
    company's position is read as `trainruns solve` reads it. A game with the 1830
    Diesels variant keeps its permanent 5-trains in phase 12 ([17.2]); a position the
    route core refused would be a problem naming the company."""
    from trainruns.game.selfplay import play_one

    # the diesel is bought at action 1243, FECR and L&N keeping a 5-train each
    job = {"title": "1832", "players": ["A", "B", "C"], "seed": 500, "max_actions": 1260,
           "variants": ["southern_bank", "diesels", "400_finish"], "positions": 5}
    assert play_one(job)["problems"] == []
    from trainruns.titles.g1832.game.rules import Rules

    real = Rules.position
    monkeypatch.setattr(Rules, "position", lambda self, *a, **k: dict(real(self, *a, **k), trains=["7"]))
    problems = play_one(dict(job, max_actions=50, positions=1))["problems"]
    assert problems and "does not load" in problems[0] and "unknown train '7'" in problems[0]


def test_a_company_over_its_limit_with_no_discard_listed_is_a_problem():
    """Guarantee 5: "no corporation holds ... more than its limit once a discard is
    settled" (1832 [10.2.1] Exceeding Train Limits): three trains in phase 5 (limit 2)
    are a problem unless the company's discard is listed."""
    import _1832
    from _trains import owned

    from trainruns.game.selfplay import limits_settled
    from trainruns.game.steps.buy_train import BuyTrainStep
    from trainruns.game.steps.discard import DiscardStep

    g = Game("1832", ["A", "B", "C"], 1)
    acl = _1832.operated(g, "ACL", "B", 100, {"B": 4})
    g.rules.end_stock_round(None)
    g.state.phase = "5"
    acl.trains = owned(g, "4", "4", "5")
    _1832.at_step(g, BuyTrainStep, acl)
    assert limits_settled(g) == ["ACL over the train limit with no discard listed"]
    _1832.at_step(g, DiscardStep, acl)
    assert limits_settled(g) == []
    g.act({"type": "discard_train", "corporation": "ACL", "train": "4"})
    assert limits_settled(g) == []


def test_a_player_over_the_certificate_limit_after_the_stock_round_is_a_problem():
    """Guarantee 4: certificate limits hold at the end of every stock turn (1832
    "Certificate Limit Table", Table 2 [3]: 20 certificates with three players)."""
    from trainruns.game.selfplay import certificates_within

    s = Game("1832", ["A", "B", "C"], 1).to_json()
    assert s["cert_limit"] == 20 and certificates_within(s, "B") == []
    s["players"][1]["certificates"] = 21
    assert certificates_within(s, "B") == ["B holds 21 certificates after his stock turn, over the limit of 20"]
    assert certificates_within(s, "A") == []


def test_trains_held_but_not_sold_rusted_or_out_of_phase_are_problems():
    """Guarantee 5: "Each train is in one place; no corporation holds a scrapped or
    rusted train ...; the phase follows the trains sold". 1832 Table 1: the first
    4-train starts phase 4 and rusts the 2-trains; 1831 5.4.8: a company in
    receivership keeps its retired trains, marked so; 1833NE "Train list and prices":
    the two sides of a card are one train."""
    from dataclasses import replace

    from _trains import owned

    from trainruns.game.selfplay import bank_counts, trains_in_place
    from trainruns.game.train import take

    g = Game("1832", ["A", "B", "C"], 1)
    start, acl, s = bank_counts(g), g.state.corp["ACL"], g.state
    assert trains_in_place(g, start) == []
    acl.trains = owned(g, "2")                   # never sold by the bank
    assert trains_in_place(g, start) == ["1 2-trains are held, 0 sold by the bank"]
    take(s.depot, "2")
    assert trains_in_place(g, start) == []
    take(s.depot, "4")                           # the first 4-train, the phase still 2
    assert trains_in_place(g, start) == ["the phase is 2, the last train sold starts phase 4"]
    s.phase = "4"                                # phase 4, the 2-train not rusted
    assert trains_in_place(g, start) == ["ACL holds a 2-train, rusted in phase 4; the phase is 4"]
    s.market_trains, acl.trains = acl.trains, []
    assert trains_in_place(g, start) == ["the open market holds a 2-train, rusted in phase 4; the phase is 4"]

    g = Game("1831", ["A", "B", "C", "D"], 1)
    start, c, s = bank_counts(g), g.state.corporations[0], g.state
    for name in ("2S", "2MX", "5YD"):
        take(s.depot, name)
    s.phase = "5"                                # 5.3.5: the first 5-train; the 2s retire
    c.trains = [g.rules.trains["2MX"], replace(g.rules.trains["2S"], status="retired")]
    assert trains_in_place(g, start) == [f"{c.id} holds a 2MX-train, rusted in phase 5; the phase is 5"]
    c.trains = c.trains[1:] + [g.rules.trains["5S"]]   # a 5S and a 5YD are one size: one was sold
    assert trains_in_place(g, start) == []

    g = Game("1833NE", ["A", "B", "C"], 1)
    start, s = bank_counts(g), g.state
    take(s.depot, "3/5")
    s.phase = "II"
    s.corporations[0].trains = [g.rules.trains["2+2"]]
    assert trains_in_place(g, start) == []
    s.corporations[1].trains = [g.rules.trains["3/5"]]
    assert trains_in_place(g, start) == ["2 3/5-trains are held, 1 sold by the bank"]

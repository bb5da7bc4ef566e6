"""1831 5.3.7 and 5.9.7.8 on the shipped (invented) config: "It must give its extra
trains to the Stock Bank Pool ... to make room for the new trains" and "Any trains
beyond its current allowed limit must be placed into the Stock Bank Pool ... (the
President decides which) ... A must decide which of the tokens that cannot be absorbed
are to be liquidated" (1831 rulebook): the president chooses, by a listed action the
game checks and logs; the engine does not choose for him."""

from __future__ import annotations

import pytest
from _1831 import company, new, operated, train

from trainruns.game.errors import Refusal
from trainruns.game.train import names
from trainruns.titles.g1831.game.state import Token, Turn1831
from trainruns.titles.g1831.game.steps.operating import TrainStep


def at_the_limit():
    """PRR in phase 4 (limit 4) holding a 4S, a 4YD, a 3S and a 4MX; a 3S in the pool."""
    g = new()
    r, s = g.rules, g.rules.state
    s.phase = "4"
    c = company(g, "PRR", 100, "P0", cash=500)
    c.trains = [train(4), train(4, "YD"), train(3), train(4, "MX")]
    assert len(c.trains) == r.train_limit(c)
    s.market_trains.append(train(3))
    turn = Turn1831(c.id)
    g.round.queue.insert(0, TrainStep(g, c, turn))
    return g, r, s, c


def test_the_president_chooses_the_train_that_goes_to_the_pool_5_3_7():
    g, r, s, c = at_the_limit()
    g.act({"type": "buy_train", "corporation": "PRR", "from": "market", "train": "3S"})
    # five trains until he chooses; every train but the one just bought may go
    assert len(c.trains) == 5
    listed = g.actions()
    assert [a["type"] for a in listed] == ["discard_train"] * 4
    assert sorted(a["train"] for a in listed) == ["3S", "4MX", "4S", "4YD"]
    with pytest.raises(Refusal) as e:
        g.act({"type": "pass", "corporation": "PRR"})
    assert e.value.rule == "5.3.7"
    g.act({"type": "discard_train", "corporation": "PRR", "train": "4YD"})   # not the smallest
    assert sorted(t.name for t in c.trains) == ["3S", "3S", "4MX", "4S"]
    assert names(s.market_trains) == ["4YD"]
    # the train bought at the limit stayed: of the two 3S, the USED one was not given up
    assert sorted(t.status for t in c.trains if t.name == "3S") == ["new", "used"]
    assert g.log()["actions"][-1] == {"type": "discard_train", "corporation": "PRR", "train": "4YD"}


def test_the_train_just_bought_is_not_offered_5_3_7():
    g, r, s, c = at_the_limit()
    c.trains = [train(4), train(4), train(4), train(4)]
    s.market_trains = [train(4, "YD")]
    g.act({"type": "buy_train", "corporation": "PRR", "from": "market", "train": "4YD"})
    # the only trains that may go are the 4S: no choice, so it goes by rule, not asked
    assert [t.name for t in c.trains] == ["4S", "4S", "4S", "4YD"] and names(s.market_trains) == ["4S"]
    assert all(a["type"] != "discard_train" for a in g.actions())


def test_a_lower_limit_is_the_presidents_choice_too_5_3_5():
    g = new()
    r, s = g.rules, g.rules.state
    s.phase = "4"
    c = company(g, "PRR", 100, "P0", cash=0)
    c.trains = [train(4), train(3), train(4, "YD"), train(4, "MX")]
    s.phase = "5"                                     # the limit falls to 3
    r.queue_discards(None)                            # the engine's discards after a new phase
    assert [a["train"] for a in g.actions()] == ["4S", "3S", "4YD", "4MX"]
    g.act({"type": "discard_train", "corporation": "PRR", "train": "4MX"})
    assert sorted(t.name for t in c.trains) == ["3S", "4S", "4YD"] and names(s.market_trains) == ["4MX"]


def test_a_lower_limit_queues_every_company_over_it_but_the_buyer_5_3_5():
    """5.3.5 through the engine's discards: each company over the new limit gives up its
    extra trains, the president choosing; the buyer keeps the train it bought and settles
    after its purchase (5.3.7), so it is not queued here."""
    g = new()
    r, s = g.rules, g.rules.state
    s.phase = "4"
    buyer = company(g, "PRR", 100, "P0", cash=0)
    other = company(g, "NYC", 90, "P1", cash=0)
    for c in (buyer, other):
        c.trains = [train(4), train(3), train(4, "YD"), train(4, "MX")]
    s.phase = "5"                                     # the limit falls to 3
    r.queue_discards(buyer)
    assert {a["corporation"] for a in g.actions()} == {"NYC"}
    assert len(buyer.trains) == 4


def test_the_president_chooses_which_token_a_merger_liquidates_5_9_7_8():
    g = new()
    r = g.rules
    a = operated(g, "PRR", 100, "P0")
    b = operated(g, "NYC", 80, "P0", home=False)
    b.sites.append(Token(a.home, 1, "yard"))
    assert r.phase_row()["tokens_per_city"] == 1      # 5.2.7.6: one per city hex yet
    r.merge(a, b, "I")
    listed = g.actions()
    assert sorted((x["hex"], x["slot"]) for x in listed) == [(a.home, 0), (a.home, 1)]
    assert all(x["type"] == "liquidate_token" for x in listed)
    with pytest.raises(Refusal) as e:
        g.act({"type": "liquidate_token", "corporation": "PRR", "hex": "A1", "slot": 0})
    assert e.value.rule == "5.9.7.8"
    cash = a.cash
    # he keeps B's Rail Yard and liquidates his own Station, for half a new one's $40
    g.act({"type": "liquidate_token", "corporation": "PRR", "hex": a.home, "slot": 0})
    assert a.sites == [Token(a.home, 1, "yard")] and a.cash == cash + 40 // 2
    assert g.log()["actions"][-1]["type"] == "liquidate_token"


def test_a_close_out_after_the_push_ends_the_choice_4_3_2():
    """4.3.2: a company closed out in the action that put it over its limit (its bonds
    closed, then DID NOT RUN) has no trains left to give up: the president's discard
    (the shared DiscardStep) is over, read from the trains, and nothing waits on it."""
    g, r, s, c = at_the_limit()
    g.act({"type": "buy_train", "corporation": "PRR", "from": "market", "train": "3S"})
    assert [a["type"] for a in g.actions()] == ["discard_train"] * 4
    step = g.round.step()
    r.close_out(c)
    assert step.done and step.actions() == []

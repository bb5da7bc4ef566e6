"""1831 train deals between corporations (1831 rulebook 5.3.2: a train bought
from another corporation is "at any mutually agreed price"; 5.3.4: "The President is not
forced to accept any offers"): with another president the buyer's proposal is an offer
that president answers (``accept``, or ``pass`` to decline); a declined seller is not
asked again that turn; one president dealing with himself needs no answer. On hand-built
states of the shipped (invented) config."""

from __future__ import annotations

import pytest
from _1831 import company, current_step, train, turn_of

from trainruns.game.errors import Refusal
from trainruns.game.game import Game
from trainruns.game.steps.consent import Offer
from trainruns.titles.g1831.game.steps.operating import TrainStep


def current_train_step(g, c):
    """``c``'s train phase (5.3) as the round's current step."""
    return current_step(g, TrainStep(g, c, turn_of(c)))


def holdings(a, b):
    return a.cash, b.cash, [t.name for t in a.trains], [t.name for t in b.trains]


def setup(buyer_president="P0", seller_president="P1"):
    g = Game("1831", ["P0", "P1", "P2", "P3"], 7)
    a = company(g, "PRR", 100, buyer_president, cash=300)
    b = company(g, "NYC", 80, seller_president)
    a.trains = [train(2)]
    b.trains = [train(3), train(2, "MX")]
    return g, a, b


DEAL = {"type": "buy_train", "corporation": "PRR", "from": "NYC", "train": "3S", "price": 1}


def test_a_deal_with_another_players_company_waits_for_his_accept_5_3_2():
    g, a, b = setup()
    st = current_train_step(g, a)
    before = holdings(a, b)
    st.process(dict(DEAL))
    offer = g.round.step()
    # 5.3.2 "mutually agreed": nothing changes hands until NYC's president answers
    assert isinstance(offer, Offer) and holdings(a, b) == before
    assert g.active() == {"player": "P1"}
    assert offer.actions() == [{"offer": "train", "corporation": "PRR", "from": "NYC", "train": "3S", "price": 1,
                                "type": "accept", "player": "P1"}, {"type": "pass", "player": "P1"}]
    with pytest.raises(Refusal) as e:   # only the seller's president answers
        offer.process({"type": "accept", "player": "P0"})
    assert e.value.rule == "deal.answer"
    g.act({"type": "accept", "player": "P1"})
    assert holdings(a, b) == (before[0] - 1, before[1] + 1, ["2S", "3S"], ["2MX"])
    # the buyer's turn goes on in its train phase after the answer
    assert g.round.step() is st and g.active()["corporation"] == "PRR"


def test_a_declined_offer_changes_nothing_and_is_not_made_again_that_turn_5_3_4():
    g, a, b = setup()
    st = current_train_step(g, a)
    money = g.rules.state.money()
    before = holdings(a, b)
    g.act(dict(DEAL))
    g.act({"type": "pass", "player": "P1"})   # 5.3.4 "not forced to accept any offers"
    assert holdings(a, b) == before and g.rules.state.money() == money
    assert g.round.step() is st
    # NYC is asked no more this turn: none of its trains is listed, and asking is refused
    assert not [x for x in g.actions() if x.get("from") == "NYC"]
    with pytest.raises(Refusal):
        st.process(dict(DEAL, train="2MX"))
    # the next turn may ask again
    assert [x["train"] for x in g.rules.train_buys(TrainStep(g, a, turn_of(a))) if x["from"] == "NYC"] == ["3S", "2MX"]


def test_same_president_deal_needs_no_consent_5_3_2():
    g, a, b = setup(seller_president="P0")
    st = current_train_step(g, a)
    before = holdings(a, b)
    g.act(dict(DEAL, price=5))
    assert not isinstance(g.round.step(), Offer) and g.round.step() is st
    assert holdings(a, b) == (before[0] - 5, before[1] + 5, ["2S", "3S"], ["2MX"])


def test_the_proposed_price_is_checked_before_the_offer_5_3_4():
    g, a, b = setup()
    st = current_train_step(g, a)
    with pytest.raises(Refusal) as e:   # more than the printed cost
        st.process(dict(DEAL, price=g.rules.config.price(3) + 1))
    assert e.value.rule == "train.price" and g.round.step() is st


def test_the_position_while_an_offer_waits_is_the_buyers_5_3_2():
    # NYC (not the first corporation) asks PRR's president for a train: while he
    # answers, the position asked for with no corporation named is still NYC's
    g = Game("1831", ["P0", "P1", "P2", "P3"], 7)
    a = company(g, "NYC", 100, "P0", cash=300)
    b = company(g, "PRR", 80, "P1")
    a.trains, b.trains = [train(2)], [train(3)]
    assert g.rules.state.corporations[0].id == "PRR"
    g.round.kind = "operating"   # the hand-built train phase stands in an operating round
    current_train_step(g, a)
    g.act(dict(DEAL, corporation="NYC", **{"from": "PRR"}))
    assert isinstance(g.round.step(), Offer) and g.active() == {"player": "P1"}
    pos = g.rules.position()
    assert pos["corporation"] == "NYC" and [t["name"] for t in pos["trains"]] == ["2S"]

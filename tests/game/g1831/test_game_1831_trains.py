"""1831 train purchases on the shipped (invented) config: deals between presidents
(5.3.2, 5.3.4 first step, 5.4.4) listed with their {min, max} price range, and a forced
purchase's funding (5.3.4: the company's own commons, then its bonds, then the
president's cash, then a loan and receivership), each test naming its section
(1831 rulebook)."""

from __future__ import annotations

import pytest
from _1831 import company, new, train

from trainruns.game.errors import Refusal
from trainruns.titles.g1831.game import certs
from trainruns.titles.g1831.game.certs import Cert
from trainruns.titles.g1831.game.state import Turn1831
from trainruns.titles.g1831.game.steps.operating import TrainStep
from trainruns.titles.g1831.game.steps.stock import StockTurn1831 as StockTurn


def to_treasury(g, c, n):
    """n of the company's 10/5/0% commons bought back into its treasury (4.6.4)."""
    for x in [x for x in c.certs if x.kind == "common" and x.holder == "ipo"][:n]:
        certs.move(g.rules.state, c, x, "treasury")


def step(g, c):
    """``c``'s buy-trains step, under way in front of the round (the rules read the
    turn's record, 5.3.4's ``own_sold``, from the step under way)."""
    turn = Turn1831(c.id)
    st = TrainStep(g, c, turn)
    g.round.queue.insert(0, st)
    return st


def test_deal_between_two_presidents_listed_with_its_price_range_5_3_2_and_5_3_4():
    g = new()
    r, s = g.rules, g.rules.state
    a = company(g, "PRR", 100, "P0", cash=200)
    b = company(g, "NYC", 80, "P1")
    a.trains = [train(2)]
    b.trains = [train(3), train(3)]
    st = step(g, a)
    deals = [x for x in st.actions() if x["type"] == "buy_train" and x["from"] == "NYC"]
    # 5.3.4: at least $1, at most the printed cost ($150 on this config), paid from the buyer's cash;
    # the two 3S are one offer
    assert deals == [{"type": "buy_train", "corporation": "PRR", "from": "NYC", "train": "3S",
                      "price": {"min": 1, "max": min(r.config.price(3), 200)}}]
    money = s.money()
    with pytest.raises(Refusal) as e:
        st.process({"type": "buy_train", "corporation": "PRR", "from": "NYC", "train": "3S",
                    "price": r.config.price(3) + 1})
    assert e.value.rule == "train.price"
    with pytest.raises(Refusal):
        st.process({"type": "buy_train", "corporation": "PRR", "from": "NYC", "train": "3S", "price": 0})
    b_cash = b.cash
    st.process({"type": "buy_train", "corporation": "PRR", "from": "NYC", "train": "3S", "price": 57})
    g.round.queue[0].process({"type": "accept", "player": "P1"})   # NYC's president agrees (5.3.2)
    assert a.cash == 200 - 57 and b.cash == b_cash + 57 and s.money() == money
    assert [t.name for t in b.trains] == ["3S"]
    # 5.3.2: a train from another corporation is USED: it does not run this round
    assert a.trains[-1] == train(3, status="used")
    assert not any(t.status != "used" and t.distance == 3 for t in a.trains)


def test_the_deal_is_at_most_the_buyers_cash_5_3_4():
    g = new()
    a = company(g, "PRR", 100, "P0", cash=40)
    b = company(g, "NYC", 80, "P1")
    a.trains = [train(2)]
    b.trains = [train(4, "YD")]
    deal = next(x for x in g.rules.train_buys(step(g, a)) if x["from"] == "NYC")
    assert deal["price"] == {"min": 1, "max": 40}


def test_a_corporation_in_receivership_sells_no_train_5_4_4():
    g = new()
    r = g.rules
    a = company(g, "PRR", 100, "P0", cash=300)
    b = company(g, "NYC", 80, "P1")
    a.trains = [train(2)]
    b.trains = [train(3)]
    r.enter_receivership(b)
    st = step(g, a)
    assert not any(x.get("from") == "NYC" for x in st.actions())
    with pytest.raises(Refusal) as e:
        st.process({"type": "buy_train", "corporation": "PRR", "from": "NYC", "train": "3S", "price": 10})
    assert e.value.rule == "train.seller-receivership"


def test_forced_purchase_offers_deals_and_the_cheapest_train_no_pass_5_3_4():
    g = new()
    r = g.rules
    a = company(g, "PRR", 100, "P0", cash=30)   # less than a 2-train ($80 on this config)
    b = company(g, "NYC", 80, "P1")
    b.trains = [train(2, "MX")]
    st = step(g, a)
    listed = st.actions()
    shop = [x for x in listed if x["from"] in ("bank", "market")]
    assert shop and {x["price"] for x in shop} == {r.config.price(2)}
    assert {"type": "buy_train", "corporation": "PRR", "from": "NYC", "train": "2MX",
            "price": {"min": 1, "max": 30}} in listed
    assert not any(x["type"] == "pass" for x in listed)   # 5.3.1: it must buy
    with pytest.raises(Refusal) as e:
        st.process({"type": "pass", "corporation": "PRR"})
    assert e.value.rule == "train.must-buy"


def test_forced_purchase_with_only_deals_may_decline_them_and_go_into_receivership_5_3_3():
    g = new()
    s = g.rules.state
    a = company(g, "PRR", 100, "P0", cash=30)
    b = company(g, "NYC", 80, "P1")
    b.trains = [train(2)]
    for row in s.depot:
        row.left = 0      # the bank has no train, the pool none
    st = step(g, a)
    listed = st.actions()
    assert [x["from"] for x in listed if x["type"] == "buy_train"] == ["NYC"]
    assert any(x["type"] == "pass" for x in listed)
    st.process({"type": "pass", "corporation": "PRR"})
    # 5.3.3 "The President is not forced to accept any offers": no train, receivership
    assert a.receivership and not a.trains and st.done


def _walk_left(g, cell, n):
    for _ in range(n):
        cell = g.rules.market.left(cell)
    return cell


def test_forced_sale_of_own_commons_only_as_many_as_needed_5_3_4():
    g = new()
    r, s = g.rules, g.rules.state
    a = company(g, "PRR", 100, "P0", cash=10)
    b = company(g, "NYC", 80, "P1")
    b.trains = [train(3)]
    to_treasury(g, a, 4)
    st = step(g, a)
    money, p0 = s.money(), s.player["P0"].cash
    cell = a.cell
    common = r.market.common(cell)
    face = r.config.price(2)
    # independently: the fewest commons at the posted price that, with its $10, pay the train
    need = next(n for n in range(1, 5) if 10 + n * common >= face)
    bank_2 = next(x for x in st.actions() if x["from"] == "bank")
    st.process(bank_2)
    assert len(certs.held(a, "market", "common")) == need
    assert len(certs.held(a, "treasury", "common")) == 4 - need
    # one-half square left per certificate sold, rounded up
    assert a.cell == _walk_left(g, cell, -(-need // 2))
    assert a.cash == 10 + need * common - face
    assert s.player["P0"].cash == p0 and not a.receivership and s.money() == money
    assert any(e.get("event") == "forced_sale" and e["count"] == need for e in s.events)


def test_once_its_stock_is_sold_no_more_deals_5_3_4():
    g = new()
    r, s = g.rules, g.rules.state
    a = company(g, "PRR", 100, "P0", cash=10)
    b = company(g, "NYC", 80, "P1")
    b.trains = [train(3)]
    to_treasury(g, a, 4)
    a.absorbed = ["B&O"]       # a system: from the first 3-train two trains (5.3.1)
    s.phase = "3"
    st = step(g, a)
    assert any(x["from"] == "NYC" for x in st.actions())
    st.process(next(x for x in st.actions() if x["from"] == "bank"))
    assert st.turn.own_sold and r.needs_train(a)
    assert not any(x.get("from") == "NYC" for x in st.actions())
    with pytest.raises(Refusal) as e:
        st.process({"type": "buy_train", "corporation": "PRR", "from": "NYC", "train": "3S", "price": 1})
    assert e.value.rule == "train.deals-over"


def _bonds(g, c, n):
    """n bonds of the system in its own treasury (4.6.5.1), its Bond Marker on its square."""
    c.bonds = [Cert("bond", 1, "treasury", origin="B&O") for _ in range(n)]
    c.bond_cell = c.cell
    g.rules.market.place(f"{c.id}/bonds", c.cell)


def test_forced_sale_commons_then_bonds_then_the_president_5_3_4():
    g = new()
    r, s = g.rules, g.rules.state
    a = company(g, "PRR", 100, "P0", cash=0)
    to_treasury(g, a, 1)
    _bonds(g, a, 1)
    s.phase = "7"                      # a 7-train: more than a common and a bond
    for row in s.depot:
        row.left = row.left if row.size >= 7 else 0
    price = r.config.price(7)
    common, bond = r.market.common(a.cell), r.market.preferred(a.cell)
    bond_cell = a.bond_cell
    p0, money = s.player["P0"].cash, s.money()
    st = step(g, a)
    st.process(next(x for x in st.actions() if x["from"] == "bank"))
    assert common + bond < price
    # all its stock and bonds sold; the president gives exactly what is still missing
    assert not certs.held(a, "treasury", "common") and not certs.held(a, "treasury", "bond")
    assert s.player["P0"].cash == p0 - (price - common - bond)
    assert a.cash == 0 and not a.receivership and s.money() == money
    assert a.bond_cell == r.market.down(bond_cell)   # one square down per bond


def test_bonds_the_pool_cannot_take_close_at_half_and_receivership_5_3_4_and_5_4_14():
    g = new()
    r, s = g.rules, g.rules.state
    a = company(g, "PRR", 100, "P0", cash=10)
    _bonds(g, a, 2)
    for x in [x for x in a.certs if x.kind == "common"]:
        certs.move(s, a, x, "market")   # the pool holds 5 shares of PRR: full
    assert r.pool_shares(a) == 5
    half = sum(r.sale_value(a, b) // 2 for b in a.bonds)
    p0, money = s.player["P0"].cash, s.money()
    face = r.config.price(2)
    st = step(g, a)
    st.process(next(x for x in st.actions() if x["from"] == "bank"))
    assert a.receivership and a.bond_cell is None and not a.bonds
    # its own bonds' half value came into its treasury; the president adds what is missing
    assert s.player["P0"].cash == p0 - max(0, face - 10 - half)
    assert a.trains and s.money() == money


def test_a_sale_the_pool_stops_is_owed_and_made_when_it_has_room_5_3_4():
    g = new()
    r, s = g.rules, g.rules.state
    a = company(g, "PRR", 100, "P0", cash=10)
    to_treasury(g, a, 3)
    for x in [x for x in a.certs if x.kind == "common" and x.holder == "ipo"]:
        certs.move(s, a, x, "market")                       # 2 commons in the pool
    for x in [x for x in a.certs if x.kind == "preferred" and x.holder == "ipo"][:2]:
        certs.move(s, a, x, "market")                       # and 2 preferred: room for one share
    assert r.pool_shares(a) == 4
    s.phase = "5"
    for row in s.depot:
        row.left = row.left if row.size >= 5 else 0
    price, common = r.config.price(5), r.market.common(a.cell)
    p0, money = s.player["P0"].cash, s.money()
    st = step(g, a)
    st.process(next(x for x in st.actions() if x["from"] == "bank"))
    # one common sold (the pool's room); the rest of what the train needed is owed
    owed, short = 0, price - 10 - common
    for _ in range(2):
        if short > 0:
            owed, short = owed + 1, short - common
    assert len(certs.held(a, "market", "common")) == 3 and a.owed_commons == owed
    assert next(c for c in g.to_json()["corporations"] if c["id"] == "PRR")["owed_commons"] == owed
    assert s.player["P0"].cash == p0 - (price - 10 - common) and s.money() == money
    # a stock round: a player buys from the pool, which makes room: the company sells at once
    turn = StockTurn(g, g.round, "P2")
    cash, now = a.cash, r.market.common(a.cell)
    turn.process({"type": "buy_shares", "player": "P2", "corporation": "PRR", "from": "market",
                  "kind": "preferred", "count": 1})
    assert a.cash == cash + now and a.owed_commons == owed - 1 and r.pool_shares(a) == 5
    assert s.money() == money


def test_a_systems_president_subsidises_a_train_it_need_not_buy_5_3_11():
    """5.3.11: "The President of a system may use his own cash holdings to subsidize the
    purchase of a train for his system. All of the cash in the system must be used
    first, and then the President may add enough to buy the trains he desires, but he
    may not put any extra cash into the system. The system will have no cash holdings
    after the train purchases"; a company's president may not (5.0.2)"""
    from _1831 import merger_pair

    g, a, b = merger_pair()                       # phase 3
    r, s = g.rules, g.rules.state
    r.merge(a, b, "II")
    a.trains = [train(2), train(2)]               # a system's minimum of two (5.3.1)
    s.pay(f"corp:{a.id}", "bank", a.cash - 10)
    price = r.config.price(2)
    assert r.is_system(a) and not r.needs_train(a) and 10 < price
    p0, money = s.player["P0"].cash, s.money()
    st = step(g, a)
    bank = [x for x in st.actions() if x["type"] == "buy_train" and x["from"] == "bank"]
    assert bank and all(x["price"] == price for x in bank)
    st.process(bank[0])
    assert a.cash == 0 and s.player["P0"].cash == p0 - (price - 10) and s.money() == money
    assert len(a.trains) == 3
    # a company (not a system) with too little cash is offered no such train
    g = new()
    c = company(g, "PRR", 100, "P0", cash=10)
    c.trains = [train(2)]
    assert not [x for x in step(g, c).actions() if x["type"] == "buy_train" and x["from"] == "bank"]


def test_a_retired_train_of_a_company_closed_out_leaves_play_5_3_6_and_5_3_2():
    """5.3.6: "When a train type retires, it becomes obsolete and is immediately removed
    from play ... Exception: A corporation in receivership does not surrender obsolete
    trains, but may still run them until it is no longer in receivership"; 5.3.2:
    "Corporations may not buy retired trains". NYC, in receivership in phase 5, holds a
    retired 2S and a 5S when it is closed out (4.3.2): the 5S goes to the pool as a used
    train, the 2S leaves play, so PRR is offered the 5S from the pool and no 2S."""
    g = new()
    r, s = g.rules, g.rules.state
    s.phase = "5"
    a = company(g, "PRR", 100, "P0", cash=500)
    b = company(g, "NYC", 80, "P1", cash=0)
    b.receivership = True
    b.trains = [train(2, status="retired"), train(5)]
    r.close_out(b)
    assert [t.name for t in s.market_trains] == ["5S"]
    st = step(g, a)
    assert [x["train"] for x in r.train_buys(st) if x["from"] == "market"] == ["5S"]

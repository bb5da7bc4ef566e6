"""1831 5.3.7 on the shipped (invented) config: "A corporation at its train limit may
still purchase trains. It must give its extra trains to the Stock Bank Pool, with no
compensation, to make room for the new trains" (1831 rulebook). The train
bought stays: giving up the smallest train, the new one included, would let a
company pay the pool for a train that went straight back."""

from __future__ import annotations

from test_game_1831_trains import company, new, step, train


def test_a_purchase_at_the_limit_keeps_the_new_train_5_3_7():
    g = new()
    r, s = g.rules, g.rules.state
    s.phase = "4"
    c = company(g, "PRR", 100, "P0", cash=500)
    c.trains = [train(4), train(4, "YD"), train(4, "MX"), train(4)]
    assert len(c.trains) == r.train_limit(c)          # 5.3.5: four trains from the first 4-train
    s.market_trains.append("3S")
    price = r.pool_price("3S")
    st = step(g, c)
    st.process({"type": "buy_train", "corporation": "PRR", "from": "market", "train": "3S"})
    held = sorted(t["train"] for t in c.trains)
    # the 3S bought stays (USED, 5.3.2); one of the 4-trains makes room in the pool
    assert "3S" in held and len(held) == 4 and c.cash == 500 - price
    assert s.market_trains.count("3S") == 0 and len([x for x in s.market_trains if x.startswith("4")]) == 1


def test_a_lower_limit_still_gives_up_the_smallest_5_3_5():
    g = new()
    r, s = g.rules, g.rules.state
    s.phase = "4"
    c = company(g, "PRR", 100, "P0", cash=0)
    c.trains = [train(4), train(3), train(4, "YD"), train(4, "MX")]
    s.phase = "5"                                     # the limit falls to 3, nothing bought
    r.trim_trains(c)
    assert sorted(t["train"] for t in c.trains) == ["4MX", "4S", "4YD"] and "3S" in s.market_trains

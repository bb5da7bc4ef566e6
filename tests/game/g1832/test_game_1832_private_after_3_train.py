"""[16.2] / Table 1 phase 3 (the 1832 rulebook): "a company that is operating may
buy a private company from any player ... at any point during its operating round ...
even if it was the first company to buy a 3-train"."""

from _1832 import buy_all_privates, new, start
from _trains import owned

from trainruns.game.state import corp_key


def test_buying_the_first_3_train_leaves_the_turn_open_for_a_private_purchase():
    """SALR has $190: the first 3-train ($180) starts phase 3 and leaves $10, no train
    it can pay for, but P1 ($20, Carolina Stage Coach) sells to a company for $10 to
    $40 ([12]): the buy-train step stays open and lists it, then a pass ends it."""
    g = new(3)
    buy_all_privates(g)
    c = start(g, "SALR", "A", 100, {"A": 2, "B": 2, "C": 1})
    r, s = g.rules, g.state
    r.end_stock_round(None)
    s.depot[0].left = 0                     # the 2-trains are sold out
    s.pay(corp_key(c.id), "bank", c.cash - 190)
    c.trains = owned(g, "2")
    step = r.operating_steps[-1](g, c)
    step.enter()
    assert s.phase == "2" and not any(x.get("private") == "P1" for x in step.actions())   # [12] P5 only
    step.process({"type": "buy_train", "corporation": "SALR", "from": "bank", "train": "3"})
    assert s.phase == "3" and c.cash == 10
    assert not step.done
    p1 = [x for x in step.actions() if x.get("private") == "P1"]
    assert p1 == [{"type": "buy_private", "corporation": "SALR", "private": "P1", "price": 10}]
    step.process(p1[0])
    assert s.private["P1"].owner == corp_key("SALR") and c.cash == 0
    if not step.done:
        step.process({"type": "pass", "corporation": "SALR"})
    assert step.done

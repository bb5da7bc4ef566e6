"""1831 mergers: the bonus a merger pays, by the Par Marker (5.9.7.9)."""

from __future__ import annotations

from _1831 import neighbours, new, operated

from trainruns.game.merger import buyout_cost
from trainruns.titles.g1831.game import certs


def test_type_i_bonus_is_three_times_the_par_markers_value_5_9_7_9():
    """5.9.7.9: System A receives three times "the value of its par stock"; once all its
    preferred is sold the Par Marker has moved up one value (4.7.6: 80 to 90), so the
    bonus is 3 x 90 = $270, not 3 x the first par."""
    g = new()
    r, s = g.rules, g.rules.state
    a = s.corp["PRR"]
    r.start_corporation(a, "P0", 80)
    while certs.held(a, "ipo", "preferred"):
        r.buy_cert(a, "P0", "preferred", "ipo")
    assert a.par == 80 and a.par_marker == 90
    a.active_set = 0
    r.sets_done = 1
    s.title_state.trains_bought = True
    r.home_token(a)
    b = operated(g, "NYC", 40, "P0", home=True)
    neighbours(g, a, b)
    assert (b, "I") in r.merger_targets(a)
    a_cash, b_cash, cost = a.cash, b.cash, buyout_cost(r, b)
    r.merge(a, b, "I")
    assert a.cash == a_cash - cost + b_cash + 270
    merger = [e for e in s.events if e["event"] == "merger"]
    assert merger and merger[-1]["bonus"] == 270

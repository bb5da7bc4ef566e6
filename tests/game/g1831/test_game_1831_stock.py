"""1831 stock rounds on the shipped (invented) config: cycling's price (4.6.8), the
marker's rise for the third and fourth 10/5/0% commons (4.7.10-11), the certificate
limit and commons in receivership (4.7.7), Government Intervention's 70% (4.2.2), each
test naming its section (1831 rulebook)."""

from __future__ import annotations

from _1831 import new

from trainruns.titles.g1831.game import certs


def active_prr(g, par=100, president="P0"):
    """PRR started by ``president``, all its preferred sold to him (4.7.6: active, the
    Par Marker one value up: its commons sell at the new par)."""
    r = g.rules
    c = r.state.corp["PRR"]
    r.start_corporation(c, president, par)
    while certs.held(c, "ipo", "preferred"):
        r.buy_cert(c, president, "preferred", "ipo")
    return c


def sold_for(g, c, name, common=0, bonds=0):
    """What ``name`` gets for a sale of ``common`` commons and ``bonds`` bonds of ``c``."""
    cash = g.rules.state.player[name].cash
    g.rules.sell(c, name, 0, common, bonds)
    return g.rules.state.player[name].cash - cash


def test_cycled_common_from_the_initial_offering_sells_after_the_move_4_6_8_1_and_4_6_8_2():
    """4.6.8.1: a common bought from Initial Offerings and sold in the same Stock Round for
    equal or less money is Cycling; 4.6.8.2: it is valued at the final price after the
    Stock Marker's movement, not before"""
    g = new()
    r = g.rules
    c = active_prr(g)
    r.buy_cert(c, "P1", "common", "ipo")
    assert r.market.common(c.cell) <= c.par_marker          # it would sell for no more than it cost
    after = r.square_after(c.cell, r.sale_steps(c, 1))
    assert r.market.common(after) < r.market.common(c.cell)
    assert sold_for(g, c, "P1", common=1) == r.market.common(after)
    assert c.cell == after


def test_common_from_the_pool_sold_the_same_round_is_cycled_4_6_8():
    """4.6.8: a common bought from the Stock Bank Pool and sold in the same Stock Round is
    Cycling, whatever its price"""
    g = new()
    r, s = g.rules, g.rules.state
    c = active_prr(g)
    certs.move(s, c, certs.held(c, "ipo", "common")[0], "market")
    r.buy_cert(c, "P1", "common", "market")
    after = r.square_after(c.cell, r.sale_steps(c, 1))
    assert sold_for(g, c, "P1", common=1) == r.market.common(after)


def test_profit_taking_an_earlier_round_and_2x_markers_are_not_cycling_4_6_7_and_4_6_3_3_1():
    """4.6.7: sold for more than par is Profit Taking (not cycling, allowed without GI);
    a common bought in an earlier Stock Round is not cycled; 4.6.3.3.1: "Selling stocks
    with 2x markers is never considered cycling": each at the posted price before the move"""
    g = new()
    r = g.rules
    c = active_prr(g, par=40)
    r.buy_cert(c, "P1", "common", "ipo")
    r.move_marker(c, "up", 8, "test")                  # now worth more than the par paid
    before = r.market.common(c.cell)
    assert before > c.par_marker
    assert sold_for(g, c, "P1", common=1) == before
    r.buy_cert(c, "P2", "common", "ipo")
    r.stock_round_number += 1                          # a later Stock Round
    before = r.market.common(c.cell)
    assert sold_for(g, c, "P2", common=1) == before
    r.buy_cert(c, "P3", "common", "ipo")
    x = certs.held(c, "player:P3", "common")[0]
    x.splits = 1
    before = r.market.common(c.cell)
    assert r.cycled(c, x) is False
    assert sold_for(g, c, "P3", common=1) == 2 * before


def test_under_gi_only_profit_taking_and_cycling_are_refused_4_2_2_and_4_6_3_3_1():
    """4.2.2: under Government Intervention "Profit Taking (4.6.7) and Cycling (4.6.6 &
    4.6.8.1) are prohibited": a common bought from the pool this Stock Round may not be
    sold (4.6.8) until a split gives it a 2x marker (4.6.3.3.1: "never considered
    cycling"); one bought from Initial Offerings may not be sold for more than par
    (4.6.7) nor for equal or less (4.6.8.1), 2x marker or not."""
    g = new()
    r, s = g.rules, g.rules.state
    c = active_prr(g)
    s.title_state.government_intervention = True
    certs.move(s, c, certs.held(c, "ipo", "common")[0], "market")
    r.buy_cert(c, "P1", "common", "market")
    r.buy_cert(c, "P2", "common", "ipo")
    pool, ipo = certs.held(c, "player:P1", "common")[0], certs.held(c, "player:P2", "common")[0]
    assert r.max_sale(c, "P1", "common") == 0 and r.max_sale(c, "P2", "common") == 0
    # the Stock Marker rises into STOCK SPLIT: every held certificate gets a 2x marker (4.3.4)
    r.market.move(c.id, c.cell, (1, 9))
    c.cell = (1, 9)
    r.move_marker(c, "up", 1, "test")
    assert pool.splits == ipo.splits == 1
    assert r.max_sale(c, "P1", "common") == 1                 # not cycling any more
    assert r.sale_value(c, ipo) > ipo.bought_price         # more than par: profit taking
    assert r.max_sale(c, "P2", "common") == 0
    s.title_state.government_intervention = False             # without GI both may be sold
    assert r.max_sale(c, "P2", "common") == 1


def test_the_sale_event_counts_the_cycled_certificates_4_6_8_2():
    g = new()
    r, s = g.rules, g.rules.state
    c = active_prr(g)
    r.buy_cert(c, "P1", "common", "ipo")
    sold_for(g, c, "P1", common=1)
    sale = [e for e in s.events if e.get("event") == "sell"][-1]
    assert sale["cycled"] == 1


def test_a_bond_from_the_pool_sold_the_same_round_is_cycled_4_6_8():
    """4.6.8: "If a player buys common stock or bonds ... from the Stock Bank Pool and
    sells it during the same Stock Round, it is called Cycling"; 4.6.8.2: valued after
    the move, a bond at the P price of the Bond Marker's new square (4.4.1)"""
    from test_game_1831_mergers import system_and_a_third

    g, a, _b, c = system_and_a_third()
    r = g.rules
    a.merge_tried = None
    r.merge(a, c, "IV")
    r.state.pay("bank", "player:P2", 1000)
    r.buy_cert(a, "P2", "bond", "market")
    after = r.square_after(a.bond_cell, 1)
    assert r.market.preferred(after) < r.market.preferred(a.bond_cell)
    assert sold_for(g, a, "P2", bonds=1) == r.market.preferred(after)


def test_a_systems_commons_for_mergers_do_not_raise_the_marker_4_7_10_and_4_7_11():
    """4.7.10-11: only the purchase of the third and of the fourth 10/5/0% common raises
    the Stock Marker one square; a system's 5% commons for mergers (4.7.8), sold after
    its own commons, do not"""
    from _1831 import merger_pair

    g, a, b = merger_pair()
    r, s = g.rules, g.rules.state
    r.merge(a, b, "II")
    assert len(certs.held(a, "ipo", "common")) == 10        # five 10/5/0% and five 5% for mergers
    rises = []
    for _ in range(10):
        s.pay("bank", "player:P2", 200)
        cell = a.cell
        kind = r.next_cert(a, "common", "ipo").kind
        r.buy_cert(a, "P2", "common", "ipo")
        rises.append((kind, a.cell != cell))
    assert rises == [("common", False)] * 2 + [("common", True)] * 2 + [("common", False)] + [("merger", False)] * 5


def test_at_the_limit_a_player_may_buy_commons_of_a_company_in_receivership_4_7_7_and_4_7_7_1():
    """4.7.7: "EXCEPTION: Common stock of companies or systems in receivership does not
    count toward the total" (its preferred does); 4.7.7.1: such certificates "may still
    be purchased": a player at the limit is offered them and nothing that counts"""
    from _1831 import operated

    g = new()
    r, s = g.rules, g.rules.state
    who = g.active()["player"]
    nyc = operated(g, "NYC", 100, next(p.name for p in s.players if p.name != who))
    r.enter_receivership(nyc)
    for cid in ("PRR", "B&O", "C&O"):
        c = s.corp[cid]
        if r.cert_room(who) < 1:
            break
        r.start_corporation(c, who, 40)
        for x in c.certs:
            if x.holder == "ipo" and x.kind != "merger" and r.player_certs(who) < r.cert_limit():
                certs.move(s, c, x, f"player:{who}")
    s.pay("bank", f"player:{who}", 1000)
    assert r.cert_room(who) == 0
    buys = [a for a in g.actions() if a["type"] in ("buy_shares", "par")]
    assert buys == [{"type": "buy_shares", "player": who, "corporation": "NYC", "from": "ipo", "kind": "common",
                     "count": 1}]
    g.act(buys[0])
    assert len(certs.held(nyc, f"player:{who}", "common")) == 1 and r.cert_room(who) == 0


def test_government_interventions_70_percent_leaves_bonds_out_4_2_2():
    """4.2.2: under Government Intervention "players may own at most 70% of any one
    company's or system's preferred stock and common stock": a player at 70% of a system
    may still buy its bonds, and no more of its stock"""
    from test_game_1831_mergers import system_and_a_third

    from trainruns.titles.g1831.game.steps.stock import StockTurn1831

    g, a, _b, c = system_and_a_third()
    r, s = g.rules, g.rules.state
    a.merge_tried = None
    r.merge(a, c, "IV")
    s.title_state.government_intervention = True
    for x in a.certs:
        if x.holder == "ipo" and r.gi_room(a, "P0") > 0:
            certs.move(s, a, x, "player:P0")
    assert r.gi_room(a, "P0") == 0 and certs.held(a, "market", "bond")
    turn = StockTurn1831(g, g.round, "P0")
    assert [x for x in turn._buys() if x["corporation"] == "PRR"] == [
        {"type": "buy_shares", "player": "P0", "corporation": "PRR", "from": "market", "kind": "bond", "count": 1}]


def test_one_sale_of_a_company_may_combine_its_preferred_and_common_4_6_3_1():
    """4.6.3.1: "All stock sold in a company or system takes place at the same time. You
    may not sell your preferred stock first and then your common (or vice versa), but you
    may sell any combination of stock certificates": after his common, the player may
    sell his preferred in the same turn, at the P price posted before the common's move;
    each kind once"""
    import pytest

    from trainruns.game.errors import Refusal

    g = new()
    r, s = g.rules, g.rules.state
    first = g.active()["player"]
    g.act({"type": "par", "player": first, "corporation": "PRR", "price": 100})
    c = s.corp["PRR"]
    other = next(p.name for p in s.players if p.name != first)
    for kind, n in (("preferred", 1), ("common", 1)):
        for x in certs.held(c, "ipo", kind)[:n]:
            certs.move(s, c, x, f"player:{other}")
    while g.active() != {"player": other}:
        g.act({"type": "pass", "player": g.active()["player"]})
    p_before = r.market.preferred(c.cell)
    g.act({"type": "sell_shares", "player": other, "corporation": "PRR", "kind": "common", "count": 1})
    if g.active() != {"player": other}:
        g.act({"type": "pass", "player": c.president})    # PRR's president buys nothing back (4.6.4)
    assert r.market.preferred(c.cell) < p_before            # the common's sale moved the marker
    listed = [a for a in g.actions() if a["type"] == "sell_shares" and a["corporation"] == "PRR"]
    assert [a["kind"] for a in listed] == ["preferred"]
    cash = s.player[other].cash
    g.act({"type": "sell_shares", "player": other, "corporation": "PRR", "kind": "preferred", "count": 1})
    assert s.player[other].cash - cash == p_before
    with pytest.raises(Refusal) as e:
        g.act({"type": "sell_shares", "player": other, "corporation": "PRR", "kind": "preferred", "count": 1})
    assert e.value.rule == "stock.one-block"

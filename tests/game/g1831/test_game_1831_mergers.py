"""1831 part B on the shipped (invented) config: the four merger and takeover types
(5.9.7-5.9.10), the systems they make and their bonds (4.3.3, 4.6.3.2.4, 4.8.4, 5.10,
5.12.1), each test naming its section (1831 rulebook)."""

from __future__ import annotations

import pytest
from _1831 import current_step, merger_pair, neighbours, new, train, turn_of
from _1831 import operated as company

from trainruns.game.errors import Refusal
from trainruns.game.merger import buyout_cost
from trainruns.titles.g1831.game import certs
from trainruns.titles.g1831.game.state import Token
from trainruns.titles.g1831.game.steps.operating import (
    MergerStep,
    SplitSaleStep,
    TrackStep,
)


def system_and_a_third():
    """PRR (par 200, P0) has merged NYC (par 40, P1) by Type II, so PRR is a system and
    its next merger is Type IV (5.9.10); E (par 40, P2) has no home but a Rail Yard in
    NYC's home city, reached once NYC's token is PRR's."""
    g, a, b = merger_pair(home=True)
    c = company(g, "E", 40, "P2", home=False)
    c.sites.append(Token(b.home, 1, "yard"))
    g.rules.merge(a, b, "II")
    return g, a, b, c


def units_total(c):
    return sum(x.size for x in c.certs if x.holder not in certs.OUT_OF_PLAY)


def test_type_i_friendly_merger_5_9_7():
    g, a, b = merger_pair(100, 80, "P0", preferred_to=["player:P2", "market", "market"], home=True)
    r, s = g.rules, g.rules.state
    certs.move(s, b, next(x for x in b.certs if x.kind == "common"), "player:P3")
    b.trains = [train(2)]
    assert r.merger_targets(a) == [(b, "I")]
    money = s.money()
    p2, p3, a_cash, b_cash = s.player["P2"].cash, s.player["P3"].cash, a.cash, b.cash
    bp = r.market.preferred(b.cell)
    r.merge(a, b, "I")
    # 5.9.7.3: B's preferred bought at B's P price from the players and the pool
    assert s.player["P2"].cash - p2 == bp
    # 5.9.7.6 and 5.9.7.9: A gets B's cash and 3 x par from the bank
    assert a.cash == a_cash - 5 * bp + b_cash + 3 * 100
    assert s.money() == money
    # 5.9.7.5: B's 10/5/0% common replaced by A's 5% common where it is; A's commons 5%
    merger = [x for x in a.certs if x.kind == "merger"]
    assert sorted(x.holder for x in merger) == sorted(["player:P3"] + ["ipo"] * 4)
    assert all(x.size == 1 for x in a.certs if x.kind in ("common", "merger"))
    assert units_total(a) == a.total_shares == sum(a.shares.values()) == 20
    assert s.player["P3"].cash == p3 and b.closed and b.cell is None
    # 5.9.7.4: B's preferred retired; 5.9.7.6: B's trains and token now A's
    assert all(x.holder == "retired" for x in b.certs)
    assert [t.name for t in a.trains] == ["2S"] and any(x.hex == a.home and x.type == "yard"
                                                             for x in a.sites)
    # 5.9.7.7: train limit +1; 5.9.7.6: token limits add up, to 19 at most
    assert r.train_limit(a) == r.phase_row()["train_limit"] + 1
    assert a.supply["station"] == min(19, 9 + 8)
    assert r.is_system(a) and r.token_limit(a) == 6   # 5.2.4.2: six tokens, seven tiles, five cities
    assert len(r.tile_allowance(a)["slots"]) == 7 and r.tile_allowance(a)["cities"] == 5


def test_type_i_fails_without_the_cash_and_both_markers_go_down_5_9_7_3_1():
    g = new()
    r = g.rules
    a = company(g, "PRR", 40, "P0")
    b = company(g, "NYC", 200, "P0", home=False)
    b.sites.append(Token(a.home, 1, "yard"))
    a_cell, b_cell = a.cell, b.cell
    assert a.cash < buyout_cost(r, b)
    r.merge(a, b, "I")
    assert a.cell == r.market.walk(a_cell, "down", 1)[0] != a_cell
    assert b.cell == r.market.walk(b_cell, "down", 1)[0] != b_cell
    assert not b.closed and not r.is_system(a)
    assert r.merger_targets(a) == []   # 5.9.1: one attempt per round


def test_type_i_is_offered_beside_stock_trades_closed_and_type_ii_is_not_5_9_3():
    """5.9.3: a merger is cancelled only when "the movement of A's Stock Marker Token as a
    result of the merger or takeover announcement" would reach STOCK TRADES CLOSED; a
    Type I announcement does not move A's marker (5.9.7.2), a Type II one moves it one
    square left (5.9.8.2)"""
    g, a, b = merger_pair(100, 40, "P0")
    r = g.rules
    closing = (12, 1)                                   # the square left of it is closed
    assert r.market.zone(r.market.walk(closing, "left", 1)[0]) == "closed"
    r.market.move(a.id, a.cell, closing)
    a.cell = closing
    assert a.cash >= buyout_cost(r, b)
    assert r.merger_targets(a) == [(b, "I")]
    r.merge(a, b, "I")
    assert a.cell == closing and r.is_system(a)
    g, a, b = merger_pair(100, 40, "P1")                # another president: Type II
    r = g.rules
    r.market.move(a.id, a.cell, closing)
    a.cell = closing
    assert r.merger_targets(a) == []


def test_type_ii_hostile_takeover_5_9_8():
    g, a, b = merger_pair()
    r, s = g.rules, g.rules.state
    s.pay("corp:NYC", "bank", b.cash - 51)   # B holds $51
    assert r.merger_targets(a) == [(b, "II")]
    a_cell, b_cell = a.cell, b.cell
    p1 = s.player["P1"].cash
    money = s.money()
    r.merge(a, b, "II")
    # 5.9.8.2: A's marker one left; 5.9.8.5: B's preferred at its P price after the move
    assert a.cell == (a_cell[0], a_cell[1] - 1)
    bp = r.market.preferred(r.market.walk(b_cell, "right", 2)[0])
    # 5.9.8.7: B's former president gets half B's cash rounded up ($26) and his 5 shares
    assert s.player["P1"].cash - p1 == 26 + 5 * bp
    assert b.closed and s.money() == money
    assert r.merger_type(a, b) == "IV"   # now a system: only Type IV (5.9.1)


def test_type_ii_cancelled_when_assets_fall_short_5_9_8_3_1():
    g, a, b = merger_pair(40, 200)
    r = g.rules
    a_cell, b_cell = a.cell, b.cell
    r.merge(a, b, "II")
    # B's marker back where it was; A's stays one to the left
    assert b.cell == b_cell and r.market.stacks[b_cell].count("NYC") == 1
    assert a.cell == (a_cell[0], a_cell[1] - 1) and not b.closed


def test_type_iii_takeover_of_a_company_in_receivership_5_9_9():
    g, a, b = merger_pair()
    r, s = g.rules, g.rules.state
    r.enter_receivership(b)
    b.debt = 30
    assert r.merger_targets(a) == [(b, "III")]
    p1 = s.player["P1"].cash
    a_cash, b_cash = a.cash, b.cash
    bp = r.market.preferred(b.cell)
    money = s.money()
    r.merge(a, b, "III")
    # 5.9.9.4: the preferred bought; 5.9.9.6: A pays the loan; 5.9.9.7: the president
    # gets nothing more; 5.9.9.12: 8 x par
    assert s.player["P1"].cash - p1 == 5 * bp
    assert a.cash == a_cash - 5 * bp - 30 + b_cash + 8 * 200
    assert b.debt == 0 and not a.receivership and s.money() == money


def test_retired_trains_leave_play_once_their_company_is_out_of_receivership_5_3_6():
    """5.3.6: "A corporation in receivership does not surrender obsolete trains, but may
    still run them until it is no longer in receivership". A Type III takeover (5.9.9)
    of NYC in receivership, with a retired 2S, by PRR, holding a 4S: the 2S goes to no
    company out of receivership, so it leaves play with the merger; PRR keeps its 4S."""
    g, a, b = merger_pair()
    r, s = g.rules, g.rules.state
    r.enter_receivership(b)
    a.trains, b.trains = [train(4)], [train(2, status="retired")]
    assert r.merger_targets(a) == [(b, "III")]
    r.merge(a, b, "III")
    assert [(t.name, t.status) for t in a.trains] == [("4S", "new")] and not a.receivership
    assert {"event": "retire", "corporation": "PRR", "train": "2S"} in s.events


def test_type_iv_bonds_5_9_10_and_bond_revenue_5_10_and_moves():
    g, a, b, c = system_and_a_third()
    r, s = g.rules, g.rules.state
    a.merge_tried = None
    for x in [x for x in c.certs if x.kind == "common"][:2]:
        certs.move(s, c, x, "player:P3")
    assert r.merger_targets(a) == [(c, "IV")]
    money = s.money()
    a_cash = a.cash
    r.merge(a, c, "IV")
    assert s.money() == money
    # 5.9.10.8-10: C's commons are A's bonds: two with P3, the unsold three in the pool
    bonds = a.bonds
    assert sorted(x.holder for x in bonds) == ["market"] * 3 + ["player:P3"] * 2
    assert a.bond_cell == a.cell and units_total(a) == 20
    assert a_cash + 2 * 200 <= a.cash + buyout_cost(r, c) + 10 ** 6   # (bonus 2 x par, 5.9.10.13)
    assert r.train_limit(a) == r.phase_row()["train_limit"] + 2            # 5.9.10.11
    # 5.10.1: 10% of the bond price per bond held, rounded down; the pool's earn nothing
    price = r.market.preferred(a.bond_cell)
    p3 = s.player["P3"].cash
    r.collect_bond_revenue(a)
    assert s.player["P3"].cash - p3 == 2 * (price * 10 // 100)
    # 4.6.1.1: the pool holds 3 bonds; 4.6.3.2.4: a bond sold moves the Bond Marker down one
    cell = a.bond_cell
    assert r.max_sale(a, "P3", "bond") == 2
    r.sell(a, "P3", 0, 0, 1)
    assert a.bond_cell == r.market.walk(cell, "down", 1)[0]
    assert s.player["P3"].cash - p3 == 2 * (price * 10 // 100) + price
    # 5.12.1: every Bond Marker rises one at the end of an Operation Round
    before = a.bond_cell
    r.end_of_operating_round()
    assert a.bond_cell == r.market.walk(before, "up", 1)[0]
    # 6.5: a bond counts at the bond price
    assert r.value("P3") == s.player["P3"].cash + sum(
        r.sale_value(c, x) for x in c.certs if x.holder == "player:P3") + r.market.preferred(
        a.bond_cell)
    # 5.4.14: a system with bonds entering receivership: bonds closed at half value, the
    # company they came from may start again, the train limit drops by one
    p3 = s.player["P3"].cash
    half = r.sale_value(a, next(x for x in a.bonds if x.holder == "player:P3")) // 2
    r.enter_receivership(a)
    assert s.player["P3"].cash - p3 == half and a.bonds == [] and a.bond_cell is None
    assert not c.closed and c.par is None and r.train_limit(a) == r.phase_row()["train_limit"] + 1
    assert s.money() == money


def test_the_dividend_of_a_system_pays_5_percent_commons_half_5_7_2_3():
    g, a, b = merger_pair(200, 80)
    r, s = g.rules, g.rules.state
    common = next(x for x in b.certs if x.kind == "common")
    certs.move(s, b, common, "player:P3")
    r.merge(a, b, "II")
    assert r.is_system(a)
    p3 = s.player["P3"].cash
    r.pay_dividend(a, 100, "split")   # a 5% common: 2.5% of the run, rounded down
    assert s.player["P3"].cash - p3 == 2
    r.pay_dividend(a, 100, "all")     # 5% of the run
    assert s.player["P3"].cash - p3 == 2 + 5


def test_tokens_a_system_cannot_hold_are_liquidated_at_half_5_9_7_8():
    g = new()
    r, s = g.rules, g.rules.state
    a = company(g, "PRR", 100, "P0")
    b = company(g, "NYC", 80, "P0", home=False)
    b.sites.append(Token(a.home, 1, "yard"))
    assert s.phase == "2" and r.phase_row()["tokens_per_city"] == 1   # 5.2.7.6: one per city yet
    a_cash, b_cash, cost = a.cash, b.cash, buyout_cost(r, b)
    r.merge(a, b, "I")
    # both tokens in A's home city are off the map until A's president chooses (5.9.7.8)
    assert a.sites == [] and len(a.liquidating) == 2
    assert sorted(x["hex"] for x in g.to_json()["corporations"][0]["tokens_to_liquidate"]) == [a.home] * 2
    g.act({"type": "liquidate_token", "corporation": "PRR", "hex": a.home, "slot": 1})
    # he liquidates B's Rail Yard, for half a new Rail Yard's $70; the Station stays
    assert [x.type for x in a.sites] == ["station"] and a.liquidating == []
    assert a.cash == a_cash - cost + b_cash + 70 // 2 + 3 * 100


def _bonds_closed_by_the_marker():
    """PRR (one Station and one Rail Yard on its mat, as NYC's) took NYC over (Type II),
    then E for bonds (Type IV); its Bond Marker then falls into STOCK TRADES CLOSED OUT
    (4.3.3)."""
    from test_game_1831_config import shipped

    from trainruns.game.game import Game

    cfg = shipped()
    for x in cfg["companies"]:
        if x["id"] in ("PRR", "NYC"):
            x["stations"], x["yards"] = 1, 1
    g = Game("1831", ["P0", "P1", "P2", "P3"], 7, config=cfg)
    r = g.rules
    a = company(g, "PRR", 200, "P0")
    b = company(g, "NYC", 40, "P1")
    neighbours(g, a, b)
    r.merge(a, b, "II")
    e = company(g, "E", 40, "P2")
    e.sites.append(Token(b.home, 1, "yard"))
    e.floated = e.operated = True   # it has operated (5.0.4)
    a.merge_tried = None
    r.merge(a, e, "IV")
    assert a.bonds and len(a.sites) == 5
    r.move_bond_marker(a, "down", 30, "test")
    return g, a


def test_bonds_closed_by_the_marker_remove_tokens_at_the_next_phase_2_without_compensation_4_3_3():
    """4.3.3: a Bond Marker in STOCK TRADES CLOSED OUT closes the bonds, the system goes
    into receivership, its "token limits drop to their pre-final-merger level. During
    Phase 2 of the next Operation Round the system will correct its map token holdings
    (if it is over allocated) by removing excess tokens of its choice without
    compensation" (not 5.9.7.8's liquidation at half a new token's price)"""
    g, a = _bonds_closed_by_the_marker()
    s = g.rules.state
    assert a.bond_cell is None and a.receivership and a.tokens_due
    # 4.3.3: E, whose commons the bonds were, "may be started again": unstarted, as at setup
    e = next(c for c in g.to_json()["corporations"] if c["id"] == "E")
    assert (e["closed"], e["floated"], e["operated"], e["par"], e["president"]) == (False, False, False, None, None)
    assert len(a.sites) == 5 and a.liquidating == []          # on the map until its Phase 2
    assert not [x for x in g.actions() if x["type"] == "liquidate_token"]
    cash, money = a.cash, s.money()
    current_step(g, TrackStep(g, a, turn_of(a)))              # its next Phase 2 begins
    assert a.supply == {"station": 2, "yard": 2} and len(a.liquidating) == 3
    listed = g.actions()
    assert listed and all(x["type"] == "liquidate_token" for x in listed)
    g.act(listed[0])
    assert a.cash == cash and s.money() == money and not a.liquidating and not a.tokens_due
    assert len(a.sites) == 4
    kinds = [e["event"] for e in s.events if e["event"].startswith("token_")]   # the last action's
    assert kinds and set(kinds) == {"token_removed"}


def test_track_rights_rent_a_token_the_run_must_use_5_5_and_5_6_5():
    g = new()
    r = g.rules
    a = company(g, "NYC", 100, "P0")    # a Station at A9
    b = company(g, "C&O", 100, "P1")    # a Station at B8, next to A9
    for corp, hex_id, tile, rot in ((a, "A9", "502", 4), (b, "B8", "501", 1)):
        m = next(m for m in r.tile_lays(corp, [])
                 if (m["hex"], m["tile"], m["rotation"]) == (hex_id, tile, rot))
        r.lay_tile(corp, m)
    # 5.6.5: every right bought must be run to: a mixed 2-train needs a Rail Yard too, so
    # with only it the Station at B8 is no right worth offering
    a.trains = [train(2, "MX")]
    assert r.right_places(a) == []
    a.trains = [train(2)]
    assert r.run(a, "best")[1] == 0                      # one token of its own: no run yet
    places = r.right_places(a)
    assert [(m["hex"], m["slot"], m["owner"]) for m in places] == [("B8", 0, "C&O")]
    a_cash, b_cash = a.cash, b.cash
    r.buy_right(a, places[0])
    # 5.5.1: the price of a new Station, paid to the owner (5.5.4: who cannot refuse)
    assert a_cash - a.cash == b.cash - b_cash == r.token_price("station") == 40
    # 5.5.2 / 5.6.3: the right counts as A's own Station: two yellow small cities (the
    # config's tiles 501 and 502) + two $10 Stations
    city = [r.config.tiles["tiles"][t]["stops"][0]["value"] for t in ("501", "502")]
    routes, revenue = r.run(a, "best")
    assert revenue == city[0] + 10 + city[1] + 10 and any("B8.0" in x["stops"] for x in routes)
    # 5.4.7: a corporation in receivership pays no Track Right Fees
    a.rights = []
    r.enter_receivership(a)
    assert r.right_places(a) == []


def _split_ready(g, b, commons_to):
    """B's marker two squares left of STOCK SPLIT (the shipped market's row 0, columns
    9-10), so the takeover's move splits it (4.3.4); B's commons with ``commons_to``."""
    r, s = g.rules, g.rules.state
    cell = next((0, j) for j in range(len(r.market.rows[0])) if r.market.rows[0][j]
                and r.market.rows[0][j].get("area") == "split")
    r.market.move(b.id, b.cell, (cell[0], cell[1] - 2))
    b.cell = (cell[0], cell[1] - 2)
    for holder in commons_to:
        certs.move(s, b, next(x for x in b.certs if x.kind == "common" and x.holder == "ipo"),
                   holder)


def _drive(g, step, actions):
    for a in actions:
        step.process(a)
    return step


def test_split_during_a_hostile_takeover_owners_sell_or_trade_5_9_8_4():
    g, a, b = merger_pair()
    r, s = g.rules, g.rules.state
    _split_ready(g, b, ["player:P2", "player:P2", "player:P3"])
    s.pay("bank", "corp:PRR", 5000)   # A passes 5.9.8.3 whatever B's doubled preferred costs
    money = s.money()
    owners = r.merge(a, b, "II")
    # B's marker split into the target; every held certificate has a 2x marker (4.3.4)
    assert b.cell == r.market.target and not b.closed
    assert owners == ["P2", "P3"]                           # in seat order from A's president
    held = [x for x in b.certs if x.kind == "common" and x.holder.startswith("player:")]
    assert held and all(x.splits == 1 for x in held)
    a_cell = a.cell
    step = SplitSaleStep(g, a, b, "II", owners)
    step.enter()
    assert step.actions() == [{"type": "sell_shares", "player": "P2", "corporation": "NYC", "kind": "common",
                               "count": {"min": 1, "max": 2}}, {"type": "pass", "player": "P2"}]
    with pytest.raises(Refusal) as e:
        step.process({"type": "pass", "player": "P3"})
    assert e.value.rule == "merger.split-sale"
    p2 = s.player["P2"].cash
    price = r.market.common(b.cell)
    step.process({"type": "sell_shares", "player": "P2", "corporation": "NYC", "kind": "common", "count": 1})
    # "sell at the current price including any 2x markers"
    assert s.player["P2"].cash - p2 == price * 2
    assert [e["rule"] for e in s.events if e["event"] == "sell"] == ["5.9.8.4"]
    step.process({"type": "pass", "player": "P3"})
    assert step.done and b.closed and s.money() == money
    assert a.cell == a_cell                                 # "Selling does not affect the Stock Marker Token"
    # 5.9.8.6: the sold common is A's 5% common in the pool (no marker); the kept ones traded
    # one for one, their 2x markers transferred
    mergers = {x.holder: x.splits for x in a.certs if x.kind == "merger"
               and x.holder in ("market", "player:P2", "player:P3")}
    assert mergers == {"market": 0, "player:P2": 1, "player:P3": 1}


def test_split_during_a_takeover_for_bonds_owners_sell_or_hold_5_9_10_5():
    g, a, b, c = system_and_a_third()
    r, s = g.rules, g.rules.state
    a.merge_tried = None
    _split_ready(g, c, ["player:P3", "player:P3"])
    s.pay("bank", "corp:PRR", 5000)
    assert r.merger_targets(a) == [(c, "IV")]
    money = s.money()
    owners = r.merge(a, c, "IV")
    assert owners == ["P3"]
    step = SplitSaleStep(g, a, c, "IV", owners)
    step.enter()
    p3 = s.player["P3"].cash
    price = r.market.common(c.cell)
    _drive(g, step, [{"type": "sell_shares", "player": "P3", "corporation": "E", "kind": "common", "count": 1}])
    assert s.player["P3"].cash - p3 == price * 2 and step.done and c.closed and s.money() == money
    assert [e["rule"] for e in s.events if e["event"] in ("takeover_split_sales", "sell")] == ["5.9.10.5"] * 2
    # 5.9.10.8: the commons are A's bonds: the one kept with its 2x marker, the sold one in the pool
    bonds = sorted((x.holder, x.splits) for x in a.bonds)
    assert ("player:P3", 1) in bonds and bonds.count(("market", 0)) == 4


def test_split_sales_and_the_pool_limit_as_the_config_says_5_9_8_4():
    g, a, b = merger_pair(preferred_to=["market"] * 3)
    r = g.rules
    _split_ready(g, b, ["player:P2", "market", "market"])
    assert r.pool_shares(b) == 5
    assert r.split_sale_most(b, "P2") == 1          # default: the pool takes them past its limit
    r.config.raw["takeover_split_sales"] = {"pool_limit": True}
    assert r.split_sale_most(b, "P2") == 0


def test_the_merger_step_waits_for_the_owners_then_finishes_5_9_8_4():
    g, a, b = merger_pair()
    s = g.rules.state
    _split_ready(g, b, ["player:P3"])
    s.pay("bank", "corp:PRR", 5000)
    merger = current_step(g, MergerStep(g, a, turn_of(a)))
    assert {"type": "merge", "corporation": "PRR", "with": "NYC"} in merger.actions()
    merger.process({"type": "merge", "corporation": "PRR", "with": "NYC"})
    # the owners' choice comes first, the takeover waits for it (B still there)
    sale = g.round.queue[0]
    assert isinstance(sale, SplitSaleStep) and not merger.done and not b.closed
    assert sale.active() == {"player": "P3"}
    sale.process({"type": "pass", "player": "P3"})
    assert sale.done and b.closed
    g.round.settle()
    assert merger.done and merger not in g.round.queue

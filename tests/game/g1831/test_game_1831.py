"""1831 as a game on the shipped (invented) config: the rulebook's own worked examples
and rules, each test naming its section (1831 rulebook)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from _1831 import train

from trainruns.errors import InputError
from trainruns.game.errors import Refusal
from trainruns.game.game import Game
from trainruns.titles.g1831.game import certs
from trainruns.titles.g1831.game.config import Config
from trainruns.titles.g1831.game.state import Turn1831
from trainruns.titles.g1831.game.steps.operating import TrainStep
from trainruns.titles.tiled import load_data


def new(n=4, seed=7, **kw):
    return Game("1831", [f"P{i}" for i in range(n)], seed, **kw)


def started(g, cid, par, president="P0"):
    r = g.rules
    c = r.state.corp[cid]
    r.start_corporation(c, president, par)
    return c


def move(g, c, kind, holder, n=1):
    for _ in range(n):
        cert = next(x for x in c.certs if x.holder == "ipo" and (
            x.kind == kind or (kind == "preferred" and x.kind == "preferred")))
        certs.move(g.rules.state, c, cert, holder)


def test_setup_bank_cash_and_limits_3_1_and_3_2_1_1():
    # 3.1: 4 players standard $16,000 including $800 each; 3.2.1.1: 16 companies, limit 20
    s = new(4).to_json()
    assert s["bank"]["cash"] == 16000 - 4 * 800
    assert len(s["corporations"]) == 16 and s["cert_limit"] == 20
    s6 = new(6).to_json()
    assert len(s6["corporations"]) == 22 and s6["cert_limit"] == 16
    ext = new(10, variants=["extended"]).to_json()
    assert ext["bank"]["cash"] == 40000 - 10 * 800 and ext["cert_limit"] == 14
    with pytest.raises(InputError):
        new(2)


def test_first_buy_deck_from_the_seed_3_2_3():
    # 3.2.3: the FIRST STOCK OPTION's drawer goes first; the same seed, the same draw
    firsts = {new(5, seed).to_json()["title_state"]["first_stock_option"] for seed in range(12)}
    assert len(firsts) > 1
    a, b = new(5, 3).to_json(), new(5, 3).to_json()
    assert a["title_state"] == b["title_state"]
    assert a["active"] == {"player": a["title_state"]["first_stock_option"]}
    # 3.2.3.3: 19 cards are left for the stock rounds, and 4.2.1 draws one per stock round
    assert a["title_state"]["cards_left"] == 18 and len(a["title_state"]["cards_drawn"]) == 1


def test_state_says_the_config_is_the_shipped_invented_one():
    s = new().to_json()
    assert s["title_state"]["config"].startswith("shipped") and s["title_state"]["config_invented"]
    assert load_data("trainruns.titles.g1831", "config.json")["notes"].startswith("INVENTED")


def test_dividend_pay_preferred_only_example_5_7_2_2():
    # 5.7.2.2: "The LIRR ran during Phase 6 for $100. The President owns only the 20% (2
    # shares) President's Preferred Stock certificate, and another player owns 10% (1
    # share), the others being in the Stock Bank Pool. The President receives $40 ..., the
    # other player $20 ..., and The Bank receives two-fifths ($40)"
    g = new()
    r, s = g.rules, g.rules.state
    c = started(g, "LIRR", 100)
    assert c.certs[0].size * certs.UNIT == 20
    move(g, c, "preferred", "player:P1")
    move(g, c, "preferred", "market", 2)
    before = {p.name: p.cash for p in s.players}
    bank, corp = s.bank.cash, c.cash
    r.pay_dividend(c, 100, "preferred")
    assert s.player["P0"].cash - before["P0"] == 40
    assert s.player["P1"].cash - before["P1"] == 20
    assert bank - s.bank.cash == 60 and c.cash == corp   # the bank's $40 never left it


def test_dividend_50_25_25_and_pay_all_5_7_2_3_and_5_7_2_4():
    g = new()
    r, s = g.rules, g.rules.state
    c = started(g, "PRR", 100)
    move(g, c, "preferred", "player:P1", 4)
    move(g, c, "common", "player:P2", 3)
    move(g, c, "common", "market", 2)
    cash = {p.name: p.cash for p in s.players}
    corp = c.cash
    # 5.7.2.3: each preferred share 10%, each 10% common 5% (rounded down), the rest held
    r.pay_dividend(c, 130, "split")
    assert s.player["P0"].cash - cash["P0"] == 13
    assert s.player["P1"].cash - cash["P1"] == 4 * 13
    assert s.player["P2"].cash - cash["P2"] == 3 * 6
    assert c.cash - corp == 130 - 5 * 13 - 5 * 6   # the pool's $12 stays with the bank
    cash = {p.name: p.cash for p in s.players}
    # 5.7.2.4: pay all: every share 10%
    r.pay_dividend(c, 130, "all")
    assert s.player["P2"].cash - cash["P2"] == 3 * 13


def test_pay_all_plus_200_needs_twice_the_run_5_7_4():
    g = new()
    r, s = g.rules, g.rules.state
    c = started(g, "PRR", 100)   # $100 in treasury from the president's 10%
    assert "all200" in r.dividend_kinds(c, 50) and "all200" not in r.dividend_kinds(c, 51)
    move(g, c, "preferred", "player:P1", 4)
    move(g, c, "common", "player:P1", 5)
    p1 = s.player["P1"].cash
    r.pay_dividend(c, 50, "all200")
    # the tripled $150 paid as PAY ALL: P1's 9 shares get $15 each; the company paid $100
    assert s.player["P1"].cash - p1 == 9 * 15
    assert c.cash == 100 - 100


def test_marker_moves_after_dividends_5_8_1():
    g = new()
    r = g.rules
    c = started(g, "PRR", 100)
    start = c.cell
    r.pay_dividend(c, 10, "split")
    assert c.cell == start
    r.pay_dividend(c, 10, "all")
    assert c.cell == (start[0], start[1] + 1)
    r.pay_dividend(c, 10, "hold")
    assert c.cell == start
    r.did_not_run(c)
    assert c.cell == (start[0], start[1] - 2)


def test_common_sales_move_on_the_total_4_6_3_2_1():
    # decision: rounded on the total: held, 3 certificates: ceil(4.5) = 5 squares down;
    # paid all + 200%, 3 certificates: floor(1.5) = 1; did not run: 2 per certificate
    for last, squares in (("hold", 5), ("all200", 1), ("did_not_run", 6), ("split", 3), (None, 3)):
        g = new()
        r = g.rules
        c = started(g, "PRR", 200)      # the top row: room to fall
        move(g, c, "common", "player:P1", 3)
        c.last_dividend = last
        row = c.cell[0]
        r.sell(c, "P1", 0, 3)
        assert c.cell == (row + squares, r.market.par_column), last


def test_sale_price_is_the_posted_price_and_preferred_sales_do_not_move_4_6_3():
    g = new()
    r, s = g.rules, g.rules.state
    c = started(g, "PRR", 100)
    move(g, c, "preferred", "player:P1", 2)
    cell = c.cell
    p_price = r.market.preferred(cell)
    cash = s.player["P1"].cash
    r.sell(c, "P1", 2, 0)
    assert s.player["P1"].cash - cash == 2 * p_price and c.cell == cell


def test_pool_holds_at_most_five_shares_4_6_1_1():
    g = new()
    r = g.rules
    c = started(g, "PRR", 100)
    move(g, c, "common", "market", 4)
    move(g, c, "common", "player:P1", 1)
    move(g, c, "preferred", "player:P1", 2)
    assert r.max_sale(c, "P1", "common") == 1
    r.sell(c, "P1", 0, 1)
    assert r.max_sale(c, "P1", "preferred") == 0


def test_president_certificate_never_sold_and_transfer_by_preferred_4_6_2_and_4_7_9():
    g = new()
    r = g.rules
    c = started(g, "LIRR", 60)         # 20% president's certificate
    assert r.max_sale(c, "P0", "preferred") == 0
    move(g, c, "preferred", "player:P1", 2)
    move(g, c, "common", "player:P2", 5)
    r.update_president(c)
    assert c.president == "P0"        # P1's 20% preferred is not more than P0's; P2's commons do not count
    move(g, c, "preferred", "player:P1", 1)
    r.update_president(c)
    assert c.president == "P1"
    pres = next(x for x in c.certs if x.kind == "president")
    assert pres.holder == "player:P1" and certs.units(c, "player:P0", "preferred") == 4


def test_all_preferred_sold_activates_and_moves_the_par_marker_4_7_6():
    g = new()
    r, s = g.rules, g.rules.state
    c = started(g, "PRR", 100)
    for _ in range(3):
        r.buy_cert(c, "P1", "preferred", "ipo")
    assert not c.active
    cash = c.cash
    r.buy_cert(c, "P2", "preferred", "ipo")
    assert c.active and c.cash - cash == 100
    chart = r.config.par_chart
    assert c.par_marker == chart[chart.index(100) + 1]
    p2 = s.player["P2"].cash
    r.buy_cert(c, "P2", "common", "ipo")     # commons at the new par
    assert p2 - s.player["P2"].cash == c.par_marker


def test_third_and_fourth_common_raise_the_marker_4_7_10_and_4_7_11():
    g = new()
    r = g.rules
    c = started(g, "PRR", 100)
    for _ in range(4):
        r.buy_cert(c, "P1", "preferred", "ipo")
    cells = []
    for _ in range(4):
        r.buy_cert(c, "P2", "common", "ipo")
        cells.append(c.cell)
    assert cells[0] == cells[1] and cells[2][0] == cells[1][0] - 1 and cells[3][0] == cells[2][0] - 1


def test_fully_funded_companies_rise_at_the_end_of_the_stock_round_4_8_3():
    g = new()
    r = g.rules
    c = started(g, "PRR", 100)
    d = started(g, "NYC", 100)
    for x in c.certs:
        if x.holder == "ipo":
            certs.move(r.state, c, x, "player:P1")
    cell, other = c.cell, d.cell
    r.end_stock_round(None)
    assert c.cell == (cell[0] - 1, cell[1]) and d.cell == other


def test_split_gives_2x_markers_and_doubles_the_sale_4_3_4():
    g = new()
    r, s = g.rules, g.rules.state
    c = started(g, "PRR", 200)
    move(g, c, "common", "player:P1")
    move(g, c, "common", "market")
    r.move_marker(c, "right", 10, "test")
    assert c.cell == r.market.target
    held = next(x for x in c.certs if x.holder == "player:P1")
    pooled = next(x for x in c.certs if x.holder == "market")
    assert held.splits == 1 and pooled.splits == 0
    assert r.sale_value(c, held) == 2 * r.market.common(c.cell)
    # 6.5: a 2x marker doubles the score's value too
    value = r.value("P1")
    assert value == s.player["P1"].cash + 2 * r.market.common(c.cell)


def test_closed_out_returns_everything_4_3_2():
    g = new()
    r, s = g.rules, g.rules.state
    c = started(g, "PRR", 40)
    move(g, c, "preferred", "player:P1", 2)
    money = s.money()
    r.move_marker(c, "down", 20, "test")
    r.move_marker(c, "left", 20, "test")
    assert c.cell is None and c.president is None and c.cash == 0
    assert all(x.holder == "ipo" for x in c.certs if x.holder not in certs.OUT_OF_PLAY)
    assert s.money() == money


def test_pool_trains_cost_60_percent_rounded_up_5_3_2_1():
    g = new()
    r = g.rules
    for name, size in (("2S", 2), ("5YD", 5), ("3MX", 3)):
        face = r.config.price(size)
        assert r.market_price(name) == -(-face * 6 // 10) and r.market_price(name) * 10 >= face * 6
    # the decision rounds up: a face of $45 would cost $27
    assert -(-45 * 60 // 100) == 27


def test_receivership_scores_half_6_5_and_interest_5_3_9():
    g = new()
    r, s = g.rules, g.rules.state
    c = started(g, "PRR", 100)
    full = r.value("P0")
    r.enter_receivership(c)
    price = r.market.preferred(c.cell)
    assert r.value("P0") == s.player["P0"].cash + price // 2
    assert full >= r.value("P0")
    c.debt = 101
    r.or_counter += 1
    r.interest(c)
    assert c.debt == 101 + 11   # 10% rounded up


def test_forced_purchase_president_then_loan_5_3_4():
    g = new()
    r, s = g.rules, g.rules.state
    c = started(g, "PRR", 40)
    c.active = True
    face = r.config.price(2)
    # a quarter of a 2-train's price in the treasury and with the president
    treasury, own = face // 4, face // 4
    s.bank.cash += c.cash - treasury + s.player["P0"].cash - own
    c.cash, s.player["P0"].cash = treasury, own
    buys = r.train_buys(TrainStep(g, c, Turn1831(c.id)))
    assert buys and all(b["price"] == face for b in buys)
    r.buy_train(c, buys[0]["from"], buys[0]["train"], buys[0]["price"])
    # the president gives all his cash, the bank lends the rest (5.4.1.1)
    assert s.player["P0"].cash == 0 and c.debt == face - treasury - own > 0 and c.receivership
    assert c.trains and c.cash == 0


def test_government_intervention_one_certificate_and_70_percent_4_2_2():
    g = new()
    r = g.rules
    r.state.title_state.government_intervention = True
    r.last_set_size = 4
    assert r.block_size() == 1
    c = started(g, "PRR", 40)
    for _ in range(4):
        r.buy_cert(c, "P0", "preferred", "ipo")
    for _ in range(2):
        r.buy_cert(c, "P0", "common", "ipo")
    assert r.gi_room(c, "P0") == 0     # 70% of preferred and common together (decision)
    r.state.title_state.government_intervention = False
    assert r.block_size() == 4         # 4.7.3.2: after a set of four ORs


def test_phases_by_first_train_and_retirement_5_3_5():
    g = new()
    r, s = g.rules, g.rules.state
    c = started(g, "PRR", 100)
    c.active = True
    c.trains = [train(2)]
    r.new_phase("5", c)
    assert s.phase == "5" and c.trains == [] and r.train_limit(c) == 3
    assert r.token_price("station") == 70 and r.token_price("yard") == 110


def test_operating_order_by_common_price_5_0_4():
    g = new()
    r = g.rules
    a = started(g, "PRR", 100)
    b = started(g, "NYC", 100)
    assert r.market.order_key("PRR", a.cell) < r.market.order_key("NYC", b.cell)   # top of the stack first
    r.move_marker(b, "right", 1, "test")
    assert r.market.order_key("NYC", b.cell) < r.market.order_key("PRR", a.cell)


def test_listed_stock_actions_are_accepted_and_refusals_have_rule_ids():
    g = new()
    first = g.active()["player"]
    listed = g.actions()
    assert {a["type"] for a in listed} == {"par", "pass"}
    with pytest.raises(Refusal) as e:
        g.act({"type": "buy_shares", "player": first, "corporation": "PRR", "from": "ipo", "kind": "preferred"})
    assert e.value.rule == "stock.not-started"
    par = next(a for a in listed if a["type"] == "par" and a["price"] == 100)
    g.act(par)
    assert g.to_json()["corporations"][0]["president"] == first


def test_config_errors_are_one_line_exit_2(tmp_path):
    cfg = json.loads(json.dumps(load_data("trainruns.titles.g1831", "config.json")))
    cfg["map"] = cfg["tiles"] = "does-not-exist.json"
    with pytest.raises(InputError) as e:
        Config(cfg)
    assert "does-not-exist.json" in str(e.value)
    bad = dict(load_data("trainruns.titles.g1831", "config.json"))
    del bad["par_chart"]
    with pytest.raises(InputError) as e:
        Config(bad)
    assert "par_chart" in str(e.value)
    bad = json.loads(json.dumps(load_data("trainruns.titles.g1831", "config.json")))
    bad["market"]["rows"][3][2]["c"] = "cheap"
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(bad))
    out = subprocess.run([sys.executable, "-m", "trainruns.cli.main", "play", "new", "1831", "--players", "A,B,C",
                          "--config", str(p)], capture_output=True, text=True)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and "market.rows[3][2].c" in out.stderr


def test_opening_fixture_replays_through_the_cli_4_7_5_and_4_7_6_and_5_2_5():
    # fixtures/games/1831-opening.log (a log, unfinished: not a .game): LIRR at par $100 (its 20% president's preferred
    # pays 2 x 100, 4.7.5.2), three 10% preferred at par, all preferred sold: active and
    # the Par Marker up one value (4.7.6); a common at the new par; at the first operation
    # the home city is untiled, so the first play is its tile and the home token waits (5.2.5)
    from pathlib import Path

    log = Path(__file__).parents[3] / "fixtures" / "games" / "1831-opening.log"
    out = subprocess.run([sys.executable, "-m", "trainruns.cli.main", "replay", str(log)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    lirr = next(c for c in s["corporations"] if c["id"] == "LIRR")
    chart = load_data("trainruns.titles.g1831", "config.json")["par_chart"]
    new_par = sorted(chart)[sorted(chart).index(100) + 1]
    assert lirr["active"] and lirr["par"] == 100 and lirr["par_marker"] == new_par
    assert lirr["cash"] == 2 * 100 + 3 * 100 + new_par
    assert s["round"]["kind"] == "operating" and s["active"]["corporation"] == "LIRR"
    assert lirr["tokens"] == []


# --- part B -------------------------------------------------------------------


def test_gi_drawer_may_swap_seats_and_the_first_player_stays_first_3_2_3_2():
    seed = next(k for k in range(200) if new(5, k).to_json()["title_state"]["setup_gi_drawer"])
    g = new(5, seed)
    s = g.to_json()
    drawer, first = s["title_state"]["setup_gi_drawer"], s["title_state"]["first_stock_option"]
    assert g.active() == {"player": drawer}
    listed = g.actions()
    assert {a["with"] for a in listed if a["type"] == "swap_seats"} == {f"P{i}" for i in range(5)} - {drawer}
    other = next(p for p in (f"P{i}" for i in range(5)) if p not in (drawer, first))
    seats = [p["name"] for p in s["players"]]
    g.act({"type": "swap_seats", "player": drawer, "with": other})
    after = g.to_json()
    i, j = seats.index(drawer), seats.index(other)
    seats[i], seats[j] = seats[j], seats[i]
    assert [p["name"] for p in after["players"]] == seats == after["title_state"]["seats"]
    assert g.active() == {"player": first} and after["title_state"]["first_stock_option"] == first
    # and the replayed log seats them the same
    assert Game.replay(g.log()).to_json()["title_state"]["seats"] == seats


def test_president_may_sell_part_of_his_certificate_to_hand_it_over_4_6_2_1():
    g = new()
    r, s = g.rules, g.rules.state
    c = started(g, "LIRR", 100)        # a 20% president's certificate, nothing else
    move(g, c, "preferred", "player:P1", 1)
    assert r.max_sale(c, "P0", "preferred") == 0   # P1's 10% is less than the certificate's 20%
    move(g, c, "preferred", "player:P1", 1)
    assert r.max_sale(c, "P0", "preferred") == 2
    cash, price = s.player["P0"].cash, r.market.preferred(c.cell)
    r.sell(c, "P0", 1, 0)
    # 4.6.2.2: the certificate goes to P1 for his two 10%, then P0 sells one of them
    assert c.president == "P1"
    assert certs.units(c, "player:P0", "preferred") == 2 and certs.units(c, "player:P1", "preferred") == 4
    assert s.player["P0"].cash - cash == price and len(certs.held(c, "market", "preferred")) == 1


def test_company_buys_back_commons_sold_to_the_pool_within_25_percent_4_6_4_and_4_6_5():
    g = new()
    r, s = g.rules, g.rules.state
    c = started(g, "PRR", 100)
    s.pay("bank", "corp:PRR", 400)
    move(g, c, "preferred", "player:P1", 4)
    move(g, c, "common", "player:P2", 4)
    r.sell(c, "P2", 0, 3)
    assert r.buy_back_offer(c, "common", 3) == 2          # 25%: two 10% commons (4.6.5)
    cash, bank = c.cash, s.bank.cash
    price = r.market.common(c.cell)
    r.buy_back(c, "common", 2)
    assert c.cash == cash - 2 * price and s.bank.cash == bank + 2 * price
    assert c.shares["treasury"] == 4 and r.buy_back_offer(c, "common", 1) == 0
    # 4.6.5: dividends on its own commons stay in its treasury
    p1, cash = s.player["P1"].cash, c.cash
    r.pay_dividend(c, 100, "all")
    assert c.cash - cash == 2 * 10 + 10 and s.player["P1"].cash - p1 == 40   # its own two, and one unsold


def test_buy_back_is_offered_in_the_stock_round_after_a_common_sale_4_6_4():
    g = new()
    first = g.active()["player"]
    g.act({"type": "par", "player": first, "corporation": "PRR", "price": 100})
    s = g.rules.state
    c = s.corp["PRR"]
    other = next(p.name for p in s.players if p.name != first)
    move(g, c, "preferred", "market", 4)
    move(g, c, "common", f"player:{other}", 1)
    s.pay("bank", "corp:PRR", 300)
    while g.active() != {"player": other}:
        g.act({"type": "pass", "player": g.active()["player"]})
    g.act({"type": "sell_shares", "player": other, "corporation": "PRR", "kind": "common", "count": 1})
    assert g.active() == {"player": first, "corporation": "PRR"}
    assert {"type": "company_buy", "player": first, "corporation": "PRR", "kind": "common", "count": 1} in g.actions()
    g.act({"type": "company_buy", "player": first, "corporation": "PRR", "kind": "common", "count": 1})
    assert c.shares["treasury"] == 2 and g.active() == {"player": other}


def test_over_70_percent_under_gi_must_sell_first_4_2_2():
    g = new()
    first = g.active()["player"]
    r, s = g.rules, g.rules.state
    c = started(g, "PRR", 100, president=first)
    move(g, c, "preferred", f"player:{first}", 4)
    move(g, c, "common", f"player:{first}", 3)     # 80% of PRR
    s.title_state.government_intervention = True
    listed = g.actions()
    assert listed and all(a["type"] == "sell_shares" and a["corporation"] == "PRR" and a["count"] == 1
                          for a in listed)
    with pytest.raises(Refusal) as e:
        g.act({"type": "pass", "player": first})
    assert e.value.rule == "stock.gi-correct"
    g.act({"type": "sell_shares", "player": first, "corporation": "PRR", "kind": "common", "count": 1})
    assert certs.units(c, f"player:{first}") == 14 and r.gi_excess(c, first) == 0
    # EXCEPTION: the pool's 5 shares come first: he keeps what he cannot sell
    g2 = new()
    first = g2.active()["player"]
    c = started(g2, "PRR", 100, president=first)
    move(g2, c, "preferred", f"player:{first}", 4)
    move(g2, c, "common", f"player:{first}", 3)
    move(g2, c, "common", "market", 2)
    move(g2, c, "preferred", "market", 0)
    for x in [x for x in c.certs if x.holder == f"player:{first}" and x.kind == "preferred"][:3]:
        certs.move(g2.rules.state, c, x, "market")
    g2.rules.state.title_state.government_intervention = True
    assert g2.rules.gi_excess(c, first) == 0   # 50% now: nothing owed
    assert any(a["type"] == "pass" for a in g2.actions())


def test_the_run_does_not_depend_on_the_clock_5_6_6(monkeypatch):
    # a live game's "best" run is searched by a node budget: the same routes when the
    # clock races (a loaded machine), so a game replays to the same state anywhere
    import time

    from trainruns.game import route_adapter
    from trainruns.titles.g1831.game import operating as game_operating

    log = json.loads((__import__("pathlib").Path(__file__).parents[3] / "fixtures" / "games"
                      / "1831-opening.log").read_text())
    g = Game.replay(log)
    pos = g.position()
    pos["trains"] = [{"name": "2S", "status": "restored"}, {"name": "3MX", "status": "restored"}]
    route_adapter.clear()
    calm = game_operating.best_run(pos)
    route_adapter.clear()
    real = time.perf_counter
    ticks = [0.0]

    def racing():
        ticks[0] += 5.0
        return real() + ticks[0]

    monkeypatch.setattr(time, "perf_counter", racing)
    raced = game_operating.best_run(pos)
    monkeypatch.setattr(time, "perf_counter", real)
    route_adapter.clear()
    assert raced == calm


def test_a_position_of_an_unknown_corporation_is_bad_input_not_another_corporations():
    # "Never a silent wrong answer": `play position --corporation X` used to fall back to
    # the operating (or first) corporation when X was unknown
    g = new()
    first = g.rules.state.corporations[0].id
    assert g.rules.position(first)["corporation"] == first
    with pytest.raises(InputError, match="unknown corporation 'NOPE'"):
        g.rules.position("NOPE")


def test_company_facts_and_title_state_are_typed():
    """1831's company facts are fields of Corporation1831 and its title state a
    TitleState1831 (game_state.py), not dicts, and no two companies share a list or
    dict through a game."""
    from trainruns.game.selfplay import play
    from trainruns.titles.g1831.game.state import Corporation1831, TitleState1831

    game, problems, _ = play("1831", ["A", "B", "C"], 4)
    assert not problems
    s = game.rules.state
    assert isinstance(s.title_state, TitleState1831)
    corps = s.corporations
    assert all(isinstance(c, Corporation1831) and not hasattr(c, "extra") for c in corps)
    for name in ("certs", "sites", "supply", "supply_before", "absorbed", "bonds", "rights"):
        assert len({id(getattr(c, name)) for c in corps}) == len(corps), name

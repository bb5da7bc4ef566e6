"""1831's end of the game and the score (6.0; 1831 rulebook), on the shipped
(invented) config: the score checked against a hand computation, and the bank's run-out
ending the game at the end of that operating round (6.1)."""

from __future__ import annotations

from _1831 import new

from trainruns.titles.g1831.game import certs
from trainruns.titles.g1831.game.certs import Cert


def give(g, c, kind, holder, splits=0):
    cert = next(x for x in c.certs if x.holder == "ipo" and x.kind == kind)
    certs.move(g.rules.state, c, cert, holder)
    cert.splits = splits


def put(r, c, cell):
    r.market.move(c.id, c.cell, cell)
    c.cell = cell


def test_score_by_hand_6_5_receivership_half_rounded_down_bonds_and_2x_markers():
    g = new()
    r, s = g.rules, g.rules.state
    # the invented market's squares used here (config.json "market"): C/P prices
    assert (r.market.common((8, 1)), r.market.preferred((8, 1))) == (35, 45)
    assert (r.market.common((10, 5)), r.market.preferred((10, 5))) == (55, 70)
    assert r.market.preferred((9, 3)) == 60

    prr = s.corp["PRR"]
    r.start_corporation(prr, "P0", 100)            # P0 pays 100 for the president's 10% preferred
    give(g, prr, "preferred", "player:P0")
    give(g, prr, "preferred", "player:P0")
    give(g, prr, "common", "player:P0", splits=1)   # one 2x marker (4.3.4)
    r.enter_receivership(prr)
    put(r, prr, (8, 1))
    prr.cash = 0
    s.bank.cash -= 500
    prr.cash += 500                            # 6.5: a company's own cash is not a player's

    bo = s.corp["B&O"]
    r.start_corporation(bo, "P1", 70)              # P1 pays 70; the marker is on (10, 5)
    assert bo.cell == (10, 5)
    give(g, bo, "common", "player:P0")
    bo.bond_cell = (9, 3)
    bo.bonds.append(Cert("bond", 1, "player:P0", origin="X"))

    # by hand, 6.5: cash + stock at the posted price (P for preferred, C for common)
    # x shares x 2^markers; PRR is in receivership: its stock at half, rounded down;
    # bonds at the Bond Marker's P
    prr_stock = 45 + 45 + 45 + 35 * 2           # president + 2 preferred + a common with a 2x
    assert prr_stock == 205
    p0 = (800 - 100) + 205 // 2 + 55 + 60        # 102: half of 205 rounded down
    p1 = (800 - 70) + 70
    assert r.value("P0") == p0 == 917
    assert r.value("P1") == p1 == 800
    assert r.value("P2") == 800

    # out of receivership the same stock counts in full
    prr.receivership = False
    assert r.value("P0") == p0 - 102 + 205

    prr.receivership = True
    g.finish("bank")
    out = g.to_json()
    assert out["result"] == {"P0": 917, "P1": 800, "P2": 800, "P3": 800}
    assert {p["name"]: p["value"] for p in out["players"]} == out["result"]


def pass_stock_round(g):
    number = g.rules.stock_round_number
    while not g.finished and g.round.kind == "stock" and g.rules.stock_round_number == number:
        g.act(next(a for a in g.actions() if a["type"] == "pass"))


def broke(g, keep=None):
    s = g.rules.state
    for p in s.players:
        if p.name != keep:
            s.pay(f"player:{p.name}", "bank", p.cash)


def test_stalled_only_when_nobody_can_buy_or_sell_with_no_company_active():
    # the rules have no end but 6.1's: `stalled` is a guard for a state that can never
    # change (no company active, so no operating round; no player able to buy or sell)
    g = new()
    broke(g)
    # the turn now began with a choice and is passed by its player; every later turn has
    # none and passes by rule (docs/game-log.md: only decisions are logged). The first
    # stock round never ends the game: the second, where nobody could act, does
    g.act(next(a for a in g.actions() if a["type"] == "pass"))
    assert g.finished and g.to_json()["end_reason"] == "stalled" and g.rules.stock_round_number == 2
    assert len(g.log()["actions"]) == 1
    passed = {e["player"] for e in g.to_json()["events"] if e.get("reason") == "no legal action"}
    assert passed == {p.name for p in g.rules.state.players}   # each of them, in round 2 at least
    assert g.to_json()["result"] == {p.name: 0 for p in g.rules.state.players}


def test_a_stock_round_everybody_passed_is_not_the_end_while_someone_could_buy():
    g = new()
    broke(g, keep="P2")                     # P2 keeps $800: enough to start a company (4.7.5)
    pass_stock_round(g)
    pass_stock_round(g)
    assert not g.finished and g.round.kind == "stock" and g.rules.stock_round_number == 3
    while g.active() != {"player": "P2"}:
        g.act(next(a for a in g.actions() if a["type"] == "pass"))
    assert any(a["type"] == "par" for a in g.actions())


def test_a_run_cut_by_the_node_budget_says_it_is_not_proven_with_its_bound_5_6_6(monkeypatch):
    # 5.6.6: a run need not be the best, so the game's search is bounded by a node
    # count (no clock: replays are the same anywhere); the run then says whether it is
    # proven best and, when not, an upper bound on the best (the log records both)
    import json
    from pathlib import Path

    from trainruns.game import route_adapter
    from trainruns.titles.g1831.game import operating as game_operating

    pos = json.loads((Path(__file__).parents[3] / "fixtures" / "1831" / "example.json").read_text())
    route_adapter.clear()
    best, _, proof = game_operating.best_run(pos)
    assert best > 0 and proof == {"proven": True, "bound": best}
    monkeypatch.setattr(game_operating, "RUN_NODES", 1)
    route_adapter.clear()
    cut, _, short = game_operating.best_run(pos)
    route_adapter.clear()
    assert cut < best <= short["bound"] and short["proven"] is False


def test_receivership_lays_no_track_on_debt_once_the_bank_has_run_out_6_3():
    g = new()
    r, s = g.rules, g.rules.state
    c = s.corp["NYC"]
    r.start_corporation(c, "P0", 100)
    c.active = True
    r.home_token(c)
    r.enter_receivership(c)
    lays = r.tile_lays(c, [])
    assert lays and all(m["cost"] > 0 for m in lays)   # 5.4.10: on debt, yellow only
    s.bank.broken = True
    assert r.tile_lays(c, []) == []
    assert r.token_places(c) == []                # 5.4.10: no tokens chosen in receivership


def test_the_bank_running_out_in_a_stock_round_has_no_effect_6_1():
    g = new()
    s = g.rules.state
    s.bank.broken = True                    # as if a sale to the pool had run it out
    pass_stock_round(g)
    assert not g.finished and not s.bank.broken

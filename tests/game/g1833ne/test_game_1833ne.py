"""1833NE as a game, rule by rule: each test names the heading of the rules summary
(1833NE rules summary) it checks, or the [E] default it follows
(docs/gaps.md "## 1833NE game"). Numbers are worked by hand from the summary."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from _trains import owned

from trainruns.errors import InputError
from trainruns.game.errors import Refusal
from trainruns.game.game import Game
from trainruns.game.state import corp_key, player_key
from trainruns.game.train import names
from trainruns.titles.g1833ne.game.money import price_steps, split_half
from trainruns.game.state import LaidTile


def new(n=4, config=None):
    return Game("1833NE", ["A", "B", "C", "D", "E"][:n], 1, [], config)


def sell_privates(g):
    """Each player in turn buys the cheapest private (the [E] waterfall sale)."""
    while g.round.kind == "private_auction":
        g.act(next(x for x in g.actions() if x["type"] == "buy_private"))


def who(g):
    return g.active()["player"]


def to_operating(g):
    """Everyone passes until the first operating round with a corporation's turn."""
    while g.round.kind != "operating":
        g.act({"type": "pass", "player": who(g)})


def corp(g, cid):
    return next(c for c in g.to_json()["corporations"] if c["id"] == cid)


def player(g, name):
    return next(p for p in g.to_json()["players"] if p["name"] == name)


# --- Starting cash by player count; Floating percentage and per-player share limits ------

@pytest.mark.parametrize("n,cash,limit", [(3, 600, 24), (4, 450, 18), (5, 400, 14)])
def test_setup_cash_bank_and_certificate_limit(n, cash, limit):
    """"Starting cash by player count" and "Certificate limit in the Standard game";
    the bank starts with $10,000 and pays the starting cash ([E])."""
    s = new(n).to_json()
    assert [p["cash"] for p in s["players"]] == [cash] * n
    assert s["bank"]["cash"] == 10000 - n * cash
    assert s["cert_limit"] == limit


@pytest.mark.parametrize("n", [2, 6])
def test_player_count_outside_3_to_5_is_bad_input(n):
    with pytest.raises(InputError, match="3 to 5 players"):
        Game("1833NE", [f"P{i}" for i in range(n)])


def test_takeover_variant_refused_with_one_line():
    """The Takeover game's corporations are in no source: exit 2, one line."""
    r = subprocess.run([sys.executable, "-m", "trainruns", "play", "new", "1833NE", "--players", "A,B,C",
                        "--variant", "takeover"], capture_output=True, text=True)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "Takeover" in r.stderr
    assert "Traceback" not in r.stderr


def test_shipped_config_is_marked_invented_and_a_given_config_is_used():
    """Ferries and bonuses come from the config; the shipped one says it is invented."""
    assert new().to_json()["title_state"]["config_invented"] is True
    cfg = {"ferries": [{"id": "X", "hex": "G22", "value": 30}], "bonuses": []}
    s = new(config=cfg).to_json()
    assert s["title_state"]["config_invented"] is False
    assert [f["id"] for f in s["title_state"]["ferries"]] == ["X"]


def test_certificate_limit_drops_when_a_corporation_closes():
    """"it drops when one closes" (9 -> 8 corporations: 4 players 18 -> 16)."""
    g = new()
    sell_privates(g)
    g.act({"type": "par", "player": who(g), "corporation": "CV", "price": 40})
    g.rules.close_corporation(g.state.corp["CV"])
    assert g.to_json()["cert_limit"] == 16


# --- the initial sale of privates ([E] waterfall) -----------------------------------------

def test_private_sale_single_bid_goes_to_the_bidder():
    """[E] waterfall: when the cheapest is bought, the next goes to its only bidder."""
    g = new()
    g.act({"type": "bid", "player": "A", "private": "P2", "price": 45})
    assert player(g, "A")["committed"] == 45
    g.act({"type": "buy_private", "player": "B", "private": "P1"})
    s = g.to_json()
    owners = {p["id"]: p["owner"] for p in s["privates"]}
    assert owners["P1"] == "B" and owners["P2"] == "A"
    assert player(g, "A")["cash"] == 450 - 45 and player(g, "A")["committed"] == 0
    assert who(g) == "C"   # play resumes after the buyer


def test_private_sale_two_bids_make_an_auction():
    g = new()
    g.act({"type": "bid", "player": "A", "private": "P2", "price": 45})
    g.act({"type": "bid", "player": "B", "private": "P2", "price": 50})
    g.act({"type": "buy_private", "player": "C", "private": "P1"})
    assert who(g) == "A"                  # the bidder left of the high bidder
    with pytest.raises(Refusal):
        g.act({"type": "bid", "player": "A", "private": "P2", "price": 52})   # below 50 + 5
    g.act({"type": "bid", "player": "A", "private": "P2", "price": 55})
    g.act({"type": "pass", "player": "B"})
    s = g.to_json()
    assert {p["id"]: p["owner"] for p in s["privates"]}["P2"] == "A"
    assert player(g, "A")["cash"] == 450 - 55 and player(g, "B")["cash"] == 450


# --- Capitalization type: incremental capitalisation ---------------------------------------

def test_launch_pays_twice_the_price_into_the_treasury():
    """"the president pays twice its initial stock price into the treasury for the 20%
    certificate, and the other eight 10% shares stay in the treasury"."""
    g = new()
    sell_privates(g)
    p = who(g)
    before = player(g, p)["cash"]
    g.act({"type": "par", "player": p, "corporation": "B&W", "price": 90})
    c = corp(g, "BW")
    assert c["cash"] == 180 and player(g, p)["cash"] == before - 180
    assert c["shares"]["treasury"] == 8 and c["shares"]["players"] == {p: 2}
    assert c["tokens"] == [{"hex": "G22", "stop": 0}]


def test_initial_price_between_40_and_150():
    g = new()
    sell_privates(g)
    prices = sorted({x["price"] for x in g.actions() if x["type"] == "par"})
    assert prices == [40, 50, 60, 70, 80, 90, 100, 112, 124, 137, 150][:len(prices)]
    with pytest.raises(Refusal):
        g.act({"type": "par", "player": who(g), "corporation": "CV", "price": 165})


def test_shares_from_the_treasury_pay_the_corporation_at_the_current_price():
    g = new()
    sell_privates(g)
    a = who(g)
    g.act({"type": "par", "player": a, "corporation": "CV", "price": 60})
    b = who(g)
    g.act({"type": "buy_shares", "player": b, "corporation": "CV", "from": "treasury"})
    assert corp(g, "CV")["cash"] == 120 + 60


def test_no_player_owns_more_than_60_percent():
    """"No player may buy or own more than 60% of a corporation, with no exceptions"."""
    g = new(3)
    sell_privates(g)
    a = who(g)
    g.act({"type": "par", "player": a, "corporation": "CV", "price": 40})
    for _ in range(4):
        while who(g) != a:
            g.act({"type": "pass", "player": who(g)})
        g.act({"type": "buy_shares", "player": a, "corporation": "CV", "from": "treasury"})
    assert corp(g, "CV")["shares"]["players"][a] == 6
    while who(g) != a:
        g.act({"type": "pass", "player": who(g)})
    with pytest.raises(Refusal) as e:
        g.act({"type": "buy_shares", "player": a, "corporation": "CV", "from": "treasury"})
    assert e.value.rule == "stock.60-percent"


def test_only_the_president_sells_before_the_first_run_and_only_his_sales_move_the_price():
    """"Until a corporation has operated for the first time, only its president may
    sell"; "Only sales by the president lower the price (by a single column, however
    many shares are sold)"."""
    g = new(3)
    sell_privates(g)
    a = who(g)
    g.act({"type": "par", "player": a, "corporation": "CV", "price": 100})
    b = who(g)
    g.act({"type": "buy_shares", "player": b, "corporation": "CV", "from": "treasury"})
    c = who(g)
    g.act({"type": "buy_shares", "player": c, "corporation": "CV", "from": "treasury"})
    assert who(g) == a
    g.act({"type": "buy_shares", "player": a, "corporation": "CV", "from": "treasury"})
    assert who(g) == b
    assert not any(x["type"] == "sell_shares" for x in g.actions())   # not operated, not president
    with pytest.raises(Refusal):
        g.act({"type": "sell_shares", "player": b, "corporation": "CV", "count": 1})
    g.act({"type": "pass", "player": b})
    g.act({"type": "pass", "player": c})
    cash = player(g, a)["cash"]
    g.act({"type": "sell_shares", "player": a, "corporation": "CV", "count": 1})
    assert player(g, a)["cash"] == cash + 100            # the price before the move
    assert corp(g, "CV")["price"] == 90                 # one column left
    g.state.corp["CV"].operated = True
    g.act({"type": "pass", "player": a})
    g.act({"type": "sell_shares", "player": b, "corporation": "CV", "count": 1})
    assert corp(g, "CV")["price"] == 90                 # a non-president's sale: no move


def test_end_of_stock_round_moves():
    """End of a stock round: shares in the Stock Market -> one left; 100% held by
    players -> one right ("Comparison with 1830" item 4; one column, [E])."""
    g = new(3)
    sell_privates(g)
    g.act({"type": "par", "player": who(g), "corporation": "CV", "price": 100})
    g.act({"type": "par", "player": who(g), "corporation": "RR", "price": 100})
    cv, rr = g.state.corp["CV"], g.state.corp["RR"]
    g.state.move_shares(cv, "treasury", "market", 1)
    # RR 100% held by players: give its treasury shares to its president
    g.state.move_shares(rr, "treasury", player_key(rr.president), 4)
    g.state.move_shares(rr, "treasury", player_key("A" if rr.president != "A" else "B"), 4)
    to_operating(g)
    assert corp(g, "CV")["price"] == 90 and corp(g, "RR")["price"] == 112


def test_a_corporation_closes_at_zero():
    """"A corporation closes if its stock price falls to $0"."""
    g = new(3)
    sell_privates(g)
    g.act({"type": "par", "player": who(g), "corporation": "CV", "price": 40})
    c = g.state.corp["CV"]
    for _ in range(4):
        g.rules.move_price(c, -1, "test")
    s = corp(g, "CV")
    assert s["closed"] and s["shares"]["total"] == 0 and s["tokens"] == [] and s["cash"] == 0


# --- Number of phases: operating rounds ----------------------------------------------------

def test_very_first_operating_round_in_reverse_price_order():
    g = new(3)
    sell_privates(g)
    g.act({"type": "par", "player": who(g), "corporation": "CV", "price": 100})
    g.act({"type": "par", "player": who(g), "corporation": "RR", "price": 60})
    g.act({"type": "par", "player": who(g), "corporation": "HR", "price": 80})
    to_operating(g)
    ev = next(e for e in g.to_json()["events"] if e["event"] == "operating_round")
    assert ev["order"] == ["RR", "HR", "CV"]
    assert g.to_json()["active"]["corporation"] == "RR"


# --- Game-specific mechanics: tile costs --------------------------------------------------

def test_tile_cost_at_least_20_terrain_and_crossings():
    """"every tile lay or upgrade costs at least $20, plus the cost of any bridge, tunnel
    or pass it completes" ([E]: a larger terrain cost replaces the $20)."""
    g = new()
    r, c = g.rules, g.state.corporations[0]
    assert r.lay_cost(c, {"hex": "E20", "tile": "57", "rotation": 0, "upgrade": False}) == 20     # clear
    assert r.lay_cost(c, {"hex": "D7", "tile": "8", "rotation": 0, "upgrade": False}) >= 80      # mountain $80
    assert r.lay_cost(c, {"hex": "D7", "tile": "8", "rotation": 0, "upgrade": True}) == 20 + sum(
        c for _k, c in r._new_borders({"hex": "D7", "tile": "8", "rotation": 0}))
    # the E24/F23 pass ($20): some rotation of a straight on E24 reaches it
    costs = {r.lay_cost(c, {"hex": "E24", "tile": "9", "rotation": k, "upgrade": False}) for k in range(6)}
    assert {20, 40} <= costs


# --- List of corporations: stations -------------------------------------------------------

def test_worcester_reserved_for_bw_and_costs_it_40():
    """B&W: "has a reserved spot in Worcester until phase IV, and its token there always
    costs $40"; every other second station costs $80."""
    g = new()
    sell_privates(g)
    g.act({"type": "par", "player": who(g), "corporation": "BW", "price": 100})
    g.act({"type": "par", "player": who(g), "corporation": "FRR", "price": 100})
    r, s = g.rules, g.state
    assert r.token_cost(s.corp["BW"], "E22") == 40
    assert r.token_cost(s.corp["FRR"], "E22") == 80
    assert r.token_cost(s.corp["BW"], "B3") == 80


def test_worcester_keeps_one_spot_for_the_bw_until_phase_four():
    """"List of corporations": the B&W "has a reserved spot in Worcester until phase IV",
    read as the other corporations' tokens leaving one spot in Worcester free for it,
    until it has its token there (docs/gaps.md "Reservations"; the route core's
    reservation_filled, also Boston's for the B&P). The FRR reaches Worcester (E22) by
    F21: not yellow Worcester's one spot; one of green Worcester's two, with or without
    the B&W's token there; from phase IV the yellow spot too."""
    g = new()
    sell_privates(g)
    g.act({"type": "par", "player": who(g), "corporation": "FRR", "price": 100})
    g.act({"type": "par", "player": who(g), "corporation": "BW", "price": 100})
    r, s = g.rules, g.state
    frr, bw = s.corp["FRR"], s.corp["BW"]

    def places():
        return [(m["hex"], m["stop"]) for m in r.token_places(frr)]

    s.tiles[:] = [LaidTile("F21", "3", 1), LaidTile("E22", "5", 3)]
    assert places() == []                       # yellow: its one spot is the B&W's
    s.phase = "II"
    s.tiles[1] = LaidTile("E22", "14", 0)
    assert places() == [("E22", 0)]             # green: one of two, the other left for the B&W
    bw.tokens.append(("E22", 0))
    assert places() == [("E22", 0)]             # the B&W's token there: its reservation used
    bw.tokens.pop()
    s.phase = "IV"
    s.tiles[1] = LaidTile("E22", "5", 3)
    assert places() == [("E22", 0)]             # "until phase IV"


# --- Comparison with 1830 item 4: the dividend threshold table ------------------------------

@pytest.mark.parametrize("per,price,steps", [
    (4, 10, -1), (49, 100, -1), (50, 100, 0), (99, 100, 0), (100, 100, 1), (199, 100, 1),
    (200, 100, 2), (300, 100, 2),          # triple, but the price is below $165
    (495, 165, 3), (494, 165, 2), (0, 40, -1)])
def test_dividend_threshold_table(per, price, steps):
    """"if a corporation pays out less than half its stock price, it moves left; between
    half and the stock price, it stays put; at least the stock price, it moves one column
    right, two if the payout reaches double, and up to three if it reaches triple and the
    price is already $165 or more"."""
    assert price_steps(per, price) == steps


def test_half_pay_keeps_half_rounded_down_to_ten():
    """[E] 1846: the corporation keeps floor(R/20)*10."""
    assert split_half(130) == (60, 70)
    assert split_half(100) == (50, 50)


def _operating_cv(n=3, price=100):
    g = new(n)
    sell_privates(g)
    g.act({"type": "par", "player": who(g), "corporation": "CV", "price": price})
    to_operating(g)
    return g


def test_payout_pays_treasury_shares_to_the_corporation():
    """"shares still in its treasury collect dividends"; market shares: the bank ([?])."""
    g = _operating_cv()
    c = g.state.corp["CV"]
    g.state.move_shares(c, "treasury", "market", 1)
    pres = c.president
    cash_p, cash_c = g.state.player[pres].cash, c.cash
    g.rules.pay_dividend(c, 100, "payout")
    assert g.state.player[pres].cash == cash_p + 20
    assert c.cash == cash_c + 70                       # 7 treasury shares x $10
    assert g.rules.price(c) == 90                      # $10 a share < half of $100


def test_issue_and_redeem_prices_and_limit():
    """Item 3: issue "up to the number held by players minus those already in the
    market" for one value below the price; redeem at one value above."""
    g = _operating_cv()
    c = g.state.corp["CV"]
    r = g.rules
    assert r.issuable(c) == 2                          # players hold 2, market 0
    listed = [x for x in g.actions() if x["type"] == "issue_shares"]
    assert listed and listed[0]["count"] == {"min": 1, "max": 2}
    cash = c.cash
    g.act({"type": "issue_shares", "corporation": "CV", "count": 2})
    assert c.cash == cash + 2 * 90 and c.held("market") == 2
    assert not any(x["type"] in ("issue_shares", "redeem_shares") for x in g.actions())   # one a turn


def _track_step_with(g, cash, issued=False):
    """CV's track step entered again with ``cash`` in its treasury (and its issue of the
    turn made, when ``issued``): the title's own track step."""
    c, turn = g.state.corp["CV"], g.round.step().turn
    g.state.pay(corp_key("CV"), "bank", c.cash - cash)   # money kept: the rest to the bank
    turn.issued = issued
    step = g.rules.operating_steps[0](g, c, turn)
    g.round.queue[0] = step
    step.enter()
    return step


def test_an_issue_may_pay_for_the_turns_tile():
    """[E] "one issue or redeem per turn, any time before dividends": a corporation whose
    treasury pays for no tile (every lay costs at least $20, "Laying track") may issue
    first and then lay. CV at $40 with $10: it issues its 2 shares at $30 ("one value
    below", item 3), $70, and its lays are listed; with its issue already made this
    turn, the step has nothing to offer and ends by itself."""
    g = _operating_cv(price=40)
    step = _track_step_with(g, cash=10)
    assert not step.done
    types = {x["type"] for x in g.actions()}
    assert "issue_shares" in types and "lay_tile" not in types
    g.act({"type": "issue_shares", "corporation": "CV", "count": 2})
    assert g.state.corp["CV"].cash == 10 + 2 * 30
    assert any(x["type"] == "lay_tile" for x in g.actions())
    g2 = _operating_cv(price=40)
    assert _track_step_with(g2, cash=10, issued=True).done


def test_emergency_issue_moves_one_column_per_share_and_pays_one_below():
    """"Emergency sell": its stock price drops one column for each share issued and it
    receives one value below the new price."""
    g = _operating_cv(price=100)
    c = g.state.corp["CV"]
    r = g.rules
    g.state.move_shares(c, "treasury", player_key(c.president), 2)   # players hold 4: 4 issuable
    g.state.pay(corp_key("CV"), "bank", c.cash)
    cash = c.cash
    r.emergency_issue(c, 2)
    # 100 -> 90 (receives 80), 90 -> 80 (receives 70)
    assert r.price(c) == 80 and c.cash == cash + 80 + 70 and c.held("market") == 2


def test_emergency_issue_is_listed_before_the_presidents_cash():
    g = _operating_cv(price=100)
    c = g.state.corp["CV"]
    while g.round.step().__class__.__name__ != "BuyTrainStep":
        listed = g.actions()
        g.act(next((x for x in listed if x["type"] == "pass"), listed[0]))
    g.state.pay(corp_key("CV"), "bank", c.cash)
    listed = g.actions()
    assert [x["type"] for x in listed] == ["issue_shares"]
    assert listed[0].get("emergency") is True


def test_bankruptcy_does_not_end_the_game_with_two_players_left():
    """Item 7 / "End game triggers": a bankrupt player is out, the game goes on."""
    g = _operating_cv(n=3, price=40)
    c = g.state.corp["CV"]
    pres = c.president
    while g.round.step().__class__.__name__ != "BuyTrainStep":
        listed = g.actions()
        g.act(next((x for x in listed if x["type"] == "pass"), listed[0]))
    g.state.pay(corp_key("CV"), "bank", c.cash)
    g.state.pay(player_key(pres), "bank", g.state.player[pres].cash)
    g.round.step().enter()
    assert g.actions() == [{"type": "issue_shares", "corporation": "CV", "emergency": True, "count": 1}]
    g.act({"type": "issue_shares", "corporation": "CV", "count": 1})   # "Emergency sell": issues first
    s = g.to_json()
    assert player(g, pres)["bankrupt"] and not s["finished"]


# --- Number of phases: phase III and the trains ---------------------------------------------

def test_phase_three_phases_out_phase_one_trains_and_flips_privates():
    """Phase III: phase I trains phased out (not counted against the limit, run once
    more, then removed); privates held by players and P1-P2 removed; P3-P6 flipped."""
    g = _operating_cv()
    r, s = g.rules, g.state
    c = s.corp["CV"]
    s.private["P4"].owner = corp_key("CV")
    c.trains = owned(g, "2", "2+1", "2")
    r.new_phase("III", c)
    assert r.counted_trains(c) == [] and len(c.trains) == 3
    js = g.to_json()
    assert corp(g, "CV")["phased_out"] == ["2", "2+1", "2"]
    priv = {p["id"]: p for p in js["privates"]}
    assert priv["P4"]["open"] and priv["P4"]["flipped"] and priv["P4"]["revenue"] == 0
    assert not any(p["open"] for p in js["privates"] if p["owner_kind"] == "player")
    r.new_phase("IV", c)
    assert c.trains == [] and not s.private["P4"].open


def test_phase_changes_on_the_first_card_of_the_next_phase_either_side():
    g = _operating_cv()
    r, s = g.rules, g.state
    s.depot[0].left = 0
    c = s.corp["CV"]
    s.pay("bank", corp_key("CV"), 500)
    r.buy_train(c, "bank", "2+2", 140)
    assert s.phase == "II" and names(c.trains) == ["2+2"]


# --- End game triggers ---------------------------------------------------------------------

def test_score_counts_player_privates_only_before_phase_three():
    g = new()
    sell_privates(g)
    a = g.to_json()["players"][0]
    assert a["value"] == a["cash"] + sum(p["cost"] for p in g.to_json()["privates"] if p["owner"] == "A")


def test_broken_bank_ends_after_the_second_operating_round():
    g = _operating_cv()
    g.state.pay("bank", player_key("A"), g.state.bank.cash + 10)
    assert g.state.bank.broken and g.to_json()["bank"]["notes_added"] == 10
    n = 0
    while not g.finished and n < 500:
        listed = g.actions()
        g.act(next((x for x in listed if x["type"] == "pass"),
                   next((x for x in listed if x["type"] in ("dividend", "run_routes")), listed[0])))
        n += 1
    s = g.to_json()
    assert s["finished"] and s["end_reason"] == "bank"
    assert s["round"]["kind"] == "operating" and s["round"]["or"] == 2
    assert s["result"] == {p["name"]: p["value"] for p in s["players"]}


def test_log_replays_and_undo():
    g = _operating_cv()
    log = g.log()
    again = Game.replay(json.loads(json.dumps(log)))
    assert again.to_json() == g.to_json()
    before = g.to_json()
    g.act(g.actions()[0])
    g.act({"type": "undo"})
    assert g.to_json()["corporations"] == before["corporations"]


# --- List of private companies: abilities -------------------------------------------------

def test_champlain_lays_two_free_connected_tiles_without_reach():
    """P3: "lets its corporation lay two extra free tiles there, connected to each other
    and with the C4 tile connected to Montreal, without needing to reach them"."""
    g = _operating_cv()
    r, s = g.rules, g.state
    c = s.corp["CV"]
    s.private["P3"].owner = corp_key("CV")
    s.title_state.privates_bought = ["P3"]
    lays = r.champlain_lays(c)
    assert {m["hex"] for m in lays} == {"C4", "C6"} and all(m["cost"] == 0 for m in lays)
    assert all({0, 2} <= r._sides(m["tile"], m["rotation"]) for m in lays if m["hex"] == "C4")
    assert all(3 in r._sides(m["tile"], m["rotation"]) for m in lays if m["hex"] == "C6")
    free = {(m["hex"], m["tile"], m["rotation"]) for m in lays}
    listed = [x for x in g.actions() if x["type"] == "lay_tile" and (x["hex"], x["tile"], x["rotation"]) in free]
    assert len(listed) == len(free)
    cash = c.cash
    g.act(listed[0])
    assert c.cash == cash
    assert not any(x["hex"] == listed[0]["hex"] for x in g.actions() if x["type"] == "lay_tile")


def test_p3_makes_no_ordinary_lay_of_c4_or_c6_its_corporation_does_not_reach():
    """P3's lays are "without needing to reach them" only as its two free tiles,
    "connected to each other and with the C4 tile connected to Montreal"; any other lay
    needs the corporation's reach ("Game-specific mechanics"). CV (home C8 untiled)
    reaches neither C4 nor C6: owning P3 lists P3's free lays there and nothing else,
    and a C6 lay touching neither C4 nor C8 is refused (whatif's looser P3 lays, which
    the route core lists for a position, used to reach the game as $20 lays)."""
    g = new(3)
    sell_privates(g)
    g.act({"type": "par", "player": who(g), "corporation": "CV", "price": 150})
    to_operating(g)
    r, s = g.rules, g.state
    c = s.corp["CV"]
    s.private["P3"].owner = corp_key("CV")
    s.title_state.privates_bought = ["P3"]
    free = {(m["hex"], m["tile"], m["rotation"] % 6) for m in r.champlain_lays(c)}
    listed = [a for a in g.actions() if a["type"] == "lay_tile" and a["hex"] in ("C4", "C6")]
    assert listed and {(a["hex"], a["tile"], a["rotation"] % 6) for a in listed} <= free
    with pytest.raises(Refusal):
        g.act({"type": "lay_tile", "corporation": "CV", "hex": "C6", "tile": "7", "rotation": 4})
    assert r.champlain_lays(c)


def test_blocking_privates_block_until_a_corporation_buys_them():
    """P1 blocks H23, P2 G20, P3 C4 and C6 until bought by a corporation."""
    g = new()
    sell_privates(g)
    r, s = g.rules, g.state
    assert {"H23", "G20", "C4", "C6"} <= r.blocked_hexes()
    s.private["P1"].owner = corp_key("CV")
    s.title_state.privates_bought = ["P1"]
    assert "H23" not in r.blocked_hexes()


def test_corporation_buys_a_private_for_1_to_list_price_and_dh_pays_40_more():
    """"Corporations may buy privates from players during phases I and II for anywhere
    between $1 and list price"; P6 costs the buyer $40 more to the bank."""
    g = _operating_cv(price=150)
    c = g.state.corp["CV"]
    owner = g.state.private["P6"].owner.partition(":")[2]
    listed = [x for x in g.actions() if x["type"] == "buy_private" and x["private"] == "P6"]
    assert listed and listed[0]["price"] == {"min": 1, "max": 80}
    bank, cash, seller = g.state.bank.cash, c.cash, g.state.player[owner].cash
    g.act({"type": "buy_private", "corporation": "CV", "private": "P6", "price": 70})
    if owner != c.president:
        assert g.active() == {"player": owner}
        g.act({"type": "accept", "player": owner})
    assert g.state.private["P6"].owner == corp_key("CV")
    assert c.cash == cash - 110 and g.state.player[owner].cash == seller + 70 and g.state.bank.cash == bank + 40


def test_over_the_certificate_limit_sells_first(monkeypatch):
    """[E] a player over the limit (it dropped when a corporation closed) sells first."""
    g = new(3)
    sell_privates(g)
    a = who(g)
    g.act({"type": "par", "player": a, "corporation": "CV", "price": 40})
    g.state.corp["CV"].operated = True
    g.state.move_shares(g.state.corp["CV"], "treasury", player_key(a), 2)
    monkeypatch.setattr(g.rules, "cert_limit", lambda: 1)
    while who(g) != a:
        g.act({"type": "pass", "player": who(g)})
    assert {x["type"] for x in g.actions()} == {"sell_shares"}
    with pytest.raises(Refusal):
        g.act({"type": "pass", "player": a})


def _to_buy_train_step(g):
    while g.round.step().__class__.__name__ != "BuyTrainStep":
        listed = g.actions()
        g.act(next((x for x in listed if x["type"] == "pass"),
                   next((x for x in listed if x["type"] in ("dividend", "run_routes")), listed[0])))


def test_emergency_no_presidents_cash_for_the_dearer_side():
    """"If the corporation can afford one of the two available train types but not the
    other, it can't use the president's cash to buy the more expensive one"."""
    g = _operating_cv(price=100)
    c = g.state.corp["CV"]
    _to_buy_train_step(g)
    g.state.pay(corp_key("CV"), "bank", c.cash - 80)          # $80: the 2 ($75), not the 2+1 ($100)
    listed = [x for x in g.actions() if x["type"] == "buy_train"]
    assert [x["train"] for x in listed] == ["2"]
    with pytest.raises(Refusal):
        g.act({"type": "buy_train", "corporation": "CV", "from": "bank", "train": "2+1"})
    assert not any(x["type"] == "pass" for x in g.actions())  # it must buy


def test_emergency_presidents_cash_then_his_sales_keep_the_presidency():
    """"Only then does the president put in personal cash and, if that's not enough,
    sell their own shares, without causing a presidency change in ... the operating
    corporation, and stopping as soon as the amount is raised"."""
    g = _operating_cv(n=3, price=100)
    s = g.state
    c = s.corp["CV"]
    pres = c.president
    s.move_shares(c, "treasury", player_key(pres), 4)          # he holds 6
    s.move_shares(c, "treasury", "market", 4)                   # nothing left to issue
    _to_buy_train_step(g)
    s.pay(corp_key("CV"), "bank", c.cash)
    s.pay(player_key(pres), "bank", s.player[pres].cash - 10)   # $10 of his own
    listed = g.actions()
    assert {x["type"] for x in listed} == {"sell_shares"}
    cv = next(x for x in listed if x["corporation"] == "CV")
    # the cheapest side ($75) needs $65 more: one share at the current price is enough
    assert cv["count"] == 1
    g.act(dict(cv))
    assert c.president == pres
    assert [x["train"] for x in g.actions() if x["type"] == "buy_train"] == ["2", "2+1"][:len(
        [x for x in g.actions() if x["type"] == "buy_train"])]


def _cv_buying_a_train(price):
    """CV operating (:func:`_operating_cv`), two of its treasury shares given to a
    second player, at its train step with an empty treasury: (game, CV, its
    president, that player)."""
    g = _operating_cv(n=3, price=price)
    s = g.state
    c = s.corp["CV"]
    pres = c.president
    other = next(p.name for p in s.players if p.name != pres)
    s.move_shares(c, "treasury", player_key(other), 2)
    _to_buy_train_step(g)
    s.pay(corp_key("CV"), "bank", c.cash)
    return g, c, pres, other


def test_emergency_issues_come_before_the_presidents_bankruptcy():
    """"Emergency sell": the corporation "first spends its whole treasury and then must
    issue shares up to the normal limit ... Only then does the president put in personal
    cash ... If there's still not enough, the player goes bankrupt". Here the issues
    (two shares at $40, after the withheld run: 40 -> 30 pays $20, 30 -> 20 pays $10)
    and his $10 cannot pay the 2-train ($75): the corporation issues first, at the
    limit before his shares reach the market, and his bankruptcy follows."""
    g, c, pres, other = _cv_buying_a_train(price=50)
    s = g.state
    s.pay(player_key(pres), "bank", s.player[pres].cash - 10)
    g.round.step().enter()
    assert not s.player[pres].bankrupt
    assert g.actions() == [{"type": "issue_shares", "corporation": "CV", "emergency": True,
                            "count": {"min": 1, "max": 2}}]
    g.act({"type": "issue_shares", "corporation": "CV", "count": 2})
    assert s.player[pres].bankrupt and c.president == other
    assert g.rules.price(c) == 20
    assert c.cash == 20 + 10 + 10                                   # the issues, then his cash
    assert c.held("market") == 2 + 2                                # the issues, then his shares
    assert [x["train"] for x in g.actions() if x["type"] == "buy_train"][:1] == ["2"]


def test_bankrupt_shares_go_to_the_market_without_moving_prices():
    """"their remaining shares are sold to the Stock Market without moving prices"."""
    g, c, pres, other = _cv_buying_a_train(price=100)
    s = g.state
    price = g.rules.price(c)
    s.move_shares(c, "treasury", "market", c.held("treasury"))  # nothing to issue
    s.pay(player_key(pres), "bank", s.player[pres].cash)
    for x in s.privates:
        x.open = False
    g.round.step().enter()
    assert s.player[pres].bankrupt
    assert c.held(player_key(pres)) == 0 and c.president == other
    assert g.rules.price(c) == price


def test_ferry_new_bonus_moves_to_the_latest_ferry():
    """Ferries: "a 'New' ferry bonus that always moves to the latest ferry bought"; they
    go into the owner's position with the config's values; removed in phase IV."""
    cfg = {"ferries": [{"id": "X", "hex": "G22", "value": 30}, {"id": "Y", "hex": "I14", "value": 20}],
           "new_ferry_bonus": 10, "bonuses": []}
    g = new(config=cfg)
    sell_privates(g)
    g.act({"type": "par", "player": who(g), "corporation": "CV", "price": 100})
    to_operating(g)
    r = g.rules
    c = g.state.corp["CV"]
    g.act({"type": "buy_ferry", "corporation": "CV", "ferry": "X"})
    assert c.cash == 200 - 40
    assert r.position("CV")["ferries"] == [{"hex": "G22", "value": 30, "new": True, "new_bonus": 10}]
    assert not any(x["type"] == "buy_ferry" for x in g.actions())    # one a turn
    g.state.title_state.ferries["Y"] = "FRR"
    g.state.title_state.ferry_order.append("Y")
    assert r.position("CV")["ferries"] == [{"hex": "G22", "value": 30}]
    r.new_phase("IV", c)
    assert "ferries" not in r.position("CV")


def test_boston_and_lowell_lays_no_track_in_phase_one_without_p2():
    """P2: "Until a corporation buys it, the Boston & Lowell can't lay track in phase I"."""
    g = new()
    sell_privates(g)
    g.act({"type": "par", "player": who(g), "corporation": "B&L", "price": 100})
    r, s = g.rules, g.state
    assert r.tile_lays(s.corp["B&L"], []) == []
    s.private["P2"].owner = corp_key("B&L")               # bought: Lowell unblocked too
    s.title_state.privates_bought = ["P2"]
    s.title_state.lowell_merchants_bought = True
    assert "G20" in {m["hex"] for m in r.tile_lays(s.corp["B&L"], [])}



def test_lowell_merchants_free_tile_in_the_round_it_is_bought_after_the_track_step():
    """"List of private companies", P2: "the corporation that buys it may lay a free tile
    there in that same round". The B&L in phase I lays no track until P2 is bought, so
    its turn opens past the track step; it buys P2 from its president for $1 in its token
    step and may still lay Lowell's (G20) tile that round, for $0: its treasury goes
    $200 -> $199 for P2, and stays $199 after the lay."""
    g = new(3)
    sell_privates(g)
    s = g.state
    owner = s.private["P2"].owner.partition(":")[2]
    while who(g) != owner:
        g.act({"type": "pass", "player": who(g)})
    g.act({"type": "par", "player": owner, "corporation": "B&L", "price": 100})
    to_operating(g)
    c = s.corp["B&L"]
    assert g.round.step().__class__.__name__ == "TokenStep"     # no track step: phase I, no P2
    g.act({"type": "buy_private", "corporation": "B&L", "private": "P2", "price": 1})
    assert c.cash == 199
    lays = [x for x in g.actions() if x["type"] == "lay_tile" and x["hex"] == "G20"]
    assert lays, "P2's free tile in Lowell is offered in the round it was bought"
    g.act(lays[0])
    assert [t.hex for t in s.tiles if t.hex == "G20"] == ["G20"] and c.cash == 199
    assert not any(x["type"] == "lay_tile" for x in g.actions())   # one free tile

@pytest.mark.parametrize("cfg", [
    {"ferries": [{"id": "X", "hex": "Z99", "value": 10}], "bonuses": []},
    {"ferries": [], "bonuses": [{"name": "x", "between": ["G22", "Q1"], "amount": 10}]},
    {"ferries": [{"id": "X", "hex": "G22", "value": -5}]},
    {"feries": [{"id": "X", "hex": "G22", "value": 10}]},
    {"ferries": [{"id": "X", "hex": "G22", "value": 10, "vlaue": 20}]},
    {"stall_rounds": 3},
    "not an object"])
def test_a_config_the_route_core_cannot_read_is_bad_input(cfg):
    """The config's ferries and bonuses are the positions' fields: refused at the start
    (exit 2), never mid-game; a field the config does not have (a typo) is refused, not
    read as a game without ferries."""
    with pytest.raises(InputError, match="config"):
        new(config=cfg)


def test_train_between_corporations_agreed_price_never_phased_out():
    """"A phased-out train ... can't be sold to another corporation" (so a live one can,
    at a price agreed [?]); the seller's president accepts."""
    g = new(3)
    sell_privates(g)
    a = who(g)
    g.act({"type": "par", "player": a, "corporation": "CV", "price": 100})
    b = who(g)
    g.act({"type": "par", "player": b, "corporation": "RR", "price": 90})
    to_operating(g)
    s, r = g.state, g.rules
    cv, rr = s.corp["CV"], s.corp["RR"]
    cv.trains, rr.trains = owned(g, "2"), owned(g, "2+1")     # RR has a train: buying is optional
    _to_buy_train_step(g)
    assert g.to_json()["active"]["corporation"] == "RR"
    listed = [x for x in g.actions() if x["type"] == "buy_train" and x["from"] == "CV"]
    assert listed == [{"type": "buy_train", "corporation": "RR", "from": "CV", "train": "2",
                       "price": {"min": 1, "max": rr.cash}}]
    g.act({"type": "buy_train", "corporation": "RR", "from": "CV", "train": "2", "price": 30})
    assert g.active() == {"player": a}
    cash = cv.cash
    g.act({"type": "accept", "player": a})
    assert names(rr.trains) == ["2+1", "2"] and cv.trains == [] and cv.cash == cash + 30
    r.new_phase("III", rr)
    cv.trains = owned(g, "2+1")
    assert not any(x["type"] == "buy_train" and x["from"] == "CV" for x in g.actions())


def test_forced_purchase_may_buy_from_another_corporation_unless_in_the_emergency():
    """"A corporation must buy a train if it has none": while its treasury pays a train
    on sale, that is no emergency, so another corporation's train is offered as to any
    buyer; "Emergency sell" begins once it pays none, and then no train comes from another
    corporation ([E] EBUY_FROM_OTHERS never, docs/gaps.md)."""
    g = new(3)
    sell_privates(g)
    g.act({"type": "par", "player": who(g), "corporation": "CV", "price": 100})
    g.act({"type": "par", "player": who(g), "corporation": "RR", "price": 90})
    to_operating(g)
    s = g.state
    cv, rr = s.corp["CV"], s.corp["RR"]
    cv.trains, rr.trains = owned(g, "2"), []
    _to_buy_train_step(g)
    assert g.to_json()["active"]["corporation"] == "RR"
    assert not any(x["type"] == "pass" for x in g.actions())   # it must buy
    cheapest = min(x["price"] for x in g.actions() if x["type"] == "buy_train" and x["from"] == "bank")
    assert rr.cash >= cheapest
    from_cv = [x for x in g.actions() if x["type"] == "buy_train" and x["from"] == "CV"]
    assert from_cv == [{"type": "buy_train", "corporation": "RR", "from": "CV", "train": "2",
                        "price": {"min": 1, "max": rr.cash}}]
    s.pay(corp_key("RR"), "bank", rr.cash - (cheapest - 1))     # a dollar short of every train on sale
    listed = g.actions()
    assert listed and not any(x["type"] == "buy_train" and x["from"] == "CV" for x in listed)


def _pass_until(g, step_name):
    while g.round.step().__class__.__name__ != step_name:
        g.act({"type": "pass", "corporation": g.to_json()["active"]["corporation"]})


def test_scripted_opening_exact_cash_and_prices():
    """A scripted opening with every dollar worked by hand: the private sale ([E]
    waterfall), a launch ("Capitalization type"), the end of the stock round, private
    income, a $20 tile ("Game-specific mechanics"), the withheld first turn (no train:
    $0 a share, one left), the forced train ("A corporation must buy a train if it has
    none"), then a run of $40 paid out ($4 a share, under half the price: one left)."""
    g = new(3)
    for name, pid in [("A", "P1"), ("B", "P2"), ("C", "P3"), ("A", "P4"), ("B", "P5"), ("C", "P6")]:
        g.act({"type": "buy_private", "player": name, "private": pid})
    assert [p["cash"] for p in g.to_json()["players"]] == [600 - 75, 600 - 110, 600 - 130]
    assert g.to_json()["round"] == {"kind": "stock", "number": 1} and who(g) == "A"
    g.act({"type": "par", "player": "A", "corporation": "BW", "price": 100})
    for name in ("B", "C", "A"):
        g.act({"type": "pass", "player": name})
    s = g.to_json()
    assert s["round"]["kind"] == "operating" and corp(g, "BW")["price"] == 100   # treasury shares: no move
    # private income: A P1 5 + P4 15, B P2 10 + P5 15, C P3 10 + P6 30
    assert [p["cash"] for p in s["players"]] == [325 + 20, 490 + 25, 470 + 40]
    assert s["bank"]["cash"] == 10000 - 1800 + 75 + 110 + 130 - 85
    bw = g.state.corp["BW"]
    g.act({"type": "lay_tile", "corporation": "BW", "hex": "F23", "tile": "3", "rotation": 3})
    assert bw.cash == 200 - 20
    _pass_until(g, "BuyTrainStep")
    # no train: withheld by rule, $0 a share < half of $100: one column left
    assert corp(g, "BW")["price"] == 90
    assert {x["train"] for x in g.actions() if x["type"] == "buy_train"} == {"2", "2+1"}
    assert not any(x["type"] == "pass" for x in g.actions())
    g.act({"type": "buy_train", "corporation": "BW", "from": "bank", "train": "2+1"})
    assert bw.cash == 180 - 100 and names(bw.trains) == ["2+1"]
    g.act({"type": "pass", "corporation": "BW"})          # no second train
    assert g.to_json()["round"]["or"] == 2
    assert g.state.player["A"].cash == 345 + 20             # income again in OR 2
    _pass_until(g, "RoutesStep")
    g.act({"type": "run_routes", "corporation": "BW", "routes": "best"})
    assert g.applied[-1]["revenue"] == 40                  # Boston 30 + the F23 town 10
    g.act({"type": "dividend", "corporation": "BW", "kind": "payout"})
    assert g.state.player["A"].cash == 365 + 2 * 4 and bw.cash == 80 + 8 * 4
    assert corp(g, "BW")["price"] == 80

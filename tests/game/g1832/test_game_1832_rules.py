"""1832 game rules, one test per rule, each naming its rulebook section
(1832 rulebook). Scenarios are played through Game.act where the
rule is about turn order and refusals; hooks are called on a prepared state where the
rule is arithmetic (dividends, market moves)."""

import pytest
from _1832 import NAMES, buy_all_privates, new, refused, start
from _trains import owned

from trainruns.errors import InputError
from trainruns.game.errors import Refusal
from trainruns.game.game import Game
from trainruns.game.state import corp_key, player_key
from trainruns.game.steps.buy_train import BuyTrainStep
from trainruns.game.train import names
from trainruns.game.state import LaidTile

# --- [3] setup, Table 2 -------------------------------------------------------------------


@pytest.mark.parametrize("n,cash,limit", [(2, 1050, 28), (3, 700, 20), (4, 525, 16), (5, 420, 13),
                                          (6, 350, 11), (7, 300, 9)])
def test_setup_cash_bank_and_cert_limit_follow_table_2(n, cash, limit):
    s = new(n).to_json()
    assert [p["cash"] for p in s["players"]] == [cash] * n
    assert s["bank"]["cash"] == 12_000 - n * cash == 9_900        # [2] Bank: $12,000 incl. capital
    assert s["cert_limit"] == limit
    assert s["priority"] == "A" and s["active"] == {"player": "A"}   # [3] card #1 holds priority


def test_southern_bank_variant_raises_capital_and_adds_p6():
    """[17.3] $2400 / N; P6 ($100) offered in cost order between P5 and P7."""
    s = Game("1832", NAMES[:7], 1, ["southern_bank"]).to_json()
    assert [p["cash"] for p in s["players"]] == [343] * 7
    assert s["bank"]["cash"] == 9_599
    assert [x["id"] for x in s["privates"]] == ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]


def test_bad_setup_is_bad_input():
    with pytest.raises(InputError):
        Game("1832", ["A"], 1)
    with pytest.raises(InputError):
        Game("1832", NAMES[:3], 1, ["civil_wars"])   # [17] no such variant
    with pytest.raises(InputError):
        Game("1899", NAMES[:3], 1)


@pytest.mark.parametrize("config,said", [([], "JSON object"), ({"stall_round": 3}, "'stall_round'"),
                                         ({"stall_rounds": 0}, "positive whole number")])
def test_a_config_is_an_object_of_stall_rounds_alone(config, said):
    """The 1832 config holds one field, docs/gaps.md's `stall_rounds`: anything else
    (a typo, a list) is bad input, not a game without it."""
    with pytest.raises(InputError, match=said):
        Game("1832", NAMES[:3], 1, config=config)
    assert Game("1832", NAMES[:3], 1, config={"stall_rounds": 3}).rules.stall_rounds == 3


# --- [5.7] the initial stock round -----------------------------------------------------------


def test_only_the_cheapest_private_may_be_bought():
    g = new()
    refused(g, {"type": "buy_private", "player": "A", "private": "P2"}, "auction.not-cheapest")
    refused(g, {"type": "buy_private", "player": "B", "private": "P1"}, "turn.not-yours")


def test_bids_exceed_cost_by_5_and_money_is_set_aside():
    g = new()
    refused(g, {"type": "bid", "player": "A", "private": "P2", "price": 44}, "auction.bid-low")
    g.act({"type": "bid", "player": "A", "private": "P2", "price": 45})
    a = g.to_json()["players"][0]
    assert (a["cash"], a["committed"]) == (480, 45)
    refused(g, {"type": "bid", "player": "B", "private": "P2", "price": 49}, "auction.bid-low")


def test_a_single_bid_buys_when_the_cheaper_private_is_bought():
    """[5.7] one bid on the next private: sold to the bidder at the bid; play resumes
    left of the player who bought the private that triggered it (a standing decision, docs/gaps.md)."""
    g = new()
    g.act({"type": "bid", "player": "A", "private": "P2", "price": 45})
    g.act({"type": "buy_private", "player": "B", "private": "P1"})
    s = g.to_json()
    p2 = next(x for x in s["privates"] if x["id"] == "P2")
    assert p2["owner"] == "A" and s["players"][0]["committed"] == 0 and s["players"][0]["cash"] == 480
    assert s["active"] == {"player": "C"}


def test_two_bids_are_auctioned_among_the_bidders_from_the_left_of_the_high_bid():
    g = new()
    g.act({"type": "bid", "player": "A", "private": "P2", "price": 45})
    g.act({"type": "bid", "player": "B", "private": "P2", "price": 50})
    g.act({"type": "buy_private", "player": "C", "private": "P1"})
    # the auction starts with the bidder left of B (the high bidder): A (C, D did not bid)
    assert g.active() == {"player": "A"}
    assert {a["type"] for a in g.actions()} == {"bid", "pass"}
    g.act({"type": "bid", "player": "A", "private": "P2", "price": 55})
    assert g.active() == {"player": "B"}
    g.act({"type": "pass", "player": "B"})
    s = g.to_json()
    assert next(x for x in s["privates"] if x["id"] == "P2")["owner"] == "A"
    assert s["players"][1]["committed"] == 0 and s["players"][1]["cash"] == 525
    assert s["players"][0]["cash"] == 525 - 55
    assert s["active"] == {"player": "D"}   # left of C, who bought P1


def _pass_out_the_initial_round(g):
    while g.to_json()["round"]["kind"] in ("stock", "private_auction"):
        g.act({"type": "pass", "player": g.active()["player"]})


def test_the_last_private_bought_by_auction_or_bid_gives_the_priority_left_of_its_buyer():
    """[5.2.2] the priority card goes left of "the last person to perform a stock action
    ... buying a private company [5.7]": A's purchase of P5 sells P7 to C (by auction
    against B, or as its only bidder), so C bought the last private, after A; nobody
    buys a share afterwards: the card goes to A, left of C (docs/gaps.md)."""
    g = new(3)
    g.act({"type": "buy_private", "player": "A", "private": "P1"})
    g.act({"type": "bid", "player": "B", "private": "P7", "price": 205})
    g.act({"type": "bid", "player": "C", "private": "P7", "price": 210})
    for name, private in (("A", "P2"), ("B", "P3"), ("C", "P4"), ("A", "P5")):
        g.act({"type": "buy_private", "player": name, "private": private})
    assert g.active() == {"player": "B"}                  # the auction of P7, left of C
    g.act({"type": "pass", "player": "B"})
    assert g.state.private["P7"].owner == "player:C"
    g.act({"type": "par", "player": "C", "corporation": "CG", "price": 100})
    _pass_out_the_initial_round(g)
    assert g.rules.priority == "A"

    g = new(3)
    for name, private in (("A", "P1"), ("B", "P2")):
        g.act({"type": "buy_private", "player": name, "private": private})
    g.act({"type": "bid", "player": "C", "private": "P7", "price": 205})
    for name, private in (("A", "P3"), ("B", "P4")):
        g.act({"type": "buy_private", "player": name, "private": private})
    g.act({"type": "pass", "player": "C"})
    g.act({"type": "buy_private", "player": "A", "private": "P5"})   # P7 to its only bidder
    assert g.state.private["P7"].owner == "player:C"
    g.act({"type": "par", "player": "C", "corporation": "CG", "price": 100})
    _pass_out_the_initial_round(g)
    assert g.rules.priority == "A"


def test_all_pass_runs_the_privates_and_drops_p1_until_the_priority_holder_takes_it_free():
    """[5.7] all pass before P7 is sold: privates pay, P1 drops $5; at $0 the priority
    holder must take it as his only action."""
    g = new()
    for _ in range(4):
        g.act({"type": "pass", "player": g.active()["player"]})
    s = g.to_json()
    assert s["privates"][0]["price"] == 15
    assert s["active"] == {"player": "A"}        # nobody bought or bid: the round's first player
    for _ in range(12):
        g.act({"type": "pass", "player": g.active()["player"]})
    assert g.to_json()["privates"][0]["price"] == 0
    assert g.actions() == [{"type": "buy_private", "player": "A", "private": "P1", "price": 0}]


def test_p7_brings_cogs_presidency_and_its_par_is_set_at_once():
    """[16.2] P7: CoG's president's certificate; the buyer sets CoG's par at once."""
    g = new()
    for _ in range(5):
        g.act(next(a for a in g.actions() if a["type"] == "buy_private"))
    buyer = g.active()["player"]
    g.act({"type": "buy_private", "player": buyer, "private": "P7"})
    assert g.active() == {"player": buyer}
    assert {a["type"] for a in g.actions()} == {"par"}
    refused(g, {"type": "par", "player": buyer, "corporation": "CG", "price": 110}, "stock.par-value")
    g.act({"type": "par", "player": buyer, "corporation": "CG", "price": 82})
    cg = next(c for c in g.to_json()["corporations"] if c["id"] == "CG")
    assert cg["president"] == buyer and cg["par"] == 82 and cg["shares"]["players"] == {buyer: 2}


def test_no_selling_in_the_initial_stock_round_and_red_par_values_only():
    """[5.7] no selling; [5.6] par from $68, $72, $76, $82, $90, $100."""
    g = new()
    buy_all_privates(g)
    assert g.to_json()["round"]["kind"] == "stock"
    p = g.active()["player"]
    pars = {a["price"] for a in g.actions() if a["type"] == "par" and a["corporation"] == "SALR"}
    assert 68 in pars and pars <= {68, 72, 76, 82, 90, 100}
    g.act({"type": "par", "player": p, "corporation": "SALR", "price": 68})
    assert not any(a["type"] == "sell_shares" for a in g.actions())


# --- [5.6] floating ---------------------------------------------------------------------------


def test_six_shares_sold_float_the_company_with_ten_times_par_at_the_end_of_the_stock_round():
    g = new(3)
    buy_all_privates(g)
    c = start(g, "SALR", "A", 90, {"B": 3})
    assert c.floated is False
    g.rules.buy_shares(c, "C", "ipo", 1, 90)
    assert c.floated and c.cash == 0          # sixth share sold; treasury only at the round's end
    g.rules.end_stock_round("C")
    assert c.cash == 900 and g.state.events[-1] == {"event": "float", "corporation": "SALR", "cash": 900}


# --- [5.4], [5.1.1] limits -----------------------------------------------------------------------


def test_shares_in_yellow_green_brown_do_not_count_and_green_brown_exceed_60_percent():
    g = new(4)
    c = start(g, "SALR", "A", 100, {"A": 4})
    r = g.rules
    assert r.player_certs("A") == 5                     # president's certificate + 4
    for zone_cell, counts, exceed in (((0, 0), False, False), ((3, 0), False, True), ((5, 0), False, True),
                                      ((0, 6), True, False)):
        r.market.move(c.id, c.cell, zone_cell)
        c.cell = zone_cell
        assert r.counts_for_limit(c) is counts and r.may_exceed_holding(c) is exceed


def test_brown_area_allows_buying_several_market_shares_in_one_turn():
    g = new(4)
    buy_all_privates(g)
    c = start(g, "SALR", "A", 100, {"B": 4})
    g.state.move_shares(c, player_key("B"), "market", 3)
    r = g.rules
    r.market.move(c.id, c.cell, (5, 0))
    c.cell = (5, 0)      # $30, brown
    turn = g.round.step()
    buys = [a for a in turn.actions() if a["type"] == "buy_shares" and a["from"] == "market"]
    assert buys and buys[0]["count"] == {"min": 1, "max": 3}


def test_sixty_percent_limit_outside_green_and_brown():
    g = new(4)
    buy_all_privates(g)
    c = start(g, "SALR", g.active()["player"], 100, {g.active()["player"]: 4})
    assert c.held(player_key(g.active()["player"])) == 6
    assert not any(a["type"] == "buy_shares" and a["corporation"] == "SALR" for a in g.actions())


def test_the_open_market_holds_at_most_half_a_company():
    """[5.4] Open Market: at most 50%: a sale that would pass it is refused."""
    from trainruns.game.shares import max_sellable

    g = new(4)
    c = start(g, "SALR", "A", 100, {"B": 6})
    g.state.move_shares(c, player_key("B"), "market", 4)
    assert max_sellable(g.state, c, "B", 5, 2) == 1


# --- [5.8] market moves ------------------------------------------------------------------------------


def test_market_moves_follow_the_grid():
    """[5.8.1] up, down with the ledges, right and left with the arrows (the grid of docs/gaps.md)."""
    m = new().rules.market
    assert m.price(m.up((2, 6))) == 90                     # one row up
    assert m.up((0, 6)) == (1, 7) and m.price((1, 7)) == 100  # top row: right and down
    assert m.up((0, 20)) == (0, 20)                        # $400 stays
    assert m.price(m.right((0, 6))) == 110                 # full dividend: right
    assert m.right((1, 20)) == (0, 20)                     # end of a row: up instead
    assert m.left((4, 0)) == (5, 0)                        # first column: down instead
    assert m.price(m.down((0, 6), 3)) == 76                # a row per share
    assert m.down((2, 15), 1) == (2, 15)                   # at the soft ledge, exactly one more: stays
    assert m.down((2, 15), 2) == (4, 15)                   # two or more cross it
    assert m.down((9, 6), 5) == (10, 6)                    # the lower ledge stops it


def test_a_sale_moves_the_price_down_per_share_and_pays_the_turns_opening_price():
    """[5.3] all shares a player sells in his turn get the price when it began."""
    g = new(3)
    buy_all_privates(g)
    c = start(g, "SALR", "A", 100, {"B": 4, "C": 1})
    g.rules.end_stock_round(None)
    from trainruns.game.round import StockRound

    g.round = StockRound(g, "B", 2)
    g.round.settle()
    cash = g.state.player["B"].cash
    g.act({"type": "sell_shares", "player": "B", "corporation": "SALR", "count": 3})
    assert g.state.player["B"].cash == cash + 300
    assert g.rules.market.price(c.cell) == 76
    refused(g, {"type": "sell_shares", "player": "B", "corporation": "SALR", "count": 1}, "stock.one-block")
    refused(g, {"type": "buy_shares", "player": "B", "corporation": "SALR", "from": "market"}, "stock.rebuy")


def test_price_protection_buys_the_sold_shares_and_restores_the_price():
    """[5.9] the president buys all the shares the seller sold at the price he got; the
    token goes back; play resumes left of the protecting president."""
    g = new(3)
    buy_all_privates(g)
    c = start(g, "SALR", "A", 100, {"A": 2, "B": 3})
    g.rules.end_stock_round(None)
    from trainruns.game.round import StockRound

    g.round = StockRound(g, "B", 2)
    g.round.settle()
    a_cash = g.state.player["A"].cash
    g.act({"type": "sell_shares", "player": "B", "corporation": "SALR", "count": 2})
    g.act({"type": "pass", "player": "B"})
    assert g.active() == {"player": "A"}
    assert {x["type"] for x in g.actions()} == {"protect", "pass"}
    g.act({"type": "protect", "player": "A", "corporation": "SALR"})
    assert g.state.player["A"].cash == a_cash - 200
    assert c.held(player_key("A")) == 6 and c.held("market") == 0
    assert g.rules.market.price(c.cell) == 100
    assert g.active() == {"player": "B"}      # left of A


def test_protection_puts_the_token_back_where_it_stood_in_its_box():
    """[5.9] "the share price is restored to its original position as if the sale never
    took place": SALR, on top of the $100 box's stack above ACL ([4.1.3]: the first
    there), is sold down and protected: it is on top again, and operates before ACL
    (share price order: the top of a stack first)."""
    from trainruns.game.round import StockRound

    g = new(3)
    buy_all_privates(g)
    salr = start(g, "SALR", "A", 100, {"A": 2, "B": 3, "C": 1})
    acl = start(g, "ACL", "C", 100, {"C": 4})
    g.rules.end_stock_round(None)
    m = g.rules.market
    before = list(m.stacks[salr.cell])
    assert before.index("SALR") < before.index("ACL")
    g.round = StockRound(g, "B", 2)
    g.round.settle()
    g.act({"type": "sell_shares", "player": "B", "corporation": "SALR", "count": 1})
    if g.active() == {"player": "B"}:
        g.act({"type": "pass", "player": "B"})
    g.act({"type": "protect", "player": "A", "corporation": "SALR"})
    assert m.stacks[salr.cell] == before
    assert [c.id for c in g.rules.price_order([acl, salr])] == ["SALR", "ACL"]


def test_presidency_passes_to_the_player_with_more_shares_after_a_sale():
    """[5.5] the president may sell below another holder of 20%, who takes over."""
    g = new(3)
    c = start(g, "SALR", "A", 100, {"A": 1, "B": 2})
    g.rules.sell_shares(c, "A", 2, 100, stock_round=False)
    assert c.president == "B"


# --- [9] dividends ---------------------------------------------------------------------------------


def _operating(g, cid="SALR"):
    """A floated company: A president with 4 shares, B 2, C 1, 3 left in the offering."""
    c = start(g, cid, "A", 100, {"A": 2, "B": 2, "C": 1})
    g.rules.end_stock_round(None)
    return c


def test_half_dividend_rounds_per_share_up_and_keeps_the_rest():
    """[9.1.2] $130: $6.50 a share rounds to $7; the company keeps $60 (plus its own
    shares' part); no price move."""
    g = new(3)
    c = _operating(g)
    before = {n: g.state.player[n].cash for n in "ABC"}
    cash, cell = c.cash, c.cell
    g.rules.pay_dividend(c, 130, "half")
    assert {n: g.state.player[n].cash - before[n] for n in "ABC"} == {"A": 28, "B": 14, "C": 7}
    assert c.cash - cash == 60 + 7 * 3        # 3 shares still in the initial offering pay the company
    assert c.cell == cell


def test_full_dividend_moves_right_and_withholding_moves_left():
    g = new(3)
    c = _operating(g)
    before = g.state.player["B"].cash
    g.rules.pay_dividend(c, 120, "payout")
    assert g.state.player["B"].cash - before == 24 and g.rules.market.price(c.cell) == 110
    cash = c.cash
    g.rules.pay_dividend(c, 120, "withhold")
    assert c.cash - cash == 120 and g.rules.market.price(c.cell) == 100


# --- [4.2], [10] trains and phases -----------------------------------------------------------------


def test_first_4_train_starts_phase_4_and_scraps_the_2_trains():
    g = new(3)
    c = _operating(g)
    d = _operating(g, "ACL")
    s, r = g.state, g.rules
    for row in s.depot[:2]:
        row.left = 0
    s.phase = "3"
    c.trains = owned(g, "2", "3")
    d.trains = owned(g, "2", "2")
    c.cash += 1000
    s.bank.cash -= 1000
    r.buy_train(c, "bank", "4", 300)
    assert s.phase == "4" and names(c.trains) == ["3", "4"] and names(d.trains) == []
    assert {"event": "rust", "train": "2", "corporations": ["ACL", "SALR"]} in s.events


def test_a_company_with_a_route_and_no_train_must_buy_and_its_president_pays_the_rest():
    """[10] Requirement to Own a Train and Train Purchase Funds."""
    g = new(3)
    c = _operating(g)
    s, r = g.state, g.rules
    s.tiles = [LaidTile("D20", "57", 0), LaidTile("C21", "8", 0),
               LaidTile("B20", "8", 3)]
    c.tokens = [("D20", 0)]
    s.pay(corp_key(c.id), "bank", c.cash - 30)
    step = BuyTrainStep(g, c)
    assert r.must_buy(step)
    listed = step.actions()
    assert listed == [{"type": "buy_train", "corporation": "SALR", "from": "bank", "train": "2", "price": 80}]
    a_cash = s.player["A"].cash
    r.train_process(step, listed[0])
    assert names(c.trains) == ["2"] and c.cash == 0 and s.player["A"].cash == a_cash - 50


def test_a_president_who_cannot_raise_the_price_is_bankrupt_and_the_game_ends():
    """[13] Player Bankruptcy ends the game at once (a standing decision, docs/gaps.md)."""
    g = new(3)
    c = _operating(g)
    s = g.state
    s.tiles = [LaidTile("D20", "57", 0), LaidTile("C21", "8", 0),
               LaidTile("B20", "8", 3)]
    c.tokens = [("D20", 0)]
    s.pay(corp_key(c.id), "bank", c.cash)
    s.pay(player_key("A"), "bank", s.player["A"].cash)
    s.move_shares(c, player_key("A"), "market", 2)   # A keeps only the president's certificate
    step = BuyTrainStep(g, c)
    step.enter()
    assert g.finished and g.end_reason == "bankrupt" and s.player["A"].bankrupt
    assert g.result == {p.name: g.rules.value(p.name) for p in s.players}


# --- [6], [7] track and tokens ----------------------------------------------------------------------


def test_terrain_costs_the_first_tile_only_and_a_home_hex_is_free_for_its_company():
    g = new(3)
    r = g.rules
    sou, acl = g.state.corp["SOU"], g.state.corp["ACL"]
    assert r.terrain_cost(sou, "C11") == 0       # Knoxville, SOU's home, $60 water
    assert r.terrain_cost(acl, "C11") == 60
    assert r.terrain_cost(acl, "B10") == 60


def test_the_last_slot_of_an_unstarted_companys_home_is_kept():
    """[7.2] a company cannot use the last token space in a starting city of a railway
    that has not yet started."""
    g = new(3)
    _operating(g)
    assert {"corporation": "N&W", "hex": "B24", "stop": 0} in g.rules.reserved_homes()   # Norfolk, its one slot
    g.state.corp["N&W"].tokens = [("B24", 0)]
    assert "N&W" not in {r["corporation"] for r in g.rules.reserved_homes()}


def test_wvcf_blocks_its_hexes_while_a_player_holds_p5():
    """[16.1], [16.2] P5: no company connects to the coal fields until P5 is bought by
    a company or closed (a standing decision: B12, B16, C13, C15)."""
    g = new(3)
    buy_all_privates(g)
    assert g.rules.blocked_hexes() == {"B12", "B16", "C13", "C15"}
    c = _operating(g, "SOU")
    p5 = g.state.private["P5"]
    p5.owner = corp_key(c.id)
    assert g.rules.blocked_hexes() == set()


def test_the_wvcf_token_is_offered_in_place_of_a_second_yellow_tile_none_of_which_is_legal():
    """[6.5.2] "Paying for the West Virginia Coal Fields counts as a yellow tile lay";
    [16.2] P5: other companies "may buy a WVCF token (if available) during their
    operating round for $80". The kept 4-player game (seed 44), phase 4, P5 owned by
    GRR, 3 tokens left: SOU ($1000) lays its home tile #5 in Knoxville, its first yellow
    lay; no second tile may be laid, but its second yellow lay may be the WVCF token."""
    import json
    from pathlib import Path

    kept = json.loads((Path(__file__).parents[3] / "fixtures" / "games" / "1832-4p-seed44.game").read_text())
    g = Game.replay(kept["log"], upto=552)
    c = g.state.corp["SOU"]
    assert g.state.phase == "4" and g.state.private["P5"].owner == "corp:GRR" and c.tokens == [("C11", 0)]
    assert g.actions() == [{"type": "buy_token", "corporation": "SOU", "kind": "coal"},
                           {"type": "pass", "corporation": "SOU"}]
    cash = c.cash
    g.act({"type": "buy_token", "corporation": "SOU", "kind": "coal"})
    assert cash - c.cash == 80 and "SOU" in g.state.title_state.coal_holders


# --- [5.10], [5.11] -----------------------------------------------------------------------------------


def test_reissue_par_is_the_higher_of_old_par_and_the_value_nearest_75_percent():
    g = new(3)
    c = _operating(g)
    r = g.rules
    r.market.move(c.id, c.cell, (0, 11))
    c.cell = (0, 11)     # $180: 75% = 135, nearest market value 140
    assert r.reissue_par(c) == 140
    r.market.move(c.id, c.cell, (2, 7))
    c.cell = (2, 7)      # $90: 67.5 -> 68, below the old par 100
    assert r.reissue_par(c) == 100


# --- [14] the score ---------------------------------------------------------------------------------------


def test_value_is_cash_plus_shares_at_market_plus_privates_at_face():
    g = new(3)
    buy_all_privates(g)
    s, r = g.state, g.rules
    for p in s.players:
        shares = sum(c.held(player_key(p.name)) * r.market.price(c.cell) for c in s.corporations if c.cell)
        face = sum(x.cost for x in s.privates if x.owner == player_key(p.name))
        assert r.value(p.name) == p.cash + shares + face


def test_a_train_from_another_company_at_an_agreed_price_of_at_least_1():
    """[10] Train Cost: any price agreed by the presidents, $1 at least; listed when one
    president runs both companies."""
    g = new(3)
    c = _operating(g)
    d = _operating(g, "ACL")
    d.trains = owned(g, "2")
    step = BuyTrainStep(g, c)
    offers = [a for a in g.rules.train_buys(step) if a["from"] == "ACL"]
    assert offers == [{"type": "buy_train", "corporation": "SALR", "from": "ACL", "train": "2",
                       "price": {"min": 1, "max": c.cash}}]
    with pytest.raises(Refusal) as e:
        g.rules.train_process(step, {"type": "buy_train", "corporation": "SALR", "from": "ACL", "train": "2",
                                     "price": 0})
    assert e.value.rule == "train.price"
    cash = c.cash
    g.rules.train_process(step, {"type": "buy_train", "corporation": "SALR", "from": "ACL", "train": "2",
                                 "price": 5})
    assert names(c.trains) == ["2"] and names(d.trains) == [] and c.cash == cash - 5 and d.cash == 1000 + 5


def test_a_company_over_the_limit_has_a_position_until_it_discards():
    """[10.2.1] "If buying a train initiates a phase change causing any railway to
    possess too many trains, then the excess trains ... are immediately discarded ...
    The president decides which train is discarded": until he has, ACL holds three
    trains against phase 5's limit of two, and its position says so (``must_discard``)
    and loads in the route core, as `play position` must at every moment; after the
    discard the flag is gone."""
    import _1832

    import trainruns
    from trainruns import load_position
    from trainruns.game import route_adapter
    from trainruns.game.round import OperatingRound

    g = Game("1832", NAMES[:3], 1)
    s = g.state
    salr = _1832.operated(g, "SALR", "A", 100, {"A": 4})
    acl = _1832.operated(g, "ACL", "B", 100, {"B": 4})
    g.rules.end_stock_round(None)
    for row in s.depot:
        if row.train in ("2", "3", "4"):
            row.left = 0
    s.phase = "4"
    salr.trains = owned(g, "4")
    acl.trains = owned(g, "4", "4", "3")
    g.round = OperatingRound(g, 1, 2)
    g.round.order = [salr, acl]
    step = BuyTrainStep(g, salr)
    g.round.queue = [step]
    g.rules.train_process(step, {"type": "buy_train", "corporation": "SALR", "from": "bank", "train": "5"})
    assert s.phase == "5" and g.active()["corporation"] == "ACL"
    position = g.position("ACL")
    assert position["must_discard"] is True
    assert len(load_position(position).trains) == 3
    # the game's own way to the route core (the page's best run, the advisor) takes it
    # too, and answers as solve does
    assert route_adapter.best_run(position)[0] == trainruns.solve(position).revenue
    route_adapter.tile_lays(position)
    assert "must_discard" not in g.position("SALR")
    g.act({"type": "discard_train", "corporation": "ACL", "train": "3"})
    assert "must_discard" not in g.position("ACL")
    load_position(g.position("ACL"))

"""1832 duties and deals (1832 rulebook): the certificate limit in a stock
turn ([5.4], [5.3] Sales Affecting Certificate Limits), the sale back to 60% ([5.9.8]
and its twin in [10] Presidential Stock Sales), price protection after a forced sale
in an operating round ([10], [5.9]), the deals listed with their price ranges ([16.1],
[10] Train Cost), and turns without a choice passed by rule (docs/game-log.md)."""

import json
import os

from _1832 import NAMES, at_step, new, refused, start
from _trains import owned

from trainruns.game.game import Game
from trainruns.game.round import OperatingRound, StockRound
from trainruns.game.state import corp_key, player_key
from trainruns.game.steps.buy_train import BuyTrainStep
from trainruns.game.steps.protect import ProtectStep
from trainruns.game.steps.stock import StockTurn
from trainruns.game.train import names
from trainruns.game.state import LaidTile


def stock_round(g, first):
    g.round = StockRound(g, first, 2)
    g.round.settle()


def move(g, c, cell):
    g.rules.market.move(c.id, c.cell, cell)
    c.cell = cell


# --- [5.4] the certificate limit in a stock turn --------------------------------------------------


def test_a_player_over_the_certificate_limit_sells_before_he_may_pass():
    """[5.4] "A player may never exceed his certificate limit at any time during his
    turn": 7 players, limit 9 (Table 2); B holds 10 counting certificates."""
    g = new(7)
    start(g, "ACL", "B", 100, {"B": 4})           # president's certificate + 4: 5 certificates
    start(g, "SALR", "A", 100, {"A": 4, "B": 4})  # 4 more
    g.state.private["P1"].owner = player_key("B")  # a private counts one ([5.4])
    assert g.rules.player_certs("B") == 10 > g.rules.cert_limit() == 9
    stock_round(g, "B")
    assert g.active() == {"player": "B"}
    assert {a["type"] for a in g.actions()} == {"sell_shares"}
    refused(g, {"type": "pass", "player": "B"}, "stock.cert-limit")
    refused(g, {"type": "buy_shares", "player": "B", "corporation": "SALR", "from": "ipo"}, "stock.cert-limit")
    g.act({"type": "sell_shares", "player": "B", "corporation": "SALR", "count": 1})
    assert g.rules.player_certs("B") == 9
    assert {"type": "pass", "player": "B"} in g.actions()


def test_a_sale_into_the_black_area_lowers_the_limit_at_once():
    """[5.3] Sales Affecting Certificate Limits: the seller assumes nobody protects, so
    a token in the black area counts as a closed company ([5.1.1]: one column right)."""
    g = new(7)
    c = start(g, "SALR", "A", 100)
    assert g.rules.cert_limit() == 9
    move(g, c, (8, 0))                            # $0, black
    assert not c.closed and g.rules.cert_limit() == 7


def test_certificates_of_a_company_sold_into_the_black_area_do_not_count():
    """[5.3] Sales Affecting Certificate Limits: "a sale will presumably move a token
    into the closed area and lower certificate limits": the company counts as closed,
    so its certificates, void once it closes ([5.1.1] Black area), do not count either."""
    g = new(7)
    s = g.state
    x = start(g, "SALR", "A", 100, {"A": 1, "B": 3})
    start(g, "ACL", "C", 100, {"B": 5})            # B: 5 ACL shares, the president's certificate among them
    for p in ("P1", "P2"):
        s.private[p].owner = player_key("B")
    g.rules.end_stock_round(None)
    move(g, x, (7, 0))                            # $10, brown: B's 3 SALR do not count
    assert g.rules.player_certs("B") == 6 and g.rules.cert_limit() == 9
    stock_round(g, "B")
    g.act({"type": "sell_shares", "player": "B", "corporation": "SALR", "count": 1})
    assert g.rules.market.zone(x.cell) == "closed" and not x.closed
    assert g.rules.cert_limit() == 7 and g.rules.player_certs("B") == 6
    assert {"type": "pass", "player": "B"} in g.actions()


# --- [5.9.8] back to 60% --------------------------------------------------------------------------------


def test_a_holder_above_60_percent_sells_down_to_60_outside_green_and_brown():
    """[5.9.8]: above 60% (after a protection), a sale outside the green and brown
    areas brings him down to 60%: 80% -> at least 2 shares; in the green area, any."""
    g = new(3)
    c = start(g, "SALR", "B", 100, {"B": 6})      # B: 8 shares, $100 (white)
    stock_round(g, "B")
    sale = next(a for a in g.actions() if a["type"] == "sell_shares")
    assert sale["count"] == {"min": 2, "max": 5}
    refused(g, {"type": "sell_shares", "player": "B", "corporation": "SALR", "count": 1}, "stock.sell-back")
    move(g, c, (3, 0))                            # $50, green
    sale = next(a for a in g.actions() if a["type"] == "sell_shares")
    assert sale["count"] == {"min": 1, "max": 5}
    g.act({"type": "sell_shares", "player": "B", "corporation": "SALR", "count": 1})
    assert c.held(player_key("B")) == 7


# --- [10] forced sales and the protection after them -------------------------------------------------


def _forced(g, shares=None):
    """SALR (A president) has a route, no train and no cash."""
    c = start(g, "SALR", "A", 100, shares or {"A": 2, "B": 2, "C": 1})
    g.rules.end_stock_round(None)
    s = g.state
    s.tiles = [LaidTile("D20", "57", 0), LaidTile("C21", "8", 0),
               LaidTile("B20", "8", 3)]
    c.tokens = [("D20", 0)]
    s.pay(corp_key(c.id), "bank", c.cash)
    return c


def _operating_turn(g, c):
    return at_step(g, BuyTrainStep, c)


def test_a_forced_sale_is_protected_by_the_other_president_after_the_train_is_bought():
    """[10] "After the president is through selling any shares, the presidents of any
    companies whose stock was sold may implement share price protection" ([5.9])."""
    g = new(3)
    c = _forced(g)
    acl = start(g, "ACL", "B", 100, {"B": 2, "A": 3, "C": 1})
    s = g.state
    s.pay(player_key("A"), "bank", s.player["A"].cash)
    _operating_turn(g, c)
    sale = next(a for a in g.actions() if a["type"] == "sell_shares" and a["corporation"] == "ACL")
    assert sale["count"] == 1                     # only what the 2-train ($80) needs
    g.act({"type": "sell_shares", "player": "A", "corporation": "ACL", "count": 1})
    assert g.rules.market.price(acl.cell) == 90
    g.act({"type": "buy_train", "corporation": "SALR", "from": "bank", "train": "2", "price": 80})
    assert names(c.trains) == ["2"] and s.player["A"].cash == 20
    assert g.active() == {"player": "B"}
    assert {a["type"] for a in g.actions()} == {"protect", "pass"}
    b_cash = s.player["B"].cash
    g.act({"type": "protect", "player": "B", "corporation": "ACL"})
    assert s.player["B"].cash == b_cash - 100 and acl.held(player_key("B")) == 5
    assert acl.held("market") == 0 and g.rules.market.price(acl.cell) == 100


def test_a_company_a_forced_sale_moved_operates_in_the_share_price_order_it_then_has():
    """[4.1.3] "all floated corporations operate in descending share price order"; the
    Glossary: "Share price order is determined dynamically. Player and company actions
    can change the position and thus the value of a companies stock market token so the
    order is never fixed." SALR ($100), ACL ($90), GRR ($82) operate in that order;
    SALR's president A, with no cash, sells his ACL share ($90) for SALR's $80 2-train:
    ACL falls one row to $82, into GRR's box, below it. GRR now comes before ACL."""
    from _1832 import operated

    g = new(3)
    s = g.state
    salr = operated(g, "SALR", "A", 100, {})
    acl = operated(g, "ACL", "B", 90, {"A": 1})
    grr = operated(g, "GRR", "C", 82, {})
    s.tiles = [LaidTile("D20", "57", 0), LaidTile("C21", "8", 0),
               LaidTile("B20", "8", 3)]
    s.pay(corp_key("SALR"), "bank", salr.cash)
    s.pay(player_key("A"), "bank", s.player["A"].cash)
    g.rules.or_set = (1, 1)
    g.round = OperatingRound(g, 1, 1)
    assert [c.id for c in g.round.order] == ["SALR", "ACL", "GRR"]
    g._advance()
    g.act({"type": "pass", "corporation": "SALR"})                    # no track
    g.act({"type": "sell_shares", "player": "A", "corporation": "ACL", "count": 1})
    g.act({"type": "buy_train", "corporation": "SALR", "from": "bank", "train": "2", "price": 80})
    g.act({"type": "pass", "player": "B"})                            # no protection
    assert g.rules.market.price(acl.cell) == 82 and acl.cell == grr.cell
    assert g.rules.market.stacks[grr.cell] == ["GRR", "ACL"]
    assert g.active() == {"corporation": "GRR", "player": "C"}


def test_a_forced_seller_above_60_percent_sells_down_to_60():
    """[10] Presidential Stock Sales: "he must sell down to the 60% limit" even beyond
    what the train needs."""
    g = new(3)
    c = _forced(g)
    start(g, "ACL", "A", 100, {"A": 6})           # A: 8 ACL shares, white area
    s = g.state
    s.pay(player_key("A"), "bank", s.player["A"].cash)
    _operating_turn(g, c)
    sale = next(a for a in g.actions() if a["type"] == "sell_shares" and a["corporation"] == "ACL")
    assert sale["count"] == 2
    refused(g, {"type": "sell_shares", "player": "A", "corporation": "ACL", "count": 1}, "train.sell-back")
    g.act({"type": "sell_shares", "player": "A", "corporation": "ACL", "count": 2})
    assert s.player["A"].cash == 200


def test_a_forced_company_may_buy_another_companys_train_with_its_treasury_before_the_president_pays():
    """[10] Train Purchase Funds: "Once the president contributes to the purchase price
    of a train, the railway ... may not buy a train from another company": before he
    contributes it may, with its treasury ($1 at least, [10] Train Cost); his help for
    the cheapest train stays open beside it."""
    g = new(3)
    c = _forced(g)
    s = g.state
    s.pay("bank", corp_key(c.id), 50)              # SALR: $50, less than any train on sale
    d = start(g, "ACL", "B", 100, {"B": 4})
    d.trains = owned(g, "2", "2")
    _operating_turn(g, c)
    listed = g.actions()
    assert {"type": "buy_train", "corporation": "SALR", "from": "bank", "train": "2", "price": 80} in listed
    assert {"type": "buy_train", "corporation": "SALR", "from": "ACL", "train": "2",
            "price": {"min": 1, "max": 50}} in listed
    a_cash, d_cash = s.player["A"].cash, d.cash
    refused(g, {"type": "buy_train", "corporation": "SALR", "from": "ACL", "train": "2", "price": 51},
            "train.price")                           # never with the president's money
    g.act({"type": "buy_train", "corporation": "SALR", "from": "ACL", "train": "2", "price": 50})
    assert names(c.trains) == ["2"] and c.cash == 0 and d.cash == d_cash + 50
    assert s.player["A"].cash == a_cash and not any(e.get("event") == "contribution" for e in s.events)


def _closing_sale(g):
    """SALR (A president of 5 shares, B 2) at $20 in the brown area, needing a train with
    an empty treasury: three shares sold close it ($20 -> $10 -> $0, [5.1.1])."""
    c = _forced(g, {"A": 3, "B": 2})
    move(g, c, (6, 0))
    return c


def test_forced_sales_that_close_the_company_needing_the_train_lose_the_presidents_money():
    """[10] Presidential Stock Sales: "If stock sales close the company requiring the
    train, all money including that for all share sales and the president's personal
    funds are lost"; [5.1.1] Black area: returned to the bank."""
    g = new(3)
    s = g.state
    c = _closing_sale(g)
    s.pay(player_key("A"), "bank", s.player["A"].cash - 30)
    _operating_turn(g, c)
    bank = s.bank.cash
    g.act({"type": "sell_shares", "player": "A", "corporation": "SALR", "count": 3})
    assert c.closed and s.player["A"].cash == 0 and s.bank.cash == bank - 60 + 90
    assert {"event": "funds_lost", "player": "A", "corporation": "SALR", "amount": 90} in s.events


def test_a_bankrupt_presidents_sales_that_close_his_company_lose_his_money():
    """[13] Player Bankruptcy with [10]: he sells all he may, which closes the company
    requiring the train, so the money of his sales is lost too ([5.1.1] Black area)."""
    g = new(3)
    s = g.state
    c = _closing_sale(g)
    s.pay(player_key("A"), "bank", s.player["A"].cash)
    _operating_turn(g, c)
    assert g.finished and g.end_reason == "bankrupt" and c.closed
    assert s.player["A"].cash == 0 and g.result["A"] == 0
    assert {"event": "funds_lost", "player": "A", "corporation": "SALR", "amount": 60} in s.events


# --- [16.2] P4 -------------------------------------------------------------------------------------------


def test_p4_is_not_exchanged_for_a_share_of_a_company_its_owner_sold_this_round():
    """[16.2] P4: "Using the London Investment Company to acquire a share in this manner
    counts as a stock purchase"; [5.3] "Once a player has sold a share of a company, that
    player may not buy another share in that company until after the next set of
    operating rounds"."""
    g = new(3)
    s = g.state
    s.private["P4"].owner = player_key("B")
    stock_round(g, "A")
    g.act({"type": "par", "player": "A", "corporation": "SALR", "price": 100})
    if g.active() == {"player": "A"}:
        g.act({"type": "pass", "player": "A"})
    exchange = {"type": "exchange", "player": "B", "private": "P4", "corporation": "SALR"}
    assert exchange in g.actions()
    g.act({"type": "buy_shares", "player": "B", "corporation": "SALR", "from": "ipo"})
    g.act({"type": "sell_shares", "player": "B", "corporation": "SALR", "count": 1})
    while g.active() != {"player": "B"}:
        g.act({"type": "pass", "player": g.active()["player"]})
    assert exchange not in g.actions()
    refused(g, exchange, "london.exchange")
    assert s.corp["SALR"].held(player_key("B")) == 0 and s.title_state.london is None


# --- deals, listed with their price ranges --------------------------------------------------------------


def test_a_private_between_players_is_listed_and_not_bought_back_in_the_same_round():
    """[16.1] any agreed price of at least $1, in place of the stock purchase; the
    seller may not buy it back this round ([5.3] read for a one-certificate company,
    docs/gaps.md)."""
    g = new(3)
    s = g.state
    s.private["P1"].owner = player_key("B")
    stock_round(g, "A")
    cash = s.player["A"].cash
    offer = {"type": "trade_private", "player": "A", "private": "P1", "from": "B",
             "price": {"min": 1, "max": cash}}
    assert offer in g.actions()
    g.act(dict(offer, price=15))                  # his purchase: nothing left to do, the turn ends
    assert s.private["P1"].owner == player_key("A") and s.player["A"].cash == cash - 15
    assert g.active() == {"player": "B"}
    assert not any(a["type"] == "trade_private" for a in g.actions())
    refused(g, {"type": "trade_private", "player": "B", "private": "P1", "from": "A", "price": 15},
            "private.trade")


def test_a_train_from_a_company_of_another_president_is_listed():
    """[10] Train Cost: "any price mutually agreed to by the president(s)"."""
    g = new(3)
    c = start(g, "SALR", "A", 100, {"A": 4})
    d = start(g, "ACL", "B", 100, {"B": 4})
    g.rules.end_stock_round(None)
    d.trains = owned(g, "2")
    offers = [a for a in g.rules.train_buys(BuyTrainStep(g, c)) if a["from"] == "ACL"]
    assert offers == [{"type": "buy_train", "corporation": "SALR", "from": "ACL", "train": "2",
                       "price": {"min": 1, "max": c.cash}}]


# --- no decision, nothing logged ------------------------------------------------------------------------


def test_a_turn_whose_only_action_is_pass_passes_by_rule():
    """docs/game-log.md: only decisions are logged; a pass with no other choice counts
    toward the round's end ([5.2.2])."""
    g = new(3)
    s = g.state
    s.pay(player_key("B"), "bank", s.player["B"].cash)
    stock_round(g, "B")
    assert g.active() == {"player": "C"}
    assert {"event": "pass", "player": "B", "reason": "no legal action"} in s.events


def test_a_president_who_cannot_pay_for_the_sold_shares_is_not_asked():
    """[5.9] protection is bought at the sale price: a president without the money has
    no decision, and the round goes on left of the seller."""
    g = new(3)
    c = start(g, "SALR", "A", 100, {"A": 2, "B": 3})
    s = g.state
    s.pay(player_key("A"), "bank", s.player["A"].cash)
    stock_round(g, "B")
    g.act({"type": "sell_shares", "player": "B", "corporation": "SALR", "count": 2})
    g.act({"type": "pass", "player": "B"})
    assert c.held("market") == 2
    assert g.active() == {"player": "C"}


# --- [13] the ends: the rules' own, and the title's only where those can never come ----------------------


def _idle_stock_round(g):
    r = StockRound(g, "A", 2)
    r.last_actor = None                           # nobody acted this round
    return r


def test_all_closed_ends_only_when_no_private_pays():
    """[13]: the bank and bankruptcy end the game; with every company closed and P1
    still paying, its income would break the bank in the end ([13.2]): play goes on."""
    g = new(3)
    for c in g.state.corporations:
        c.closed = True
    g.state.private["P1"].owner = player_key("A")
    assert g.rules.game_ends_after(_idle_stock_round(g)) is False and not g.finished
    g.state.private["P1"].open = False
    assert g.rules.game_ends_after(_idle_stock_round(g)) is True
    assert g.end_reason == "all_closed"


def test_stalled_only_when_nothing_operates_nothing_pays_and_nobody_acted():
    g = new(3)
    g.state.private["P1"].owner = player_key("A")
    assert g.rules.game_ends_after(_idle_stock_round(g)) is False
    g.state.private["P1"].open = False
    assert g.rules.game_ends_after(_idle_stock_round(g)) is True
    assert g.end_reason == "stalled"


def test_a_cap_on_idle_stock_rounds_is_the_users_choice():
    """docs/gaps.md: no such end in the rules: off unless config.stall_rounds is set."""
    for config, ended in ((None, False), ({"stall_rounds": 2}, True)):
        g = Game("1832", NAMES[:3], 1, [], config)
        g.state.private["P1"].owner = player_key("A")
        r = _idle_stock_round(g)
        r.last_actor = "A"
        results = [g.rules.game_ends_after(r) for _ in range(2)]
        assert results[-1] is ended and results[0] is False


# --- a 7-player game, kept ---------------------------------------------------------------------------------

SEVEN = os.path.join(os.path.dirname(__file__), "..", "..", "..", "fixtures", "games", "1832-7p-seed1001.game")


def test_a_kept_7_player_game_asks_no_pointless_decision_and_ends_well_within_3000():
    """docs/game-log.md: only decisions are logged. In the kept 7-player random game no
    stock turn or protection offered a pass alone (a turn with nothing to do, a
    protection the president cannot pay), and the game reached a rule's end ([13]) in fewer than
    3000 decisions (`play selfplay`'s default cap)."""
    with open(SEVEN) as fh:
        log = json.load(fh)["log"]
    g = Game.new(log)
    for a in log["actions"]:
        step = g.round.step()
        if isinstance(step, (StockTurn, ProtectStep)):
            assert [x["type"] for x in g.actions()] != ["pass"]
        g.act(a)
    assert g.finished and g.end_reason in ("bank", "bankrupt")
    assert len(log["actions"]) < 3000

"""1832 variants ([17], 1832 rulebook): the $400 finish ([17.1]), 1830 Diesels
([17.2]) and the Southern Bank ([17.3])."""

import _1832
from _trains import owned

from trainruns.game import route_adapter
from trainruns.game.game import Game
from trainruns.game.round import OperatingRound
from trainruns.game.state import player_key
from trainruns.game.steps.buy_train import BuyTrainStep
from trainruns.game.train import names
from trainruns.titles.load import load_position
from trainruns.game.state import LaidTile

NAMES = ["A", "B", "C", "D"]


def start(g, cid, president, par=100, shares=None):
    """A company started with $2,000 for each buyer (these tests' budgets)."""
    return _1832.start(g, cid, president, par, shares, cash=2_000)


def move(g, c, cell):
    g.rules.market.move(c.id, c.cell, cell)
    c.cell = cell


# --- [17.1] $400 finish ----------------------------------------------------------------------------


def _two_companies(variants):
    g = Game("1832", NAMES[:3], 1, variants)
    c = start(g, "SALR", "A", 100, {"A": 4})
    d = start(g, "ACL", "B", 90, {"B": 4})
    g.rules.end_stock_round(None)
    return g, c, d


def test_a_full_dividend_onto_400_ends_the_game_after_that_company_operates():
    """[17.1] "Finish operating that company and then determine the winner. None of
    the remaining companies operate." $375 + full dividend = $400 (top row)."""
    g, c, d = _two_companies(["400_finish"])
    g.round = OperatingRound(g, 1, 1)
    g.round.order = [d]
    move(g, c, (0, 19))
    g.rules.pay_dividend(c, 100, "payout")
    assert g.rules.market.price(c.cell) == 400
    assert not g.finished                         # its turn goes on (trains)
    assert g.round.next_entity() is False         # ACL does not operate
    assert g.finished and g.end_reason == "400_finish"
    assert g.result == {p.name: g.rules.value(p.name) for p in g.state.players}


def test_400_at_the_end_of_a_stock_round_means_no_company_operates():
    g, c, d = _two_companies(["400_finish"])
    move(g, c, (0, 20))
    assert g.rules.game_ends_after(g.round) is True
    assert g.end_reason == "400_finish"


def test_without_the_variant_400_ends_nothing():
    g, c, d = _two_companies([])
    move(g, c, (0, 20))
    assert g.rules.reached_400() is False and not g.finished


# --- [17.2] 1830 Diesels --------------------------------------------------------------------------------


def test_diesels_remove_the_8_and_10_trains_and_their_phases():
    """[17.2] "Discard the 8-trains and 10-trains ... Phases eight and ten are deleted,
    and 5-trains are permanent"; the 4-train "will be rusted by the Diesel"."""
    g = Game("1832", NAMES[:3], 1, ["diesels"])
    s = g.to_json()
    assert [r["train"] for r in s["depot"]] == ["2", "3", "4", "5", "6", "12"]
    assert g.rules.phases.names == ["2", "3", "4", "5", "6", "12"]
    assert g.rules.phases.scrapped_at("12") == ["4"]
    assert "5" not in sum((g.rules.phases.scrapped_at(p) for p in g.rules.phases.names), [])
    standard = Game("1832", NAMES[:3], 1)
    assert standard.rules.phases.scrapped_at("8") == ["4"] and standard.rules.phases.scrapped_at("12") == ["5"]


def _phase_6(g):
    s = g.state
    for row in s.depot:
        if row.train in ("2", "3", "4", "5"):
            row.left = 0
        if row.train == "6":
            row.left = 2                       # the first 6-train has been bought
    s.phase = "6"


def test_diesels_are_sold_from_phase_6_beside_the_6_trains_with_a_300_trade_in():
    """[17.2] "Diesels are available for purchase after the first 6-train has been
    purchased"; "a train may be traded in on a Diesel for a $300 credit"."""
    g = Game("1832", NAMES[:3], 1, ["diesels"])
    c = start(g, "SALR", "A", 100, {"A": 4})
    other = start(g, "ACL", "B", 100, {"B": 4})
    g.rules.end_stock_round(None)
    _phase_6(g)
    c.trains = owned(g, "4", "5")
    other.trains = owned(g, "4", "5")
    g.state.title_state.key_west = "FECR"
    step = BuyTrainStep(g, c)
    listed = [(a["from"], a["train"], a["price"], a.get("trade_in")) for a in g.rules.train_buys(step)
              if a["from"] == "bank"]
    # at the limit of 2: only a diesel with a trade-in keeps the count
    assert listed == [("bank", "12", 800, "4"), ("bank", "12", 800, "5")]
    cash = c.cash
    g.rules.train_process(step, {"type": "buy_train", "corporation": "SALR", "from": "bank", "train": "12",
                                 "trade_in": "4"})
    assert c.cash == cash - 800 and sorted(names(c.trains)) == ["12", "5"]
    assert g.state.phase == "12" and names(other.trains) == ["5"]       # 4-trains rusted, 5-trains stay
    assert g.state.title_state.key_west is None              # phase 8's removal, moved to the diesel
    assert "4" not in names(g.state.market_trains)


def test_a_permanent_5_train_runs_in_phase_12_with_diesels():
    """[17.2] "5-trains are permanent trains as in 1830": after the first diesel the
    game's position says so (``diesels``) and the route core runs the 5-train beside the
    diesel (a position of phase 12 with a 5-train was refused, ending the game)."""
    g = Game("1832", NAMES[:3], 1, ["diesels"])
    c = _1832.operated(g, "SALR", "A", 100, {"A": 4})
    g.rules.end_stock_round(None)
    _phase_6(g)
    c.trains = owned(g, "5")
    step = BuyTrainStep(g, c)
    g.rules.train_process(step, {"type": "buy_train", "corporation": "SALR", "from": "bank", "train": "12"})
    assert g.state.phase == "12" and sorted(names(c.trains)) == ["12", "5"]
    position = g.rules.position("SALR")
    assert position["diesels"] is True
    assert sorted(t.name for t in load_position(position).trains) == ["12", "5"]   # the schema too
    route_adapter.best_run(position)
    assert "diesels" not in Game("1832", NAMES[:3], 1).rules.position("SALR")


def test_without_diesels_the_12_train_waits_for_the_10_trains():
    g = Game("1832", NAMES[:3], 1)
    _phase_6(g)
    assert [r.train for r in g.rules.bank_rows()] == ["6"]


# --- [17.3] the Southern Bank's mortgages ---------------------------------------------------------------


def _bank_game():
    """P6 held by A, who presides SALR (a 3-train, $180); SALR floated."""
    g = Game("1832", NAMES[:3], 1, ["southern_bank"])
    c = start(g, "SALR", "A", 100, {"A": 4})
    g.rules.end_stock_round(None)
    g.state.private["P6"].owner = player_key("A")
    g.state.depot[0].left = 0
    g.state.phase = "3"
    c.trains = owned(g, "3")
    return g, c


def _operating_round(g, k):
    g.rules.or_set = (k, 2)
    g.round = OperatingRound(g, k, 2)
    g.round.settle()


def test_a_mortgage_lends_half_to_double_the_asset_and_p6_then_stops_counting():
    """[17.3] "The mortgage value is from half to double the value of the asset";
    "While it has a mortgage outstanding, it does not count against the player's
    certificate limit"; one change per complete operating round."""
    g, c = _bank_game()
    s = g.state
    _operating_round(g, 1)
    certs = g.rules.player_certs("A")
    offers = [a for a in g.actions() if a["type"] == "mortgage"]
    assert offers == [{"type": "mortgage", "corporation": "SALR", "player": "A", "asset": "train:3",
                       "amount": {"min": 90, "max": 360}}]
    a_cash, c_cash = s.player["A"].cash, c.cash
    g.act(dict(offers[0], amount=300))
    assert s.player["A"].cash == a_cash - 300 and c.cash == c_cash + 300
    assert g.rules.player_certs("A") == certs - 1
    assert g.to_json()["title_state"]["mortgage"]["asset"] == "train:3"
    assert not any(a["type"] in ("mortgage", "repay_mortgage") for a in g.actions())   # once per round


def test_interest_is_10_percent_of_the_asset_and_repayment_half_to_full_value():
    """[17.3] "At the start of each operating round, the company will pay you 10%
    interest (10% of the value of the mortgaged asset)" - $18 on a 3-train - instead of
    P6's $10; "The company will repay the mortgage for half to full value"."""
    g, c = _bank_game()
    s = g.state
    _operating_round(g, 1)
    g.act({"type": "mortgage", "corporation": "SALR", "player": "A", "asset": "train:3", "amount": 200})
    a_cash, c_cash = s.player["A"].cash, c.cash
    _operating_round(g, 2)
    assert s.player["A"].cash == a_cash + 18 and c.cash == c_cash - 18
    assert {"event": "interest", "corporation": "SALR", "player": "A", "amount": 18} in s.events
    assert not any(e.get("private") == "P6" for e in s.events)
    repay = next(a for a in g.actions() if a["type"] == "repay_mortgage")
    assert repay["amount"] == {"min": 90, "max": 180}
    g.act(dict(repay, amount=180))
    assert g.to_json()["title_state"]["mortgage"] is None


def test_no_interest_without_the_money_and_the_mortgage_is_lost_with_its_asset():
    """[17.3] "If the company does not have enough money to pay the interest, it pays
    nothing"; "If the asset disappears, you lose your investment"."""
    g, c = _bank_game()
    s = g.state
    _operating_round(g, 1)
    g.act({"type": "mortgage", "corporation": "SALR", "player": "A", "asset": "train:3", "amount": 100})
    s.pay("corp:SALR", "bank", c.cash - 10)
    a_cash = s.player["A"].cash
    _operating_round(g, 2)
    assert s.player["A"].cash == a_cash and c.cash == 10
    c.trains = []                                 # scrapped (obsolete)
    assert g.to_json()["title_state"]["mortgage"] is None
    _operating_round(g, 1)
    assert {"event": "mortgage_lost", "player": "A", "corporation": "SALR", "asset": "train:3"} in s.events
    assert {"event": "income", "private": "P6", "owner": "A", "amount": 10} in s.events   # phase 3: $10 again


def test_a_takeover_loses_the_buyers_mortgage_and_keeps_what_it_paid_for_its_tokens():
    """[17.3] "Assets disappear if ... the company is involved in a merger": the buyer of
    a takeover ([11.7]) stays open, and its mortgage is lost all the same; "Assets
    eligible to be mortgaged are ... tokens that the company has paid to place": the
    buyer's own paid tokens stay eligible after it takes over another company."""
    from test_game_1832_mergers import company

    g = Game("1832", NAMES[:3], 1, ["southern_bank"])
    r, s = g.rules, g.state
    x = company(g, "SALR", "A", 100, {"A": 2})
    y = company(g, "ACL", "B", 90, {"B": 2})
    x.floated = y.floated = True
    s.private["P6"].owner = player_key("A")
    s.phase = "4"
    x.trains = owned(g, "4")
    x.tokens.append(("D16", 0))      # a second token, placed for its charter price
    paid = x.token_costs[1]
    assert paid > 0 and "token:D16.0" in r._assets(x)
    _operating_round(g, 1)
    g.act({"type": "mortgage", "corporation": "SALR", "player": "A", "asset": "train:4", "amount": 300})
    assert r.mortgage() is not None
    r.take_over(x, y)
    assert not x.closed and r.mortgage() is None and g.to_json()["title_state"]["mortgage"] is None
    assert {"event": "mortgage_lost", "player": "A", "corporation": "SALR", "asset": "train:4"} in s.events
    assert r._assets(x).get("token:D16.0") == paid


def test_a_mortgage_is_lost_when_its_holder_stops_presiding_even_if_he_presides_again():
    """[17.3] "Assets disappear if ... you cease to be the president of the company
    holding the asset": A sells, B becomes president, B sells, A is president again; the
    mortgage stays lost and the next operating round pays P6's $10, not the interest."""
    from trainruns.game.round import StockRound

    g = Game("1832", NAMES[:3], 1, ["southern_bank"])
    r, s = g.rules, g.state
    c = _1832.operated(g, "SALR", "A", 100, {"A": 2, "B": 3})   # A 4 shares, B 3
    s.private["P6"].owner = player_key("A")
    s.depot[0].left = 0
    s.phase = "3"
    c.trains = owned(g, "3")
    _operating_round(g, 1)
    g.act({"type": "mortgage", "corporation": "SALR", "player": "A", "asset": "train:3", "amount": 300})
    r.stock_round_number = 2
    g.round = StockRound(g, "A", 2)
    g.round.settle()
    g.act({"type": "sell_shares", "player": "A", "corporation": "SALR", "count": 2})
    assert c.president == "B" and r.mortgage() is None
    assert {"event": "mortgage_lost", "player": "A", "corporation": "SALR", "asset": "train:3"} in s.events
    while g.active().get("player") != "B" or any(a["type"] == "protect" for a in g.actions()):
        g.act({"type": "pass", "player": g.active()["player"]})
    g.act({"type": "sell_shares", "player": "B", "corporation": "SALR", "count": 2})
    assert c.president == "A"
    assert g.to_json()["title_state"]["mortgage"] is None
    _operating_round(g, 1)
    assert {"event": "income", "private": "P6", "owner": "A", "amount": 10} in s.events
    assert not any(e["event"] == "interest" for e in s.events)


def test_a_mortgaged_token_stays_the_asset_when_its_city_is_renumbered_by_an_upgrade():
    """[17.3] the asset disappears only when it goes: SOU's $40 token in Atlanta's third
    city (#190, F10.2) is its city 0 once #191 joins the three, and the interest is
    still paid: 10% of $40."""
    g = Game("1832", NAMES[:3], 1, ["southern_bank"])
    r, s = g.rules, g.state
    c = _1832.operated(g, "SOU", "A", 100, {"A": 4})
    s.private["P6"].owner = player_key("A")
    for row in s.depot:
        if row.train in ("2", "3", "4"):
            row.left = 0
    s.phase = "5"
    c.trains = owned(g, "5")
    s.tiles.append(LaidTile("F10", "190", 0))
    c.tokens.append(("F10", 2))
    r.or_set = (1, 3)
    g.round = OperatingRound(g, 1, 3)
    g.round.settle()
    g.act({"type": "mortgage", "corporation": "SOU", "player": "A", "asset": "token:F10.2", "amount": 80})
    r.lay_tile(c, {"hex": "F10", "tile": "191", "rotation": 0, "cost": 0, "upgrade": True})
    assert ("F10", 0) in c.tokens and r.mortgage().asset == "token:F10.0"
    a_cash = s.player["A"].cash
    r.or_set = (2, 3)
    g.round = OperatingRound(g, 2, 3)
    g.round.settle()
    assert s.player["A"].cash == a_cash + 4
    assert not any(e["event"] == "mortgage_lost" for e in s.events)


def test_a_southern_bank_that_pays_nothing_does_not_keep_a_closed_game_going():
    """docs/gaps.md (1832 ends): every company closed and no private paying ends the game
    (`all_closed`); from phase 5 P6 without a mortgage pays nothing ([17.3]), so it does
    not hold the game open, as the other privates, closed at phase 5, do not."""
    from trainruns.game.round import StockRound

    for variants in ([], ["southern_bank"]):
        g = Game("1832", NAMES[:3], 1, variants)
        r, s = g.rules, g.state
        for x in s.privates:
            x.owner = player_key("A")
            x.open = x.id == "P6"
        s.phase = "5"
        for c in s.corporations:
            c.closed = True
        g.round = StockRound(g, "A", 5)
        assert r.game_ends_after(g.round) and g.end_reason == "all_closed", variants

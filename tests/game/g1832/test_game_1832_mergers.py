"""1832 mergers ([11]), one test per rule, each naming its rulebook section
(1832 rulebook). The arithmetic rules (System price, dividends,
takeover price) are checked on prepared states against the rulebook's own examples; the
merger phase is played through Game.act in a scripted scenario with exact prices,
shares and cash."""

import pytest
from _trains import owned

from trainruns import load_position
from trainruns.game import merger, route_adapter
from trainruns.game.errors import Refusal
from trainruns.game.game import Game
from trainruns.game.state import player_key
from trainruns.game.tile_lays import may_lay
from trainruns.game.train import names
from trainruns.game.turn import Turn
from trainruns.game.state import LaidTile

NAMES = ["A", "B", "C", "D"]


def new(n=4):
    return Game("1832", NAMES[:n], 1)


def give(g, name, amount):
    """Money from the bank to a player (the total stays the same)."""
    g.state.pay("bank", player_key(name), amount)


def company(g, cid, president, par, holders, cell=None):
    """A started, floated, capitalised company that has operated, with its home token;
    ``holders`` maps players to shares bought at par from the initial offering."""
    r, s = g.rules, g.state
    c = s.corp[cid]
    give(g, president, par * 2)
    r.start_corporation(c, president, par)
    for name, n in holders.items():
        give(g, name, par * n)
        r.buy_shares(c, name, "ipo", n, par)
    s.pay("bank", f"corp:{cid}", par * 10)
    c.capitalised = True
    c.operated = True
    r.home_token(c)
    if cell is not None:
        r.market.move(c.id, c.cell, cell)
        c.cell = cell
    return c


def money(g):
    return g.state.money()


# --- [11.6] New Share Price ---------------------------------------------------------------------


@pytest.mark.parametrize("cells,cell,price,par", [
    # the rulebook's example: $140 and $160 average $150, exactly between two values: up to
    # $160; on the row of the leftmost ($140, row 0), then down-right to the soft ledge
    (((0, 9), (0, 10)), (2, 12), 160, 160),
    # $300 and $275: $287.50 rounds up to $300; above $275 the par is $275
    (((0, 16), (0, 15)), (1, 17), 300, 275),
    # $100 and $120 average $110, a market value; from the leftmost's row 2 down the
    # diagonal to the soft ledge: row 3 (row 4's $110 is below the ledge)
    (((2, 8), (1, 9)), (3, 10), 110, 110),
    # below the soft ledge already: down to the hard ledge (the column's end)
    (((3, 14), (3, 15)), (3, 15), 200, 200),
])
def test_system_price_rounds_to_a_market_value_ties_up_then_slides_down_the_diagonal(cells, cell, price, par):
    """[11.6] New Share Price and par (at most $275)."""
    g = new()
    x = company(g, "SALR", "A", 100, {"A": 2}, cells[0])
    y = company(g, "ACL", "B", 100, {"B": 2}, cells[1])
    r = g.rules
    got = r.system_cell(x, y)
    assert got == cell and r.market.price(got) == price and r.system_par(got) == par


# --- [11.6] System Dividend --------------------------------------------------------------------


def _system(g, holders_x=None, holders_y=None):
    x = company(g, "SALR", "A", 100, holders_x or {"A": 2, "B": 1})
    y = company(g, "ACL", "A", 100, holders_y or {"A": 1, "C": 2})
    return g.rules.form_system(x, y, "A", "AMTK")


def test_system_dividend_rounds_odd_shares_up_on_the_rulebooks_130():
    """[11.6] System Dividend: "$130 ... 1 share $7, two shares $13, 3 shares $20"."""
    g = new()
    sysc = _system(g, {"A": 2, "B": 1}, {"A": 1, "C": 2, "D": 3})
    s = g.state
    # A: 4 + 3 = 7 shares (the 4-share president's certificate and three more), B 1, C 2, D 3
    assert {n: sysc.held(player_key(n)) for n in NAMES} == {"A": 7, "B": 1, "C": 2, "D": 3}
    before = {n: s.player[n].cash for n in NAMES}
    g.rules.pay_dividend(sysc, 130, "payout")
    paid = {n: s.player[n].cash - before[n] for n in NAMES}
    assert paid["B"] == 7 and paid["C"] == 13 and paid["D"] == 20
    assert paid["A"] == 46   # 7 x $6.50 = $45.50, the odd share rounded up


def test_a_system_half_dividend_rounded_above_the_run_is_not_offered():
    """[9] Half Dividend: "the company retains half of the money and pays the rest as a
    dividend", rounded up per share: a System's $10 run would pay $1 on each of its 20
    shares, $20, so no half dividend is offered (docs/gaps.md); a $20 run pays $1 a
    share and keeps nothing."""
    from trainruns.game.steps.dividend import DividendStep

    g = new()
    sysc = _system(g)
    r = g.rules
    assert r.dividend_kinds(sysc, 10) == ["payout", "withhold"]
    assert r.dividend_kinds(sysc, 20) == ["payout", "half", "withhold"]
    d = r.dividend(sysc, 20, "half")
    assert d.kept == 0 and sum(a for _h, a in d.payments) == 20
    turn = Turn(sysc.id)
    turn.revenue = 10
    step = DividendStep(g, sysc, turn)
    assert [a["kind"] for a in step.actions()] == ["payout", "withhold"]
    before = money(g)
    with pytest.raises(Refusal) as e:
        step.process({"type": "dividend", "corporation": sysc.id, "kind": "half"})
    assert e.value.rule == "dividend.kind" and money(g) == before
    with pytest.raises(Refusal):
        r.pay_dividend(sysc, 10, "half")


# --- [11.6] System shares, presidency, assets ------------------------------------------------


def test_system_keeps_every_holders_share_count_and_the_president_exchanges_40_percent():
    """[11.6] System Presidency and System shares: 20 shares; the 40% exchanged becomes
    the 4-share president's certificate; a component president's certificate held by
    another player is a vice-president's certificate (one certificate for 2 shares)."""
    g = new()
    x = company(g, "SALR", "A", 100, {"A": 1, "B": 2})    # A: president 2 + 1
    y = company(g, "ACL", "B", 90, {"A": 1, "C": 1})      # B president 2; A 1, C 1
    total = money(g)
    cash = x.cash + y.cash
    sysc = g.rules.form_system(x, y, "A", "AMTK")
    assert sysc.total_shares == 20 and sum(sysc.shares.values()) == 20
    assert sysc.president == "A" and sysc.held(player_key("A")) == 4
    assert sysc.held(player_key("B")) == 4 and sysc.held(player_key("C")) == 1
    assert sysc.held("ipo") == 20 - 9
    assert sysc.vice_presidents == {"ACL": "player:B"}
    # B holds 4 shares in 3 certificates: the vice-president's 2 and two 10% shares
    assert g.rules.certificates_held(sysc, "B") == 3
    assert g.rules.certificates_held(sysc, "A") == 1
    assert sysc.cash == cash and money(g) == total
    assert x.closed and y.closed and x.shares == {} and y.shares == {}
    j = g.to_json()
    sj = next(c for c in j["corporations"] if c["id"] == "AMTK")
    assert sj["shares"]["total"] == 20 and sj["system"]["components"] == ["SALR", "ACL"]
    assert j["title_state"]["mergers"]["systems"][0]["system"] == "AMTK"


def test_system_presidency_goes_to_the_first_player_clockwise_with_40_percent():
    """[11.6] "The merger initiator, or the first player clockwise from the initiator
    that has 40% total of the two companies"; then [5.5] a player with more takes it."""
    g = new()
    x = company(g, "SALR", "A", 100, {"C": 2})          # A 2, C 2
    y = company(g, "ACL", "B", 100, {"C": 2, "D": 1})   # B 2, C 2, D 1
    assert g.rules.exchanger(x, y, "A") == "C"
    sysc = g.rules.form_system(x, y, "A", "AMTK")
    assert sysc.president == "C" and sysc.vice_presidents == {"SALR": "player:A", "ACL": "player:B"}
    z = company(g, "CG", "A", 100, {})
    w = company(g, "GMO", "B", 100, {})
    assert g.rules.exchanger(z, w, "A") is None          # nobody holds 40%: no System


def test_system_tokens_lose_duplicates_and_cost_100_trains_double_the_limit():
    """[11.6] System Company Tokens (a second token in one city returns to the charter;
    every token left costs $100) and System Trains (two shells: twice the limit)."""
    g = new()
    x = company(g, "SALR", "A", 100, {"A": 1})
    y = company(g, "ACL", "A", 100, {"A": 1})
    x.tokens.append(("G17", 0))            # SALR also in Charleston, ACL's home
    x.trains, y.trains = owned(g, "3", "4"), owned(g, "4")
    g.state.phase = "4"
    sysc = g.rules.form_system(x, y, "A", "AMTK")
    assert sysc.tokens == [("D20", 0), ("G17", 0)]
    assert len(sysc.token_costs) == 3 + 3 and sysc.token_costs[len(sysc.tokens):] == [100] * 4
    assert names(sysc.trains) == ["3", "4", "4"] and g.rules.train_limit(sysc) == 6
    assert any(e["event"] == "token_returned" for e in g.state.events)
    # the route core takes the System's position (20-share company of two shells)
    load_position(g.rules.position("AMTK"))


def test_system_lays_three_yellow_or_a_yellow_and_an_upgrade_of_another_hex():
    """[11.6.8] System Track Laying (a company: two yellow or one upgrade, [6])."""
    g = new()
    sysc = _system(g)
    x = company(g, "CG", "B", 100, {})
    r = g.rules
    y, u = {"hex": "E1", "upgrade": False}, {"hex": "E3", "upgrade": True}

    def allowance(c, lays):   # (a yellow tile, an upgrade) may follow ``lays``
        return may_lay(r.tile_allowance(c), lays, False), may_lay(r.tile_allowance(c), lays, True)

    assert allowance(sysc, []) == (True, True)
    assert allowance(sysc, [y]) == (True, True)
    assert allowance(sysc, [y, y]) == (True, False)
    assert allowance(sysc, [y, y, y]) == (False, False)
    assert allowance(sysc, [u]) == (True, False)
    assert allowance(sysc, [y, u]) == (False, False)
    assert allowance(x, [y]) == (True, False) and allowance(x, [u]) == (False, False)


def test_a_system_buys_the_coal_token_while_it_may_still_lay_a_yellow_tile():
    """[11.6.8] System Track Laying with [6.5.2] "Paying for the West Virginia Coal Fields
    counts as a yellow tile lay": after an upgrade, or two yellow tiles, a System still
    lays a yellow tile, so the WVCF token is offered; a company's two yellow tiles or
    one upgrade ([6]) leave none."""
    from trainruns.titles.g1832.game.steps.operating import TrackStep1832

    g = new()
    sysc = _system(g)
    x = company(g, "CG", "B", 100, {})
    g.state.private["P5"].open = False             # closed: WVCF tokens come from the bank
    r = g.rules
    y, u = {"hex": "E1", "upgrade": False}, {"hex": "E3", "upgrade": True}
    coal = {"type": "buy_token", "corporation": "AMTK", "kind": "coal"}
    assert r.coal_token_offer(sysc, [u]) == coal and r.coal_token_offer(sysc, [y, y]) == coal
    assert r.coal_token_offer(sysc, [y, u]) is None and r.coal_token_offer(sysc, [y, y, y]) is None
    assert r.coal_token_offer(x, [y]) is not None
    assert r.coal_token_offer(x, [u]) is None and r.coal_token_offer(x, [y, y]) is None
    step = TrackStep1832(g, sysc, Turn(sysc.id))
    step.lays = [u]
    cash = sysc.cash
    r.buy_coal_token(sysc, step)
    assert sysc.id in g.state.title_state.coal_holders and sysc.cash == cash - 80
    assert not may_lay(r.tile_allowance(sysc), step.lays, False)


def test_a_system_redeems_twice_per_stock_round_one_per_turn_within_8_shares():
    """[11.6.9] System Share Redemption: two 5% shares per stock round, one per turn;
    the limit is 40% (8 shares) and 60% (12) stays out of the company."""
    from trainruns.game.shares import scaled

    g = new()
    sysc = _system(g)
    shares = g.rules.shares
    assert [scaled(shares, sysc, k) for k in ("redeem_limit", "float", "player_limit", "market_limit",
                                              "president")] == [8, 12, 12, 10, 4]


# --- [11.7] takeovers ------------------------------------------------------------------------


def test_takeover_pays_market_price_for_held_shares_par_for_unsold_and_moves_the_cert_limit():
    """[11.7] Takeovers: players' and open-market shares at the market value, unsold
    shares at par, redeemed shares not bought; the president adds what the treasury
    lacks; the certificate limit moves one column per shell taken over."""
    g = new()
    s, r = g.state, g.rules
    x = company(g, "SALR", "A", 100, {"A": 2})            # A 4
    y = company(g, "ACL", "B", 90, {"C": 3, "B": 1})     # B 3, C 3, 4 unsold
    s.move_shares(y, "ipo", "treasury", 1)               # a redeemed share: 3 unsold
    s.move_shares(y, player_key("C"), "market", 1)       # C 2, market 1
    price = r.market.price(y.cell)
    assert price == 90
    cost = (3 + 2 + 1) * 90 + 3 * 90
    assert merger.buyout_cost(r, y) == cost == 810
    x.cash = 0
    s.bank.cash += 1000   # SALR's treasury back to the bank (the money total kept)
    y_cash = y.cash
    give(g, "A", 1000)
    before = {n: s.player[n].cash for n in NAMES}
    limit = r.cert_limit()
    total = money(g)
    r.take_over(x, y)
    assert money(g) == total
    assert s.player["A"].cash == before["A"] - 810              # the president paid it all
    assert s.player["B"].cash == before["B"] + 3 * 90 and s.player["C"].cash == before["C"] + 2 * 90
    assert x.cash == y_cash and y.closed and y.taken_over_by == "SALR"
    assert r.cert_limit() == 14 and limit == 16                 # 4 players: one column right
    assert x.tokens == [("D20", 0), ("G17", 0)]


def test_taking_over_a_system_moves_the_limit_two_columns():
    """[11.7] "moved one column to the right for each shell in the company which was
    taken over"; [11.6] forming the System moved none."""
    g = new()
    sysc = _system(g)
    r = g.rules
    assert r.cert_limit() == 16
    z = company(g, "CG", "B", 100, {"B": 1})
    give(g, "B", 10_000)
    r.take_over(z, sysc)
    assert r.cert_limit() == 12


# --- [11] the merger phase, played ----------------------------------------------------------------


def _connected_pair(g):
    """ACL (Charleston) and CoG (Savannah) are neighbours: lay a yellow tile on each so
    that a run of one reaches the other's token ([11] Merger Eligibility)."""
    s, r = g.state, g.rules
    acl, cg = s.corp["ACL"], s.corp["CG"]
    for m in route_adapter.tile_lays(r.position("ACL")):
        if m["hex"] != "G17":
            continue
        s.tiles.append(LaidTile.of(m))
        for n in route_adapter.tile_lays(r.position("CG")):
            if n["hex"] != "H16":
                continue
            s.tiles.append(LaidTile.of(n))
            if r.connected(acl, cg):
                return
            s.tiles.pop()
        s.tiles.pop()
    raise AssertionError("no pair of yellow tiles joins Charleston and Savannah")


def _scenario():
    """Phase 4, the last stock round's players all to pass: ACL (A, at $100) and CoG
    (B, at $82) operated and connected; SALR (A) is far away."""
    g = new()
    s = g.state
    # the private auction done by rule-free setting: every private closed, nobody holds one
    while g.to_json()["round"]["kind"] == "private_auction":
        listed = g.actions()
        act = next((a for a in listed if a["type"] in ("buy_private", "par")), listed[0])
        if act["type"] == "par":
            act = dict(act, price=82)
        g.act(act)
    s.phase = "4"
    acl = company(g, "ACL", "A", 100, {"A": 2, "C": 1})
    cg = s.corp["CG"]                                   # P7's buyer presides CoG at $82
    r = g.rules
    s.pay("bank", "corp:CG", 820)
    cg.capitalised = cg.floated = cg.operated = True
    r.home_token(cg)
    _connected_pair(g)
    return g, acl, cg


def test_merger_phase_after_the_stock_round_with_consent_forms_a_system():
    """[11] Merger Phase: after the stock round of phase 4, players in priority order
    propose; the other president consents; the System's price is the rounded average
    ([11.6]): ($100 + $82) / 2 = $91 -> $90."""
    g, acl, cg = _scenario()
    s = g.state
    pres_cg = cg.president
    assert pres_cg != "A"
    # everybody passes in the stock round: the merger phase follows
    while g.to_json()["round"]["kind"] == "stock":
        g.act({"type": "pass", "player": g.active()["player"]})
    j = g.to_json()
    assert j["round"]["kind"] == "merger"
    # players without a company that may merge are skipped; A proposes
    while g.active()["player"] != "A":
        g.act({"type": "pass", "player": g.active()["player"]})
    listed = g.actions()
    assert {"type": "merge", "player": "A", "corporation": "ACL", "with": "CG", "kind": "system",
            "system": "AMTK"} in listed
    total = money(g)
    holders = {n: acl.held(player_key(n)) + cg.held(player_key(n)) for n in NAMES}
    cash = acl.cash + cg.cash
    g.act({"type": "merge", "player": "A", "corporation": "ACL", "with": "CoG", "kind": "system"})
    assert g.active() == {"player": pres_cg}
    with pytest.raises(Refusal):
        g.act({"type": "consent", "player": "A", "corporation": "CG"})
    g.act({"type": "consent", "player": pres_cg, "corporation": "CG"})
    sysc = s.corp["AMTK"]
    assert g.rules.market.price(sysc.cell) == 90 and sysc.par == 90
    assert {n: sysc.held(player_key(n)) for n in NAMES} == holders
    assert sysc.president == "A" and sysc.cash == cash and money(g) == total
    assert sorted(sysc.tokens) == [("G17", 0), ("H16", 0)]
    assert acl.merged_into == "AMTK" and cg.closed


def test_a_refused_merger_changes_nothing_and_is_not_offered_again_that_turn():
    g, acl, cg = _scenario()
    while g.to_json()["round"]["kind"] == "stock":
        g.act({"type": "pass", "player": g.active()["player"]})
    while g.active()["player"] != "A":
        g.act({"type": "pass", "player": g.active()["player"]})
    before = g.to_json()["corporations"]
    g.act({"type": "merge", "player": "A", "corporation": "ACL", "with": "CG", "kind": "system"})
    g.act({"type": "pass", "player": cg.president})
    assert g.to_json()["corporations"] == before
    assert not any(a.get("kind") == "system" and a.get("with") == "CG" for a in g.actions())


def test_no_merger_phase_before_phase_4():
    """[11] Merger Eligibility: mergers only after the first 4-train."""
    g, acl, cg = _scenario()
    g.state.phase = "3"
    while g.to_json()["round"]["kind"] == "stock":
        g.act({"type": "pass", "player": g.active()["player"]})
    assert g.to_json()["round"]["kind"] == "operating"


def test_the_last_chance_merger_phase_is_for_one_presidents_companies_only():
    """[11] Merger Phase: after the turn in which the first 6-train is bought, one last
    phase in which one player must preside both companies."""
    g, acl, cg = _scenario()
    r = g.rules
    assert r.merger_proposals("A", last_chance=True) == []      # CoG is not A's
    cg.president, pres = "A", cg.president
    assert any(p["with"] == "CG" for p in r.merger_proposals("A", last_chance=True))
    cg.president = pres
    r.start_last_chance()
    assert g.state.title_state.last_chance == "pending"
    assert r.last_chance_turns() == [] and g.state.title_state.last_chance == "done"


def test_a_system_president_may_help_buy_the_cheapest_train_with_his_cash_only():
    """[11.6.7] System Trains: with trains, but no more than one shell's limit, the
    president may pay what the treasury lacks for the cheapest train (no share sales)."""
    from trainruns.game.steps.buy_train import BuyTrainStep

    g = new()
    sysc = _system(g)
    s, r = g.state, g.rules
    for row in s.depot[:2]:
        row.left = 0       # the bank sells 4-trains ($300): phase 4
    s.phase = "4"
    sysc.trains = owned(g, "4")
    s.pay(f"corp:{sysc.id}", "bank", sysc.cash - 100)
    s.pay(player_key("A"), "bank", s.player["A"].cash - 250)
    step = BuyTrainStep(g, sysc)
    buys = [a for a in r.train_buys(step) if a["from"] in ("bank", "market")]
    assert buys == [{"type": "buy_train", "corporation": "AMTK", "from": "bank", "train": "4", "price": 300}]
    r.train_process(step, buys[0])
    assert sysc.cash == 0 and s.player["A"].cash == 50 and names(sysc.trains) == ["4", "4"]
    sysc.trains = owned(g, "4") * 4             # more than one shell's limit (3): no help
    s.pay("bank", player_key("A"), 1000)
    assert [a for a in r.train_buys(step) if a["from"] in ("bank", "market")] == []


def test_a_system_holder_under_60_percent_sells_any_count():
    """[11.6] a System has 20 shares, so its 60% limit is 12 ([5.4]); [5.9.8]'s sale back
    to 60% binds only a holder above that: 11 of 20 (55%) may sell one share, outside
    the green and brown areas too. Above it, 13 of 20, he must sell at least 1 and
    14 at least 2."""
    from trainruns.titles.g1832.game.steps.stock_turn import sell_back_minimum
    g = new()
    sysc = _system(g, {"A": 4}, {"A": 3})
    assert sysc.total_shares == 20 and sysc.held(player_key("A")) == 11
    assert not g.rules.may_exceed_holding(sysc)
    assert sell_back_minimum(g.rules, sysc, "A", 7) == 1
    for held, least in ((13, 1), (14, 2)):
        n = held - sysc.held(player_key("A"))
        sysc.shares["ipo"] -= n
        sysc.shares[player_key("A")] += n
        assert sell_back_minimum(g.rules, sysc, "A", 7) == least

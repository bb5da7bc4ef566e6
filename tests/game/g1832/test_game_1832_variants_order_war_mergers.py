"""1832 variants ([17], 1832 rulebook): the Historical Order Start ([17.4]), the Civil
War ([17.5]) and No Mergers ([17.6]), each worked by hand from the rulebook's words."""

import random

import _1832
import pytest
from _trains import owned

from trainruns.game import route_adapter
from trainruns.game.game import Game
from trainruns.game.round import OperatingRound
from trainruns.game.state import player_key
from trainruns.game.steps.buy_train import BuyTrainStep
from trainruns.game.train import names
from trainruns.game.state import LaidTile

NAMES = ["A", "B", "C", "D"]

# [17.4] the table's order: 1830, 1832, 1833 (CoG's row, then GRR's), 1847 (SOU, A&WP),
# 1850 (N&W, L&N, GM&O), 1885
TABLE_ORDER = ["ACL", "SALR", "CG", "GRR", "SOU", "A&WP", "N&W", "L&N", "GMO", "FECR"]


def _stock_round(variants):
    """The first stock round after the private sales; C is to act."""
    g = Game("1832", NAMES, 1, variants)
    _1832.buy_all_privates(g)
    assert g.to_json()["round"]["kind"] == "stock" and g.active() == {"player": "C"}
    g.state.pay("bank", player_key("C"), 1_000)
    return g


def _ipo_buy(g, cid):
    return {"type": "buy_shares", "player": "C", "corporation": cid, "from": "ipo", "count": 1}


def _listed(g, cid):
    return _ipo_buy(g, cid) in g.actions()


# --- [17.4] Historical Order Start ------------------------------------------------------------


def test_historical_order_is_the_tables_order():
    """[17.4] the table, by year of construction; a year's companies in the table's rows
    (CoG before GRR in 1833; SOU before A&WP in 1847; N&W, L&N, GM&O in 1850)."""
    g = Game("1832", NAMES, 1, ["historical_order"])
    assert g.rules.data["historical_order"] == TABLE_ORDER
    assert sorted(TABLE_ORDER) == sorted(c.id for c in g.state.corporations)


def test_a_6th_share_waits_for_every_predecessor_to_sell_6():
    """[17.4] "a 6th share may not be purchased until all of its predecessors have been
    started. A company is eligible to start when all companies before it have sold 6
    shares from the initial offering": SALR (2nd) with its president's certificate
    (2 shares) and 3 more sold has sold 5; its 6th waits for ACL (1st)."""
    g = _stock_round(["historical_order"])
    salr = _1832.start(g, "SALR", "A", 100, {"B": 3})
    assert 10 - salr.held("ipo") == 5
    assert not _listed(g, "SALR")
    refusal = _1832.refused(g, _ipo_buy(g, "SALR"), "stock.historical-order")
    assert "ACL" in str(refusal) and "[17.4]" in str(refusal)
    # ACL (first in the table) sells its 6th: then SALR's 6th may be bought
    acl = _1832.start(g, "ACL", "D", 90, {"B": 3})
    assert g.rules.ipo_refusal(acl) is None
    g.rules.buy_shares(acl, "D", "ipo", 1, 90)
    assert acl.floated
    assert _listed(g, "SALR")
    cash = g.state.player["C"].cash
    g.act(_ipo_buy(g, "SALR"))
    assert salr.floated and g.state.player["C"].cash == cash - 100


def test_shares_before_the_6th_and_any_company_start_are_open():
    """[17.4] "Shares in the other companies are available for sale": FECR (last) may
    be started and sell its 3rd to 5th shares while nobody before it has floated."""
    g = _stock_round(["historical_order"])
    assert any(a["type"] == "par" and a["corporation"] == "FECR" for a in g.actions())
    fec = _1832.start(g, "FECR", "A", 100, {"B": 2})
    assert 10 - fec.held("ipo") == 4
    assert _listed(g, "FECR")                      # its 5th share
    g.act(_ipo_buy(g, "FECR"))
    assert g.rules.ipo_refusal(fec)[0] == "stock.historical-order"
    assert "ACL, SALR, CG, GRR, SOU, A&WP, N&W, L&N, GMO" in g.rules.ipo_refusal(fec)[1]


def test_a_closed_predecessor_holds_nobody_back():
    """[17.4] read with [5.1.1] (a closed company is never restarted, so it can never
    sell 6): GRR (4th) waits for ACL, SALR and CoG; once ACL and SALR have floated and CoG
    closed, it may sell its 6th."""
    g = _stock_round(["historical_order"])
    r = g.rules
    grr = _1832.start(g, "GRR", "A", 100, {"B": 3})
    assert "ACL, SALR, CG have" in r.ipo_refusal(grr)[1]
    for cid in ("ACL", "SALR"):
        g.state.corp[cid].floated = True
    assert "CG has" in r.ipo_refusal(grr)[1]
    r.close_corporation(g.state.corp["CG"])
    assert r.ipo_refusal(grr) is None


def test_without_the_variant_the_6th_share_is_open():
    g = _stock_round([])
    _1832.start(g, "SALR", "A", 100, {"B": 3})
    assert _listed(g, "SALR")


@pytest.mark.parametrize("variants,open_", [(["historical_order"], False), ([], True)])
def test_p4_exchange_is_a_purchase_and_waits_for_the_6th_share_too(variants, open_):
    """[16.2] P4: "Using the London Investment Company to acquire a share in this manner
    counts as a stock purchase", so with [17.4] it may not take SALR's 6th share while
    ACL, before it in the table, has not sold 6; without the variant it may. C starts
    SALR (2 shares), D, A and B buy one each (5 sold), then C, who holds P4, is to act."""
    g = _stock_round(variants)
    g.state.private["P4"].owner = player_key("C")
    g.act({"type": "par", "player": "C", "corporation": "SALR", "price": 100})
    for name in ("D", "A", "B"):
        assert g.active() == {"player": name}
        g.act({"type": "buy_shares", "player": name, "corporation": "SALR", "from": "ipo", "count": 1})
    assert g.active() == {"player": "C"} and 10 - g.state.corp["SALR"].held("ipo") == 5
    exchange = {"type": "exchange", "player": "C", "private": "P4", "corporation": "SALR"}
    assert (exchange in g.actions()) is open_ and _listed(g, "SALR") is open_
    if not open_:
        _1832.refused(g, exchange, "london.exchange")


# --- [17.6] No Mergers ------------------------------------------------------------------------


def _connected(variants):
    """Phase 4, ACL (A) and CoG operated, their home cities joined by two yellow tiles
    ([11] Merger Eligibility), the stock round's players all to pass."""
    g = Game("1832", NAMES, 1, variants)
    _1832.buy_all_privates(g, cog_par=82)
    s, r = g.state, g.rules
    s.phase = "4"
    acl = _1832.operated(g, "ACL", "A", 100, {"A": 2, "C": 1})
    cg = s.corp["CG"]
    s.pay("bank", "corp:CG", 820)
    cg.capitalised = cg.floated = cg.operated = True
    r.home_token(cg)
    for m in route_adapter.tile_lays(r.position("ACL")):
        if m["hex"] != "G17":
            continue
        s.tiles.append(LaidTile.of(m))
        for n in route_adapter.tile_lays(r.position("CG")):
            if n["hex"] == "H16":
                s.tiles.append(LaidTile.of(n))
                if r.connected(acl, cg):
                    return g
                s.tiles.pop()
        s.tiles.pop()
    raise AssertionError("no pair of yellow tiles joins Charleston and Savannah")


@pytest.mark.parametrize("variants,after", [([], "merger"), (["no_mergers"], "operating")])
def test_no_mergers_skips_the_merger_phase_after_phase_4_stock_rounds(variants, after):
    """[17.6] "The game may be played without the merger rules": the merger phase that
    [11] puts after each stock round of phases 4 and 5 is not held, so no System."""
    g = _connected(variants)
    while g.to_json()["round"]["kind"] == "stock":
        g.act({"type": "pass", "player": g.active()["player"]})
    assert g.to_json()["round"]["kind"] == after
    if after == "operating":
        assert not any(a["type"] in ("merge", "consent") for a in g.actions())
        assert g.to_json()["title_state"]["mergers"]["systems"] == []


def test_no_mergers_has_no_last_chance_merger_phase():
    """[17.6] with [11] Merger Phase: the first 6-train opens no last merger phase."""
    for variants, last_chance in (([], "pending"), (["no_mergers"], None)):
        g = _connected(variants)
        r = g.rules
        assert r.phases.has("4", "mergers") is (not variants)
        assert r.phases.has("5", "mergers") is (not variants)
        for row in g.state.depot:
            if row.train in ("2", "3", "4", "5"):
                row.left = 0
        g.state.phase = "5"
        c = g.state.corp["ACL"]
        c.trains = []
        g.state.pay("bank", "corp:ACL", 1_000)
        g.round = OperatingRound(g, 1, 3)
        r.buy_train(c, "bank", "6", 630)
        assert g.state.phase == "6"
        assert g.state.title_state.last_chance == last_chance


# --- [17.5] The Civil War ---------------------------------------------------------------------

# [17.5] "remove all even/odd numbered yellow tiles if the coin comes up heads/tails":
# 1832's yellow tiles (the manifest) are 1-9, 55, 56, 57, 58 and 69
EVEN_YELLOW = ["2", "4", "6", "8", "56", "58"]
ODD_YELLOW = ["1", "3", "5", "7", "9", "55", "57", "69"]


def _seed(coin):
    """A seed whose coin ([17.5] "Flip a coin") comes up ``coin``."""
    return next(s for s in range(1, 100) if random.Random(f"civil_war:{s}").choice(("heads", "tails")) == coin)


def _before_the_war(coin="heads"):
    """Phase 3, two floated companies that have operated: SALR (A, $100, 3 trains) about
    to buy the first 4-train, and ACL (B, at $60 in the yellow area, 2 trains, $301)."""
    g = Game("1832", NAMES, _seed(coin), ["civil_war"])
    _1832.buy_all_privates(g)
    s = g.state
    salr = _1832.operated(g, "SALR", "A", 100, {"A": 3, "C": 1})
    acl = _1832.operated(g, "ACL", "B", 90, {"B": 3, "D": 1}, cell=(2, 1))
    for row in s.depot:
        if row.train in ("2", "3"):
            row.left = 0
    s.phase = "3"
    salr.trains = owned(g, "2", "3", "3")
    acl.trains = owned(g, "2", "3", "3")
    s.pay("corp:ACL", "bank", acl.cash - 301)
    g.round = OperatingRound(g, 1, 2)
    g.round.order = [salr, acl]
    return g, salr, acl


def _buy_the_first_4(g, c):
    step = BuyTrainStep(g, c)
    g.round.queue = [step]
    g.rules.train_process(step, {"type": "buy_train", "corporation": c.id, "from": "bank", "train": "4"})


def test_the_war_comes_with_the_first_4_train_and_halves_every_cash():
    """[17.5] "All companies and players pay half their cash (rounded down) to the
    Bank": ACL's $301 pays $150 and keeps $151; SALR pays for its 4-train ($300) first."""
    g, salr, acl = _before_the_war()
    s = g.state
    players = {p.name: p.cash for p in s.players}
    salr_cash = salr.cash
    total = s.money()
    _buy_the_first_4(g, salr)
    assert s.phase == "4"
    assert acl.cash == 151
    assert salr.cash == (salr_cash - 300) - (salr_cash - 300) // 2
    assert {p.name: p.cash for p in s.players} == {n: c - c // 2 for n, c in players.items()}
    assert s.money() == total
    assert any(e["event"] == "civil_war" for e in s.events)


def test_the_war_moves_every_share_price_three_spaces_left():
    """[17.5] "moved three spaces to the left (following downward-pointing arrows if
    necessary)": SALR $100 (row 0) -> $90, $82, $76; ACL $60 at the row's second box ->
    $55, then down the first column: $50, $40."""
    g, salr, acl = _before_the_war()
    _buy_the_first_4(g, salr)
    m = g.rules.market
    assert (salr.cell, m.price(salr.cell)) == ((0, 3), 76)
    assert (acl.cell, m.price(acl.cell)) == ((4, 0), 40)


def test_the_war_leaves_one_train_each_the_president_choosing():
    """[17.5] "All companies may hold at most one train – discard any excess just as if
    the train limit were one", after "All 2-trains are scrapped": SALR (the buyer, first)
    keeps one of 3, 3, 4; ACL one of 3, 3. The discards go to the open market ([10])."""
    g, salr, acl = _before_the_war()
    _buy_the_first_4(g, salr)
    assert sorted(names(salr.trains)) == ["3", "3", "4"] and names(acl.trains) == ["3", "3"]
    assert g.active() == {"corporation": "SALR", "player": "A"}
    assert {a["train"] for a in g.actions()} == {"3", "4"}
    g.act({"type": "discard_train", "corporation": "SALR", "train": "3"})
    g.act({"type": "discard_train", "corporation": "SALR", "train": "3"})
    assert names(salr.trains) == ["4"]
    assert g.active() == {"corporation": "ACL", "player": "B"}
    g.act({"type": "discard_train", "corporation": "ACL", "train": "3"})
    assert names(acl.trains) == ["3"]
    assert sorted(names(g.state.market_trains)) == ["3", "3", "3"]
    assert g.rules.train_limit(acl) == 3              # the limit itself stays the phase's


@pytest.mark.parametrize("coin,removed", [("heads", EVEN_YELLOW), ("tails", ODD_YELLOW)])
def test_the_coin_removes_even_or_odd_yellow_tiles_from_the_supply(coin, removed):
    """[17.5] "Flip a coin – remove all even/odd numbered yellow tiles if the coin comes
    up heads/tails": the coin is drawn from the game's seed and recorded in the log's
    events; a removed tile is never laid again (docs/gaps.md: the tiles on the map stay)."""
    g, salr, acl = _before_the_war(coin)
    _buy_the_first_4(g, salr)
    war = next(e for e in g.state.events if e["event"] == "civil_war")
    assert war["coin"] == coin and war["removed_tiles"] == removed
    assert g.to_json()["title_state"]["civil_war"] == {"coin": coin, "removed_tiles": removed}
    lays = g.rules.tile_lays(salr, [])
    assert lays and not any(m["tile"] in removed for m in lays)
    everything = route_adapter.tile_lays(_without_the_war(g.rules.position("SALR")))
    assert any(m["tile"] in removed for m in everything)    # the map alone would allow them


def _without_the_war(position):
    """The position as if the supply were whole (no ``removed_tiles``)."""
    return {k: v for k, v in position.items() if k != "removed_tiles"}


@pytest.mark.parametrize("coin,removed", [("heads", EVEN_YELLOW), ("tails", ODD_YELLOW)])
def test_a_position_after_the_war_carries_the_supply_without_the_removed_tiles(coin, removed):
    """[17.5] "remove all even/odd numbered yellow tiles": the position the game writes
    after the war names them, and what-if's tile list of that position (as `trainruns
    whatif --tiles` and the web page list it) lays none of them."""
    from trainruns.services.whatif import tile_candidates

    g, salr, acl = _before_the_war(coin)
    pos = g.rules.position("SALR")
    assert "removed_tiles" not in pos
    _buy_the_first_4(g, salr)
    pos = g.rules.position("SALR")
    assert pos["removed_tiles"] == sorted(removed)
    listed = [m["tile"] for m, _ in tile_candidates(pos)]
    assert listed and not set(listed) & set(removed)
    assert set(removed) & {m["tile"] for m, _ in tile_candidates(_without_the_war(pos))}


def test_a_position_whose_removed_tiles_are_not_yellow_tiles_is_bad_input():
    """[17.5] the Civil War removes yellow tiles only: a green tile or an unknown name in
    a position's ``removed_tiles`` is bad input, naming the entry."""
    from trainruns.errors import InputError
    from trainruns.titles.load import load_position

    g, salr, acl = _before_the_war()
    pos = g.rules.position("SALR")
    for bad in (["15"], ["1", "nope"]):
        with pytest.raises(InputError, match=r"removed_tiles\[\d\].*\[17\.5\]"):
            load_position(dict(pos, removed_tiles=bad))
    load_position(dict(pos, removed_tiles=["1", "3"]))


def test_a_removed_tile_is_refused_with_the_rule():
    g, salr, acl = _before_the_war("tails")
    _buy_the_first_4(g, salr)
    lays = route_adapter.tile_lays(_without_the_war(g.rules.position("SALR")))
    m = next(m for m in lays if m["tile"] in ODD_YELLOW)
    rule, why = g.rules.why_not_lay(salr, dict(m), [])
    assert rule == "track.civil-war" and "[17.5]" in why


def test_green_tiles_go_back_to_the_yellow_they_were_upgraded_from_tokens_following():
    """[17.5] "Downgrade all green tiles to the yellow tiles they were upgraded from":
    Savannah (H16) #5 -> #15 goes back to #5 at its rotation; a green #15 of two tokens
    back to the one slot of #5 keeps CoG's home token, and ACL's token goes back to its
    charter, to be placed again for $100 ([7.2] as an upgrade's returned token); a hex
    never upgraded keeps its yellow tile."""
    g, salr, acl = _before_the_war()
    s, r = g.state, g.rules
    cg = s.corp["CG"]
    s.pay("bank", "corp:CG", 820)
    cg.capitalised = cg.floated = cg.operated = True
    r.home_token(cg)
    s.tiles += [LaidTile("H16", "5", 0), LaidTile("B6", "8", 1),
                LaidTile("H16", "15", 0)]
    acl.tokens.append(("H16", 0))
    acl.token_costs = [0, 40, 100]
    assert sorted(c.id for c in s.corporations if ("H16", 0) in c.tokens) == ["ACL", "CG"]
    _buy_the_first_4(g, salr)
    assert s.tiles == [LaidTile("H16", "5", 0), LaidTile("B6", "8", 1)]
    assert ("H16", 0) in cg.tokens and ("H16", 0) not in acl.tokens
    assert acl.token_costs == [0, 100, 100] and g.rules.token_cost(acl, "H16") == 100   # $40 paid leaves with it
    assert any(e["event"] == "token_returned" and e["corporation"] == "ACL" for e in s.events)
    route_adapter.tile_lays(r.position("ACL"))          # the map is a legal position


def test_a_token_placed_after_a_returned_one_keeps_what_it_cost_for_a_mortgage():
    """[17.3] "Assets eligible to be mortgaged are ... tokens that the company has paid
    to place" at their value, what was paid: ACL placed its home token ($0), Savannah
    (H16, $40) and Columbia (D16, $100). The war's downgrade of Savannah returns that
    token to the charter ([17.5], [7.2]); Columbia's token is still worth $100 (it read
    the $40 of the token before it), and the token placed next costs $100 ([7.2])."""
    g = Game("1832", NAMES, _seed("heads"), ["civil_war", "southern_bank"])
    _1832.buy_all_privates(g)
    s, r = g.state, g.rules
    salr = _1832.operated(g, "SALR", "A", 100, {"A": 3, "C": 1})
    acl = _1832.operated(g, "ACL", "B", 90, {"B": 3, "D": 1}, cell=(2, 1))
    cg = _1832.operated(g, "CG", s.corp["CG"].president or "C", 100, {})
    for row in s.depot:
        if row.train in ("2", "3"):
            row.left = 0
    s.phase = "3"
    salr.trains = owned(g, "3")
    acl.trains = owned(g, "3")
    s.private["P6"].owner = player_key("B")
    s.tiles += [LaidTile("H16", "5", 0), LaidTile("H16", "15", 0)]
    acl.tokens += [("H16", 0), ("D16", 0)]
    assert acl.token_costs == [0, 40, 100]
    assert ("H16", 0) in cg.tokens
    g.round = OperatingRound(g, 1, 2)
    g.round.order = [salr, acl]
    _buy_the_first_4(g, salr)
    assert acl.tokens == [("G17", 0), ("D16", 0)]
    assert r.token_cost(acl, "J10") == 100
    offers = {a["asset"]: a["amount"] for a in r.mortgage_offers(acl) if a["type"] == "mortgage"}
    assert offers["token:D16.0"]["min"] == 50            # half of $100, not of $40
    assert "token:G17.0" not in offers                   # the home token cost nothing


def test_a_green_tile_on_a_printed_yellow_hex_goes_back_to_the_printed_face():
    """[17.5] Atlanta (F10) is printed yellow; its green #190 goes back to the print."""
    g, salr, acl = _before_the_war()
    s = g.state
    s.tiles.append(LaidTile("F10", "190", 0))
    _buy_the_first_4(g, salr)
    assert s.tiles == []
    down = next(e for e in s.events if e["event"] == "downgrade")
    assert down["tiles"] == [{"hex": "F10", "from": "190", "to": None}]


def test_the_war_replays_from_the_log():
    """The coin comes from the seed: a replay of the log gives the same state."""
    g = Game("1832", NAMES, _seed("tails"), ["civil_war"])
    rng = random.Random(5)
    from trainruns.game.selfplay import random_choice

    while not any(e["event"] == "civil_war" for e in g.state.events) and not g.finished:
        g.act(random_choice(g.actions(), rng))
    assert not g.finished
    again = Game.replay(g.log())
    assert again.to_json() == g.to_json()


def test_a_green_tile_whose_yellow_has_no_copy_left_stays_green():
    """[17.5] with the manifest's counts ([23]: two #5): Savannah's #5 went back to the
    supply when it became #15, and both #5s now lie in Nashville (C7) and Birmingham (F6);
    there is no #5 to downgrade to, so #15 stays (docs/gaps.md)."""
    g, salr, acl = _before_the_war()
    s = g.state
    s.tiles += [LaidTile("H16", "5", 0), LaidTile("H16", "15", 0),
                LaidTile("C7", "5", 0), LaidTile("F6", "5", 0)]
    before = list(s.tiles)
    _buy_the_first_4(g, salr)
    assert s.tiles == before
    assert any(e["event"] == "not_downgraded" and e["hex"] == "H16" for e in s.events)
    route_adapter.tile_lays(g.rules.position("SALR"))   # the map is a legal position


# --- the variants as chosen: play new, play serve, the log, a replay ----------------------------

NEW = ["historical_order", "civil_war", "no_mergers"]


def test_play_new_and_serve_take_the_variants_and_the_log_keeps_them(tmp_path, capsys):
    """[17] "You must decide what (if any) variants you are going to use before the game
    starts": `play new --variant`, `play serve`'s `new` and the log's `variants`."""
    import io
    import json

    from trainruns.cli.main import main
    from trainruns.game.protocol import serve

    log = tmp_path / "g.json"
    argv = ["play", "new", "1832", "--players", "A,B,C", "--seed", "4", "--out", str(log)]
    assert main(argv + [x for v in NEW for x in ("--variant", v)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["variants"] == NEW and json.loads(log.read_text())["variants"] == NEW
    assert main(["replay", str(log)]) == 0
    assert json.loads(capsys.readouterr().out)["variants"] == NEW
    out = io.StringIO()
    line = json.dumps({"cmd": "new", "title": "1832", "players": ["A", "B", "C"], "seed": 4, "variants": NEW})
    assert serve(io.StringIO(line + '\n{"cmd": "log"}\n'), out) == 0
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert replies[0]["ok"] and replies[1]["log"]["variants"] == NEW
    assert main(["play", "new", "1832", "--players", "A,B,C", "--variant", "civil_wars"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "civil_war" in err[0]


def test_play_new_help_names_every_variant(capsys):
    """`play new --help` lists the names each title's rules know."""
    from trainruns.cli.main import main
    from trainruns.game.game import rules_class

    with pytest.raises(SystemExit):
        main(["play", "new", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for title in ("1831", "1832"):
        assert all(v in text for v in rules_class(title).known_variants), title

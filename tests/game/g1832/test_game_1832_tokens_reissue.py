"""1832 tokens after mergers and upgrades ([7.2], [11.6], [11.7]) and the par shown after
a reissue ([5.11]) (the 1832 rulebook); supplies, costs and pars worked by hand."""

import json
from pathlib import Path

import pytest
from _1832 import at_step, new, operated

from trainruns.game.errors import Refusal
from trainruns.game.game import Game
from trainruns.game.round import StockRound
from trainruns.game.state import corp_key
from trainruns.titles.g1832.game.state import SpecialToken
from trainruns.game.state import LaidTile


def _lay(g, c, tile):
    g.rules.lay_tile(c, {"hex": "F10", "tile": tile, "rotation": 0, "cost": 0})


def _json(g, cid):
    return next(c for c in g.to_json()["corporations"] if c["id"] == cid)


def test_a_system_of_the_two_atlanta_companies_discards_one_home_token_on_brown_atlanta():
    """[7.2] "If both tokens were home tokens (i.e., A&WP and GRR in Atlanta), one of the
    tokens is discarded." A&WP and GRR (2 tokens each, homes placed in green Atlanta's
    two cities) form a System: supply 4, 2 placed. Brown #191 makes Atlanta one city:
    one home token is discarded, not returned: 1 placed, supply 3, 2 left (not 3)."""
    g = new()
    x = operated(g, "A&WP", "A", 100, {"A": 2})
    y = operated(g, "GRR", "B", 100, {})
    _lay(g, x, "190")
    sysc = g.rules.form_system(x, y, "A", "AMTK")
    assert len(sysc.tokens) == 2 and _json(g, "AMTK")["tokens_left"] == 2
    _lay(g, sysc, "191")
    assert sysc.tokens == [("F10", 0)]
    assert _json(g, "AMTK")["tokens_left"] == 2 and len(sysc.token_costs) == 3
    assert any(e["event"] == "token_discarded" for e in g.state.events)


def test_a_merger_in_brown_atlanta_discards_the_second_home_token():
    """[7.2] as above, with #191 laid before the System forms: 1 placed of 3, 2 left."""
    g = new()
    x = operated(g, "A&WP", "A", 100, {"A": 2})
    y = operated(g, "GRR", "B", 100, {})
    _lay(g, x, "190")
    _lay(g, x, "191")
    assert x.tokens == [("F10", 0)] and y.tokens == [("F10", 0)]
    sysc = g.rules.form_system(x, y, "A", "AMTK")
    assert sysc.tokens == [("F10", 0)] and _json(g, "AMTK")["tokens_left"] == 2


def test_a_takeover_in_brown_atlanta_discards_the_targets_home_token():
    """[7.2] with [11.7]: A&WP (tokens $0, $40) takes over GRR in brown Atlanta: GRR's
    home token is discarded, so A&WP keeps its own $40 token and nothing more: 1 left."""
    g = new()
    x = operated(g, "A&WP", "A", 100, {"A": 2})
    y = operated(g, "GRR", "B", 100, {})
    _lay(g, x, "190")
    _lay(g, x, "191")
    g.state.pay("bank", "player:A", 10_000)
    g.rules.take_over(x, y)
    assert x.tokens == [("F10", 0)] and x.token_costs == [0, 40]
    assert _json(g, "A&WP")["tokens_left"] == 1


def test_a_token_an_upgrade_returns_to_a_companys_charter_costs_100_to_place_again():
    """[7.2] "If a company ever has two tokens in the same city (by merger or tile
    upgrade), one of them is removed and placed on the charter and may be placed again
    for $100." GRR (tokens $0, $40) has its home and its $40 token in green Atlanta's
    two cities; #191 makes them one: one goes back, and placing it costs $100 (not
    the charter's $40)."""
    g = new()
    r = g.rules
    c = operated(g, "GRR", "B", 100, {})
    _lay(g, c, "190")
    c.tokens.append(("F10", 1))
    g.state.pay(f"corp:{c.id}", "bank", 40)
    _lay(g, c, "191")
    assert c.tokens == [("F10", 0)] and _json(g, "GRR")["tokens_left"] == 1
    cash = c.cash
    r.place_token(c, {"hex": "G17", "stop": 0})
    assert cash - c.cash == 100


def test_a_token_an_upgrade_returns_to_a_systems_charter_costs_100():
    """[7.2], [11.6] "All remaining tokens of the 20-share company cost $100": GRR with
    two tokens in green Atlanta joins SALR in a System (3 placed, 5 supply); #191 takes
    one back; placing it again costs $100 (not $0)."""
    g = new()
    r = g.rules
    x = operated(g, "SALR", "A", 100, {"A": 2})
    y = operated(g, "GRR", "B", 100, {})
    _lay(g, y, "190")
    y.tokens.append(("F10", 1))
    sysc = r.form_system(x, y, "A", "AMTK")
    assert len(sysc.tokens) == 3 and _json(g, "AMTK")["tokens_left"] == 2
    _lay(g, sysc, "191")
    assert len(sysc.tokens) == 2 and _json(g, "AMTK")["tokens_left"] == 3
    cash = sysc.cash
    r.place_token(sysc, {"hex": "G17", "stop": 0})
    assert cash - sysc.cash == 100


def test_after_a_reissue_the_par_shown_is_the_new_par():
    """[5.11] SALR par 82 at $120 reissues its redeemed share: 75% of 120 = 90, a par
    value, above 82: the state shows par 90, the price a reissued share is bought at."""
    g = new(3)
    r, s = g.rules, g.state
    c = operated(g, "SALR", "A", 82, {"A": 4, "B": 4})
    s.move_shares(c, "player:B", "treasury", 1)          # a share redeemed earlier
    r.market.move(c.id, c.cell, (0, 8))
    c.cell = (0, 8)
    assert r.market.price(c.cell) == 120
    r.end_stock_round(None)
    g.round = StockRound(g, "A", 2)
    g.round.settle()
    g.act({"type": "reissue", "player": "A", "corporation": "SALR"})
    assert _json(g, "SALR")["par"] == 90 and r.ipo_price(c) == 90


def _token_step(g, c):
    from trainruns.titles.g1832.game.steps.operating import TokenStep1832

    return at_step(g, TokenStep1832, c)


def test_the_cotton_and_port_tokens_may_follow_the_station_token():
    """[16.2] P2 and P3: the Cotton and Port tokens are placed "as an extra token lay
    during the token placement step of an owning public company's operating round": A&WP
    (phase 3, home F10.1, G9 a yellow city) owns both, places its $40 station token in
    G9, then the Cotton token in F6 and the Port token in G17; a second station token is
    not offered ([7.2] one a round)."""
    g = new(4)
    s = g.state
    s.phase = "3"
    c = operated(g, "A&WP", "A", 100, {"A": 4})
    s.tiles = [LaidTile("G9", "57", 0)]
    for pid in ("P2", "P3"):
        s.private[pid].owner = corp_key(c.id)
    _token_step(g, c)
    cash = c.cash
    g.act({"type": "place_token", "corporation": "A&WP", "hex": "G9", "stop": 0})
    assert cash - c.cash == 40
    listed = g.actions()
    assert {"type": "place_token", "corporation": "A&WP", "hex": "F6", "stop": 0, "kind": "cotton"} in listed
    assert {"type": "place_token", "corporation": "A&WP", "hex": "G17", "kind": "port"} in listed
    assert not [a for a in listed if a["type"] == "place_token" and not a.get("kind")]
    g.act({"type": "place_token", "corporation": "A&WP", "hex": "F6", "stop": 0, "kind": "cotton"})
    g.act({"type": "place_token", "corporation": "A&WP", "hex": "G17", "kind": "port"})
    assert s.title_state.cotton == SpecialToken("F6", "A&WP", stop=0)
    assert s.title_state.port == SpecialToken("G17", "A&WP")
    assert c.tokens == [("F10", 1), ("G9", 0)]


def test_the_key_west_token_is_the_fecs_one_token_and_the_cotton_token_may_follow_it():
    """[7.5] the Key West token "counts as its sole token placement for the operating
    round"; [16.2] P2's Cotton token is "an extra token lay during the token placement
    step". The FEC (phase 3, owning P2) places the Key West token in Miami (N16): the
    Cotton token is still listed, no station token; after a station token the Key West
    token is neither listed nor accepted."""
    g = new(4)
    s = g.state
    s.phase = "3"
    c = operated(g, "FECR", "A", 100, {"A": 4})
    s.private["P2"].owner = corp_key(c.id)
    _token_step(g, c)
    g.act({"type": "place_token", "corporation": "FECR", "hex": "N16", "kind": "key_west"})
    assert s.title_state.key_west == "FECR"
    listed = g.actions()
    assert {"type": "place_token", "corporation": "FECR", "hex": "F6", "stop": 0, "kind": "cotton"} in listed
    assert all(a.get("kind") == "cotton" for a in listed if a["type"] == "place_token")
    g.act({"type": "place_token", "corporation": "FECR", "hex": "F6", "stop": 0, "kind": "cotton"})
    assert s.title_state.cotton == SpecialToken("F6", "FECR", stop=0)

    # the kept 4-player game (seed 44), phase 4: the FEC may place a station token in
    # Charleston (G17) or its Key West token; given P2 (its Cotton token unplaced), it
    # places the station token: the Cotton token may follow, the Key West token not
    kept = json.loads((Path(__file__).parents[3] / "fixtures" / "games" / "1832-4p-seed44.game").read_text())
    g = Game.replay(kept["log"], upto=962)
    s = g.state
    p2 = s.private["P2"]
    p2.owner, p2.open = corp_key("FECR"), True
    s.title_state.cotton, s.title_state.cotton_used = None, False
    assert {"type": "place_token", "corporation": "FECR", "hex": "N16", "kind": "key_west"} in g.actions()
    g.act({"type": "place_token", "corporation": "FECR", "hex": "G17", "stop": 0})
    listed = g.actions()
    assert all(a.get("kind") == "cotton" for a in listed if a["type"] == "place_token")
    with pytest.raises(Refusal):
        g.act({"type": "place_token", "corporation": "FECR", "hex": "N16", "kind": "key_west"})
    assert s.title_state.key_west is None

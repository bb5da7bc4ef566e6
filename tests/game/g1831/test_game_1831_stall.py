"""Why random 1831 games reach the `stalled` guard, and the rules that bear on it
(1831 rulebook; docs/game-1831.md "How random games end"), on hand-built
states of the shipped (invented) config."""

from __future__ import annotations

import pytest
from _1831 import company, new
from test_game_1831_receivership import yellow_track

from trainruns.game.errors import Refusal
from trainruns.titles.g1831.game.state import Token


def to_stock_turn(g):
    """Past 3.2.3.2's seat choice, to the first stock turn."""
    while g.actions() and g.actions()[0]["type"] == "swap_seats":
        g.act(next(a for a in g.actions() if a["type"] == "pass"))
    assert g.round.kind == "stock"


def pars(g, cid):
    return [a for a in g.actions() if a["type"] == "par" and a["corporation"] == cid]


def test_a_company_closed_out_in_a_stock_round_is_for_sale_from_the_next_one_4_3_2():
    # 4.3.2: "The stock is returned to the Initial Offering area and will be available
    # for sale during the next Stock Round"
    g = new()
    to_stock_turn(g)
    r, s = g.rules, g.rules.state
    assert pars(g, "PRR")
    c = s.corp["PRR"]
    r.start_corporation(c, "P3", 40)
    r.move_marker(c, "left", 20, "test")          # to the STOCK TRADES CLOSED OUT area
    r.move_marker(c, "down", 20, "test")
    assert c.cell is None and c.par is None        # closed out, in stock round 1
    assert not pars(g, "PRR") and pars(g, "NYC")   # the other companies stay for sale
    player = g.active()["player"]
    with pytest.raises(Refusal) as e:
        g.act({"type": "par", "player": player, "corporation": "PRR", "price": 40})
    assert e.value.rule == "stock.closed-out"
    while g.rules.stock_round_number == 1:         # nobody buys: the round ends (4.8.1)
        g.act(next(a for a in g.actions() if a["type"] == "pass"))
    # no company active: another stock round (4.8.2), where PRR is for sale again
    assert not g.finished and g.round.kind == "stock" and g.rules.stock_round_number == 2
    assert pars(g, "PRR")



def test_a_home_site_is_kept_for_its_company_until_its_home_token_5_2_5():
    # 5.2.5: "the 'home token' is not special in any way except that its location is
    # reserved for exclusive use by the company". H8 is GTW's home, a Station site (the
    # shipped config); before, another company could take it and GTW then started
    # without a home token, so never laid track (5.2.4.1) nor ran
    g = new()
    r, s = g.rules, g.rules.state
    c = company(g, "PRR", 100, "P0", cash=300)
    c.sites = [Token("I9", 0, "station")]
    c.tokens = [("I9", 0)]
    c.home_done = True
    s.tiles = yellow_track(g, "I9", "I7", "H8")
    types = r.map.sites("H8", r.laid())
    assert "station" in types                     # a free Station site, but GTW's
    assert {m["kind"] for m in r.token_places(c) if m["hex"] == "H8"} == {"yard"}
    gtw = company(g, "GTW", 100, "P1", cash=300)  # GTW starts and operates first (5.2.5)
    r.home_token(gtw)
    assert [(x.hex, types[x.slot], x.type) for x in gtw.sites] == [("H8", "station", "station")]
    # the company that holds the site (or has placed its home token) keeps nothing more
    assert r.reserved(c, "H8", "station") == 0

"""1831's track phase duties on the shipped (invented) config, each test naming its
section (1831 rulebook): a yellow tile laid in a city obliges a token there
(5.2.6.8), and an active company must have a running route (5.2.2), so without one it
may not end its track phase while it can buy a token that makes one. Without them
companies laid city tiles without tokens and passed with one token,
so they never ran and were closed out."""

from __future__ import annotations

import pytest
from test_game_1831_receivership import company, train, yellow_track

from trainruns.game.errors import Refusal
from trainruns.game.game import Game
from trainruns.titles.g1831.game.operating import best_run
from trainruns.titles.g1831.game.state import Token, Turn1831
from trainruns.titles.g1831.game.steps.operating import TrackStep


def home_at(cash, home="I9"):
    """PRR active with only its home Station in ``home`` and ``cash`` in its treasury (I9:
    no company's home in a 4-player game, so none of its sites is kept for another, 5.2.5)."""
    g = Game("1831", ["P0", "P1", "P2", "P3"], 7)
    r, s = g.rules, g.rules.state
    c = company(g, "PRR", 100, "P0")
    c.sites = [Token(home, 0, "station")]
    c.tokens = [(home, 0)]
    c.home_done = True
    c.trains = [train("2S")]
    s.pay(f"corp:{c.id}", "bank", c.cash - cash) if c.cash > cash else s.pay("bank", f"corp:{c.id}", cash - c.cash)
    return g, r, s, c


def track_step(g, c):
    """``c``'s track step, the round's current step (the rules read the turn's record
    from it)."""
    turn = Turn1831(c.id)
    st = TrackStep(g, c, turn)
    g.round.queue.insert(0, st)
    return st, turn


def test_a_yellow_tile_in_a_city_is_followed_by_its_token_5_2_6_8():
    g, r, s, c = home_at(cash=300)
    i9, i7, _i5 = yellow_track(g, "I9", "I7", "I5")
    s.tiles = [i9, i7]                         # track from the home city to I5's edge
    st, turn = track_step(g, c)
    lay = next(a for a in st.actions() if (a["type"], a.get("hex")) == ("lay_tile", "I5"))
    st.process(dict(lay))
    listed = st.actions()
    # "it must also purchase a token for that site": only the token in I5, no pass, no lay
    assert listed and all(a["type"] == "place_token" and a["hex"] == "I5" for a in listed)
    with pytest.raises(Refusal) as e:
        st.process({"type": "pass", "corporation": "PRR"})
    assert e.value.rule == "token.owed"
    with pytest.raises(Refusal):
        st.process({"type": "lay_tile", "corporation": "PRR", "hex": "D4", "tile": "101", "rotation": 0})
    cash = c.cash
    st.process(dict(listed[0]))
    assert any(x.hex == "I5" for x in c.sites) and c.cash == cash - r.token_price(listed[0]["kind"])
    assert st.done or any(a["type"] == "pass" for a in st.actions())


def test_no_yellow_city_tile_without_the_cash_for_its_token_5_2_6_8():
    g, r, s, c = home_at(cash=0)
    i9, i7, i5 = yellow_track(g, "I9", "I7", "I5")
    s.tiles = [i9, i7]
    cost = r.map.cost("I5", False, r.numbers["terrain_cost"])
    station = r.token_price("station")
    s.pay("bank", "corp:PRR", cost + station - 1)          # the tile, not the tile and a Station
    assert not any(m["hex"] == "I5" for m in r.tile_lays(c, []))
    s.pay("bank", "corp:PRR", 1)
    assert any(m["hex"] == "I5" for m in r.tile_lays(c, []))
    # a yellow tile in a city where it has a token already owes none (its home city, 5.2.5)
    assert not r.lay_owes_token(c, {"hex": "I9", "upgrade": False})


def test_without_a_running_route_the_company_buys_the_token_that_makes_one_5_2_2():
    g, r, s, c = home_at(cash=300)
    s.tiles = yellow_track(g, "I9", "I7", "I5")   # I5's city tile laid earlier, no token there
    # independently of the engine's reach: the route core finds no run for a 2S
    assert best_run(r.position(c.id))[0] == 0
    assert not r.has_running_route(c)
    st, turn = track_step(g, c)
    listed = st.actions()
    assert not any(a["type"] == "pass" for a in listed)
    assert any(a["type"] == "place_token" and a["hex"] == "I5" for a in listed)
    with pytest.raises(Refusal) as e:
        st.process({"type": "pass", "corporation": "PRR"})
    assert e.value.rule == "track.running-route"
    st.process(next(a for a in listed if a["type"] == "place_token" and a["hex"] == "I5"))
    assert r.has_running_route(c)
    assert best_run(r.position(c.id))[0] > 0     # the route core now runs the 2S
    assert st.done or any(a["type"] == "pass" for a in st.actions())


def test_with_no_token_to_buy_the_company_may_pass_5_2_2():
    g, r, s, c = home_at(cash=0)               # no cash for a token: lays stay optional
    s.tiles = yellow_track(g, "I9", "I7", "I5")
    st, turn = track_step(g, c)
    assert not r.has_running_route(c)
    assert st.done or any(a["type"] == "pass" for a in st.actions())


def rights_case(own, other, trains=("2MX",)):
    """PRR with ``trains``, its tokens ``own`` and NYC's ``other`` ((hex, slot, type)), the
    cities E5 and G5 joined by yellow track (E5: slot 0 a Station, slot 1 a Rail Yard)."""
    g, r, s, c = home_at(cash=300)
    s.tiles = yellow_track(g, "E5", "F4", "G5")
    c.trains = [train(t) for t in trains]
    c.sites = [Token(h, j, k) for h, j, k in own]
    c.tokens = [(h, 0) for h, _j, _k in own]
    o = company(g, "NYC", 100, "P1")
    o.sites = [Token(h, j, k) for h, j, k in other]
    o.tokens = [(h, 0) for h, _j, _k in other]
    return r, c


def test_a_track_right_is_offered_only_when_it_enhances_the_run_5_5_1():
    # a 2S and a 2MX share the one track E5-G5: without a right the 2MX runs its own
    # Rail Yard in E5 and Station in G5; NYC's Station in E5 would let the 2S run instead
    # and bind it there (5.6.5) for $10 less (5.2.7.5), so the right is not offered
    r, c = rights_case([("E5", 1, "yard"), ("G5", 0, "station")], [("E5", 0, "station")], ("2S", "2MX"))
    with_right = dict(r.position(c.id), track_rights=[{"hex": "E5", "stop": 0, "slot": 0}])
    assert best_run(with_right)[0] < best_run(r.position(c.id))[0]      # the route core's own values
    assert r.right_places(c) == []
    # its own Stations in E5 and G5 give the 2MX no mixed run; NYC's Rail Yard in E5
    # makes one: the right raises the run (5.6.2.3, 5.6.3)
    r, c = rights_case([("E5", 0, "station"), ("G5", 0, "station")], [("E5", 1, "yard")])
    with_right = dict(r.position(c.id), track_rights=[{"hex": "E5", "stop": 0, "slot": 1}])
    assert best_run(with_right)[0] > best_run(r.position(c.id))[0]
    assert [(m["hex"], m["slot"], m["owner"]) for m in r.right_places(c)] == [("E5", 1, "NYC")]


def test_a_full_city_that_stays_full_is_upgraded_only_by_its_token_holders_5_2_4_1():
    """5.2.4.1: "If a city is fully tokenized, and further upgrading would not produce a
    vacancy, then only the corporations with tokens in the city may upgrade it further".
    I9, a small city (Station, Rail Yard), holds NYC's Station and B&O's Rail Yard; its
    green tiles have the same two sites. PRR reaches it from I5 and may not upgrade it;
    NYC, with a token there, may."""
    g, r, s, c = home_at(cash=500, home="I5")
    s.phase = "3"                                   # green tiles (5.2.6.6)
    s.tiles = yellow_track(g, "I5", "I7", "I9")
    for cid, slot, kind in (("NYC", 0, "station"), ("B&O", 1, "yard")):
        o = s.corp[cid]
        o.sites = [Token("I9", slot, kind)]
        o.tokens = [("I9", 0)]
        o.home_done = True
    assert r.map.sites("I9", r.laid()) == ["station", "yard"]
    st, _turn = track_step(g, c)
    assert not any(a.get("hex") == "I9" for a in st.actions())
    nyc = company(g, "NYC", 100, "P1", cash=500)
    assert any(m["hex"] == "I9" and m["upgrade"] for m in r.tile_lays(nyc, []))

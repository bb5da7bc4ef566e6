"""1831 receivership on the shipped (invented) config: the minimum route and the track
and tokens it may take on debt (5.4.9, 5.4.10, 5.4.15), and the certificate limit once
a company leaves receivership (5.4.6), each test naming its section
(1831 rulebook)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from _1831 import TRAINS, company, new

from trainruns.game.errors import Refusal
from trainruns.titles.g1831.game import certs
from trainruns.titles.g1831.game.operating import best_run
from trainruns.titles.g1831.game.state import Token
from trainruns.titles.g1831.game.steps.stock import StockTurn1831 as StockTurn
from trainruns.game.state import LaidTile


def train(name):
    return TRAINS[name]


def yellow_track(g, a_hex, mid, b_hex):
    """Yellow tiles joining the cities a_hex and b_hex through the plain hex mid, chosen
    from the tile manifest by their sides (the test's own search, not the engine's)."""
    m = g.rules.map

    def edge(h, to):
        return next(e for e, n in m.neighbours[h].items() if n == to)

    def pick(h, sides):
        city = m.hexes[h].get("city")
        for name, t in m.tiles.items():
            if t["color"] != "yellow" or t.get("city") != city or t.get("label") != m.hexes[h].get("label"):
                continue
            for rot in range(6):
                paths = {frozenset((e + rot) % 6 if isinstance(e, int) else e for e in p) for p in t["paths"]}
                need = [frozenset((sides[0], "s0"))] if city else [frozenset(sides)]
                if all(x in paths for x in need):
                    return LaidTile(h, name, rot)
        raise AssertionError(f"no yellow tile for {h} {sides}")

    return [pick(a_hex, [edge(a_hex, mid)]), pick(mid, [edge(mid, a_hex), edge(mid, b_hex)]),
            pick(b_hex, [edge(b_hex, mid)])]


def in_receivership(g, trains, sites):
    r = g.rules
    c = company(g, "PRR", 100, "P0")
    c.sites = [Token(h, slot, kind) for h, slot, kind in sites]
    c.tokens = [(h, 0) for h, _s, _k in sites]
    c.home_done = True
    c.trains = [train(t) for t in trains]
    r.enter_receivership(c)
    return c


STATIONS = [("E5", 0, "station"), ("G5", 0, "station")]


def test_minimum_route_is_half_the_smallest_train_rounded_up_5_4_9():
    g = new()
    r = g.rules
    c = in_receivership(g, ["7S", "9S"], STATIONS)
    # the rulebook's example: "A system with a 7-Train and a 9-Train must have a route that
    # connects four of its tokens (7/2=4 rounded up)"
    assert r.route_need(c) == (4, ["S"])
    c.trains = [train("4S")]
    assert r.route_need(c) == (2, ["S"])      # "a 4-Train ... connects two of its tokens (4/2=2)"
    assert not r.route_met(c)                 # no track joins E5 and G5 yet
    g.rules.state.tiles = yellow_track(g, "E5", "F4", "G5")
    assert r.route_met(c)
    # independently: the route core's best run of the 4S earns in both cities
    rev, routes, _ = best_run(r.position(c.id))
    assert rev > 0 and {s.split(".")[0] for s in routes[0]["stops"]} >= {"E5", "G5"}


def test_minimum_route_tokens_of_the_trains_type_5_4_9():
    g = new()
    r = g.rules
    c = in_receivership(g, ["4YD"], STATIONS)
    g.rules.state.tiles = yellow_track(g, "E5", "F4", "G5")
    assert not r.route_met(c)                 # two Stations do not make a Rail Yard route
    c.trains = [train("3MX")]
    assert not r.route_met(c)                 # a mixed train: at least one Station and one Rail Yard
    c.sites[1] = replace(c.sites[1], type="yard", slot=1)
    assert r.route_met(c)
    c.trains = [train("6MX")]                 # three tokens: it has two cities
    assert not r.route_met(c)
    c.trains = [train("2S")]                  # one token (2/2 = 1)
    assert r.route_met(c)


def test_without_its_route_yellow_and_tokens_on_debt_with_it_green_and_no_tokens_5_4_10():
    g = new()
    r, s = g.rules, g.rules.state
    # I9 and I5: no company's home in a 4-player game, so no site there is kept (5.2.5)
    c = in_receivership(g, ["4S"], [("I9", 0, "station"), ("I5", 1, "yard")])
    s.phase = "4"                            # green and blue tiles are out
    s.tiles = yellow_track(g, "I9", "I7", "I5")
    assert not r.route_met(c)                # a Rail Yard is no token for an S train
    lays = r.tile_lays(c, [])
    assert lays and {r.map.tiles[m["tile"]]["color"] for m in lays} == {"yellow"}
    places = r.token_places(c)
    # "It may not buy tokens beyond the necessary minimums": only Stations, for an S train
    assert places and {m["kind"] for m in places} == {"station"}
    debt, cash = c.debt, c.cash
    m = next(m for m in places if m["hex"] == "I5")
    r.place_token(c, m)
    assert c.debt == debt + m["cost"] and c.cash == cash   # 5.2.7.3: added to the debt
    assert r.route_met(c)
    assert r.token_places(c) == []
    colors = {r.map.tiles[m["tile"]]["color"] for m in r.tile_lays(c, [])}
    assert "green" in colors and "blue" not in colors and colors <= {"yellow", "green"}


def test_no_debt_for_track_or_tokens_once_the_bank_has_run_out_5_4_15():
    g = new()
    r, s = g.rules, g.rules.state
    c = in_receivership(g, ["4S"], STATIONS)
    assert r.tile_lays(c, [])
    s.bank.broken = True
    assert r.tile_lays(c, []) == [] and r.token_places(c) == []


def test_commons_count_again_after_receivership_and_the_player_corrects_5_4_6():
    g = new()
    r, s = g.rules, g.rules.state
    c = company(g, "PRR", 100, "P0")
    commons = [x for x in c.certs if x.kind == "common"][:3]
    for x in commons:
        certs.move(s, c, x, "player:P1")
    r.enter_receivership(c)
    r.limit = 2
    # 5.4.6: commons of a company in receivership do not count
    assert r.player_certs("P1") == 0 and r.limit_corrections("P1") == []
    r.end_of_set()                            # no debt, some cash: out of receivership (5.4.11)
    assert not c.receivership and r.player_certs("P1") == 3
    st = StockTurn(g, g.round, "P1")
    listed = st.actions()
    # only the sale that brings him back to the limit, of one certificate
    assert listed == [{"type": "sell_shares", "player": "P1", "corporation": "PRR", "kind": "common", "count": 1}]
    with pytest.raises(Refusal) as e:
        st.process({"type": "pass", "player": "P1"})
    assert e.value.rule == "stock.limit-correct"
    st.process(listed[0])
    assert r.player_certs("P1") == 2
    assert any(x["type"] == "pass" for x in st.actions())


def test_a_company_in_receivership_runs_its_retired_trains_5_3_6_5_4_8():
    """5.3.6: "A corporation in receivership does not surrender obsolete trains, but may
    still run them until it is no longer in receivership" (5.4.8 likewise). PRR's 2S,
    retired by phase 5 while PRR is in receivership, runs E5-G5 for what that run earns
    in phase 5; out of receivership a retired train runs nothing."""
    g = new()
    r, s = g.rules, g.rules.state
    c = in_receivership(g, ["2S"], STATIONS)
    for m in yellow_track(g, "E5", "F4", "G5"):
        s.tiles.append(m)
    for phase in ("3", "4", "5"):
        r.new_phase(phase, c)
    assert [(t.name, t.status) for t in c.trains] == [("2S", "retired")] and r.may_run(c)
    pos = r.position(c.id)
    # what E5-G5 earns in phase 5, run by a train not retired there: the track joins
    # only those two stations, so a 3S runs just them
    worked = best_run(dict(pos, trains=["3S"], receivership=False))[0]
    assert worked > 0
    assert best_run(pos)[0] == worked
    routes, revenue = r.run(c, "best")
    assert revenue == worked and [x["stops"] for x in routes] == [["E5.0", "G5.0"]]
    c.receivership = False
    assert best_run(r.position(c.id))[0] == 0

"""1831's track phase for a company in receivership, through the step a player meets
(1831 rulebook): without its minimum route (5.4.9) it MUST lay yellow track and
buy tokens on debt, within the phase's limits (5.4.10, 5.2.4.3), so passing is refused
with the rule id "5.4.10" while a listed lay or token can still make the route; with the
route, or when no lay or token can make it, or once the bank has run out (5.4.15), it
may pass. Hand-built states on the shipped (invented) config."""

from __future__ import annotations

import pytest
from test_game_1831_receivership import STATIONS, in_receivership, new, yellow_track

from trainruns.game.errors import Refusal
from trainruns.titles.g1831.game.state import Turn1831
from trainruns.titles.g1831.game.steps.operating import TrackStep

PASS = {"type": "pass", "corporation": "PRR"}


def track_step(trains=("4S",), sites=STATIONS, phase="2"):
    """A fresh game with PRR in receivership holding ``trains`` and tokens at ``sites``,
    at the start of its track phase."""
    g = new()
    c = in_receivership(g, list(trains), sites)
    g.rules.state.phase = phase
    step = TrackStep(g, c, Turn1831(c.id))
    g.round.queue.insert(0, step)   # the current step, whose turn record the rules read
    step.enter()
    return g, c, step


def colors(g, actions):
    return {g.rules.map.tiles[a["tile"]]["color"] for a in actions if a["type"] == "lay_tile"}


def test_without_its_route_it_may_not_pass_while_yellow_track_or_tokens_can_make_it_5_4_10():
    g, c, step = track_step(phase="4")       # green and blue tiles are out
    assert not g.rules.route_met(c)           # no track joins its Stations at E5 and G5
    listed = step.actions()
    assert PASS not in listed and listed
    # "It may lay only yellow tiles to make the route"; tokens only of its train's type
    assert colors(g, listed) == {"yellow"}
    assert {a["kind"] for a in listed if a["type"] == "place_token"} <= {"station"}
    with pytest.raises(Refusal) as no:
        step.process(PASS)
    assert no.value.rule == "5.4.10"
    assert not step.done


def test_every_action_listed_while_forced_is_accepted_and_goes_to_the_debt_5_4_10():
    _g, _c, step = track_step()
    for a in step.actions():
        g, c, step = track_step()             # each on a fresh copy of the state
        debt, cash = c.debt, c.cash
        step.process(a)
        # 5.4.10: "The cost of all such track lays and tokens is added directly to the
        # paper debt and not paid for from cash"
        assert c.cash == cash and c.debt >= debt


def test_once_the_route_is_made_it_may_pass_and_lays_yellow_or_green_without_tokens_5_4_10():
    g, c, step = track_step(phase="4")
    for lay in yellow_track(g, "E5", "F4", "G5"):
        assert PASS not in step.actions()     # still without its route: each lay is forced
        step.process(dict(lay.to_json(), type="lay_tile", corporation="PRR"))
    assert g.rules.route_met(c)
    assert PASS in step.actions()
    # the next phase (each hex is altered once a phase, 5.2.4)
    step = TrackStep(g, c, Turn1831(c.id))
    g.round.queue.insert(0, step)   # the current step, whose turn record the rules read
    step.enter()
    listed = step.actions()
    assert PASS in listed
    # "such lays are restricted to yellow or green tiles"; "It may not buy tokens beyond
    # the necessary minimums"
    assert "green" in colors(g, listed) and colors(g, listed) <= {"yellow", "green"}
    assert not [a for a in listed if a["type"] == "place_token"]
    debt = c.debt
    step.process(PASS)
    assert step.done and c.debt == debt


def test_it_may_pass_when_no_lay_or_token_can_make_the_route_this_phase_5_4_10():
    # a 6S needs three Station cities (5.4.9); it has one and no Station left to buy
    # (1.9's supply), so no track laid now can make the route: nothing is required
    g, c, step = track_step(trains=("6S",), sites=[("E5", 0, "station")])
    c.supply["station"] = 1
    step.enter()
    listed = step.actions()
    assert PASS in listed and colors(g, listed) == {"yellow"}   # lays still offered, not forced
    step.process(PASS)
    assert step.done
    # the same company with Stations to buy but its three tokens of the phase already
    # bought (5.2.4.3) cannot make the route either
    g, c, step = track_step(trains=("6S",), sites=[("E5", 0, "station")])
    step.turn.tokens = g.rules.token_limit(c)
    assert PASS in step.actions()
    # and with the tokens to buy it must build
    g, c, step = track_step(trains=("6S",), sites=[("E5", 0, "station")])
    assert PASS not in step.actions()


def test_a_mixed_route_without_a_rail_yard_to_buy_need_not_be_built_5_4_10():
    # 5.4.9: a mixed train's route needs at least one Station and one Rail Yard; with
    # no Rail Yard left in its supply no lay can make it
    g, c, step = track_step(trains=("4MX",))
    assert not g.rules.route_met(c) and PASS not in step.actions()
    g, c, step = track_step(trains=("4MX",))
    c.supply["yard"] = 0
    assert PASS in step.actions()


def test_no_forced_track_or_tokens_once_the_bank_has_run_out_5_4_15():
    g, c, step = track_step()
    g.rules.state.bank.broken = True
    assert not g.rules.route_met(c)
    step.enter()
    # "may not add to their debt by laying track or buying tokens once The Bank has run
    # out of money": nothing is listed, so the phase ends by itself, and a pass is taken
    assert step.done and step.actions() == [PASS]
    step.process(PASS)


def test_the_tokens_left_in_the_phase_decide_whether_the_route_can_be_made_5_4_10():
    # 5.2.4.3: three tokens a phase; a 6S route needs three Station cities, it has one
    g, c, step = track_step(trains=("6S",), sites=[("E5", 0, "station")])
    lim = g.rules.token_limit(c)
    step.turn.tokens = lim - 1             # one left: one city + one token < three
    assert PASS in step.actions()
    step.turn.tokens = lim - 2             # two left: one city + two tokens = three
    assert PASS not in step.actions()
    with pytest.raises(Refusal) as no:
        step.process(PASS)
    assert no.value.rule == "5.4.10"

"""A company with trains and no route at all may pass its run (1832 [8], [9] No
Dividend; 1833NE "Train list and prices"; 1831 5.6.6, 5.7.1 DID NOT RUN): its best run
is no run, $0, and ``pass`` is listed beside ``run_routes "best"``, which stays listed
(so a log that ran that $0 run replays as before: tests/game/test_game_selfplay.py and the
kept logs check it). A pass makes the same run: the state after it is the state after
``run_routes "best"``. A company with a route must still run."""

from __future__ import annotations

import pytest
from _1831 import current_step, operated, train, turn_of
from _1831 import new as new_1831
from _1832 import new as new_1832
from _1832 import start
from _trains import owned

from trainruns.game.errors import Refusal
from trainruns.game.game import Game
from trainruns.game.round import OperatingRound
from trainruns.game.steps.dividend import DividendStep
from trainruns.game.steps.routes import RoutesStep
from trainruns.game.steps.track import TrackStep


def who(g):
    return g.active()["player"]


def to_step(g, name):
    while type(g.round.step()).__name__ != name:
        listed = g.actions()
        g.act(next((x for x in listed if x["type"] == "pass"), listed[0]))


def at_run(title, cid, n=4, lay=None):
    """A game of ``title`` played until ``cid`` runs with a train: the privates sold
    cheapest first, ``cid`` launched at its highest initial price by the first player
    to act, everyone else passing; ``cid`` lays no track but ``lay`` and buys the
    bank's cheapest train in its first turn, and its next turn stops at its run. Its
    home is its only token: without ``lay`` it has no route."""
    g = Game(title, ["A", "B", "C", "D", "E"][:n], 1, [], None)
    while g.round.kind == "private_auction":
        listed = g.actions()
        g.act(next(x for x in listed if x["type"] in ("buy_private", "par")))
    pars = [x for x in g.actions() if x["type"] == "par" and x["corporation"] == cid]
    g.act(max(pars, key=lambda x: x["price"]))
    c = g.state.corp[cid]
    for _ in range(200):
        step = g.round.step()
        mine = getattr(step, "corp", None) is c
        name = type(step).__name__
        if mine and name == "RoutesStep" and c.trains:
            return g
        listed = g.actions()
        if mine and isinstance(step, TrackStep) and lay and not c.trains:
            g.act(dict(lay, type="lay_tile", corporation=cid))
            lay = None
            continue
        if mine and name == "BuyTrainStep" and not c.trains:
            g.act(min((x for x in listed if x["type"] == "buy_train" and x["from"] == "bank"),
                      key=lambda x: x.get("price", 0)))
            continue
        g.act(next((x for x in listed if x["type"] == "pass"), listed[0]))
    raise AssertionError(f"{cid} never ran with a train")


def test_1833ne_no_route_lists_pass_and_the_pass_makes_the_best_run():
    """A log with the pass replays to the state the $0 run leaves."""
    title, cid = "1833NE", "CV"
    g = at_run(title, cid)
    listed = g.actions()
    assert {"type": "run_routes", "corporation": cid, "routes": "best"} in listed
    assert listed[-1] == {"type": "pass", "corporation": cid}
    log = g.log()
    g.act({"type": "run_routes", "corporation": cid, "routes": "best"})
    assert g.log()["actions"][-1]["routes"] == [] and g.log()["actions"][-1]["revenue"] == 0
    after_run = g.to_json()
    passed = Game.replay(log)
    passed.act({"type": "pass", "corporation": cid})
    assert passed.to_json() == after_run
    assert passed.log()["actions"][-1] == {"type": "pass", "corporation": cid}
    assert Game.replay(passed.log()).to_json() == after_run


def test_a_company_with_a_route_must_run_train_list_and_prices():
    """1833NE: BW with a train and a route (Boston - the F23 town) runs; its pass is
    neither listed nor accepted."""
    g = at_run("1833NE", "BW", lay={"hex": "F23", "tile": "3", "rotation": 3})
    assert not any(x["type"] == "pass" for x in g.actions())
    with pytest.raises(Refusal) as e:
        g.act({"type": "pass", "corporation": "BW"})
    assert e.value.rule == "run.must-run"
    assert str(e.value) == 'BW owns trains and must run them ("Train list and prices")'


def _salr_at_run():
    """1832: SALR floated (A president, B and C holders), its home token placed as its
    turn starts, one 2-train, at its run: no track, so no route."""
    g = new_1832(3)
    c = start(g, "SALR", "A", 100, {"A": 2, "B": 2, "C": 1})
    g.rules.end_stock_round(None)
    g.rules.or_set = (1, 1)
    g.round = OperatingRound(g, 1, 1)
    g.round.order = []
    turn = g.rules.start_turn(c)
    c.trains = owned(g, "2")
    g.round.queue = [RoutesStep(g, c, turn), DividendStep(g, c, turn)]
    g.round.queue[0].enter()
    return g


def test_1832_no_route_pass_is_the_zero_run_8_and_no_dividend_9():
    """[8], [9] No Dividend: the pass leaves SALR where its $0 run does (withheld)."""
    g = _salr_at_run()
    assert g.actions()[-1] == {"type": "pass", "corporation": "SALR"}
    g.act({"type": "run_routes", "corporation": "SALR", "routes": "best"})
    assert g.applied[-1]["routes"] == [] and g.applied[-1]["revenue"] == 0
    h = _salr_at_run()
    h.act({"type": "pass", "corporation": "SALR"})
    assert h.to_json() == g.to_json()
    assert any(e["event"] == "dividend" and e["kind"] == "withhold" for e in h.to_json()["events"])


def test_1831_no_route_pass_did_not_run_5_7_1():
    """1831 5.6.6 "it must run at least one train" (when one can run): PRR's 2S has no
    route (its home Station and no track), so a pass, listed, makes the run of no train
    that ``run_routes "best"`` makes: DID NOT RUN (5.7.1)."""
    g = new_1831()
    c = operated(g, "PRR", 100, "P0")
    c.trains = [train(2)]
    run = current_step(g, RoutesStep(g, c, turn_of(c)))
    assert run.actions() == [{"type": "run_routes", "corporation": "PRR", "routes": "best"},
                             {"type": "pass", "corporation": "PRR"}]
    assert run.process({"type": "pass", "corporation": "PRR"}) == {"type": "pass", "corporation": "PRR"}
    # no train ran: the dividend step settles it as DID NOT RUN (``ran`` False)
    assert run.done and run.turn.revenue == 0 and run.turn.ran is False
    other = current_step(g, RoutesStep(g, c, turn_of(c)))
    recorded = other.process({"type": "run_routes", "corporation": "PRR", "routes": "best"})
    assert recorded["routes"] == [] and other.turn.revenue == 0 and other.turn.ran is False

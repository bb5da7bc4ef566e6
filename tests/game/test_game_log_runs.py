"""A run the bounded search did not prove best, logged and replayed (docs/game-log.md
guarantee 9: replaying a log twice gives the same states; 1831 5.6.6: a run need not be
the best, so the game's search is bounded and says whether it proved its run, with an
upper bound when not). A replay audits the logged routes instead of searching again, so
the proof must come from the log: in the replayed game's record of the run, and in the
state's ``run`` event, through every way a log is replayed (``Game.replay``,
``trainruns replay``, ``play serve``'s ``load``, ``undo``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from trainruns.errors import InputError
from trainruns.game import route_adapter
from trainruns.game.errors import Refusal
from trainruns.game.game import Game
from trainruns.game.protocol import Session

GAMES = Path(__file__).parents[2] / "fixtures" / "games"
OPENING = GAMES / "1831-opening.log"


def cut_search(monkeypatch, extra=30):
    """The 1831 game's search (the engine's run within 1831's ``run_work``, the route
    adapter's bounded run), as if its budget ran out before the proof: the same routes,
    reported not proven, with an upper bound ``extra`` above their revenue (a real cut
    search's answer has this shape: test_game_1831_end's 5.6.6 test)."""
    real = route_adapter.bounded_run

    def cut(position, work):
        revenue, routes, _proof = real(position, work)
        return revenue, routes, {"proven": False, "bound": revenue + extra}

    monkeypatch.setattr(route_adapter, "bounded_run", cut)


def to_the_run():
    """The opening fixture (LIRR operating, 5.2.5) to its run: its home tile laid, a 2S
    bought from the bank, nothing else."""
    g = Game.replay(json.loads(OPENING.read_text()))
    lay = next(a for a in g.actions() if a["type"] == "lay_tile")
    g.act(lay)
    g.act({"type": "pass", "corporation": "LIRR"})
    g.act({"type": "buy_train", "corporation": "LIRR", "from": "bank", "train": "2S"})
    while not any(a["type"] == "run_routes" for a in g.actions()):
        g.act({"type": "pass", "corporation": "LIRR"})
    return g


def unproven_game(monkeypatch):
    g = to_the_run()
    cut_search(monkeypatch)
    g.act({"type": "run_routes", "corporation": "LIRR", "routes": "best"})
    monkeypatch.undo()                       # the replays below search nothing
    return g


def run_event(state):
    return [e for e in state["events"] if e["event"] == "run"]


def test_a_replayed_log_keeps_the_runs_proof_and_gives_the_same_states_5_6_6(monkeypatch):
    g = unproven_game(monkeypatch)
    logged = g.log()["actions"][-1]
    revenue = logged["revenue"]   # 0 here: LIRR's 2S has no second city yet (1832's test has a paying run)
    assert logged["proven"] is False and logged["bound"] == revenue + 30
    state = g.to_json()
    assert run_event(state) == [{"event": "run", "corporation": "LIRR", "revenue": revenue, "proven": False,
                                 "bound": revenue + 30}]
    log = json.loads(json.dumps(g.log()))
    once, twice = Game.replay(log), Game.replay(log)
    for again in (once, twice):
        assert again.to_json() == state       # the run event with its proof included
        assert again.applied == g.applied     # the replayed record of the run keeps it
        assert again.log() == g.log()
    # a game replayed and then played on logs the run as it was made
    again = Game.replay(log)
    nxt = again.actions()[0]
    again.act(nxt)
    g.act(nxt)
    assert again.log() == g.log() and again.applied == g.applied


def test_replay_with_upto_and_undo_keep_the_proof_guarantee_9(monkeypatch):
    g = unproven_game(monkeypatch)
    log = g.log()
    k = len(log["actions"])
    g.act(g.actions()[0])
    longer = g.log()
    assert Game.replay(longer, upto=k).to_json() == Game.replay(log).to_json()
    # log + undo equals the log without its last decision, the run's record included
    undone = Game.replay(dict(longer, actions=longer["actions"] + [{"type": "undo"}]))
    assert undone.applied == Game.replay(log).applied
    assert undone.applied[-1]["proven"] is False


def test_the_cli_replay_and_play_serve_load_show_the_proof(monkeypatch, tmp_path):
    g = unproven_game(monkeypatch)
    state = g.to_json()
    assert [e["proven"] for e in run_event(state)] == [False]
    path = tmp_path / "unproven.log"
    path.write_text(json.dumps(g.log()))
    out = subprocess.run([sys.executable, "-m", "trainruns.cli.main", "replay", str(path)], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == json.loads(json.dumps(state))
    session = Session()
    loaded = session.handle(json.dumps({"cmd": "load", "log": g.log()}))
    assert loaded["ok"] and run_event(loaded["state"]) == run_event(state)
    assert session.handle(json.dumps({"cmd": "log"}))["log"] == g.log()


def test_a_declared_run_made_now_claims_no_proof_and_a_logged_proof_must_fit_its_revenue(monkeypatch):
    g = unproven_game(monkeypatch)
    log = g.log()
    made = log["actions"][-1]
    # the same routes declared in a live game: nothing searched, nothing proved; a run
    # that says a proof is refused (what an action says is what happens), the game as
    # it was, and the same run without one is made
    live = Game.replay(dict(log, actions=log["actions"][:-1]))
    before = live.to_json()
    bare = {k: v for k, v in made.items() if k not in ("proven", "bound")}
    with pytest.raises(Refusal, match="run.proof|proof is the game's"):
        live.act(dict(bare, proven=True, bound=made["revenue"]))
    assert live.to_json() == before
    live.act(bare)
    assert "proven" not in live.applied[-1] and run_event(live.to_json()) == []
    # a logged proof that no search could give is bad input (exit 2), not taken as said
    for wrong in ({"proven": True, "bound": made["revenue"] + 30}, {"proven": False, "bound": made["revenue"] - 1},
                  {"proven": False}, {"proven": "no", "bound": made["revenue"]}):
        bad = dict(log, actions=log["actions"][:-1] + [dict({k: v for k, v in made.items()
                                                             if k not in ("proven", "bound")}, **wrong)])
        with pytest.raises(InputError):
            Game.replay(bad)


def test_any_titles_logged_proof_replays_1832():
    # the replay is the game layer's, one for every title: a paying 1832 run (the seeded
    # game fixture's first) logged as a time-limited solve logs it, not proven, with a bound
    log = json.loads((GAMES / "1832-2p-seed42.game").read_text())["log"]
    k = next(i for i, a in enumerate(log["actions"]) if a["type"] == "run_routes" and a["revenue"] > 0)
    plain = dict(log, actions=log["actions"][:k + 1])
    run = dict(log["actions"][k], proven=False, bound=log["actions"][k]["revenue"] + 30)
    cut = dict(log, actions=log["actions"][:k] + [run])
    a, b, without = Game.replay(cut), Game.replay(cut), Game.replay(plain)
    assert a.to_json() == b.to_json() and a.applied == b.applied and a.log() == cut
    assert a.applied[-1] == run and run_event(a.to_json()) == [
        {"event": "run", "corporation": run["corporation"], "revenue": run["revenue"], "proven": False,
         "bound": run["bound"]}]
    # the proof is all that differs from the same log without it
    assert dict(a.to_json(), events=without.to_json()["events"]) == without.to_json()
    assert "proven" not in without.applied[-1] and run_event(without.to_json()) == []

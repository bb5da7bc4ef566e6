"""The operating turn's advice over HTTP (``POST /api/advise``, docs/advise.md and
docs/serve.md): run in the worker as a job the page follows, its plans those of
``trainruns play advise`` on the same game, each run with the lines the map draws it
along, the plan's first decision one the game accepts (1832 [6] Laying Track, [8] Route
Value); a request that is not for a company's operating turn, or names another version,
or asks for a top or horizon out of range is refused with one message."""

import pytest
from serve_game_script import PLAYERS, SEED, to_operating_turn_with_a_train
from serve_helpers import finished
from starlette.testclient import TestClient

from trainruns.game.game import Game
from trainruns.players.advise import advise
from trainruns.serve import game_engine
from trainruns.serve.app import create_app
from trainruns.serve.game_mode import GameMode
from trainruns.serve.jobs import Jobs

LOCAL = "http://127.0.0.1"


@pytest.fixture(scope="module")
def log():
    return to_operating_turn_with_a_train()[1].log()


@pytest.fixture()
def served(tmp_path, log):
    jobs = Jobs()
    mode = GameMode(game_engine.load(log), str(tmp_path / "game.json"), jobs, time_limit=120)
    with TestClient(create_app(mode, jobs), base_url=LOCAL) as client:
        yield client, mode
    jobs.close()


def test_advice_is_the_commands_and_its_first_decision_is_taken(served, log):
    """The job's plans are ``advise``'s on the same game (actions, score, revenue, cost,
    cash left), best first; each run comes with one line per route along the stops it
    names; the best plan's first decision is accepted by the game."""
    client, mode = served
    r = client.post("/api/advise", json={"version": mode.version, "top": 3})
    assert r.status_code == 200, r.text
    job = finished(client, r.json())
    assert job["status"] == "done", job
    got = job["result"]
    expected = advise(Game.replay(log), top=3).to_json()
    assert [(p["actions"], p["score"], p["revenue"], p["cost"], p["cash_left"]) for p in got["plans"]] == \
        [(p["actions"], p["score"], p["revenue"], p["cost"], p["cash_left"]) for p in expected["plans"]]
    assert got["complete"] and got["corporation"] == expected["corporation"]
    assert any(p["routes"] for p in got["plans"])
    for plan in got["plans"]:
        assert len(plan["lines"]) == len(plan["routes"]) == len(plan["colors"])
        for line, route in zip(plan["lines"], plan["routes"]):
            assert line["stops"] == route["stops"] and len(line["points"]) >= 2
    first = got["plans"][0]["actions"][0]
    r = client.post("/api/act", json={"action": first, "version": mode.version})
    assert r.status_code == 200, r.text
    game = Game.replay(log)
    game.act(first)
    assert r.json()["state"] == {**game.to_json(), "events": r.json()["state"]["events"]}


def test_a_deadline_answers_with_the_plans_so_far(served):
    """Bounded: past the server's time limit the job ends with the plans scored so far,
    said to be neither complete nor exact."""
    client, mode = served
    mode.time_limit = 0
    job = finished(client, client.post("/api/advise", json={"version": mode.version}).json())
    assert job["status"] == "done" and job["result"]["complete"] is False and job["result"]["exact"] is False


@pytest.mark.parametrize("body, words", [
    ({"version": 1, "top": 0}, "'top'"), ({"version": 1, "top": True}, "'top'"),
    ({"version": 1, "horizon": 3}, "'horizon'"), ({"version": 1, "horizon": 1.0}, "'horizon'"),
    ({}, "'version'")])
def test_bad_requests_are_refused_in_one_message(served, body, words):
    client, _ = served
    r = client.post("/api/advise", json=body)
    assert r.status_code == 400 and words in r.json()["error"], r.text


def test_advice_for_another_version_is_a_conflict_as_an_action_is(served):
    """A page behind the game asks for advice on a version gone by: 409, as /api/act
    answers a decision taken on it, and nothing starts."""
    client, mode = served
    r = client.post("/api/advise", json={"version": mode.version + 6})
    assert r.status_code == 409 and f"version {mode.version + 6}" in r.json()["error"], r.text
    stale = client.post("/api/act", json={"action": {"type": "pass"}, "version": mode.version + 6})
    assert stale.status_code == 409


def test_a_stock_round_is_not_an_operating_turn(tmp_path):
    """Advice is for a company's operating turn: in a stock round it is refused."""
    jobs = Jobs()
    mode = GameMode(game_engine.new("1832", PLAYERS, SEED), str(tmp_path / "g.json"), jobs, time_limit=30)
    with TestClient(create_app(mode, jobs), base_url=LOCAL) as client:
        r = client.post("/api/advise", json={"version": mode.version})
        assert r.status_code == 400 and "operating turn" in r.json()["error"], r.text
    jobs.close()

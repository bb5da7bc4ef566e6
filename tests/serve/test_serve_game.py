"""``trainruns serve`` in game mode over plain HTTP (docs/game-log.md through the page's
calls): actions are the engine's, the log on disk follows every action atomically, a
refused or malformed action changes nothing, undo takes back one decision, and a killed
server resumes from its log. Each state is compared with the engine replaying the same
decisions on its own."""

import json
import os

import httpx
import pytest
from conftest import ROOT
from serve_game_script import PLAYERS, SEED, first_rounds
from serve_helpers import Server, finished
from starlette.testclient import TestClient

from trainruns.game.game import Game
from trainruns.serve import game_engine
from trainruns.serve import game_mode as game_mode_module
from trainruns.serve.app import MAX_BODY, create_app
from trainruns.serve.game_mode import GameMode
from trainruns.serve.jobs import Jobs

LOCAL = "http://127.0.0.1"


@pytest.fixture(scope="module")
def script():
    return first_rounds()


@pytest.fixture()
def served(tmp_path):
    jobs = Jobs()
    path = tmp_path / "game.json"
    mode = GameMode(game_engine.new("1832", PLAYERS, SEED), str(path), jobs, time_limit=30)
    with TestClient(create_app(mode, jobs), base_url=LOCAL) as client:
        yield client, mode, path
    jobs.close()


def replayed(decisions):
    game = Game("1832", PLAYERS, seed=SEED)
    for a in decisions:
        game.act(a)
    return game.to_json()


def comparable(state):
    """The state without the last action's events (a replay reports only its own last)."""
    return {k: v for k, v in state.items() if k != "events"}


def test_playing_the_first_rounds_saves_every_action(served, script):
    """docs/game-log.md: only decisions are logged; after every action the log file on
    disk is the game's log, and the state is the engine's replay of those decisions."""
    client, _, path = served
    decisions, final = script
    for i, a in enumerate(decisions):
        r = client.post("/api/act", json={"action": a})
        assert r.status_code == 200, r.text
        on_disk = json.loads(path.read_text())
        assert on_disk["actions"] == decisions[: i + 1]
    state = client.get("/api/state").json()
    assert comparable(state["state"]) == comparable(final.to_json())
    assert state["state"]["round"] == {"kind": "stock", "number": 2}
    assert not [f for f in os.listdir(path.parent) if f.endswith(".tmp")]  # no temp file left behind
    market = state["market"]
    for c in state["state"]["corporations"]:
        if c["market_cell"]:
            r, k = c["market_cell"]
            assert market["rows"][r][k]["price"] == c["price"]
            assert c["id"] in market["stacks"][f"{r},{k}"]


def test_refused_action_changes_nothing(served):
    """Turn order ([5.7]): Bob may not act on Ann's turn: 409 with the rule id; the log
    file and the state are as before."""
    client, mode, path = served
    before_file, before = path.read_bytes(), client.get("/api/state").json()
    r = client.post("/api/act", json={"action": {"type": "buy_private", "player": "Bob", "private": "P1"}})
    assert r.status_code == 409 and r.json()["rule"] and r.json()["error"]
    assert path.read_bytes() == before_file
    assert client.get("/api/state").json() == before


@pytest.mark.parametrize("body,status", [
    ({"action": "pass"}, 400),
    ({"action": {"type": "teleport", "player": "Ann"}}, 400),
    ({"action": {"type": "buy_private", "player": "Zed", "private": "P1"}}, 400),
    ({"act": {"type": "pass", "player": "Ann"}}, 400),
    ({"action": {"type": "bid", "player": "Ann", "private": "P2", "price": "lots"}}, 400),
])
def test_malformed_action_changes_nothing(served, body, status):
    client, _, path = served
    before_file, before = path.read_bytes(), client.get("/api/state").json()
    r = client.post("/api/act", json=body)
    assert r.status_code in (status, 409), r.text
    assert r.json()["error"]
    assert path.read_bytes() == before_file and client.get("/api/state").json() == before


def test_oversized_and_non_json_bodies_are_refused(served):
    client, _, path = served
    before = path.read_bytes()
    r = client.post("/api/act", content=b"{" + b" " * (MAX_BODY + 1) + b"}", headers={"content-type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/act", content=b'{"action": {"type": "pass", "player": "Ann"}}',
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    assert path.read_bytes() == before


def test_undo_takes_back_the_last_decision(served, script):
    """docs/game-log.md guarantee 9: log + undo is the log without its last decision."""
    client, _, path = served
    decisions, _ = script
    for a in decisions[:8]:
        assert client.post("/api/act", json={"action": a}).status_code == 200
    state = client.post("/api/act", json={"action": {"type": "undo"}, "version": client.get("/api/state").json()["version"]}).json()
    assert comparable(state["state"]) == comparable(replayed(decisions[:7]))
    assert game_engine.load(json.loads(path.read_text())).to_json()["actions_applied"] == 7


def test_a_log_that_cannot_be_saved_is_not_taken(served, monkeypatch):
    """Saved before taken: if the log cannot be written the action is undone."""
    client, _, path = served
    before_file, before = path.read_bytes(), client.get("/api/state").json()

    def failing_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(game_mode_module.os, "replace", failing_replace)
    r = client.post("/api/act", json={"action": {"type": "pass", "player": "Ann"}})
    assert r.status_code == 400 and "cannot save" in r.json()["error"]
    monkeypatch.undo()
    assert path.read_bytes() == before_file
    assert client.get("/api/state").json()["state"] == before["state"]
    assert not [f for f in os.listdir(path.parent) if f.endswith(".tmp")]


def test_position_of_a_corporation_loads(served, script):
    from trainruns.titles.load import load_position

    client, _, _ = served
    for a in script[0]:
        client.post("/api/act", json={"action": a})
    pos = client.get("/api/position", params={"corporation": "CG"}).json()
    assert pos["corporation"] == "CG" and load_position(pos).corporation == "CG"
    assert client.get("/api/position", params={"corporation": "NOPE"}).status_code == 400


def events(stream):
    """The ``event: change`` messages of a Server-Sent Events stream, as they come."""
    event = None
    for line in stream.iter_lines():
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == "change":
            yield json.loads(line.split(":", 1)[1])
        elif not line:
            event = None


def test_a_second_client_sees_each_action_and_a_killed_server_resumes_from_its_log(tmp_path, script):
    """Another client (a second browser) following /api/events (Server-Sent Events) is
    told of each action as it is taken, with the game's new version. Then kill the
    server (SIGKILL: no chance to save anything more), start it on the log: the game is
    as it was after the last answered action, under a new server run id (its versions
    count from 1 again: a page of the old run must see that it is stale and reload)."""
    decisions, _ = script
    log = tmp_path / "table.json"
    server = Server("--new", "1832", "--players", ",".join(PLAYERS), "--seed", SEED, log)
    try:
        with httpx.stream("GET", server.url + "api/events", timeout=120) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            seen = events(stream)
            first = next(seen)
            run = first["run"]
            assert first == {"run": run, "session": 1, "mode": "game", "version": 1}
            for i, a in enumerate(decisions[:12]):
                r = httpx.post(server.url + "api/act", json={"action": a}, timeout=120)
                assert r.status_code == 200, r.text
                assert next(seen) == {"run": run, "session": 1, "mode": "game", "version": i + 2}
    finally:
        server.proc.kill()
        server.proc.wait()
    server = Server(log)
    try:
        state = httpx.get(server.url + "api/state", timeout=120).json()
    finally:
        server.stop()
    assert comparable(state["state"]) == comparable(replayed(decisions[:12]))
    assert state["run"] != run and state["version"] == 1


def test_a_long_solve_shows_progress_and_blocks_no_request(tmp_path, monkeypatch):
    """The operating corporation's best run is solved off the server's loop: held in the
    middle of its search (at its report of the routes listed), the job shows that
    progress, and the game's state, map, log and position are all answered meanwhile;
    let go, it finishes with the revenue of an independent solve of the position."""
    import threading

    from serve_game_script import to_first_run

    from trainruns.serve.jobs import Job
    from trainruns.titles.load import solve

    decisions, game = to_first_run()
    reached, release = threading.Event(), threading.Event()
    update = Job.update

    def held(job, stage, **info):
        update(job, stage, **info)
        if stage == "routes" and not reached.is_set():
            reached.set()
            release.wait(180)

    monkeypatch.setattr(Job, "update", held)
    jobs = Jobs()
    mode = GameMode(game_engine.load(game.log()), str(tmp_path / "game.json"), jobs, time_limit=60)
    try:
        with TestClient(create_app(mode, jobs), base_url=LOCAL) as client:
            assert reached.wait(180)
            state = client.get("/api/state").json()
            job = client.get(f"/api/job/{state['solve']['id']}").json()
            assert job["status"] == "running" and job["progress"]["stage"] == "routes"
            assert job["progress"]["roots"] >= 1 and job["progress"]["routes"] >= 0
            assert client.get("/api/map.svg", params={"version": client.get("/api/state").json()["version"]}).status_code == 200
            assert client.get("/api/log").json()["actions"] == game.log()["actions"]
            assert client.get("/api/position").json()["corporation"] == state["active"]["corporation"]
            assert client.get(f"/api/job/{job['id']}").json()["status"] == "running"  # still held: none waited
            release.set()
            done = finished(client, job)
            assert done["status"] == "done" and done["result"]["revenue"] == solve(game.position()).revenue
    finally:
        release.set()
        jobs.close()


def test_new_game_refuses_to_overwrite(tmp_path):
    from test_serve_http import _serve

    log = tmp_path / "exists.json"
    log.write_text("{}")
    r = _serve("--new", "1832", "--players", "A,B", str(log))
    assert r.returncode == 2 and "already exists" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert log.read_text() == "{}"


def test_tile_preview_only_for_a_legal_lay(served, script):
    client, _, _ = served
    decisions, _ = script
    i = next(i for i, a in enumerate(decisions) if a["type"] == "lay_tile")
    for a in decisions[:i]:
        assert client.post("/api/act", json={"action": a}).status_code == 200
    lay = decisions[i]
    r = client.get("/api/preview.svg", params={k: lay[k] for k in ("hex", "tile", "rotation")})
    assert r.status_code == 200 and f'id="hex-{lay["hex"]}"' in r.text
    r = client.get("/api/preview.svg", params={"hex": "A1", "tile": "5", "rotation": 0})
    assert r.status_code == 400 and "not a legal lay" in r.json()["error"]


def test_run_best_or_a_declared_run(served):
    """docs/game-log.md: a declared run is checked as ``trainruns audit`` checks it and an
    illegal one is refused with the audit's rule id (here a stop the board lacks); "best"
    runs the proven best run of the position."""
    from serve_game_script import to_first_run

    from trainruns.services.audit import audit

    client, _, path = served
    decisions, game = to_first_run()
    for a in decisions:
        assert client.post("/api/act", json={"action": a}).status_code == 200
    state = client.get("/api/state").json()
    corp = state["active"]["corporation"]
    assert {"type": "run_routes", "corporation": corp, "routes": "best"} in state["actions"]
    # the page shows the operating corporation's best run before it runs
    from trainruns.titles.load import solve

    best = solve(game.position())
    job = finished(client, state["solve"])
    assert job["result"]["corporation"] == corp and job["result"]["revenue"] == best.revenue
    svg = client.get("/api/map.svg", params={"version": state["version"], "what": "best"}).text
    assert f"Total: {best.revenue}" in svg
    declared = {"routes": [{"train": "2", "stops": ["H16.0", "I15.0"]}]}
    expected = audit(game.position(), declared)
    assert not expected.legal
    before = path.read_bytes()
    r = client.post("/api/act", json={"action": {"type": "run_routes", "corporation": corp, **declared}})
    assert r.status_code == 409 and r.json()["rule"] in {p.rule for p in expected.problems}
    assert path.read_bytes() == before
    r = client.post("/api/act", json={"action": {"type": "run_routes", "corporation": corp, "routes": "best"}})
    assert r.status_code == 200
    assert json.loads(path.read_text())["actions"][-1]["type"] == "run_routes"


def test_1831_market_view_has_both_prices_of_each_square():
    """1831 4.3: every square of the market has a common (C) and a preferred (P) price;
    the page's market shows both, with the square's area (4.3.2, 4.3.4), and a company
    started at par sits on its square with the price the state gives it."""
    from trainruns.game.selfplay import play

    game, problems, _ = play("1831", ["A", "B", "C", "D"], 3, 150)
    assert problems == []
    view = game_engine.market(game)
    grid = game.rules.market
    for r, row in enumerate(view["rows"]):
        for k, box in enumerate(row):
            if grid.exists((r, k)):
                assert box == {"price": grid.common((r, k)), "preferred": grid.preferred((r, k)),
                               "zone": grid.area((r, k)) or "white"}
            else:
                assert box is None
    state = game.to_json()
    placed = [c for c in state["corporations"] if c["market_cell"]]
    assert placed, "150 actions of a seeded game start a company"
    for c in placed:
        r, k = c["market_cell"]
        assert c["id"] in view["stacks"][f"{r},{k}"]


def test_1831_map_shows_the_company_a_waiting_train_offer_concerns(tmp_path):
    """1831 5.3.2 / 5.3.4: NYC offers to buy B&O's 3S; while B&O's president (P1)
    answers, no corporation acts, yet the map is NYC's: the company the offer
    concerns, still operating, not the first in the list (PRR)."""
    from _1831 import company, current_step, train, turn_of

    from trainruns.titles.g1831.game.steps.operating import TrainStep

    game = Game("1831", ["P0", "P1", "P2", "P3"], 7)
    buyer = company(game, "NYC", 100, "P0", cash=300)
    seller = company(game, "B&O", 80, "P1")
    buyer.trains, seller.trains = [train(2)], [train(3)]
    current_step(game, TrainStep(game, buyer, turn_of(buyer)))
    game.act({"type": "buy_train", "corporation": "NYC", "from": "B&O", "train": "3S", "price": 1})
    assert game.active() == {"player": "P1"}
    assert game.to_json()["corporations"][0]["id"] == "PRR"
    jobs = Jobs()
    try:
        mode = GameMode(game, str(tmp_path / "game.json"), jobs, time_limit=30)
        assert mode.state()["map_corporation"] == "NYC"
        assert mode.position()["corporation"] == "NYC"
        assert mode._look()["board"].corporation == "NYC"
        # the answer given, NYC acts again and the map stays its
        assert mode.act({"type": "pass", "player": "P1"}) is None
        assert mode.game.active()["corporation"] == "NYC"
        assert mode.state()["map_corporation"] == "NYC"
    finally:
        jobs.close()


def test_the_position_in_a_stock_round_is_of_a_started_corporation(tmp_path, script):
    """Between operating rounds no corporation acts: the Position saved is that of the
    first corporation started (one with a president, so with a home token and trains
    to run), not of the first one listed, which nobody may have started; any other may
    be asked for by name."""
    decisions, _ = script
    final = Game("1832", PLAYERS, seed=SEED)   # stock round 1: CG started (P7's holder pars it), A&WP not
    for a in decisions[:7]:
        final.act(a)
    st = final.to_json()
    assert st["round"]["kind"] == "stock"
    started = [c["id"] for c in st["corporations"] if c["president"]]
    assert started and st["corporations"][0]["id"] not in started, "the first listed is not started"
    jobs = Jobs()
    try:
        mode = GameMode(game_engine.load(final.log()), str(tmp_path / "game.json"), jobs, time_limit=30)
        assert mode.position()["corporation"] == started[0]
        assert mode.position(st["corporations"][0]["id"])["corporation"] == st["corporations"][0]["id"]
    finally:
        jobs.close()


def test_redo_and_take_back_over_http_need_the_version_shown(served, script):
    """An undo, a redo and an "undo to here" each name the version the player saw; a
    stale one is refused (409) and changes nothing; a redo takes again exactly the
    decision taken back (the log replays to the same game), also after a restart; a new
    decision leaves nothing to redo."""
    client, _, path = served
    decisions, _ = script
    for a in decisions[:6]:
        assert client.post("/api/act", json={"action": a}).status_code == 200
    assert client.post("/api/act", json={"action": {"type": "undo"}}).status_code == 400
    state = client.post("/api/take-back", json={"decision": 3, "version": 7}).json()
    assert len(state["history"]) == 3 and state["redo"] == 3 and state["redo_next"] == decisions[3]
    # the decisions taken back are read from the log: a server started again offers them
    jobs = Jobs()
    try:
        copy = path.with_name("again.json")
        copy.write_text(path.read_text())
        again = GameMode(game_engine.load(json.loads(copy.read_text())), str(copy), jobs, time_limit=30)
        assert again.state()["redo"] == 3 and again.state()["redo_next"] == decisions[3]
    finally:
        jobs.close()
    assert client.post("/api/take-back", json={"decision": 1, "version": 7}).status_code == 409
    assert client.post("/api/redo", json={"version": 7}).status_code == 409
    state = client.post("/api/redo", json={"version": 8}).json()
    assert comparable(state["state"]) == comparable(replayed(decisions[:4]))
    assert [h["action"] for h in state["history"]] == decisions[:4]
    # the next decision taken back, taken again by hand, is a redo too (as the log reads it)
    state = client.post("/api/act", json={"action": decisions[4], "version": 9}).json()
    assert state["redo"] == 1 and state["redo_next"] == decisions[5] and state["last"]["action"] == decisions[4]
    assert game_engine.load(json.loads(path.read_text())).to_json()["actions_applied"] == 5
    # any other decision forgets what was taken back
    state = client.post("/api/take-back", json={"decision": 4, "version": 10}).json()
    assert state["redo_next"] == decisions[4]
    other = next(a for a in state["actions"] if a != decisions[4] and not any(isinstance(v, dict) for v in a.values()))
    assert client.post("/api/act", json={"action": other, "version": 11}).json()["redo"] == 0


def test_the_game_page_starts_once_every_script_has_run():
    """The game page fetches its first state from game.js; when that state arrived before a
    script loaded after it (history.js, under load) the page threw while drawing and showed
    no controls. game.js is the page's last script and starts on DOMContentLoaded, when
    every script has run."""
    import re

    static = ROOT / "src" / "trainruns" / "serve" / "static"
    scripts = re.findall(r'<script src="static/([\w.]+)"', (static / "game.html").read_text())
    assert scripts[-1] == "game.js" and "history.js" in scripts
    assert 'addEventListener("DOMContentLoaded", start)' in (static / "game.js").read_text()

"""``trainruns serve`` over plain HTTP: what the page asks, and what a hostile client sends.

Every refusal must be a JSON error with a 4xx status and leave the position exactly as
it was (same version, same downloaded file). Revenues shown are checked against an
independent solve of the same position built by hand.
"""

import json
import subprocess

import pytest
from conftest import ROOT
from serve_helpers import finished
from starlette.testclient import TestClient

from trainruns.serve.app import MAX_BODY, create_app
from trainruns.serve.jobs import Jobs
from trainruns.serve.position_mode import PositionMode
from trainruns.titles.load import solve

FIXTURE = ROOT / "fixtures" / "1832" / "worked_example.json"
LOCAL = "http://127.0.0.1"


def position():
    return json.loads(FIXTURE.read_text())


@pytest.fixture()
def served():
    jobs = Jobs()
    mode = PositionMode(position(), jobs, time_limit=60, name="worked_example.json")
    with TestClient(create_app(mode, jobs), base_url=LOCAL) as client:
        yield client, mode
    jobs.close()


def snapshot(client):
    state = client.get("/api/state").json()
    return state["version"], client.get("/api/position").json()


# --- what the page does -------------------------------------------------------------------


def test_best_run_matches_an_independent_solve(served):
    client, _ = served
    state = client.get("/api/state").json()
    job = finished(client, state["solve"])
    expected = solve(position())
    assert job["status"] == "done"
    assert job["result"]["revenue"] == expected.revenue
    assert job["result"]["optimal"] is True
    assert sorted(r["revenue"] for r in job["result"]["routes"]) == sorted(r.revenue for r in expected.routes)
    svg = client.get("/api/map.svg", params={"version": state["version"], "what": "best"}).text
    assert 'id="hex-D20"' in svg and f"Total: {expected.revenue} (proven optimal)" in svg


def test_lay_changes_the_revenue_and_undo_restores_it(served):
    """1832 rulebook "Laying Track": tile 3 on E21 connects Wilmington to SALR's Raleigh
    track; the page's revenue after the lay is the solve of the position with that tile."""
    client, _ = served
    lays = client.get("/api/lays", params={"hex": "E21"}).json()["lays"]
    assert {"hex": "E21", "tile": "3", "rotation": 1} in lays
    preview = client.get("/api/preview.svg", params={"hex": "E21", "tile": "3", "rotation": 1})
    assert preview.headers["content-type"].startswith("image/svg+xml") and 'id="hex-E21"' in preview.text
    before_version, before = snapshot(client)
    state = client.post("/api/edit", json={"op": "lay", "hex": "E21", "tile": "3", "rotation": 1}).json()
    assert state["version"] == before_version + 1
    by_hand = position()
    by_hand["tiles"].append({"hex": "E21", "tile": "3", "rotation": 1})
    job = finished(client, state["solve"])
    assert job["result"]["revenue"] == solve(by_hand).revenue != solve(position()).revenue
    assert client.get("/api/position").json()["tiles"] == by_hand["tiles"]
    state = client.post("/api/edit", json={"op": "undo"}).json()
    assert client.get("/api/position").json() == before
    assert finished(client, state["solve"])["result"]["revenue"] == solve(position()).revenue


def test_lays_offered_are_the_legal_ones(served):
    """A hex SALR cannot reach (1832 rulebook "Laying Track") has no lay on offer, and a
    lay that is not offered is refused."""
    client, _ = served
    assert client.get("/api/lays", params={"hex": "N16"}).json()["lays"] == []
    before = snapshot(client)
    r = client.post("/api/edit", json={"op": "lay", "hex": "N16", "tile": "3", "rotation": 0})
    assert r.status_code == 400 and "not a legal lay" in r.json()["error"]
    assert snapshot(client) == before


def test_token_trains_phase_edits(served):
    client, _ = served
    state = client.post("/api/edit", json={"op": "token", "hex": "C23", "stop": 0, "corporation": "ACL"})
    assert state.status_code == 400  # C23 holds no city: nothing changes
    state = client.post("/api/edit", json={"op": "token", "hex": "F10", "stop": 0, "corporation": "ACL"}).json()
    assert state["hexes"]["F10"][0]["tokens"] == ["ACL"]
    state = client.post("/api/edit", json={"op": "token", "hex": "F10", "stop": 0, "corporation": "ACL"}).json()
    assert state["hexes"]["F10"][0]["tokens"] == []
    state = client.post("/api/edit", json={"op": "trains", "trains": ["3"]}).json()
    assert state["trains"] == ["3"]
    expected = solve(dict(position(), trains=["3"]))
    assert finished(client, state["solve"])["result"]["revenue"] == expected.revenue
    state = client.post("/api/edit", json={"op": "phase", "phase": "4"}).json()
    assert state["phase"] == "4"


def test_audit_of_clicked_stops(served):
    """1832 rulebook "Operate Trains": the best run declared is legal; a 2-train with three
    stops breaks "a 2-train must run routes of exactly length two"."""
    client, _ = served
    good = {"routes": [{"train": "3", "stops": ["D20.0", "A21.0"]}, {"train": "2", "stops": ["D20.0", "B24.0"]}]}
    job = finished(client, client.post("/api/audit", json=good).json())
    assert job["result"]["legal"] and job["result"]["declared_revenue"] == solve(position()).revenue
    bad = {"routes": [{"train": "2", "stops": ["A21.0", "D20.0", "B24.0"]}]}
    job = finished(client, client.post("/api/audit", json=bad).json())
    assert not job["result"]["legal"]
    assert "too-many-stops" in {p["rule"] for p in job["result"]["problems"]}
    assert "NOT legal" in job["result"]["svg"]


def test_rank_lays_as_whatif_does(served):
    from trainruns.services.whatif import rank_tiles_full

    client, _ = served
    job = finished(client, client.post("/api/rank", json={}).json())
    expected = rank_tiles_full(position())
    assert [m["revenue"] for m in job["result"]["moves"]] == [m.revenue for m in expected.moves]
    assert job["result"]["moves"][0]["move"] == expected.moves[0].move


def test_download_is_the_position(served):
    client, _ = served
    r = client.get("/api/position")
    assert "attachment" in r.headers["content-disposition"]
    assert r.json() == position()


# --- hostile and malformed requests: a JSON error, nothing changed ------------------------


HOSTILE = [
    ("post", "/api/edit", {"content": b"{\"op\": \"undo\"}", "headers": {"content-type": "text/plain"}}, 415),
    ("post", "/api/edit", {"content": b"{not json", "headers": {"content-type": "application/json"}}, 400),
    ("post", "/api/edit", {"content": b"\xff\xfe", "headers": {"content-type": "application/json"}}, 400),
    ("post", "/api/edit", {"json": [1, 2]}, 400),
    ("post", "/api/edit", {"content": b"[" * 200000, "headers": {"content-type": "application/json"}}, 400),
    ("post", "/api/open", {"content": b'{"position": ' + b'{"a": ' * 100000 + b"1" + b"}" * 100001,
                           "headers": {"content-type": "application/json"}}, 400),
    ("post", "/api/edit", {"json": {"op": "explode"}}, 400),
    ("post", "/api/edit", {"json": {"op": "lay", "hex": "E21", "tile": "3", "rotation": "1"}}, 400),
    ("post", "/api/edit", {"json": {"op": "lay", "hex": "E21", "tile": "3", "rotation": True}}, 400),
    ("post", "/api/edit", {"json": {"op": "lay", "hex": "E21", "tile": "999", "rotation": 1}}, 400),
    ("post", "/api/edit", {"json": {"op": "lay", "hex": "Z99", "tile": "3", "rotation": 1}}, 400),
    ("post", "/api/edit", {"json": {"op": "lay", "hex": "E21" * 100, "tile": "3", "rotation": 1}}, 400),
    ("post", "/api/edit", {"json": {"op": "token", "hex": "D20", "stop": 7, "corporation": "X"}}, 400),
    ("post", "/api/edit", {"json": {"op": "trains", "trains": ["99"]}}, 400),
    ("post", "/api/edit", {"json": {"op": "trains", "trains": "3"}}, 400),
    ("post", "/api/edit", {"json": {"op": "trains", "trains": ["2"] * 50}}, 400),
    ("post", "/api/edit", {"json": {"op": "phase", "phase": "99"}}, 400),
    ("post", "/api/edit", {"json": {"op": "corporation", "corporation": ""}}, 400),
    ("post", "/api/edit", {"json": {"op": "undo"}}, 400),  # nothing to undo yet
    ("post", "/api/edit", {"content": b"{" + b" " * (MAX_BODY + 10) + b"}",
                           "headers": {"content-type": "application/json"}}, 413),
    ("post", "/api/open", {"json": {"position": {"title": "1832", "phase": "3"}}}, 400),
    ("post", "/api/open", {"json": {"position": {"title": "nope"}}}, 400),
    ("post", "/api/open", {"json": {"position": "../../etc/passwd"}}, 400),
    ("post", "/api/audit", {"json": {"routes": [{"train": "3", "stops": ["D20"]}]}}, 400),
    ("post", "/api/audit", {"json": {"routes": "all"}}, 400),
    ("get", "/api/lays", {}, 400),
    ("get", "/api/preview.svg?hex=N16&tile=3&rotation=0", {}, 400),
    ("get", "/api/preview.svg?hex=E21&tile=3&rotation=x", {}, 400),
    ("get", "/api/preview.svg?hex=E21&rotation=1", {}, 400),
    ("get", "/api/job/12345", {}, 404),
    ("get", "/api/map.svg?version=abc", {}, 400),
    ("get", "/api/map.svg?version=99", {}, 400),
    ("get", "/api/map.svg?version=1&what=../secret", {}, 400),
    ("get", "/api/edit", {}, 405),
    ("delete", "/api/position", {}, 405),
    ("get", "/api/nothing-here", {}, 404),
    ("get", "/static/../app.py", {}, 404),
    ("get", "/static/%2e%2e/app.py", {}, 404),
]


@pytest.mark.parametrize("method,path,kwargs,status", HOSTILE, ids=[f"{m} {p} {s}" for m, p, _, s in HOSTILE])
def test_bad_requests_change_nothing(served, method, path, kwargs, status):
    client, _ = served
    before = snapshot(client)
    r = getattr(client, method)(path, **kwargs) if method != "post" else client.post(path, **kwargs)
    assert r.status_code == status, r.text
    if r.status_code != 404 or path.startswith("/api"):
        assert isinstance(r.json()["error"], str) and r.json()["error"]
    assert snapshot(client) == before


def test_lying_content_length_is_refused(served):
    client, _ = served
    before = snapshot(client)
    r = client.post("/api/edit", content=b'{"op": "undo"}',
                    headers={"content-type": "application/json", "content-length": str(MAX_BODY + 1)})
    assert r.status_code == 413
    assert snapshot(client) == before


def test_other_hosts_are_refused_on_localhost():
    """A page on another site reaching 127.0.0.1 through DNS rebinding names its own
    host: refused."""
    jobs = Jobs()
    mode = PositionMode(position(), jobs, time_limit=60)
    with TestClient(create_app(mode, jobs), base_url="http://evil.example") as client:
        r = client.get("/api/state")
        assert r.status_code == 421 and "127.0.0.1" in r.json()["error"]
    jobs.close()


def test_network_mode_needs_the_token():
    jobs = Jobs()
    mode = PositionMode(position(), jobs, time_limit=60)
    app = create_app(mode, jobs, token="s3cret-token", local_only=False)
    with TestClient(app, base_url="http://192.0.2.1:8018") as client:
        for path in ("/", "/api/state", "/api/position"):
            assert client.get(path).status_code == 403
            assert client.get(path, params={"token": "wrong"}).status_code == 403
        r = client.post("/api/edit", json={"op": "phase", "phase": "4"}, headers={"X-Trainruns-Token": "nope"})
        assert r.status_code == 403 and "access token" in r.json()["error"]
        assert client.get("/api/state", params={"token": "s3cret-token"}).json()["phase"] == "3"
        assert client.get("/api/state", headers={"X-Trainruns-Token": "s3cret-token"}).status_code == 200
        assert client.get("/static/app.js").status_code == 200  # the page's script holds no game
    jobs.close()


def test_empty_server_offers_to_open():
    jobs = Jobs()
    mode = PositionMode(None, jobs, time_limit=60)
    with TestClient(create_app(mode, jobs), base_url=LOCAL) as client:
        assert client.get("/api/state").json()["empty"] is True
        assert client.get("/api/position").status_code == 404
        assert client.post("/api/edit", json={"op": "phase", "phase": "3"}).status_code == 400
        state = client.post("/api/open", json={"position": position()}).json()
        assert state["corporation"] == "SALR"
        assert finished(client, state["solve"])["result"]["revenue"] == solve(position()).revenue
    jobs.close()


# --- the command -------------------------------------------------------------------------


def _serve(*args):
    """``trainruns serve ARGS`` through the CLI's own entry point, in this process (each
    of these is refused before anything is served: a new process per case would only
    load the modules again)."""
    import contextlib
    import io

    from trainruns.cli.main import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["serve", *args])
    return subprocess.CompletedProcess(args, code, "", err.getvalue())


@pytest.mark.parametrize("args,words", [
    (["no-such-file.json"], "no such position file"),
    ([str(FIXTURE), "--games", "no-such-folder"], "no such folder"),
    ([str(FIXTURE), "--seed", "3"], "go with --new"),
    ([str(FIXTURE), "--port", "70000"], "--port must be 0 to 65535"),
    ([str(FIXTURE), "--host", "no.such.host.invalid"], "cannot listen on host"),
])
def test_bad_command_line_is_one_line_exit_2(args, words):
    r = _serve(*args)
    assert r.returncode == 2, r.stderr
    assert words in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_busy_port_is_one_line_exit_2():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        r = _serve(str(FIXTURE), "--port", str(taken.getsockname()[1]))
    assert r.returncode == 2 and "is in use" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_solve_cut_by_the_time_limit_says_its_bound():
    """A solve the time limit cuts short reports the best found and an upper bound that
    the proven best (solved here without a limit) never exceeds; the page shows both."""
    data = json.loads((ROOT / "fixtures" / "1832" / "whatif_late.json").read_text())
    proven = solve(data)
    jobs = Jobs()
    mode = PositionMode(data, jobs, time_limit=0.005)
    with TestClient(create_app(mode, jobs), base_url=LOCAL) as client:
        result = finished(client, client.get("/api/state").json()["solve"])["result"]
        svg = client.get("/api/map.svg", params={"version": 1, "what": "best"}).text
    jobs.close()
    if result["optimal"]:  # a fast machine proved it within the limit after all
        assert result["revenue"] == proven.revenue
    else:
        assert result["revenue"] <= proven.revenue <= result["bound"]
        assert f"at most {result['bound']}" in svg


def test_serving_a_network_prints_a_token_and_needs_it():
    """--host other than this machine's name: the printed address carries a random token
    and a request without it is refused (127.0.0.2 is loopback, so nothing leaves the
    machine)."""
    from urllib.parse import parse_qs, urlsplit

    import httpx
    from serve_helpers import Server

    server = Server(FIXTURE, "--host", "127.0.0.2")
    try:
        token = parse_qs(urlsplit(server.url).query)["token"][0]
        assert len(token) >= 24
        base = server.url.split("?")[0]
        assert httpx.get(base + "api/state", timeout=60).status_code == 403
        assert httpx.get(base + "api/state", params={"token": token[:-1]}, timeout=60).status_code == 403
        r = httpx.get(base + "api/state", headers={"X-Trainruns-Token": token}, timeout=60)
        assert r.status_code == 200 and r.json()["corporation"] == "SALR"
    finally:
        server.stop()


def test_a_long_job_blocks_no_request_and_can_be_cancelled(served):
    """Work runs in the worker, not on the server's loop: while a job is held running,
    the page's requests are answered and the job reports progress; a position change
    cancels it at its next progress report."""
    import threading

    client, mode = served
    finished(client, client.get("/api/state").json()["solve"])
    release, reported = threading.Event(), threading.Event()

    def long_work(job):
        job.update("assign", nodes=5, best=100, bound=130)
        reported.set()
        release.wait(120)
        job.update("assign", nodes=9, best=110, bound=120)  # raises Cancelled if cancelled
        return {"done": True}

    held = mode.jobs.submit("solve", mode.version, long_work)
    assert reported.wait(120)
    job = client.get(f"/api/job/{held.id}").json()
    assert job["status"] == "running" and job["progress"] == {"stage": "assign", "nodes": 5, "best": 100,
                                                              "bound": 130}
    assert client.get("/api/state").status_code == 200
    assert client.get("/api/lays", params={"hex": "E21"}).json()["lays"]
    state = client.post("/api/edit", json={"op": "trains", "trains": ["3"]}).json()  # a change: cancels it
    release.set()
    assert finished(client, job)["status"] == "cancelled"
    assert finished(client, state["solve"])["status"] == "done"


@pytest.mark.parametrize("body,said", [
    ({"op": "trains", "trains": ["99", None]}, "'trains' must be train names"),
    ({"op": "trains", "trains": ["2"] * 21}, "at most 20 train names"),
])
def test_a_bad_train_list_is_refused_saying_what_is_wrong(served, body, said):
    """A list holding something other than a name is refused for that, not for its length."""
    client, _ = served
    before = snapshot(client)
    r = client.post("/api/edit", json=body)
    assert r.status_code == 400 and said in r.json()["error"], r.text
    assert snapshot(client) == before


def test_a_game_log_opened_as_a_position_is_refused_saying_so(served):
    """A game log (docs/game-log.md, "format": "trainruns-game/1") is not a position: the
    refusal says what it is and where to open it, not a missing field of a position."""
    from trainruns.game.game import Game

    client, _ = served
    before = snapshot(client)
    r = client.post("/api/open", json={"position": Game("1832", ["Ann", "Bob"], seed=1).log()})
    assert r.status_code == 400 and "game log" in r.json()["error"] and "Games" in r.json()["error"], r.text
    assert snapshot(client) == before

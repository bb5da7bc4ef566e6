"""``trainruns serve``: starting and loading games from the page (POST /api/games/new,
/api/games/load), over plain HTTP.

Each game the page starts is compared with the engine starting the same game on its own
(docs/game-log.md ``play new``), each game it plays with the engine replaying the same
decisions. Logs are named by plain file names in the games folder: a path, a name
already taken, a bad title, player list, variant, seed or config is a JSON error and
leaves the open game, its log and the folder exactly as they were.
"""

import json
import os

import pytest
from serve_openings import OPENINGS, opening
from starlette.testclient import TestClient

from trainruns.game.game import Game
from trainruns.serve import game_engine
from trainruns.serve.app import MAX_BODY, create_app
from trainruns.serve.game_mode import GameMode
from trainruns.serve.jobs import Jobs
from trainruns.serve.position_mode import PositionMode
from trainruns.serve.table import Table

LOCAL = "http://127.0.0.1"


def comparable(state):
    """The state without the last action's events (a replay reports only its own last)."""
    return {k: v for k, v in state.items() if k != "events"}


def replayed(title, decisions):
    players, seed = OPENINGS[title]
    game = Game(title, players, seed=seed)
    for a in decisions:
        game.act(a)
    return game.to_json()


@pytest.fixture()
def folder(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    return games


@pytest.fixture()
def empty(folder):
    """A server opened on nothing (as ``trainruns serve`` without a file)."""
    jobs = Jobs()
    table = Table(PositionMode(None, jobs, time_limit=30), jobs, 30, str(folder))
    with TestClient(create_app(table, jobs), base_url=LOCAL) as client:
        yield client, table
    jobs.close()


@pytest.fixture()
def playing(folder):
    """A server keeping an 1832 game logged to games/table.json."""
    jobs = Jobs()
    mode = GameMode(game_engine.new("1832", ["Ann", "Bob"], 1), str(folder / "table.json"), jobs, 30)
    table = Table(mode, jobs, 30, str(folder))
    with TestClient(create_app(table, jobs), base_url=LOCAL) as client:
        assert client.post("/api/act", json={"action": {"type": "buy_private", "player": "Ann",
                                                         "private": game_engine.actions(mode.game)[0]["private"]}}
                           ).status_code == 200
        yield client, table
    jobs.close()


@pytest.mark.parametrize("title", sorted(OPENINGS))
def test_a_game_started_from_the_page_is_the_engines(empty, folder, title):
    """Start a game of ``title`` (players, seed as ``play new`` takes them), play the
    first stock round and the first corporation's operating turn, undo the last
    decision: after each step the page's state is the engine's own replay, the log on
    disk holds the decisions, and a second server opening that log finds the same game."""
    client, table = empty
    players, seed = OPENINGS[title]
    r = client.post("/api/games/new", json={"title": title, "players": players, "seed": seed, "name": "mine"})
    assert r.status_code == 200, r.text
    state = r.json()
    assert state["mode"] == "game" and state["log"] == "mine.json" and state["session"] == 2
    assert comparable(state["state"]) == comparable(Game(title, players, seed=seed).to_json())
    decisions, game, turn = opening(title)
    for a in decisions:
        r = client.post("/api/act", json={"action": a}, headers={"X-Trainruns-Session": "2"})
        assert r.status_code == 200, (a, r.text)
    assert comparable(client.get("/api/state").json()["state"]) == comparable(game.to_json())
    assert json.loads((folder / "mine.json").read_text())["actions"] == game.log()["actions"]
    state = client.post("/api/act", json={"action": {"type": "undo"}, "version": client.get("/api/state").json()["version"]}).json()
    assert comparable(state["state"]) == comparable(replayed(title, decisions[:-1]))
    # a server started afresh on the games folder opens the log and finds the game as it was
    jobs = Jobs()
    again = Table(PositionMode(None, jobs, 30), jobs, 30, str(folder))
    with TestClient(create_app(again, jobs), base_url=LOCAL) as other:
        listed = other.get("/api/games").json()["logs"]
        assert {"name": "mine.json", "title": title, "players": players, "actions": len(decisions) + 1} in listed
        state = other.post("/api/games/load", json={"name": "mine.json"}).json()
        assert comparable(state["state"]) == comparable(replayed(title, decisions[:-1]))
    jobs.close()


def test_a_variant_is_the_engines(empty):
    """[17.3] the Southern Bank variant of 1832, chosen on the page: the state says so."""
    client, _ = empty
    r = client.post("/api/games/new", json={"title": "1832", "players": ["Ann", "Bob", "Cat"], "seed": 2,
                                            "variants": ["southern_bank"], "name": "bank"})
    assert r.status_code == 200, r.text
    assert comparable(r.json()["state"]) == comparable(Game("1832", ["Ann", "Bob", "Cat"], 2, ["southern_bank"]).to_json())


def test_the_new_game_form_lists_each_titles_variants(empty):
    """[17] 1832's variants, by the names ``--variant`` takes, for the New game form."""
    client, _ = empty
    listed = client.get("/api/games").json()["variants"]
    assert set(listed) == set(client.get("/api/games").json()["titles"])
    assert {"southern_bank", "400_finish", "diesels", "historical_order", "civil_war", "no_mergers"} <= set(
        listed["1832"])
    assert "[17.5]" in listed["1832"]["civil_war"]
    r = client.post("/api/games/new", json={"title": "1832", "players": ["Ann", "Bob", "Cat"], "seed": 2,
                                            "variants": ["civil_war", "no_mergers"], "name": "war"})
    assert r.status_code == 200, r.text
    assert r.json()["state"]["variants"] == ["civil_war", "no_mergers"]


def test_load_a_saved_or_uploaded_log(playing, folder):
    """A log in the folder is listed and opened (not a file that is no log, nor a link
    leading out of the folder); an uploaded log is saved under its name and opened; the
    game left behind is saved as it was."""
    client, table = playing
    left = json.loads((folder / "table.json").read_text())
    decisions, game, _ = opening("1833NE")
    players, seed = OPENINGS["1833NE"]
    log = dict(Game("1833NE", players, seed).log(), actions=decisions)
    (folder / "saved.json").write_text(json.dumps(log))
    (folder / "notes.json").write_text('{"not": "a log"}')
    (folder.parent / "elsewhere.json").write_text(json.dumps(log))
    os.symlink(folder.parent / "elsewhere.json", folder / "link.json")  # leads out: not listed
    listed = client.get("/api/games").json()
    assert [g["name"] for g in listed["logs"]] == ["saved.json", "table.json"] and listed["current"] == "table.json"
    state = client.post("/api/games/load", json={"name": "saved.json"}).json()
    assert comparable(state["state"]) == comparable(game.to_json())
    assert json.loads((folder / "table.json").read_text()) == left
    state = client.post("/api/games/load", json={"name": "upload.json", "log": left}).json()
    assert state["log"] == "upload.json" and json.loads((folder / "upload.json").read_text()) == left
    assert state["state"]["actions_applied"] == 1


def test_a_page_on_a_game_replaced_since_cannot_act_on_the_new_one(playing, folder):
    """A phone still showing the old game sends its session: refused (409), nothing taken."""
    client, table = playing
    old = str(table.session)
    client.post("/api/games/new", json={"title": "1832", "players": ["Ann", "Bob"], "seed": 1, "name": "next"})
    before = (folder / "next.json").read_bytes()
    r = client.post("/api/act", json={"action": {"type": "pass", "player": "Ann"}}, headers={"X-Trainruns-Session": old})
    assert r.status_code == 409 and "reload" in r.json()["error"]
    assert (folder / "next.json").read_bytes() == before


def files(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir()}


NEW = {"title": "1832", "players": ["Ann", "Bob"], "seed": 3, "name": "fresh"}
LOG = {"format": "trainruns-game/1", "title": "1832", "players": ["Ann", "Bob"], "seed": 1, "variants": [],
       "config": None, "actions": []}
HOSTILE = [
    ("new", dict(NEW, name="../escape"), 400, "plain file name"),
    ("new", dict(NEW, name="/etc/cron.d/x"), 400, "plain file name"),
    ("new", dict(NEW, name="a\\b"), 400, "plain file name"),
    ("new", dict(NEW, name=".hidden"), 400, "plain file name"),
    ("new", dict(NEW, name=".."), 400, "plain file name"),
    ("new", dict(NEW, name="x" * 300), 400, "1 to 200 characters"),
    ("new", dict(NEW, name="table"), 400, "already exists"),
    ("new", dict(NEW, name="table.json"), 400, "already exists"),
    ("new", dict(NEW, title="1830"), 400, "no game engine"),
    ("new", dict(NEW, title=["1832"]), 400, "'title' must be a string"),
    ("new", dict(NEW, players=[]), 400, "players"),
    ("new", dict(NEW, players=["Ann", "Ann"]), 400, "distinct"),
    ("new", dict(NEW, players=["Ann", ""]), 400, "players"),
    ("new", dict(NEW, players="Ann,Bob"), 400, "'players' must be a list"),
    ("new", dict(NEW, players=[f"P{i}" for i in range(11)]), 400, "players"),
    ("new", dict(NEW, players=["Ann", {"x": 1}]), 400, "players"),
    ("new", dict(NEW, seed="7"), 400, "seed"),
    ("new", dict(NEW, seed=True), 400, "seed"),
    ("new", dict(NEW, seed=2 ** 70), 400, "below 2^63"),   # the strict reader refuses the number
    ("new", dict(NEW, variants="southern_bank"), 400, "variants"),
    ("new", dict(NEW, variants=["warp_speed"]), 400, "unknown 1832 variant"),
    ("new", dict(NEW, config=[1, 2]), 400, "config"),
    ("new", dict(NEW, title="1831", players=["A", "B", "C"], config={"map": "/etc/passwd"}), 400, "not a path"),
    ("new", dict(NEW, title="1831", players=["A", "B", "C"], config={"format": "nope"}), 400, "config"),
    ("load", {"name": "../../etc/passwd"}, 400, "plain file name"),
    ("load", {"name": "/etc/passwd"}, 400, "plain file name"),
    ("load", {"name": "missing.json"}, 400, "no such log"),
    ("load", {"name": "notes.json"}, 400, "not a game log"),
    ("load", {"name": "broken.json"}, 400, "cannot read it"),
    ("load", {"name": "outside.json"}, 400, "games folder"),
    ("load", {"name": "table.json", "log": LOG}, 400, "already exists"),
    ("load", {"name": "up.json", "log": [LOG]}, 400, "'log' must be"),
    ("load", {"name": "up.json", "log": {"format": "x"}}, 400, "not a game log"),
    ("load", {"name": "up.json", "log": dict(LOG, actions=[{"type": "teleport"}])}, 400, "unknown action type"),
    ("load", {"name": "up.json", "log": dict(LOG, actions=[{"type": "pass", "player": "Bob"}])}, 400, "illegal"),
    ("load", {"name": "up.json", "log": dict(LOG, config={"map": "../secret.json"})}, 400, "not a path"),
    ("load", {"log": LOG}, 400, "'name' must be a string"),
    ("raw", b"{not json", 400, "not JSON"),
    ("raw", b"{" + b" " * (MAX_BODY + 1) + b"}", 413, "larger"),
    ("form", b"title=1832&players=Ann,Bob&name=x", 415, "application/json"),
]


@pytest.mark.parametrize("kind,body,status,words", HOSTILE, ids=[f"{k}-{i}" for i, (k, *_) in enumerate(HOSTILE)])
def test_bad_starts_and_loads_change_nothing(playing, folder, tmp_path, kind, body, status, words):
    client, table = playing
    (folder / "notes.json").write_text('{"not": "a log"}')
    (folder / "broken.json").write_text('{"format": "trainruns-game/1", ')
    (tmp_path / "elsewhere.json").write_text(json.dumps(LOG))
    os.symlink(tmp_path / "elsewhere.json", folder / "outside.json")
    before_files, before = files(folder), client.get("/api/state").json()
    if kind == "raw":
        r = client.post("/api/games/new", content=body, headers={"content-type": "application/json"})
    elif kind == "form":
        r = client.post("/api/games/new", content=body, headers={"content-type": "application/x-www-form-urlencoded"})
    else:
        r = client.post(f"/api/games/{kind}", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"] + " " + r.json().get("where", ""), r.json()
    assert files(folder) == before_files
    assert client.get("/api/state").json() == before

"""Several writers on one game log: of eight ``play act`` at once on one log, each
action is kept or refused (an illegal action exit 1; "the game is being changed" exit
2), never lost silently; the log is always whole, strictly valid JSON, and replays.

The eight writers are forked from the test process (the engine already loaded, so a
round costs a replay and a write each, not a Python start-up); each runs the real
``trainruns play act`` (``trainruns.cli.main.main``), locks and all, and all eight are let
go at once. tools/concurrent_acts.py runs the same rounds with real ``trainruns``
processes. The web page's game mode is checked the same way: concurrent requests, and
a ``play act`` on its log behind its back.
"""

from __future__ import annotations

import json
import os
import random
import threading

import pytest
from starlette.testclient import TestClient

from trainruns.game.game import Game
from trainruns.game.selfplay import fill
from trainruns.position.reader import read_json

WRITERS = 8
ROUNDS = 50


def run_at_once(argvs, folder):
    """Fork one child per argv, let them all go at once, and return each one's exit
    status and stderr."""
    from trainruns.cli.main import main

    gate_r, gate_w = os.pipe()
    children = []
    for i, argv in enumerate(argvs):
        err_path = folder / f"err{i}"
        pid = os.fork()
        if pid == 0:  # the child: wait at the gate, act, and leave without cleanup
            code = 3
            try:
                os.close(gate_w)
                out = os.open(os.devnull, os.O_WRONLY)
                err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(out, 1)
                os.dup2(err, 2)
                os.read(gate_r, 1)
                code = main(argv)
            finally:
                os._exit(code)
        children.append((pid, err_path))
    os.close(gate_r)
    os.close(gate_w)  # the gate opens: every child's read returns
    results = []
    for pid, err_path in children:
        _, status = os.waitpid(pid, 0)
        results.append((os.waitstatus_to_exitcode(status), err_path.read_text()))
        err_path.unlink()
    return results


def contains(entry, action):
    return all(entry.get(k) == v for k, v in action.items())


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks the writers")
def test_eight_play_acts_at_once_keep_or_refuse_every_action(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    log_path = folder / "g.json"
    rng = random.Random(29)
    game = Game("1832", ["A", "B", "C", "D"], 5)
    log_path.write_text(json.dumps(game.log(), indent=1) + "\n")
    kept = refused = 0
    for round_ in range(ROUNDS):
        log = read_json(log_path, "game log")
        game = Game.replay(log)   # also warms what the forked writers replay with
        listed = game.actions()
        actions = [fill(rng.choice(listed), rng) for _ in range(WRITERS - 2)] + [{"type": "undo"}] * 2
        rng.shuffle(actions)
        results = run_at_once([["play", "act", str(log_path), json.dumps(a)] for a in actions], tmp_path)
        after = read_json(log_path, "game log")   # strictly valid JSON, never half a log
        Game.replay(after)
        new = after["actions"][len(log["actions"]):]
        assert after["actions"][:len(log["actions"])] == log["actions"], round_
        ok = [a for a, (code, _) in zip(actions, results) if code == 0]
        assert len(new) == len(ok), (round_, results)
        for a in ok:   # each action kept is in the log, once
            match = next(i for i, e in enumerate(new) if contains(e, a))
            new.pop(match)
        for code, err in results:
            assert code in (0, 1, 2), (round_, code, err)
            if code == 2:
                assert "being changed" in err or "changed by another program" in err, err
            assert "Traceback" not in err
        kept += len(ok)
        refused += WRITERS - len(ok)
        assert sorted(p.name for p in folder.iterdir()) == ["g.json"], round_   # no temporary file left
    assert kept >= ROUNDS and refused >= ROUNDS


# --- the web page's game mode ----------------------------------------------------------

@pytest.fixture()
def served(tmp_path):
    from trainruns.serve import game_engine
    from trainruns.serve.app import create_app
    from trainruns.serve.game_mode import GameMode
    from trainruns.serve.jobs import Jobs

    jobs = Jobs()
    path = tmp_path / "game.json"
    mode = GameMode(game_engine.new("1832", ["Ann", "Bob", "Cat"], 2), str(path), jobs, time_limit=30)
    with TestClient(create_app(mode, jobs), base_url="http://127.0.0.1") as client:
        yield client, mode, path
    jobs.close()


def test_concurrent_requests_keep_or_refuse_every_action(served):
    client, mode, path = served
    rng = random.Random(7)
    for _ in range(10):
        listed = client.get("/api/state").json()["actions"]
        actions = [fill(rng.choice(listed), rng) for _ in range(WRITERS - 1)] + [{"type": "undo"}]
        before = read_json(path, "game log")["actions"]
        answers = [None] * len(actions)

        def post(i):
            answers[i] = client.post("/api/act", json={"action": actions[i]})

        threads = [threading.Thread(target=post, args=(i,)) for i in range(len(actions))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(r.status_code in (200, 400, 409) for r in answers), [r.text for r in answers]
        after = read_json(path, "game log")
        assert after == mode.log() and after["actions"][:len(before)] == before
        assert len(after["actions"]) == len(before) + sum(r.status_code == 200 for r in answers)
        Game.replay(after)


def test_a_log_changed_behind_the_servers_back_is_not_written_over(served, capsys):
    """A `play act` on the server's log, then an action on the page: the page's action
    is refused and not taken, the file keeps the other writer's action."""
    from trainruns.cli.main import main

    client, mode, path = served
    listed = client.get("/api/state").json()["actions"]
    assert main(["play", "act", str(path), json.dumps(listed[0])]) == 0
    capsys.readouterr()
    theirs = path.read_bytes()
    r = client.post("/api/act", json={"action": listed[0]})
    assert r.status_code == 400 and "changed by another program" in r.json()["error"]
    assert path.read_bytes() == theirs and mode.log()["actions"] == []


def test_hostile_bodies_change_nothing(served):
    """The strict reader and the declared fields through the HTTP interface: each body
    is refused with a 4xx and one error, the log file byte for byte unchanged."""
    client, mode, path = served
    before = path.read_bytes()
    bodies = ['{"action": {"type": "pass", "player": "Ann", "note": NaN}}',
              '{"action": {"type": "pass", "player": "Ann", "note": 1}}',
              '{"action": {"type": "bid", "player": "Ann", "private": "P2", "price": ' + "9" * 5000 + "}}",
              '{"action": {"type": "bid", "player": "Ann", "private": "P2", "price": 1e999}}',
              '{"action": ' + "[" * 5000 + "]" * 5000 + "}",
              '{"action": {"type": "bid", "player": "Ann", "private": "P2", "pirce": 50}}',
              '{"action": {"type": "bid", "player": "Ann", "private": "P2", "price": -1}}',
              '{"action": {"type": "bid", "player": "Ann", "private": "P2", "price": 9223372036854775808}}']
    for body in bodies:
        r = client.post("/api/act", content=body.encode(), headers={"Content-Type": "application/json"})
        assert 400 <= r.status_code < 500 and r.json()["error"], (body[:60], r.text)
        assert "internal error" not in r.json()["error"]
        assert path.read_bytes() == before, body[:60]
    r = client.post("/api/act", content=b'{"action": {"type": "pass", "player": "\xff"}}',
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and path.read_bytes() == before

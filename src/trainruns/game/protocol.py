"""The JSON-lines protocol of ``trainruns play serve`` (docs/game-log.md): one request
per line on stdin, one response per line on stdout; the game stays in memory.

A request is read by the one strict JSON reader (position.parse_json: no NaN, bounded
nesting and numbers, UTF-8), so what the game holds, and the ``log`` it answers, is
always JSON that every command reads back."""

from __future__ import annotations

import json
import sys

from trainruns.errors import InputError
from trainruns.game.errors import Refusal
from trainruns.game.game import Game


class Session:
    def __init__(self):
        self.game: Game | None = None

    def handle(self, line: str) -> dict:
        from trainruns.position.reader import parse_json

        try:
            req = parse_json(line, "request", "request")
        except InputError as e:
            return {"ok": False, "error": str(e)}
        if not isinstance(req, dict) or not isinstance(req.get("cmd"), str):
            return {"ok": False, "error": "a request is a JSON object with a string 'cmd'"}
        cmd = req["cmd"]
        try:
            if cmd == "new":
                players = req.get("players")
                if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
                    raise InputError("'players' must be a list of names")
                if len(set(players)) != len(players):
                    raise InputError("player names must be distinct")
                if not isinstance(req.get("title"), str):
                    raise InputError("'title' must be a string")
                variants = req.get("variants") or []
                if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
                    raise InputError("'variants' must be a list of strings")
                self.game = Game(req["title"], players, req.get("seed"), variants, req.get("config"))
                return {"ok": True, "state": self.game.to_json()}
            if cmd == "load":
                self.game = Game.replay(req.get("log"))
                return {"ok": True, "state": self.game.to_json()}
            if self.game is None:
                return {"ok": False, "error": "no game: send 'new' or 'load' first"}
            if cmd == "actions":
                return {"ok": True, "active": self.game.active(), "actions": self.game.actions()}
            if cmd == "act":
                try:
                    self.game.act(req.get("action"))
                except Refusal as r:
                    return {"ok": False, "rule": r.rule, "message": r.message}
                return {"ok": True, "state": self.game.to_json()}
            if cmd == "state":
                return {"ok": True, "state": self.game.to_json()}
            if cmd == "log":
                return {"ok": True, "log": self.game.log()}
            if cmd == "position":
                return {"ok": True, "position": self.game.position(req.get("corporation"))}
            return {"ok": False, "error": f"unknown cmd {cmd!r} (new, load, actions, act, state, log, position)"}
        except InputError as e:
            return {"ok": False, "error": str(e)}


def _line(out: dict) -> str:
    try:
        return json.dumps(out, allow_nan=False)
    except (ValueError, TypeError, RecursionError) as e:  # a bug: still one line of JSON
        return json.dumps({"ok": False, "error": f"internal error (the answer is not JSON: {e})"})


def serve(stdin=None, stdout=None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    session = Session()
    for line in stdin:
        if not line.strip():
            continue
        try:
            out = session.handle(line)
        except Exception as e:  # a bug: say so on the line and restore the game from its log
            out = {"ok": False, "error": f"internal error ({type(e).__name__}: {e})"}
            if session.game is not None:
                try:
                    session.game = Game.replay(session.game.log())
                except Exception:
                    session.game = None
        stdout.write(_line(out) + "\n")
        stdout.flush()
    return 0

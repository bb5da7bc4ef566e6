"""What the server keeps: the position or the game open now, and the games folder.

The page may start a new game or load a saved one (docs/serve.md "Starting and loading
a game"). Game logs live in one folder (``--games DIR``; by default the folder of the
log served, else the working directory): a log is named by a plain file name in that
folder, never by a path, so a request cannot read or write anywhere else. Every switch
is checked in full (the game is built and replayed) before it replaces what is open,
so a refused one leaves the open game as it was. Each switch bumps ``session``: a page
(and its event stream) opened on another session reloads instead of acting on a game
it does not show. ``run`` names this server run (random, new at every start): a page
that sees another one (the server was restarted on the log, its versions counting
from 1 again) reloads too.
"""

from __future__ import annotations

import os
import re
import secrets
import threading

from trainruns.errors import InputError
from trainruns.game import logfile
from trainruns.position.reader import MAX_FILE_BYTES, parse_json
from trainruns.serve import game_engine as engine
from trainruns.serve.game_mode import GameMode

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,79}")
MAX_LOG = MAX_FILE_BYTES    # as every log reader (a log of a whole game is ~200 kB)
MAX_LISTED = 100            # logs listed, newest first
MAX_PLAYERS = 10            # 1831 seats up to ten (3.1)


def log_name(name, where="name"):
    """A plain file name in the games folder (``.json`` added when missing): letters,
    digits, ``.``, ``_``, ``-``; no separator, no leading dot (so no ``..``)."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise InputError("a log is named by a plain file name (letters, digits, '.', '_', '-'; "
                         "at most 80; not starting with '.'), not a path", where)
    return name if name.endswith(".json") else name + ".json"


def self_contained(config, where="config"):
    """A config sent from the page may name files only by a plain name (read from the
    server's working directory, as ``trainruns play new --config`` reads them), never
    by a path: a request cannot make the server read elsewhere."""
    stack = [(config, where)]
    while stack:
        value, at = stack.pop()
        if isinstance(value, dict):
            stack.extend((v, f"{at}.{k}") for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{at}[{i}]") for i, v in enumerate(value))
        elif isinstance(value, str) and ("/" in value or "\\" in value or value.startswith(".")):
            raise InputError(f"a config from the page names files by a plain name, not a path ({value[:60]!r})", at)


class Table:
    """The open mode (a :class:`~.position_mode.PositionMode` or a :class:`GameMode`),
    switched only through :meth:`new_game` and :meth:`load_game`."""

    def __init__(self, mode, jobs, time_limit=60.0, folder=None):
        self.mode, self.jobs, self.time_limit = mode, jobs, time_limit
        self.folder = os.path.realpath(folder or os.getcwd())
        self.session = 1
        self.run = secrets.token_hex(8)   # this server run, new at every start
        self._lock = threading.Lock()

    # --- the games folder --------------------------------------------------------------

    def path_of(self, name, where="name"):
        """The file of a log name, inside the folder (a symbolic link out of it is
        refused too)."""
        path = os.path.join(self.folder, log_name(name, where))
        if os.path.dirname(os.path.realpath(path)) != self.folder:
            raise InputError("a log must lie in the games folder", where)
        return path

    def games(self):
        """What the page's Games dialog lists: the titles, and the game logs in the
        folder (newest first), each with its title, players and decisions so far."""
        logs = []
        try:
            entries = [e for e in os.scandir(self.folder)
                       if e.name.endswith(".json") and NAME.fullmatch(e.name) and not e.is_symlink()]
        except OSError as e:
            raise InputError(f"cannot list the games folder ({e.strerror})", "games") from None
        entries.sort(key=lambda e: e.stat().st_mtime if e.is_file() else 0, reverse=True)
        for e in entries:
            if len(logs) >= MAX_LISTED:
                break
            try:
                if not e.is_file() or e.stat().st_size > MAX_LOG:
                    continue
                with open(e.path, "rb") as fh:
                    data = parse_json(fh.read(MAX_LOG + 1), e.name, "game log")
            except (OSError, InputError):
                continue
            if engine.is_log(data) and isinstance(data.get("actions"), list):
                logs.append({"name": e.name, "title": data.get("title"), "players": data.get("players"),
                             "actions": len(data["actions"])})
        current = os.path.basename(self.mode.path) if isinstance(self.mode, GameMode) else None
        return {"folder": self.folder, "titles": engine.titles(),
                "variants": {t: engine.variants(t) for t in engine.titles()}, "logs": logs, "current": current,
                "session": self.session}

    # --- switching ---------------------------------------------------------------------

    def new_game(self, title, players, seed=None, variants=(), config=None, name=None):
        """Start a game of ``title`` logged to the new file ``name`` in the folder."""
        if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS or not all(
                isinstance(p, str) and 0 < len(p.strip()) <= 40 for p in players):
            raise InputError(f"name 1 to {MAX_PLAYERS} players of 1 to 40 characters each, in seating order", "players")
        players = [p.strip() for p in players]
        if config is not None:
            if not isinstance(config, dict):
                raise InputError("a config must be a JSON object", "config")
            self_contained(config)
        with self._lock:
            path = self.path_of(name)
            if os.path.lexists(path):
                raise InputError(f"{os.path.basename(path)} already exists in the games folder: load it, "
                                 "or name the new game otherwise", "name")
            game = engine.new(title, players, seed, list(variants), config, where="title")
            return self._switch(game, path)

    def load_game(self, name, log=None):
        """Open the log ``name`` of the folder, or (``log`` given: a file the page
        uploaded) save that log under the new name ``name`` and open it."""
        with self._lock:
            path = self.path_of(name)
            stamp = None   # the log uploaded is a new file
            if log is None:
                if not os.path.lexists(path):
                    raise InputError("no such log in the games folder", "name")
                try:
                    log, stamp = logfile.read(path)   # the one strict reader
                except InputError as e:
                    raise InputError(f"cannot read it as a game log ({e.what})", "name") from None
            elif os.path.lexists(path):
                raise InputError(f"{os.path.basename(path)} already exists in the games folder: load it from "
                                 "the list, or rename the file", "name")
            else:
                if isinstance(log, dict) and log.get("config") is not None:
                    self_contained(log["config"], "log.config")
            if not engine.is_log(log):
                raise InputError(f"not a game log (no \"format\": \"{engine.FORMAT}\")", "log")
            game = engine.load(log, os.path.basename(path))
            return self._switch(game, path, stamp)

    def _switch(self, game, path, expect=None):
        """Open ``game`` logged at ``path`` (``expect``: as logfile.save; None, a new
        file: never one that is there)."""
        try:
            mode = GameMode(game, path, self.jobs, self.time_limit, expect=expect)  # writes the log: saved first
        except InputError as e:
            raise InputError(f"cannot save the game log ({e.what})", os.path.basename(path)) from None
        self.mode = mode
        self.session += 1
        self.jobs.cancel(keep=mode.solve_job)  # the old game's work is wanted no more
        return mode

"""Game mode: one game kept by the server, played from the page, saved after every action.

The game is its log (docs/game-log.md). After each accepted action the log is written
to its file atomically (game/logfile.py: a unique temporary file beside it, flushed to
disk, then renamed over it, under the log's lock; a link keeps its target), so a killed
server or a closed laptop loses nothing; a log another program changed meanwhile is
not written over (the action is refused and not taken) and ``trainruns serve LOG``
resumes the game as it was. A refused action (a rule id and the rulebook's words)
changes nothing. Every browser follows the server's event stream (``/api/events``) and
sees the others' actions.

While a corporation operates, its proven best run is solved in the worker (as in
position mode) and drawn on the map, so the table sees what "run best" will pay.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time

from trainruns.errors import InputError, StaleVersion
from trainruns.game import logfile
from trainruns.serve import game_engine as engine
from trainruns.serve import picture
from trainruns.services.colors import TRAIN_COLORS, corporation_color, text_color_on, train_color
from trainruns.titles.load import load_engine_position


def _run_lines(position, routes):
    """The lines a run's routes (``{"train", "stops"}``) are drawn along on the board of
    ``position``, the track chosen as ``trainruns audit`` chooses it; none without
    one."""
    from trainruns.route.result import Run
    from trainruns.services.audit import audit

    if position is None or not routes:
        return []
    board = load_engine_position(position)
    nothing = Run(routes=[], revenue=0, optimal=False, bound=0)
    checked = audit(board, {"routes": routes}, best=nothing)
    run = Run(routes=[r.as_route() for r in checked.routes], revenue=checked.declared_revenue, optimal=False, bound=0)
    return picture.run_lines(board, run)


def _digest(data):
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


class GameMode:
    kind = "game"

    def __init__(self, game, path, jobs, time_limit, expect=logfile.ANY):
        self.game, self.path, self.jobs, self.time_limit = game, path, jobs, time_limit
        self.version = 1
        self.last = None        # the last decision taken (or taken back) and its events
        self.history = engine.history(game)   # every decision standing: round, action, events
        self.undone = engine.taken_back(game)   # decisions taken back, the next to take again last
        self.solve_job = None
        self._svg = {}          # map key -> SVG of the map without a run
        self._boards = {}       # map key -> (the board but its tiles, digest per tiled hex), recent ones
        self._shown = None      # the map key of the version before
        self._view = {}
        self._best = None       # (version, board, run, heading) of the last solve
        self._lock = threading.Lock()
        self._drawing = threading.Lock()
        # expect: logfile.save's (ANY: write over the file; None: a new one; a stamp: the
        # file as read); from then on, the file as this server last wrote it
        self._stamp = logfile.save(path, engine.log(game), expect=expect)
        self._after_change()

    # --- acting ------------------------------------------------------------------------

    def act(self, action, version=None):
        """Take one action; a refusal is returned (``{"rule", "message"}``), bad input
        raises. The log is on disk before the action counts as taken.

        ``version``: the version the player saw when acting; when another action was
        taken since, the action is refused (a double click on Undo, or two browsers
        pressing it together, takes back one decision, not two). An ``undo`` must name
        it. A new decision forgets the ones taken back (nothing to redo), unless it is
        the one taken back last (:func:`.game_engine.taken_back`)."""
        with self._lock:
            if action.get("type") == "undo" and version is None:
                raise InputError("an undo names the version it takes back: {\"action\": {\"type\": \"undo\"}, "
                                 "\"version\": N}", "version")
            refusal = self._moved_on(version)
            if refusal:
                return refusal
            before = engine.log(self.game)
            when = engine.state(self.game)["round"]
            try:
                engine.act(self.game, action)
            except engine.Refusal as r:
                return {"rule": r.rule, "message": r.message}
            except InputError:
                raise  # a malformed action is refused before the game is touched
            except Exception:
                self.game = engine.load(before)  # a bug: the game as it was
                raise
            self._save(before)
            if action.get("type") == "undo":
                undone = self.history.pop()
                self.undone.append(undone["action"])
                self.last = {"undone": [undone]}
            else:
                entry = {"round": when, "action": engine.log(self.game)["actions"][-1],
                         "events": engine.state(self.game).get("events", [])}
                self.history.append(entry)
                # the decision taken back last, taken again by hand, is a redo (as the log reads)
                self.undone = self.undone[:-1] if self.undone and entry["action"] == self.undone[-1] else []
                self.last = entry
            self.version += 1
        self._after_change()
        return None

    def redo(self, version):
        """Take again the decision the last undo took back, while nothing new was decided
        since (read from the log, so a restarted server still knows); refused (returned)
        when there is none or ``version`` is not the current one."""
        with self._lock:
            refusal = self._moved_on(version)
            if refusal:
                return refusal
            if not self.undone:
                return {"rule": "redo.nothing", "message": "there is no decision taken back to take again"}
            before, when = engine.log(self.game), engine.state(self.game)["round"]
            self.game = engine.redo(self.game, self.undone[-1])
            self._save(before)
            self.undone.pop()
            entry = {"round": when, "action": engine.log(self.game)["actions"][-1],
                     "events": engine.state(self.game).get("events", [])}
            self.history.append(entry)
            self.last = entry
            self.version += 1
        self._after_change()
        return None

    def take_back_to(self, decision, version):
        """Take back decision number ``decision`` (0: the first) and every one after it
        ("undo to here"); they may be taken again one by one (:meth:`redo`)."""
        with self._lock:
            refusal = self._moved_on(version)
            if refusal:
                return refusal
            if isinstance(decision, bool) or not isinstance(decision, int) or not 0 <= decision < len(self.history):
                raise InputError(f"no decision {decision!r} stands (0 to {len(self.history) - 1})", "decision")
            before = engine.log(self.game)
            self.game = engine.take_back(self.game, len(self.history) - decision)
            self._save(before)
            gone = self.history[decision:]
            del self.history[decision:]
            self.undone.extend(h["action"] for h in reversed(gone))
            self.last = {"undone": gone}
            self.version += 1
        self._after_change()
        return None

    def _moved_on(self, version):
        if version is not None and version != self.version:
            return {"rule": None, "message": f"the game has moved on since the page you acted on (version "
                                             f"{version}, now {self.version}): look again and decide anew"}
        return None

    def _save(self, before):
        """Write the log; if it cannot be written, the game as it was ``before``."""
        try:
            self._stamp = logfile.save(self.path, engine.log(self.game), expect=self._stamp)
        except InputError as e:
            self.game = engine.load(before)  # not saved: not taken
            raise InputError(f"cannot save the game log: {e.what}; the action was not taken",
                             os.path.basename(self.path)) from None

    # --- what the page shows -----------------------------------------------------------

    def log(self):
        return engine.log(self.game)

    def position(self, corporation=None):
        """The position of ``corporation`` (default: the one operating, else the first)."""
        st = engine.state(self.game)
        corp = corporation or self.map_corporation(st)
        if corp not in {c["id"] for c in st["corporations"]}:
            raise InputError(f"no corporation {corp!r} in this game", "position")
        return engine.position(self.game, corp)

    def map_corporation(self, st):
        """The corporation whose position draws the map: the operating one; while a
        player answers a deal it offered (1831 5.3.2 / 1833NE: a train or private from
        another president's company, docs/game-log.md "Deals between two parties"), the
        one the offer concerns, which the listed answer names (``offer``,
        ``corporation``); else the first one started (the map's tiles and every token are
        the same in each one's position), or the first when none is."""
        active = st.get("active") or {}
        if active.get("corporation"):
            return active["corporation"]
        if active.get("player"):
            offered = {a["corporation"] for a in engine.actions(self.game)
                       if a.get("offer") and isinstance(a.get("corporation"), str)}
            if len(offered) == 1:
                return offered.pop()
        started = [c["id"] for c in st["corporations"] if c.get("president")]
        return (started or [st["corporations"][0]["id"]])[0]

    def _look(self):
        """What the page draws of the game now, worked out once per version: the map's
        corporation and board, its stops (with where they lie, for the page's layers of
        tokens and runs), and a key that changes only when the board under them does
        (tiles; not tokens, not a stock round)."""
        if self._view.get("version") != self.version:
            st = engine.state(self.game)
            corp = self.map_corporation(st)
            position = engine.position(self.game, corp)
            board = load_engine_position(position)
            drawn = {k: v for k, v in position.items() if k not in ("corporation", "trains", "tokens")}
            key = _digest(drawn)
            tiles = {t["hex"]: _digest(t) for t in position.get("tiles", [])}
            self._boards[key] = (_digest({k: v for k, v in drawn.items() if k != "tiles"}), tiles)
            while len(self._boards) > 32:
                self._boards.pop(next(iter(self._boards)))
            self._view = {"version": self.version, "state": st, "corporation": corp, "board": board,
                          "position": position, "hexes": picture.stops(board), "centres": picture.centres(board),
                          "map_key": key}
        return self._view

    def state(self):
        look = self._look()
        st = look["state"]
        return {"mode": "game", "version": self.version, "log": os.path.basename(self.path),
                "state": st, "active": engine.active(self.game), "actions": engine.actions(self.game),
                "market": engine.market(self.game), "hexes": look["hexes"], "centres": look["centres"],
                "map_key": look["map_key"],
                "map_corporation": look["corporation"],
                "train_colors": TRAIN_COLORS,
                "colors": {c["id"]: corporation_color(c["id"]) for c in st["corporations"]},
                "text_colors": {c["id"]: text_color_on(corporation_color(c["id"])) for c in st["corporations"]},
                "last": self.last, "undo": engine.can_undo(self.game), "redo": len(self.undone),
                "redo_next": self.undone[-1] if self.undone else None,
                "history": self.history,
                "solve": self.solve_job.to_json(full=False) if self.solve_job else None}

    def preview(self, hex_id, tile, rotation):
        """SVG of a hex and its neighbours after one of the legal lays now (not made)."""
        lay = {"hex": hex_id, "tile": tile, "rotation": rotation}
        if not any(a["type"] == "lay_tile" and {k: a.get(k) for k in lay} == lay for a in engine.actions(self.game)):
            raise InputError(f"tile {tile} at rotation {rotation} is not a legal lay on {hex_id} now", "preview")
        look = self._look()
        position = engine.position(self.game, look["corporation"])
        variant = dict(position, tiles=list(position.get("tiles", [])) + [lay])
        return picture.neighbourhood(load_engine_position(variant), hex_id)

    def svg(self, version, what="board"):
        """The map of ``version``: ``board``, the board without tokens or a run (the page
        lays those over it; drawn again only when the board has changed), or with the
        operating corporation's best run (``best``)."""
        if version != self.version:
            raise InputError(f"version {version} is not the current one ({self.version})", "map")
        if what == "best":
            best = self._best
            if best is None or best[0] != version:
                raise InputError("no best run of this turn is solved yet", "map")
            return picture.svg(best[1], best[2], title=best[3])
        return self._board_svg(self._look())

    def hexes_since(self, version, key):
        """The hexes whose tiles changed since the board ``key`` a page shows, each drawn
        alone (SVG), when nothing else of the board changed and they are few (a tile
        laid): the page lays them over its board instead of loading all of it again.
        None when the whole board must be drawn."""
        if version != self.version:
            raise InputError(f"version {version} is not the current one ({self.version})", "map")
        look = self._look()
        changed = self._changed_hexes(key, look["map_key"])
        if changed is None:
            return None
        bare = load_engine_position(dict(look["position"], tokens=[]))
        return {"key": look["map_key"], "hexes": {h: picture.hex_alone(bare, h) for h in changed}}

    def _board_svg(self, look):
        with self._drawing:  # one drawing of a board, whoever asks first (the page or _after_change)
            if look["map_key"] not in self._svg:
                bare = dict(look["position"], tokens=[])
                self._svg = {look["map_key"]: picture.svg(load_engine_position(bare), None,
                                                          title=self._heading(look["state"]))}
            return self._svg[look["map_key"]]

    def _changed_hexes(self, key, new_key):
        """The few hexes (1 to 4) whose tiles differ between two boards that differ in
        nothing else; None otherwise."""
        was, now = self._boards.get(key), self._boards.get(new_key)
        if was is None or now is None or was[0] != now[0] or set(was[1]) - set(now[1]):
            return None
        changed = sorted(h for h, d in now[1].items() if was[1].get(h) != d)
        return changed if 0 < len(changed) <= 4 else None

    @staticmethod
    def _heading(st):
        return f"{st['title']} · phase {st['phase']}"

    # --- the operating turn's advice (docs/advise.md) -----------------------------------

    def start_advise(self, version, top=5, horizon=1):
        """Every plan of the operating company's turn ranked in the worker (as ``trainruns
        play advise``), on a copy of the game of ``version``, within the server's time
        limit (past it: the plans scored so far). Each plan's run comes with the lines
        the page draws it along (on the board it was made on: its lays included). Bad
        input (another version, no company's operating turn) raises."""
        from trainruns.players.advise import advise, operating

        with self._lock:
            if version != self.version:
                raise StaleVersion(version, self.version)
            operating(self.game)
            game = engine.copy(self.game)
        limit = self.time_limit

        def work(job):
            advice = advise(game, top=top, horizon=horizon, progress=job, deadline=time.monotonic() + limit)
            out = advice.to_json()
            for plan, shown in zip(advice.plans, out["plans"]):
                shown["lines"] = _run_lines(plan.run_position, plan.routes)
                shown["colors"] = [train_color(i) for i in range(len(plan.routes))]
            return out

        self.jobs.cancel("advise")
        return self.jobs.submit("advise", version, work)

    # --- the operating corporation's best run -------------------------------------------

    def _after_change(self):
        self.jobs.cancel("solve")
        self.jobs.cancel("advise")
        self.solve_job = None
        look = self._look()
        if look["map_key"] not in self._svg and self._changed_hexes(self._shown, look["map_key"]) is None:
            # a board changed beyond a few tiles is drawn now, beside the solve, not when
            # the page asks (a few tiles laid: the pages take those hexes alone)
            threading.Thread(target=self._board_svg, args=(look,), daemon=True).start()
        self._shown = look["map_key"]
        st = engine.state(self.game)
        corp = (st.get("active") or {}).get("corporation")
        if st.get("finished") or not corp or st["round"]["kind"] != "operating":
            return
        info = next((c for c in st["corporations"] if c["id"] == corp), {})
        if not info.get("trains"):
            return
        version, board, heading = self.version, self._look()["board"], self._heading(st)

        def work(job):
            from trainruns.titles.load import solve

            run = solve(board, time_limit=self.time_limit, progress=job)
            out = run.to_json(with_seconds=True)
            out["corporation"] = corp
            out["colors"] = [train_color(i) for i in range(len(run.routes))]
            out["lines"] = picture.run_lines(board, run)
            self._best = (version, board, run, heading)  # drawn when the page asks (svg "best")
            return out

        self.solve_job = self.jobs.submit("solve", version, work)

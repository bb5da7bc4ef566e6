"""Position mode: one position kept by the server, changed by the page, solved off-loop.

Every change builds the new position dict and loads it with the title's own checks
(:func:`trainruns.titles.load.load_position`); only a position that loads replaces the
current one, so a refused change leaves everything as it was. Each accepted change
bumps ``version`` and starts a solve of the new position; the previous positions are
kept for undo.
"""

from __future__ import annotations

import copy
import json
import threading

from trainruns.errors import InputError
from trainruns.route.board import CITY
from trainruns.serve import lays, picture
from trainruns.services.colors import train_color
from trainruns.titles.load import load_position

UNDO_DEPTH = 200
UNDO_BYTES = 32 * 1024 * 1024  # the undo history's memory: positions kept as JSON text


class PositionMode:
    kind = "position"

    def __init__(self, data, jobs, time_limit, name="position"):
        self.jobs = jobs
        self.time_limit = time_limit
        self.name = name
        self._lock = threading.Lock()
        self.history = []
        self.version = 0
        self.data = self.board = None
        self.best = {}      # version -> Run (the proven best, or best found)
        self.solve_job = None
        self._svg = {}
        if data is not None:  # None: the page offers to open a position
            self.replace(data, keep_history=False)

    # --- changes (each loads the new position first: refused means unchanged) --------

    def replace(self, data, keep_history=True):
        if not isinstance(data, dict):
            raise InputError("a position must be a JSON object", "position")
        data = copy.deepcopy(data)
        board = load_position(data)
        with self._lock:
            if keep_history and self.data is not None:
                self.history = (self.history + [json.dumps(self.data)])[-UNDO_DEPTH:]
                while len(self.history) > 1 and sum(map(len, self.history)) > UNDO_BYTES:
                    self.history.pop(0)
            self.data, self.board = data, board
            self.version += 1
            self._svg = {}
        self._start_solve()
        return self.version

    def lay(self, hex_id, tile, rotation):
        self._need_position("lay")
        _, variant = lays.lay(self.data, hex_id, tile, rotation)
        return self.replace(variant)

    def toggle_token(self, hex_id, stop, corporation):
        """Add ``corporation``'s token to a city, or take it off if it is there (the
        loader checks the city and its slots)."""
        self._need_position("token")
        tokens = list(self.data.get("tokens", []))
        mine = [t for t in tokens if isinstance(t, dict) and t.get("hex") == hex_id
                and t.get("stop", 0) == stop and t.get("corporation") == corporation]
        if mine:
            tokens = [t for t in tokens if t not in mine]
        else:
            hx = self.board.hexes.get(hex_id)
            if hx is None or not 0 <= stop < len(hx.stops) or hx.stops[stop].kind != CITY:
                raise InputError(f"{hex_id}.{stop} is not a city that takes tokens", "token")
            tokens.append({"hex": hex_id, "stop": stop, "corporation": corporation})
        return self.replace(dict(self.data, tokens=tokens))

    def set_field(self, key, value):
        """``trains``, ``phase`` or ``corporation``: the loader judges the value."""
        self._need_position("edit")
        return self.replace(dict(self.data, **{key: value}))

    def undo(self):
        with self._lock:
            if not self.history:
                raise InputError("nothing to undo", "undo")
            previous = json.loads(self.history.pop())
        return self.replace(previous, keep_history=False)

    # --- what the page shows -----------------------------------------------------------

    def state(self):
        board = self.board
        if board is None:
            return {"mode": "position", "name": self.name, "version": 0, "empty": True}
        hexes = {hid: [{"kind": s.kind, "value": s.value, "slots": s.slots, "tokens": list(s.tokens),
                        "name": s.name or hx.name} for s in hx.stops]
                 for hid, hx in board.hexes.items()}
        return {"mode": "position", "name": self.name, "version": self.version,
                "title": board.title, "corporation": board.corporation, "phase": board.phase,
                "phases": list(board.phases), "trains": [t.name for t in board.trains],
                "trains_to_buy": lays.trains_to_buy(self.data), "hexes": hexes,
                "tiled": bool(board.title), "undo": len(self.history),
                "solve": self.solve_job.to_json(full=False) if self.solve_job else None,
                "time_limit": self.time_limit}

    def svg(self, version, what="board"):
        """The map of ``version`` alone (``board``) or with its best run (``best``)."""
        if version != self.version:
            raise InputError(f"version {version} is not the current one ({self.version})", "map")
        key = (version, what)
        if key not in self._svg:
            board = self.board
            run = self.best.get(version) if what == "best" else None
            if what == "best" and run is None:
                raise InputError("the best run of this version is not solved yet", "map")
            self._svg[key] = picture.svg(board, run)
        return self._svg[key]

    def preview(self, hex_id, tile, rotation):
        """SVG of the hex and its neighbours after a legal lay (the lay is not made)."""
        self._need_position("preview")
        _, variant = lays.lay(self.data, hex_id, tile, rotation)
        return picture.neighbourhood(load_position(variant), hex_id)

    def _need_position(self, where):
        if self.board is None:
            raise InputError("no position is open: open one first", where)

    def lays_on(self, hex_id):
        self._need_position("lays")
        if hex_id not in self.board.hexes:
            raise InputError(f"the board has no hex {hex_id}", "lays")
        return [move for move, _ in lays.tile_lays(self.data, hex_id)]

    # --- jobs --------------------------------------------------------------------------

    def _start_solve(self):
        from trainruns.titles.load import solve

        self.jobs.cancel("solve")
        version, board = self.version, self.board

        def work(job):
            run = solve(board, time_limit=self.time_limit, progress=job)
            self.best[version] = run
            for old in [v for v in self.best if v < version - 1]:
                self.best.pop(old, None)
            out = run.to_json(with_seconds=True)
            out["colors"] = [train_color(i) for i in range(len(run.routes))]
            return out  # the page asks for the drawing (svg "best") only if it still wants it

        self.solve_job = self.jobs.submit("solve", version, work)

    def start_audit(self, declaration):
        """Audit a declared run (clicked stops) of the current version: the audit's
        verdict and the map with the declared routes, illegal ones dashed."""
        self._need_position("audit")
        from trainruns.services.audit import read_declaration
        from trainruns.services.declared import audited_run, caption_for

        read_declaration(declaration, "routes")  # structure checked now: a bad request is refused
        version, board = self.version, self.board

        def work(job):
            best = self.best.get(version)
            if best is None:
                from trainruns.titles.load import solve

                best = solve(board, time_limit=self.time_limit, progress=job)
            run, verdict = audited_run(board, declaration, best=best, where="routes")
            problems = [p.to_json() for p in verdict.problems]
            job.check()
            out = verdict.to_json()
            out.pop("best", None)
            out["best_revenue"] = best.revenue
            out["svg"] = picture.svg(board, run, caption=caption_for(verdict), problems=problems)
            return out

        return self.jobs.submit("audit", version, work)

    def start_rank(self):
        """Rank every legal tile lay by the best run it allows (``whatif --tiles``)."""
        self._need_position("rank")
        data, version = copy.deepcopy(self.data), self.version
        if not self.board.title:
            raise InputError("a custom map has no tiles to lay", "rank")

        def work(job):
            ranking = lays.rank_lays(data, self.time_limit, job)
            out = ranking.to_json()
            for m in out["moves"]:
                m.pop("routes", None)
            return out

        return self.jobs.submit("rank", version, work)

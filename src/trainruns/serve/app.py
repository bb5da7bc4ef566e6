"""The web application of ``trainruns serve`` (Starlette; uvicorn serves it).

Safe by default:
- on 127.0.0.1 only requests naming this machine in ``Host`` are answered (a page on
  another site cannot reach the server by DNS rebinding);
- served on a network (``--host``), every request must carry the access token printed
  in the address (``?token=`` or the ``X-Trainruns-Token`` header), compared in
  constant time;
- a change is a POST with a JSON body (``Content-Type: application/json``: another
  site's form cannot send one without the browser asking first), at most
  ``MAX_BODY`` bytes, read in pieces so a larger one is refused before it is held;
- a bad request gets ``{"error": ..., "where": ...}`` with a 4xx status and changes
  nothing (each change is checked in full before it replaces anything);
- a body is read by the one strict JSON reader (position.parse_json), as a position
  file, a game log or a ``play`` action is: no NaN, bounded nesting and numbers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
from importlib import resources

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from trainruns.errors import InputError, StaleVersion

MAX_BODY = 2 * 1024 * 1024  # a real 1832 position is ~10 kB; a log of a whole game ~200 kB
LOCAL_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
TOKEN_HEADER = "x-trainruns-token"


class RequestError(Exception):
    def __init__(self, status, what, where=None):
        self.status, self.what, self.where = status, what, where


def _error(status, what, where=None):
    body = {"error": what}
    if where:
        body["where"] = where
    return JSONResponse(body, status_code=status)


async def read_body(request: Request):
    """The request's JSON object, refused when too large, not JSON or not an object."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise RequestError(415, "send the request body as application/json")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise RequestError(413, f"the request body is larger than {MAX_BODY} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise RequestError(413, f"the request body is larger than {MAX_BODY} bytes")
        chunks.append(chunk)
    from trainruns.position.reader import parse_json

    try:  # the one strict reader: no NaN, bounded nesting and numbers, UTF-8
        data = parse_json(b"".join(chunks), "body", "request body")
    except InputError as e:
        raise RequestError(400, f"the request body is not JSON this server reads ({e.what})", "body") from None
    if not isinstance(data, dict):
        raise RequestError(400, "the request body must be a JSON object")
    return data


def field(data, key, kind, where):
    value = data.get(key)
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        name = {str: "a string", int: "a whole number", list: "a list", dict: "an object"}[kind]
        raise RequestError(400, f"'{key}' must be {name}", where)
    if kind is str and not 0 < len(value) <= 200:
        raise RequestError(400, f"'{key}' must be 1 to 200 characters", where)
    return value


class Gate:
    """Pure ASGI middleware in front of everything: a request must name this machine
    in ``Host`` (``local_only``: against DNS rebinding) and carry the access token
    (when there is one). The page's own script and style sheet under /static/ hold
    nothing of the game and need no token (a <link> or <script> cannot send a header).
    Refusals are JSON like every other error."""

    def __init__(self, app, token, local_only):
        self.app, self.token, self.local_only = app, token, local_only

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            request = Request(scope)
            refusal = None
            host = request.headers.get("host", "")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if self.local_only and name not in LOCAL_HOSTS:
                refusal = _error(421, f"this server answers only requests to 127.0.0.1 or localhost, not {host[:80]!r}")
            elif self.token and not scope["path"].startswith("/static/"):
                given = request.headers.get(TOKEN_HEADER) or request.query_params.get("token") or ""
                if not secrets.compare_digest(given.encode(), self.token.encode()):
                    refusal = _error(403, "this server needs its access token: open the address it printed")
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


STATIC = resources.files("trainruns.serve") / "static"


def handler(fn):
    """An endpoint whose refusals (RequestError, InputError) become JSON errors."""
    async def endpoint(request):
        try:
            return await fn(request)
        except RequestError as e:
            return _error(e.status, e.what, e.where)
        except StaleVersion as e:  # (checked under the game's lock: a page behind it)
            return _error(409, e.what, e.where)
        except InputError as e:
            return _error(400, e.what, e.where)
        except Exception as e:  # a bug: said in JSON like any refusal, the server lives on
            return _error(500, f"internal error ({type(e).__name__}: {e}); please report it")
    return endpoint


def page(name):
    async def index(request, mode=None, table=None):
        return FileResponse(str(STATIC / name), headers={"Cache-Control": "no-store"})
    return index


def query_version(request, where="map"):
    try:
        return int(request.query_params.get("version", ""))
    except ValueError:
        raise RequestError(400, "name the version: ?version=N", where) from None


def map_what(request):
    what = request.query_params.get("what", "board")
    if what not in ("board", "best"):
        raise RequestError(400, "what must be 'board' or 'best'", "map")
    return what


def json_file(data, name):
    """``data`` as a JSON file to download under ``name``."""
    name = "".join(c for c in name if c.isalnum() or c in "-_.") or "trainruns"
    if not name.endswith(".json"):
        name += ".json"
    return Response(json.dumps(data, indent=1) + "\n", media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


class Changes:
    """Tells every open event stream (``GET /api/events``) that the open game or position
    changed. Lives on the server's event loop: ``notify`` after each change,
    ``close`` when the server stops (the streams end at once instead of holding the
    shutdown)."""

    KEEP_ALIVE = 15.0  # seconds between comments on an idle stream (proxies drop silent ones)

    def __init__(self):
        self._event = asyncio.Event()
        self.closed = False

    def notify(self):
        self._event.set()
        self._event = asyncio.Event()

    def close(self):
        self.closed = True
        self.notify()

    async def wait(self):
        event = self._event
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(event.wait(), self.KEEP_ALIVE)


def still_open(table, mode):
    """Refuse a change meant for a game or position another request has just replaced."""
    if table.mode is not mode:
        raise RequestError(409, "another game or position was opened meanwhile: reload the page", "session")


def same_session(request, table):
    """A change carries ``X-Trainruns-Session: RUN:N`` (or ``N``): the server run and the
    game or position it was meant for. Refused when the server was restarted since (its
    versions count from 1 again) or another game was opened since."""
    session = request.headers.get("x-trainruns-session")
    if not session:
        return
    run, _, number = session.rpartition(":")
    if run and run != table.run:
        raise RequestError(409, "the server was restarted since this page loaded: reload the page", "session")
    if number != str(table.session):
        still_open(table, None)


def create_app(table, jobs, token=None, local_only=True):
    """The application serving ``table`` (a :class:`~trainruns.serve.table.Table`; a
    bare :class:`~trainruns.serve.position_mode.PositionMode` or
    :class:`~trainruns.serve.game_mode.GameMode` is put on one, its folder the working
    directory).

    ``token``: the access token every request must carry (None: none needed);
    ``local_only``: answer only requests addressed to this machine by name.

    The routes of a position and of a game differ: each request goes to the open
    mode's endpoint for its path (another mode's path is a 404 saying so)."""
    from trainruns.serve.table import Table

    if not isinstance(table, Table):
        table = Table(table, jobs, getattr(table, "time_limit", 60.0))
    changing = asyncio.Lock()  # one change at a time: each builds on the one before
    changes = Changes()
    endpoints = {"position": position_endpoints(changing), "game": game_endpoints(changing)}

    def snapshot():
        mode = table.mode
        return {"run": table.run, "session": table.session, "mode": mode.kind, "version": mode.version}

    def dispatch(path):
        async def endpoint(request):
            mode = table.mode
            found = endpoints[mode.kind].get(path)
            if found is None:
                raise RequestError(404, f"{path} is not asked of a {mode.kind} (open one first)", mode.kind)
            fn, methods = found
            if request.method not in methods and not (request.method == "HEAD" and "GET" in methods):
                raise RequestError(405, f"{path} takes {' or '.join(sorted(methods))}", mode.kind)
            if request.method == "POST":
                same_session(request, table)
            response = await fn(request, mode, table)
            if request.method == "POST":
                changes.notify()
            return response
        return endpoint

    async def job(request):
        found = jobs.get(request.path_params["job_id"])
        if found is None:
            raise RequestError(404, "no such job", "job")
        return JSONResponse(found.to_json())

    async def state(request):
        mode = table.mode
        out = await run_in_threadpool(mode.state)
        return JSONResponse(dict(out, session=table.session, run=table.run))

    async def version(request):
        return JSONResponse(snapshot())

    async def events(request):
        """Server-Sent Events: ``event: change`` with ``{"run", "session", "mode", "version"}``
        now and after every change; a comment line keeps an idle stream open."""
        async def stream():
            last = None
            while not changes.closed:
                now = snapshot()
                if now != last:
                    yield f"event: change\ndata: {json.dumps(now)}\n\n"
                    last = now
                else:
                    yield ": idle\n\n"
                await changes.wait()
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def preview(request):
        q = request.query_params
        try:
            rotation = int(q.get("rotation", ""))
        except ValueError:
            raise RequestError(400, "name the rotation: ?rotation=0..5", "preview") from None
        hex_id, tile = q.get("hex", ""), q.get("tile", "")
        if not 0 < len(hex_id) <= 20 or not 0 < len(tile) <= 20:
            raise RequestError(400, "name the hex and the tile: ?hex=E21&tile=3&rotation=1", "preview")
        text = await run_in_threadpool(table.mode.preview, hex_id, tile, rotation)
        return Response(text, media_type="image/svg+xml")

    async def games(request):
        return JSONResponse(await run_in_threadpool(table.games))

    async def new_game(request):
        """``{"title", "players": [...], "seed"?, "variants"?: [...], "config"?: {...},
        "name"}``: a new game, logged to ``name`` in the games folder."""
        data = await read_body(request)
        title, name = field(data, "title", str, "title"), field(data, "name", str, "name")
        players = field(data, "players", list, "players")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) >= 2 ** 63):
            raise RequestError(400, "'seed' must be a whole number", "seed")
        variants = data.get("variants") or []
        if not isinstance(variants, list) or len(variants) > 10 or not all(
                isinstance(v, str) and 0 < len(v) <= 40 for v in variants):
            raise RequestError(400, "'variants' must be a list of variant names", "variants")
        config = data.get("config")
        async with changing:
            await run_in_threadpool(table.new_game, title, players, seed, variants, config, name)
        changes.notify()
        return await state(request)

    async def load_game(request):
        """``{"name"}``: open a log of the games folder; ``{"name", "log": {...}}``: save
        an uploaded log there under the new ``name`` and open it."""
        data = await read_body(request)
        name = field(data, "name", str, "name")
        log = data.get("log")
        if log is not None and not isinstance(log, dict):
            raise RequestError(400, "'log' must be a game log (a JSON object)", "log")
        async with changing:
            await run_in_threadpool(table.load_game, name, log)
        changes.notify()
        return await state(request)

    async def http_error(request, exc):
        return _error(exc.status_code, exc.detail or "error")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        changes.close()
        jobs.close()

    paths = {p: None for kind in endpoints.values() for p in kind}
    routes = [Route(p, handler(dispatch(p)), methods=sorted({m for kind in endpoints.values()
                                                            for m in kind.get(p, (None, ()))[1]}))
              for p in paths] + [
        Route("/api/state", handler(state)),
        Route("/api/version", handler(version)),
        Route("/api/events", handler(events)),
        Route("/api/job/{job_id}", handler(job)),
        Route("/api/preview.svg", handler(preview)),
        Route("/api/games", handler(games)),
        Route("/api/games/new", handler(new_game), methods=["POST"]),
        Route("/api/games/load", handler(load_game), methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    middleware = [Middleware(Gate, token=token, local_only=local_only)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error})
    app.state.table, app.state.changes = table, changes
    return app


def position_endpoints(changing):
    """Position mode: change the position, see its best run, audit, rank lays. Each
    endpoint is ``fn(request, mode, table)``; path -> (fn, methods)."""

    async def position(request, mode, table):
        if mode.data is None:
            raise RequestError(404, "no position is open", "position")
        return json_file(mode.data, mode.name)

    async def open_position(request, mode, table):
        data = await read_body(request)
        pos = field(data, "position", dict, "open")
        from trainruns.serve import game_engine

        if game_engine.is_log(pos):
            raise RequestError(400, "this file is a game log, not a position: open it with Games… (Upload a log…)",
                               "open")
        async with changing:
            still_open(table, mode)
            await run_in_threadpool(mode.replace, pos)
        return JSONResponse(dict(await run_in_threadpool(mode.state), session=table.session, run=table.run))

    async def edit(request, mode, table):
        """One change: lay, token, trains, phase, corporation or undo."""
        data = await read_body(request)
        op = field(data, "op", str, "edit")
        if op == "lay":
            rotation = field(data, "rotation", int, "lay")
            call = (mode.lay, field(data, "hex", str, "lay"), field(data, "tile", str, "lay"), rotation)
        elif op == "token":
            call = (mode.toggle_token, field(data, "hex", str, "token"), field(data, "stop", int, "token"),
                    field(data, "corporation", str, "token"))
        elif op == "trains":
            trains = field(data, "trains", list, "trains")
            if len(trains) > 20 or not all(isinstance(t, str) and 0 < len(t) <= 20 for t in trains):
                raise RequestError(400, "'trains' must be at most 20 train names" if len(trains) > 20 else
                               "'trains' must be train names (strings of 1 to 20 characters)", "trains")
            call = (mode.set_field, "trains", trains)
        elif op in ("phase", "corporation"):
            call = (mode.set_field, op, field(data, op, str, op))
        elif op == "undo":
            call = (mode.undo,)
        else:
            raise RequestError(400, f"unknown change {op!r}: lay, token, trains, phase, corporation or undo",
                               "edit")
        async with changing:
            still_open(table, mode)
            await run_in_threadpool(*call)
        return JSONResponse(dict(await run_in_threadpool(mode.state), session=table.session, run=table.run))

    async def lays_on(request, mode, table):
        hex_id = request.query_params.get("hex", "")
        if not hex_id or len(hex_id) > 20:
            raise RequestError(400, "name a hex: ?hex=D20", "lays")
        return JSONResponse({"hex": hex_id, "version": mode.version,
                             "lays": await run_in_threadpool(mode.lays_on, hex_id)})

    async def audit(request, mode, table):
        data = await read_body(request)
        job = await run_in_threadpool(mode.start_audit, {"routes": field(data, "routes", list, "audit")})
        return JSONResponse(job.to_json())

    async def rank(request, mode, table):
        await read_body(request)
        job = await run_in_threadpool(mode.start_rank)
        return JSONResponse(job.to_json())

    async def map_svg(request, mode, table):
        text = await run_in_threadpool(mode.svg, query_version(request), map_what(request))
        return Response(text, media_type="image/svg+xml")

    return {
        "/": (page("index.html"), {"GET"}),
        "/api/position": (position, {"GET"}),
        "/api/open": (open_position, {"POST"}),
        "/api/edit": (edit, {"POST"}),
        "/api/lays": (lays_on, {"GET"}),
        "/api/audit": (audit, {"POST"}),
        "/api/rank": (rank, {"POST"}),
        "/api/map.svg": (map_svg, {"GET"}),
    }


def game_endpoints(changing):
    """Game mode: the game's state and legal actions, one action at a time, its log."""

    def answer(refusal):
        async def reply(table, mode):
            if refusal is not None:
                return JSONResponse({"error": refusal["message"], "rule": refusal["rule"],
                                     "where": "action" if refusal["rule"] else "version"}, status_code=409)
            return JSONResponse(dict(await run_in_threadpool(mode.state), session=table.session, run=table.run))
        return reply

    def version_of(data, required=False):
        version = data.get("version")
        if version is None and not required:
            return None
        if isinstance(version, bool) or not isinstance(version, int):
            raise RequestError(400, "'version' must be the version of the game the page showed (a whole number)",
                               "version")
        return version

    async def act(request, mode, table):
        """``{"action": {...}, "version"?: N}``: one action, refused when the game has
        moved on from version N (an undo must name it)."""
        data = await read_body(request)
        action = field(data, "action", dict, "act")
        version = version_of(data)
        async with changing:
            still_open(table, mode)
            refusal = await run_in_threadpool(mode.act, action, version)
        return await answer(refusal)(table, mode)

    async def redo(request, mode, table):
        """``{"version": N}``: take again the decision the last undo took back."""
        data = await read_body(request)
        version = version_of(data, required=True)
        async with changing:
            still_open(table, mode)
            refusal = await run_in_threadpool(mode.redo, version)
        return await answer(refusal)(table, mode)

    async def take_back(request, mode, table):
        """``{"decision": K, "version": N}``: undo to here, decision K and all after it."""
        data = await read_body(request)
        version = version_of(data, required=True)
        decision = field(data, "decision", int, "decision")
        async with changing:
            still_open(table, mode)
            refusal = await run_in_threadpool(mode.take_back_to, decision, version)
        return await answer(refusal)(table, mode)

    async def log(request, mode, table):
        return json_file(await run_in_threadpool(mode.log), os.path.basename(mode.path))

    async def position(request, mode, table):
        corp = request.query_params.get("corporation") or None
        if corp is not None and len(corp) > 20:
            raise RequestError(400, "no such corporation", "position")
        data = await run_in_threadpool(mode.position, corp)
        return json_file(data, f"position-{data.get('corporation', '')}")

    async def map_svg(request, mode, table):
        """The board of a version; ``&since=KEY`` (the board a page shows): only the hexes
        laid since, as JSON ``{"key", "hexes": {hex: svg}}``, when that is all that changed."""
        version, since = query_version(request), request.query_params.get("since", "")
        if since and map_what(request) == "board" and len(since) <= 40:
            patch = await run_in_threadpool(mode.hexes_since, version, since)
            if patch is not None:
                return JSONResponse(patch)
        text = await run_in_threadpool(mode.svg, version, map_what(request))
        return Response(text, media_type="image/svg+xml")

    async def advise(request, mode, table):
        """``{"version": N, "top"?: 1-10, "horizon"?: 1|2}``: the operating turn's plans,
        ranked in the worker (docs/advise.md); the job to follow."""
        data = await read_body(request)
        version = version_of(data, required=True)
        top = data.get("top", 5)
        if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= 10:
            raise RequestError(400, "'top' must be a whole number from 1 to 10", "advise")
        horizon = data.get("horizon", 1)
        if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon not in (1, 2):
            raise RequestError(400, "'horizon' must be 1 or 2", "advise")
        job = await run_in_threadpool(mode.start_advise, version, top, horizon)
        return JSONResponse(job.to_json())

    async def facts(request, mode, table):
        from trainruns.serve.facts import facts_of

        return JSONResponse(await run_in_threadpool(facts_of, mode, query_version(request, "facts")))

    return {
        "/": (page("game.html"), {"GET"}),
        "/api/facts": (facts, {"GET"}),
        "/api/advise": (advise, {"POST"}),
        "/api/act": (act, {"POST"}),
        "/api/redo": (redo, {"POST"}),
        "/api/take-back": (take_back, {"POST"}),
        "/api/log": (log, {"GET"}),
        "/api/position": (position, {"GET"}),
        "/api/map.svg": (map_svg, {"GET"}),
    }


def new_token():
    return secrets.token_urlsafe(24)

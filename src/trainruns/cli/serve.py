"""``trainruns serve [GAME_OR_POSITION] [--port N] [--host H]``: a local web page.

A position file opens position mode (the map, its best run, tile lays, audits); a game
log (docs/game-log.md) opens game mode and is saved after every action, so
``trainruns serve LOG`` resumes it; ``--new TITLE --players A,B,C LOG`` starts a game
in the new file LOG; the page itself starts and loads games in the games folder
(``--games DIR``). Starts a web server (Starlette on uvicorn, see
:mod:`trainruns.serve`) and prints the address to open. It listens on 127.0.0.1 only unless ``--host`` says otherwise; then
the address carries an access token that every request must present.
"""

import errno
import os
import socket

from trainruns.cli import add_time_limit, whole
from trainruns.errors import InputError
from trainruns.position.reader import read_json

DEFAULT_PORT = 8018
DEFAULT_TIME_LIMIT = 60.0


def register(sub):
    p = sub.add_parser("serve", help="a position or a game on a local web page (map, best run, audit, play)")
    p.add_argument("file", nargs="?", metavar="GAME_OR_POSITION",
                   help="a position file or a game log (JSON); without it the page offers to open a position")
    p.add_argument("--new", metavar="TITLE", help="start a game of TITLE, logged to the file named (which must not exist)")
    p.add_argument("--players", metavar="A,B,C", help="with --new: the players in seating order")
    p.add_argument("--seed", type=whole, help="with --new: the game's seed")
    p.add_argument("--variant", action="append", default=[], metavar="V", help="with --new: a variant (repeatable)")
    p.add_argument("--config", metavar="FILE", help="with --new: the title's config (1831: docs/game-1831.md)")
    p.add_argument("--games", metavar="DIR",
                   help="the folder where the page starts and loads games (default: the game log's folder, "
                        "else the working directory)")
    p.add_argument("--port", type=whole, default=DEFAULT_PORT,
                   help=f"port to listen on (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only; any other "
                        "address needs the access token printed in the address)")
    add_time_limit(p, f"bound each solve, audit and ranking variant (default {DEFAULT_TIME_LIMIT:g} s)")
    p.set_defaults(func=run)


def run(args):
    if not 0 <= args.port <= 65535:
        raise InputError(f"--port must be 0 to 65535, not {args.port}")
    import uvicorn

    from trainruns.serve.app import LOCAL_HOSTS, create_app, new_token
    from trainruns.serve.jobs import Jobs
    from trainruns.serve.table import Table

    local = args.host in LOCAL_HOSTS
    sock = _listen(args.host, args.port)  # first: a busy port must not leave a new game's log behind
    jobs = Jobs()
    try:
        mode = _mode(args, jobs, args.time_limit or DEFAULT_TIME_LIMIT)
    except BaseException:
        sock.close()
        jobs.close()
        raise
    time_limit = args.time_limit or DEFAULT_TIME_LIMIT
    folder = args.games or (os.path.dirname(os.path.abspath(args.file)) if getattr(mode, "path", None) else None)
    if folder is not None and not os.path.isdir(folder):
        sock.close()
        jobs.close()
        raise InputError("no such folder", "--games")
    token = None if local else new_token()
    app = create_app(Table(mode, jobs, time_limit, folder), jobs, token=token, local_only=local)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/" + (f"?token={token}" if token else "")
    print(f"trainruns serve: open {address}", flush=True)
    print("(Ctrl-C stops the server)", flush=True)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
    _server_class()(config, app.state.changes).run(sockets=[sock])
    return 0


def _server_class():
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server, ending the pages' event streams as soon as it is told to stop
        (else each open stream would hold the shutdown for its grace period)."""

        def __init__(self, config, changes):
            super().__init__(config)
            self.changes = changes

        def handle_exit(self, sig, frame):
            super().handle_exit(sig, frame)
            import asyncio

            try:
                asyncio.get_running_loop().call_soon(self.changes.close)
            except RuntimeError:  # not on the loop's thread: the grace period ends the streams
                pass

    return Server



def _mode(args, jobs, time_limit):
    """Game mode for a game log or --new, position mode otherwise."""
    from trainruns.serve import game_engine
    from trainruns.serve.game_mode import GameMode
    from trainruns.serve.position_mode import PositionMode

    if args.new:
        if not args.file:
            raise InputError("--new needs the file to log the game to", "--new")
        if os.path.exists(args.file):
            raise InputError("already exists: to resume its game, run trainruns serve without --new", args.file)
        players = [p.strip() for p in (args.players or "").split(",") if p.strip()]
        if not players:
            raise InputError("--new needs --players A,B,C (seating order)", "--players")
        config = read_json(args.config, "config") if args.config else None
        return GameMode(game_engine.new(args.new, players, args.seed, args.variant, config), args.file, jobs,
                        time_limit, expect=None)
    if args.players or args.seed is not None or args.variant or args.config:
        raise InputError("--players, --seed, --variant and --config go with --new",
                         "--players" if args.players else "--seed" if args.seed is not None else
                         "--variant" if args.variant else "--config")
    data = read_json(args.file) if args.file else None
    if game_engine.is_log(data):
        return GameMode(game_engine.load(data, args.file), args.file, jobs, time_limit)
    if data is not None and not isinstance(data, dict):
        raise InputError("a position must be a JSON object", args.file)
    name = os.path.basename(args.file) if args.file else "position"
    return PositionMode(data, jobs, time_limit, name)


def _listen(host, port):
    """A listening socket, bound before the address is printed (so --port 0 prints the
    port the system chose, and a busy port is a clear error, not a traceback)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise InputError(f"cannot listen on host {host!r} ({e.strerror})", "--host") from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise InputError(f"port {port} is in use: pick another with --port N (0: any free port)",
                             "--port") from None
        raise InputError(f"cannot listen on {host}:{port} ({e.strerror or e})", "--host") from None
    sock.listen(64)
    return sock

"""``trainruns serve [POSITION] [--port N] [--host H]``: the position on a local web page.

Starts a web server (Starlette on uvicorn, see :mod:`trainruns.serve`) and prints the
address to open. It listens on 127.0.0.1 only unless ``--host`` says otherwise; then
the address carries an access token that every request must present.
"""

import errno
import socket

from ..errors import InputError
from ..position import read_json
from . import add_time_limit

DEFAULT_PORT = 8018
DEFAULT_TIME_LIMIT = 60.0


def register(sub):
    p = sub.add_parser("serve", help="open a position on a local web page (map, best run, audit, tile lays)")
    p.add_argument("position", nargs="?", help="position file (JSON); without it the page offers to open one")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port to listen on (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only; any other "
                        "address needs the access token printed in the address)")
    add_time_limit(p, f"bound each solve, audit and ranking variant (default {DEFAULT_TIME_LIMIT:g} s)")
    p.set_defaults(func=run)


def run(args):
    if not 0 <= args.port <= 65535:
        raise InputError(f"--port must be 0 to 65535, not {args.port}")
    data = read_json(args.position) if args.position else None
    if data is not None and not isinstance(data, dict):
        raise InputError("a position must be a JSON object", args.position)
    import uvicorn

    from ..serve.app import LOCAL_HOSTS, create_app, new_token
    from ..serve.jobs import Jobs
    from ..serve.position_mode import PositionMode

    local = args.host in LOCAL_HOSTS
    sock = _listen(args.host, args.port)
    jobs = Jobs()
    name = args.position.rsplit("/", 1)[-1] if args.position else "position"
    mode = PositionMode(data, jobs, args.time_limit or DEFAULT_TIME_LIMIT, name)
    token = None if local else new_token()
    app = create_app(mode, jobs, token=token, local_only=local)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/" + (f"?token={token}" if token else "")
    print(f"trainruns serve: open {address}", flush=True)
    print("(Ctrl-C stops the server)", flush=True)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
    uvicorn.Server(config).run(sockets=[sock])
    return 0


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

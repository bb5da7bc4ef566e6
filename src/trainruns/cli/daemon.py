"""``trainruns daemon start|stop|status``: the warm process that answers commands
(:mod:`trainruns.daemon`), managed as mypy's ``dmypy`` is.

``start`` waits until the daemon answers (it loads the kernels first: about a second,
longer the first time on a machine); ``status`` exits 1 when no daemon runs (a
negative verdict); ``stop`` lets running commands finish. docs/daemon.md tells more.
"""

import sys
import time

START_SECONDS = 120.0  # the first start on a machine compiles the kernels


def register(sub):
    p = sub.add_parser("daemon", help="start, stop or ask about the warm process that answers "
                                      "`solve --daemon` (docs/daemon.md)")
    p.add_argument("action", choices=["start", "stop", "status"])
    p.add_argument("--json", action="store_true", help="print the status as JSON")
    p.set_defaults(func=run)


def ask(op, timeout=2.0):
    """The daemon's reply to ``op`` (status, stop), or None when none answers."""
    import socket

    from trainruns.daemon import Unsafe, receive, send, socket_path
    from trainruns.errors import InputError

    try:
        path = socket_path()
    except Unsafe as e:
        raise InputError(str(e), "daemon") from None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(path)
        send(sock, {"op": op})
        return receive(sock)[0]
    except (OSError, ValueError, EOFError, TypeError):
        return None
    finally:
        sock.close()


def run(args):
    import json

    from trainruns.daemon import socket_path

    if args.action == "status":
        status = ask("status")
        if args.json:
            # "up" says whether a daemon answers; "running" is the number of commands it is
            # running (false, as before, when none answers)
            print(json.dumps({"up": status is not None, "running": status is not None, "socket": socket_path(),
                              **(status or {})}))
        elif status is None:
            print(f"no daemon answers on {socket_path()}")
        else:
            print(f"daemon {status['pid']} on {socket_path()}: up {time.time() - status['started']:.0f} s, "
                  f"{status['served']} commands answered, {status['running']} running")
        return 0 if status is not None else 1
    if args.action == "stop":
        reply = ask("stop")
        if reply is None:
            print("no daemon was running")
            return 0
        pid = reply["stopping"]
        deadline = time.monotonic() + 10
        while ask("status", timeout=0.5) is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        print(f"daemon {pid} stopped")
        return 0
    # start
    status = ask("status")
    if status is None:
        from trainruns.daemon.client import start_daemon

        start_daemon()
        deadline = time.monotonic() + START_SECONDS
        while status is None and time.monotonic() < deadline:
            time.sleep(0.05)
            status = ask("status", timeout=0.5)
        if status is None:
            sys.stderr.write(f"trainruns: error: the daemon did not answer within {START_SECONDS:.0f} s\n")
            return 3
    print(f"daemon {status['pid']} answers on {socket_path()}")
    return 0

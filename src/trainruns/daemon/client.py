"""The thin client: send a command to the warm daemon and relay its exit status.

It imports only the standard library's ``os``, ``sys``, ``socket`` and ``signal``
(no numpy, no numba, not even ``json``): a command answered by the daemon costs the
interpreter's start, a connection and the command's own work.

:func:`forward` returns the command's exit status, or None when the daemon could not
take the command (none running, a stale socket, other code, any failure before the
command started): the caller then runs it in-process. A daemon missing or stale is
started in the background for the next command (``start_daemon``).
"""

import os
import socket
import sys

from . import Unsafe, fingerprint, receive, send, socket_path

# the command options that ask for the daemon; ``TRAINRUNS_DAEMON=1`` asks for it for
# every command it serves
FLAG = "--daemon"
SERVED = ("solve",)
CONNECT_SECONDS = 2.0


def wanted(argv) -> bool:
    """Whether ``argv`` (without the program name) asks for the daemon."""
    if not argv or argv[0] not in SERVED:
        return False
    words = argv[:argv.index("--")] if "--" in argv else argv
    if FLAG in words:
        return True
    return os.environ.get("TRAINRUNS_DAEMON", "") not in ("", "0")


def strip_flag(argv):
    """``argv`` without the ``--daemon`` option (the in-process command ignores it too)."""
    if "--" in argv:
        i = argv.index("--")
        return [a for a in argv[:i] if a != FLAG] + argv[i:]
    return [a for a in argv if a != FLAG]


def forward(argv, started: float, start_if_missing: bool = True):
    """Run ``argv`` in the daemon; its exit status, or None (run it in-process)."""
    try:
        path = socket_path()
    except Unsafe as e:
        sys.stderr.write(f"trainruns: warning: not using the daemon: {e}\n")
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(CONNECT_SECONDS)
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        if start_if_missing:
            start_daemon(path)
        return None
    try:
        return _talk(sock, argv, started)
    finally:
        sock.close()


def _talk(sock, argv, started):
    header = {"op": "run", "argv": argv, "cwd": os.getcwd(), "env": dict(os.environ),
              "started": started, "fingerprint": fingerprint(),
              "encoding": [getattr(s, "encoding", None) or "utf-8" for s in (sys.stdin, sys.stdout, sys.stderr)]}
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        send(sock, header, [0, 1, 2])
        first, _ = receive(sock)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if first is None or "pid" not in first:
        if first is not None and first.get("error") == "stale":
            # the daemon runs older code: it has ended; a new one for the next command
            start_daemon(socket_path())
        return None
    # the command has started: from here on its exit status is the answer
    pid = first["pid"]
    sock.settimeout(None)
    import signal

    def forward_signal(signum, frame):
        try:
            os.kill(pid, signum)
        except OSError:
            pass

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, forward_signal)
    while True:
        try:
            last, _ = receive(sock)
            break
        except InterruptedError:
            continue
        except (OSError, ValueError, EOFError, TypeError):
            last = None
            break
    if last is not None and "signal" in last:
        sys.stderr.write(f"trainruns: internal error (the daemon's worker died of signal {last['signal']}); "
                         "run without --daemon and please report it\n")
    if last is None or "exit" not in last:
        sys.stderr.write("trainruns: internal error (the daemon's worker ended without an exit status); "
                         "run without --daemon, or `trainruns daemon stop`\n")
        return 3
    return last["exit"]


def start_daemon(path=None):
    """Start the daemon in the background (detached, its own session); do not wait."""
    import subprocess

    try:
        subprocess.Popen([sys.executable, "-m", "trainruns.daemon.server"], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                         close_fds=True)
    except OSError:
        pass

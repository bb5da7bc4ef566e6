"""The thin client: send a command to the warm daemon and relay its exit status.

It imports only modules built into the interpreter (``os``, ``sys``, ``time``,
``marshal``, ``_signal``) and ``_socket``: no numpy, no numba, not even ``json``,
``socket`` or ``signal`` (those two load ``enum``), nor ``zlib`` (a shared library to
load). A command answered by the daemon costs the interpreter's start, a connection and
the command's own work.

:func:`dispatch` is where the ``trainruns`` command starts (trainruns.cli.launch, and
trainruns.cli.main for a console-script wrapper), the in-process runner given to it.
:func:`forward` returns the command's exit status, or None when the daemon could not
take the command (none running, a stale socket, other code, another user's socket, any
failure before the command started): the caller then runs it in-process, and
afterwards starts a daemon in the background for the next command when none was
there or it was stale (:data:`wants_start`, :func:`start_daemon`).
"""

import _socket
import os
import sys

# (CLOCK_MONOTONIC on Linux, the clock the daemon's child reads too; ``time`` is built
# into the interpreter: importing it loads no file)
from time import perf_counter

from trainruns.daemon import Unsafe, interpreter, lock_path, peer_uid, receive, send, socket_path

# ``--daemon`` asks for the daemon whatever TRAINRUNS_DAEMON says; TRAINRUNS_DAEMON=0
# (or "no", "off", "false") keeps every command in-process
FLAG = "--daemon"
SERVED = ("solve",)
OFF = ("0", "no", "off", "false")
CONNECT_SECONDS = 2.0


def process_start() -> float:
    """When this process started, on the ``time.perf_counter`` clock (Linux: from
    /proc; elsewhere: now, which leaves out only the interpreter's own start): a
    command's time limit counts from its start (loading modules counts)."""
    now = perf_counter()
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        with open("/proc/uptime", "rb") as f:
            uptime = float(f.read().split()[0])
        age = uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return now
    return now - min(max(age, 0.0), 60.0)


def dispatch(argv, started, run_here):
    """Command ``argv`` of a process started at ``started``: answered by the daemon
    when it serves the command (this process then ends at once, with the command's exit
    status), else ``run_here(argv, started)``'s exit status; a daemon is started
    afterwards for the next command when none answered."""
    if not wanted(argv):
        return run_here(argv, started)
    argv = strip_flag(argv)
    code = forward(argv, started)
    if code is None:
        # answered here; then a daemon for the next command, if none answers
        code = run_here(argv, started)
        if wants_start:
            start_daemon()
        return code
    # the answer is out: nothing of this process is left to clean up, so skip the
    # interpreter's own teardown (milliseconds of a command that takes a few)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def wanted(argv) -> bool:
    """Whether ``argv`` (without the program name) goes to the daemon: a command it
    serves, unless ``TRAINRUNS_DAEMON=0`` (the default is yes)."""
    if not argv or argv[0] not in SERVED:
        return False
    words = argv[:argv.index("--")] if "--" in argv else argv
    if FLAG in words:
        return True
    return os.environ.get("TRAINRUNS_DAEMON", "1").strip().lower() not in OFF


def strip_flag(argv):
    """``argv`` without the ``--daemon`` option (the in-process command ignores it too)."""
    if "--" in argv:
        i = argv.index("--")
        return [a for a in argv[:i] if a != FLAG] + argv[i:]
    return [a for a in argv if a != FLAG]


# set by :func:`forward` when no daemon could take the command: the caller starts one
# (:func:`start_daemon`) once it has answered in-process, so that a first run on a
# machine does not compile the kernels twice at once (its own and the daemon's)
wants_start = False


def forward(argv, started: float, start_if_missing: bool = True):
    """Run ``argv`` in the daemon; its exit status, or None (run it in-process; then
    :data:`wants_start` says whether a daemon should be started after)."""
    try:
        path = socket_path()
    except Unsafe as e:
        sys.stderr.write(f"trainruns: warning: not using the daemon: {e}\n")
        return None
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    sock.settimeout(CONNECT_SECONDS)
    try:
        sock.connect(path)
        if peer_uid(sock) != os.getuid():
            # another user's process listens there (the folder check makes this all but
            # impossible): never hand it our stdin, stdout and environment
            sys.stderr.write(f"trainruns: warning: not using the daemon: {path} is another user's\n")
            sock.close()
            return None
    except OSError:
        sock.close()
        _want_start(start_if_missing)
        return None
    try:
        return _talk(sock, argv, started, start_if_missing)
    finally:
        sock.close()


def _talk(sock, argv, started, start_if_missing):
    header = {"op": "run", "argv": argv, "cwd": os.getcwd(), "env": dict(os.environ),
              "started": started, "fingerprint": interpreter(),
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
            _want_start(start_if_missing)
        return None
    # the command has started: from here on its exit status is the answer
    pid = first["pid"]
    sock.settimeout(None)
    import _signal

    def forward_signal(signum, frame):
        try:
            os.kill(pid, signum)
        except OSError:
            pass

    for s in (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP):
        _signal.signal(s, forward_signal)
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
                         "run with TRAINRUNS_DAEMON=0 and please report it\n")
    if last is None or "exit" not in last:
        sys.stderr.write("trainruns: internal error (the daemon's worker ended without an exit status); "
                         "run with TRAINRUNS_DAEMON=0, or `trainruns daemon stop`\n")
        return 3
    return last["exit"]


def _want_start(start):
    global wants_start
    wants_start = wants_start or start


def starting() -> bool:
    """Whether a daemon holds the lock (it is warming up or answering)."""
    import fcntl

    try:
        fd = os.open(lock_path(create=True), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except (OSError, Unsafe):
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # (releases the lock if we took it)
    return False


def start_daemon():
    """Start the daemon in the background, unless one is already starting, and do not
    wait for it. Detached as a daemon should be (a double fork, a session of its own,
    the root folder, stdio on /dev/null, no other descriptor), so that a caller waiting
    for the client's output pipes, or for its children, never waits for the daemon.
    It runs this interpreter on this package's code (PYTHONPATH), with the client's
    environment."""
    if starting():
        return
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    argv = [sys.executable, "-m", "trainruns.daemon.server"]
    try:
        pid = os.fork()
    except OSError:
        return
    if pid:
        try:
            os.waitpid(pid, 0)  # the middle process ends at once: no zombie is left
        except ChildProcessError:
            pass
        return
    # the middle process: only os calls from here, then _exit (never back into the caller)
    try:
        os.setsid()
        if os.fork():
            os._exit(0)
        os.chdir("/")
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, 65536)
        os.execve(sys.executable, argv, env)
    finally:
        os._exit(0)

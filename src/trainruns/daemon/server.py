"""The daemon: a warm process that forks one child per command (see the package).

The parent only accepts connections and reaps children; it never runs a command
itself, so every command starts from the same warm state (kernels loaded, schemas
and titles read) and a failing command cannot harm the next one. The children of the
next commands are forked ahead and prepared (two spares), so that a command's client
does not wait for the fork. It is single
threaded (a fork copies only the calling thread): a SIGCHLD wakes its select loop.
"""

import os
import selectors
import signal
import socket
import sys
import time

from trainruns.daemon import (
    CODE_CHECK_SECONDS,
    IDLE_SECONDS,
    Unsafe,
    _package_root,
    fingerprint,
    interpreter,
    lock_path,
    peer_uid,
    receive,
    send,
    socket_dir,
    socket_path,
)

HEADER_SECONDS = 5.0
# children forked and prepared ahead: the one a command takes has had the command
# before it and that command's client start to prepare, not the client's start alone
SPARES = 2
# the modules of the package a command the daemon answers loads in its client: the
# installed script, the launcher and the thin client (tests/test_lazy_imports.py)
CLIENT_MODULES = ("trainruns", "trainruns.cli", "trainruns.cli.launch", "trainruns.daemon", "trainruns.daemon.client")


def warm():
    """Load what commands need, once: every module of trainruns but the web page and
    the drawing (matplotlib), the kernels (compiled ahead of time, and numba's with the
    parts of numba a kernel's first call loads), the JSON schema validators and
    acceptors and every title's data."""
    import importlib
    import pkgutil

    import trainruns
    from trainruns.cli import main as cli
    from trainruns.position.schema import SCHEMAS, _acceptor, _validator
    from trainruns.route.kernels import warm_up

    for info in pkgutil.walk_packages(trainruns.__path__, "trainruns."):
        if any(part in info.name for part in (".serve", ".draw", ".daemon", "__main__")):
            continue
        try:
            importlib.import_module(info.name)
        except ImportError:
            pass  # an optional part missing here: the command that needs it says so
    cli.build_parser()
    warm_up(numba=True)  # (numba too: the proof's own kernels, kernels.prices, run in the children)
    # what a kernel's first call with real arrays loads (boxing its results)
    importlib.import_module("numba.core.boxing")
    importlib.import_module("numba.core.runtime.context")
    for kind in SCHEMAS:
        _validator(kind)
        _acceptor(kind)


class Server:
    def __init__(self, path, idle=IDLE_SECONDS, lock=None, check=CODE_CHECK_SECONDS):
        self.path = path
        self.idle = idle
        self.check = check  # how often it looks whether its code changed on disk
        self.lock = lock  # held until stop: then a new daemon may start at once
        # watched from before the fingerprint is taken: no change falls between the two
        self.watch = CodeWatch.start(_package_root())
        self.code = fingerprint()
        self.interpreter = interpreter()
        self.started = time.time()
        self.served = 0
        self.children = {}  # pid -> client connection
        self.last = time.monotonic()
        self.running = True
        # (pid, socket to it, the command it read ahead): children forked and prepared
        # ahead, the oldest first
        self.spares = []
        self.spares_fail = False
        self.recent = None  # (argv, folder) of the last command: its position is read ahead

    def bind(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)  # the socket itself: the user's only
        try:
            self.sock.bind(self.path)
        finally:
            os.umask(old)
        self.inode = os.stat(self.path).st_ino  # (a later daemon's socket is not ours to remove)
        self.sock.listen(64)
        self.sock.setblocking(False)

    def serve(self):
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        os.set_blocking(self.wake_r, False)
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda s, f: None)
        signal.signal(signal.SIGTERM, lambda s, f: self.stop())
        sel = selectors.DefaultSelector()
        sel.register(self.sock, selectors.EVENT_READ, "accept")
        sel.register(self.wake_r, selectors.EVENT_READ, "wake")
        self.sel = sel
        try:
            checked = self.last = time.monotonic()  # idle from now: warming up is not idling
            self.spawn_spare()
            while self.running or self.children:
                now = time.monotonic()
                if self.running and now - checked >= self.check:
                    checked = now
                    if self.code_changed():
                        self.stop()  # the code on disk changed: this process must not answer
                        continue
                idle = max(0.0, self.idle - (now - self.last)) if not self.children else None
                if self.running and idle == 0.0:
                    self.stop()
                    continue
                wait = min(x for x in (idle, self.check - (now - checked)) if x is not None)
                for key, _ in sel.select(max(wait, 0.0) if self.running else 1.0):
                    if key.data == "accept":
                        self.accept()
                    elif key.data == "wake":
                        try:
                            while os.read(self.wake_r, 512):
                                pass
                        except BlockingIOError:
                            pass
                    else:
                        self.client_gone(key.data)
                self.reap()
        finally:
            self.close()

    def code_changed(self) -> bool:
        """Whether a module or data file of the package changed since this process
        loaded it: the watch's events, or (no watch) the files' fingerprint again."""
        if self.watch is not None:
            return self.watch.changed()
        return fingerprint() != self.code

    def stop(self):
        """No new commands; those running finish (the loop ends after them)."""
        if self.running:
            self.running = False
            self.sel.unregister(self.sock)
            self.close()
            for _, pipe, _ in self.spares:
                pipe.close()  # the spare reads the end of its socket and ends
            self.spares = []
            if self.lock is not None:
                self.lock.close()
                self.lock = None

    def close(self):
        try:
            if os.stat(self.path).st_ino == getattr(self, "inode", None):
                os.unlink(self.path)
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass

    def accept(self):
        try:
            conn, _ = self.sock.accept()
        except BlockingIOError:
            return
        conn.setblocking(True)
        conn.settimeout(HEADER_SECONDS)
        fds = []
        try:
            if peer_uid(conn) != os.getuid():
                conn.close()
                return
            header, fds = receive(conn, want_fds=3)
            if not isinstance(header, dict):
                raise ValueError("bad message")
            self.handle(conn, header, fds)
        except (OSError, ValueError, KeyError, TypeError, EOFError):
            for fd in fds:
                os.close(fd)
            conn.close()

    def handle(self, conn, header, fds):
        op = header["op"]
        if op == "status":
            self.reply(conn, {"pid": os.getpid(), "started": self.started, "served": self.served,
                              "running": len(self.children), "fingerprint": self.code})
            conn.close()
        elif op == "stop":
            self.reply(conn, {"stopping": os.getpid()})
            conn.close()
            self.stop()
        elif op == "run":
            if header["fingerprint"] != self.interpreter or not self.running or self.code_changed():
                # the client runs other code than this process loaded: it must not answer.
                # Stopped (the lock released) before the reply, so that the client may
                # start the new daemon at once
                for fd in fds:
                    os.close(fd)
                self.stop()
                self.reply(conn, {"error": "stale"})
                conn.close()
                return
            if len(fds) != 3:
                raise ValueError("the command's stdin, stdout and stderr are missing")
            self.start(conn, header, fds)
        else:
            raise ValueError(f"unknown op {op!r}")

    def start(self, conn, header, fds):
        """The command in a child: a spare if one waits (handed the connection and
        the client's stdio), else one forked now. The spare that read this command's
        position ahead if one did, else the oldest (the longest prepared)."""
        pid = None
        if self.spares:
            pid, pipe, _ = self.spares.pop(pick_spare(self.spares, header))
            try:
                send(pipe, header, [conn.fileno()] + list(fds))
            except (OSError, ValueError):
                pid = None
                self.spares_fail = True
            pipe.close()
        if pid is None:
            pid = os.fork()
            if pid == 0:  # the child: never returns
                code = 3
                try:
                    self.leave()
                    code = self.command(conn, header, fds)
                finally:
                    os._exit(code)
        for fd in fds:
            os.close(fd)
        self.recent = (header.get("argv"), header.get("cwd"))
        self.last = time.monotonic()  # (a status or stop request is not a command)
        self.served += 1
        self.children[pid] = conn
        self.sel.register(conn, selectors.EVENT_READ, pid)
        self.spawn_spare()  # (on the other core while this command runs)

    def leave(self):
        """In a child: drop the parent's listening socket, selector and signal pipe."""
        self.sel.close()
        self.sock.close()
        if self.watch is not None:
            self.watch.close()
        signal.set_wakeup_fd(-1)
        os.close(self.wake_r)
        os.close(self.wake_w)
        for _, pipe, _ in self.spares:
            pipe.close()

    def command(self, conn, header, fds):
        """In a child: the command; the child says its pid first and its exit status
        last itself (the client has its answer before the child's exit and reaping);
        the parent adds the exit status it reaps, which counts when the child died
        before saying it."""
        import resource

        def cpu():  # (os.times counts in ticks of 10 ms)
            usage = resource.getrusage(resource.RUSAGE_SELF)
            return usage.ru_utime + usage.ru_stime

        before = cpu()
        self.reply(conn, {"pid": os.getpid()})
        code = run_child(header, fds)
        # what the command cost this child (a spare prepared before), for benchmarks
        self.reply(conn, {"exit": code, "cpu": cpu() - before})
        return code

    def spawn_spare(self):
        """Fork the children of the next commands now (at the start, and as soon as a
        command has taken one), :data:`SPARES` of them: the fork and the first writes
        to the memory it shares with this process (each copies a page) are then paid
        before the command comes, not while its client waits (:func:`prepare`). A
        spare that fails once turns spares off: each command then forks its own
        child."""
        while self.running and len(self.spares) < SPARES and not self.spares_fail:
            self._fork_spare()

    def _fork_spare(self):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        pid = os.fork()
        if pid == 0:
            code = 3
            try:
                ours.close()
                self.leave()
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                prepare(lambda: _readable(theirs), self.recent)
                header, fds = receive(theirs, want_fds=4)
                theirs.close()
                if header is None:  # the daemon stopped: no command will come
                    code = 0
                elif len(fds) == 4:
                    code = self.command(socket.socket(fileno=fds[0]), header, fds[1:])
            finally:
                os._exit(code)
        theirs.close()
        self.spares.append((pid, ours, self.recent))

    def reply(self, conn, message):
        try:
            send(conn, message)
        except OSError:
            pass

    def client_gone(self, pid):
        """The client closed its end while its command runs (it was killed): end it."""
        conn = self.children.get(pid)
        if conn is None:
            return
        try:
            if conn.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT):
                return
        except BlockingIOError:
            return
        except OSError:
            pass
        self.sel.unregister(conn)
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass

    def reap(self):
        """Every child that ended: a command's (its exit status to its client) or a
        spare's; then a spare for the next command, when none runs."""
        while True:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            spare = next((x for x in self.spares if x[0] == pid), None)
            if spare is not None:  # died before any command
                spare[1].close()
                self.spares.remove(spare)
                self.spares_fail = True
                continue
            conn = self.children.pop(pid, None)
            if conn is None:
                continue
            code = os.waitstatus_to_exitcode(status)
            message = {"exit": code} if code >= 0 else {"exit": 3, "signal": -code}
            message["cpu"] = usage.ru_utime + usage.ru_stime  # the command's own cost, for benchmarks
            # (the client has gone when the child said it already: this one is unread)
            self.reply(conn, message)
            try:
                self.sel.unregister(conn)
            except (KeyError, ValueError):
                pass
            conn.close()
            self.last = time.monotonic()
        self.spawn_spare()


class CodeWatch:
    """Linux's inotify on every folder of the package: a module or data file (``.py``,
    ``.json``: what :func:`~trainruns.daemon.fingerprint` covers) written, touched,
    created, renamed or removed, a folder added, removed or renamed, or the kernel's
    queue overflowing, and the code is no longer what the daemon loaded. The kernel
    queues an event within the call that changes the file, so a client started after
    the change always finds it queued. Reading the queue costs microseconds, walking
    the package's files (:func:`~trainruns.daemon.fingerprint`) about a millisecond."""

    IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE = 0x2, 0x4, 0x8
    IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x40, 0x80, 0x100, 0x200
    IN_DELETE_SELF, IN_MOVE_SELF, IN_Q_OVERFLOW, IN_IGNORED = 0x400, 0x800, 0x4000, 0x8000
    IN_ISDIR = 0x40000000
    WATCHED = (IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
               | IN_DELETE_SELF | IN_MOVE_SELF)
    # the watched folder itself gone or moved, or events lost: assume the worst
    LOST = IN_DELETE_SELF | IN_MOVE_SELF | IN_Q_OVERFLOW | IN_IGNORED

    def __init__(self, fd):
        self.fd = fd
        self.seen = False

    @classmethod
    def start(cls, root):
        """A watch on ``root``'s folders (``__pycache__`` left out: bytecode is not
        code), or None where there is no inotify (the daemon then compares
        fingerprints)."""
        try:
            import ctypes
            import ctypes.util

            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, AttributeError, ImportError):
            return None
        if fd < 0:
            return None
        watch = cls(fd)
        for folder, subfolders, _ in os.walk(root):
            subfolders[:] = [d for d in subfolders if d != "__pycache__"]
            if libc.inotify_add_watch(fd, os.fsencode(folder), cls.WATCHED) < 0:
                watch.close()  # (the user's limit of watches reached)
                return None
        return watch

    def changed(self) -> bool:
        """Whether the code changed since the watch started (once so, always so)."""
        while not self.seen:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                break
            except OSError:
                self.seen = True
                break
            self.seen = any(self._counts(mask, name) for mask, name in self._events(data))
        return self.seen

    @staticmethod
    def _events(data):
        """(mask, name) of each ``struct inotify_event`` in ``data``."""
        i = 0
        while i + 16 <= len(data):
            mask = int.from_bytes(data[i + 4:i + 8], sys.byteorder)
            size = int.from_bytes(data[i + 12:i + 16], sys.byteorder)
            yield mask, data[i + 16:i + 16 + size].rstrip(b"\0")
            i += 16 + size

    def _counts(self, mask, name) -> bool:
        if mask & self.LOST:
            return True
        if mask & self.IN_ISDIR:
            return name != b"__pycache__" and bool(mask & (self.IN_CREATE | self.IN_DELETE | self.IN_MOVED_FROM
                                                           | self.IN_MOVED_TO))
        return name.endswith((b".py", b".json"))

    def close(self):
        try:
            os.close(self.fd)
        except OSError:
            pass


def pick_spare(spares, header) -> int:
    """Which of ``spares`` (``(pid, socket, the command it read ahead)``, the oldest
    first) takes the command of ``header``: the oldest that read its position ahead (the
    same command line in the same folder), else the oldest, the longest prepared."""
    mine = (header.get("argv"), header.get("cwd"))
    return next((i for i, spare in enumerate(spares) if spare[2] == mine), 0)


def prepare(waiting=lambda: False, recent=None):
    """In a spare child: the position of the last command (``recent``: its argv and
    folder) read ahead, and compiled, for a next command of the same file
    (trainruns.cli.solve), and
    a small solve (a seeded random custom board, output dropped), so that the pages of
    the parent a command writes to (reference counts of the parser, the loader, the
    schema validators, the search) are copied before the command comes. In steps,
    each skipped once ``waiting()`` says a command has come: the rest of the
    preparation costs more than it saves that command. Best effort: a failure here
    costs the command only that time."""
    import warnings

    if recent and not waiting():
        try:
            from trainruns.cli.solve import read_ahead

            read_ahead(*recent, waiting)
        except (Exception, SystemExit):  # (bad input: the command says so itself)
            pass
    try:
        from trainruns.cli.main import build_parser
        from trainruns.cli.solve import format_run
        from trainruns.route.search import solve
        from trainruns.services.generate import random_board
        from trainruns.titles.load import load_position

        build_parser("solve").parse_args(["solve", "--quiet", "position.json"])
        if waiting():
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            board = load_position(random_board(0, n_hexes=10, trains=("4", "3")))
        if waiting():
            return
        result = solve(board)
        if waiting():
            return
        format_run(board, result)
    except Exception:
        pass


def compile_client():
    """The client's modules (:data:`CLIENT_MODULES`) compiled into the user's private
    folder (``pyc`` beside the socket, laid out as ``sys.pycache_prefix`` lays it out),
    where the installed script reads them: a client does not compile them again on
    each call where Python writes no ``.pyc`` beside the sources. Python checks each
    against its source's time and size when it loads it, as any ``.pyc``. Best
    effort: without them a client compiles its modules as before."""
    import importlib
    import importlib.util
    import py_compile

    before = sys.pycache_prefix
    try:
        sys.pycache_prefix = os.path.join(socket_dir(create=True), "pyc")
        for name in CLIENT_MODULES:
            source = importlib.import_module(name).__file__
            target = importlib.util.cache_from_source(source)
            os.makedirs(os.path.dirname(target), 0o700, exist_ok=True)
            py_compile.compile(source, cfile=target, doraise=True)
    except (OSError, Unsafe, py_compile.PyCompileError):
        pass
    finally:
        sys.pycache_prefix = before


def _readable(sock):
    """Whether ``sock`` has something to read now (the spare's command has come)."""
    import select

    return bool(select.select([sock], [], [], 0)[0])


def run_child(header, fds):
    """The command, as the client's own process would run it: its stdio, folder,
    environment and start time."""
    import io

    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(header["cwd"])
    os.environ.clear()
    os.environ.update(header["env"])
    enc = header.get("encoding") or ["utf-8"] * 3
    sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding=enc[0])
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding=enc[1],
                                  line_buffering=os.isatty(1))
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding=enc[2],
                                  errors="backslashreplace", line_buffering=True)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    now = time.perf_counter()
    started = header.get("started")
    # perf_counter is the system's monotonic clock on Linux, shared by the client
    if not isinstance(started, (int, float)) or not now - 60 <= started <= now:
        started = now
    from trainruns.cli.main import run_process

    code = run_process(header["argv"], started)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    return code


def main():
    """``python -m trainruns.daemon.server``: warm up, then serve until idle or stopped.
    A second daemon (one already answers) ends at once."""
    import fcntl

    lock = open(lock_path(create=True), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0  # another daemon is starting or running
    os.chdir("/")  # hold no folder of the user's (the client's folder is set per command)
    path = socket_path()
    if os.path.exists(path):
        os.unlink(path)  # a stale socket: its daemon has died (it held the lock otherwise)
    idle = float(os.environ.get("TRAINRUNS_DAEMON_IDLE", IDLE_SECONDS))
    server = Server(path, idle, lock, float(os.environ.get("TRAINRUNS_DAEMON_CHECK", CODE_CHECK_SECONDS)))
    warm()
    import gc

    # the warm objects are never collected: a child's garbage collector must not walk
    # (and so copy, page by page) the parent's memory
    gc.collect()
    gc.freeze()
    compile_client()
    server.bind()
    server.serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A warm process that answers ``trainruns`` commands: the start-up (numba, the cached
kernels, the schemas, the titles' data) is paid once, not per command.

Like Mercurial's ``chg`` command server and mypy's ``dmypy``: one daemon per user,
listening on a private Unix socket; ``trainruns daemon start|stop|status`` manages it,
and ``trainruns solve --daemon`` (or ``TRAINRUNS_DAEMON=1`` in the environment) sends
the command to it, starting it on demand. Each command runs in a child forked from the
warm process, with the client's own stdin, stdout and stderr (passed over the socket,
SCM_RIGHTS), working folder and environment, so its output and exit status are those
of the in-process command; the client's time limit counts from the client's start.
When no daemon answers (none yet, a stale socket, other code), the command runs
in-process as it always did.

Safety: the socket lives in ``$XDG_RUNTIME_DIR/trainruns`` or ``/tmp/trainruns-UID``, a
folder of mode 0700 owned by the user (checked, never followed through a symlink); the
daemon answers only connections from its own user id (SO_PEERCRED) and ends after
``TRAINRUNS_DAEMON_IDLE`` seconds without a command (default 900).

Messages on the socket are Python's ``marshal`` format (built into the interpreter:
the client need not load ``json`` and ``re``), each preceded by its length; the peer
is the same user on the same interpreter (checked: SO_PEERCRED and :func:`fingerprint`).

This module is what the thin client imports: the standard library's ``os`` only.
"""

import marshal
import os

IDLE_SECONDS = 900.0
SOCKET_NAME = "daemon.sock"


class Unsafe(Exception):
    """The socket folder is not the user's own private folder."""


def socket_dir(create: bool = False) -> str:
    """The user's private folder for the socket (made 0700 when ``create``); raises
    :class:`Unsafe` when it exists but another user could use it."""
    import stat

    runtime = os.environ.get("XDG_RUNTIME_DIR")
    base = os.path.join(runtime, "trainruns") if runtime and os.path.isdir(runtime) \
        else os.path.join("/tmp", f"trainruns-{os.getuid()}")
    if create:
        try:
            os.mkdir(base, 0o700)
        except FileExistsError:
            pass
    try:
        st = os.lstat(base)
    except FileNotFoundError:
        return base
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise Unsafe(f"{base} is not a private folder of this user (mode 0700)")
    return base


def socket_path(create: bool = False) -> str:
    return os.path.join(socket_dir(create), SOCKET_NAME)


def fingerprint() -> str:
    """Which code answers: the interpreter and every module and data file of the package
    (path, size, modification time). A daemon started before the code changed refuses
    the command, which then runs in-process on the new code (and a new daemon starts)."""
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parts = [os.path.realpath(sys.executable), sys.prefix, sys.version]
    stack = [root]
    while stack:
        with os.scandir(stack.pop()) as it:
            for e in it:
                if e.is_dir(follow_symlinks=False):
                    if e.name != "__pycache__":
                        stack.append(e.path)
                elif e.name.endswith((".py", ".json")):
                    st = e.stat()
                    parts.append(f"{e.path}:{st.st_size}:{st.st_mtime_ns}")
    parts.sort()
    import zlib

    return format(zlib.crc32("\n".join(parts).encode()), "08x") + format(len(parts), "x")


MAX_MESSAGE = 1 << 20


def send(sock, message, fds=()):
    """One message (a dict of plain values), with file descriptors ``fds`` if any."""
    data = marshal.dumps(message)
    frame = len(data).to_bytes(4, "big") + data
    if fds:
        import socket

        sent = socket.send_fds(sock, [frame], list(fds))
        if sent < len(frame):
            sock.sendall(frame[sent:])
    else:
        sock.sendall(frame)


def receive(sock, want_fds=0):
    """The next message (None at the end of the stream), and the descriptors sent with
    it when ``want_fds``: ``(message, fds)``."""
    fds = []
    if want_fds:
        import socket

        head, fds, _, _ = socket.recv_fds(sock, 4, want_fds)
        fds = list(fds)
    else:
        head = sock.recv(4)
    while head and len(head) < 4:
        more = sock.recv(4 - len(head))
        if not more:
            break
        head += more
    if len(head) < 4:
        for fd in fds:
            os.close(fd)
        return None, []
    size = int.from_bytes(head, "big")
    if size > MAX_MESSAGE:
        for fd in fds:
            os.close(fd)
        raise ValueError("message too long")
    data = bytearray()
    while len(data) < size:
        more = sock.recv(size - len(data))
        if not more:
            raise ValueError("message cut short")
        data += more
    return marshal.loads(bytes(data)), fds

"""A warm process that answers ``trainruns`` commands: the start-up (numba, the cached
kernels, the schemas, the titles' data) is paid once, not per command.

Like Mercurial's ``chg`` command server and mypy's ``dmypy``: one daemon per user and
installation, listening on a private Unix socket, started on demand. ``trainruns
solve`` sends its command to it by default (``TRAINRUNS_DAEMON=0`` opts out); when
none answers (none yet, a stale socket, other code) the command runs in-process as it
always did and a daemon is started in the background for the next one. ``trainruns
daemon start|stop|status`` manages it. Each command runs in a child forked from the
warm process, with the client's own stdin, stdout and stderr (passed over the socket,
SCM_RIGHTS), working folder and environment, so its output and exit status are those
of the in-process command; the client's time limit counts from the client's start.

Safety: the socket lives in ``$XDG_RUNTIME_DIR/trainruns`` or ``/tmp/trainruns-UID``, a
folder of mode 0700 owned by the user (checked, never followed through a symlink); the
client talks only to a socket of its own user (SO_PEERCRED), the daemon answers only
connections from its own user id and ends after ``TRAINRUNS_DAEMON_IDLE`` seconds
without a command (default 900) or when the code it loaded changed on disk.

Messages on the socket are Python's ``marshal`` format (built into the interpreter:
the client need not load ``json`` and ``re``), each preceded by its length; the peer
is the same user on the same interpreter (checked: SO_PEERCRED and :func:`interpreter`).
Whether the package's code changed since the daemon loaded it is the daemon's to see
(:func:`fingerprint`, watched with inotify where there is one): the client does not
walk the package's files for each command.

This module is what the thin client imports: the interpreter's built-in ``os``,
``marshal`` and ``_socket`` only (``socket`` would load ``enum`` and ``selectors``).
"""

import _socket
import marshal
import os
import sys

IDLE_SECONDS = 900.0
# how often an idle daemon looks whether its code changed on disk
CODE_CHECK_SECONDS = 30.0
# what a client and its daemon refuse to read: a command line and environment fit
MAX_MESSAGE = 1 << 20
_INT = 4


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


def _package_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def install_id() -> str:
    """Which installation a daemon serves (the interpreter and the package's folder):
    two virtual environments, or two checkouts, each get their own daemon rather than
    stopping each other's."""
    return digest(f"{os.path.realpath(sys.executable)}\0{_package_root()}")[-8:]


def socket_path(create: bool = False) -> str:
    """The socket of this installation's daemon, in :func:`socket_dir`."""
    return os.path.join(socket_dir(create), f"daemon-{install_id()}.sock")


def lock_path(create: bool = False) -> str:
    """The lock a daemon holds from its start to its stop (one daemon per socket)."""
    return os.path.join(socket_dir(create), f"daemon-{install_id()}.lock")


def peer_uid(sock) -> int:
    """The user id of the process at the other end of Unix socket ``sock``."""
    cred = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 3 * _INT)
    return int.from_bytes(cred[_INT:2 * _INT], sys.byteorder, signed=True)


def interpreter() -> str:
    """Which interpreter and environment a client runs (its executable, prefix and
    version): a daemon of another answers none of its commands."""
    return f"{os.path.realpath(sys.executable)}\0{sys.prefix}\0{sys.version}"


def fingerprint() -> str:
    """Which code answers: the interpreter and every module and data file of the package
    (path, size, modification time). A daemon started before the code changed refuses
    the command, which then runs in-process on the new code (and a new daemon starts)."""
    root = _package_root()
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
    return digest("\n".join(parts)) + format(len(parts), "x")


def digest(text: str) -> str:
    """A short digest of ``text``, the same in every process of this interpreter: the
    hash of the integer its UTF-8 bytes spell (Python's hash of an int is the integer
    modulo a prime, never salted as a str's is; two texts that differ in one place
    never collide). Not zlib's crc32: that is a shared library the client would load."""
    return format(hash(int.from_bytes(text.encode(), "little")), "016x")


def send(sock, message, fds=()):
    """One message (a dict of plain values), with file descriptors ``fds`` if any
    (SCM_RIGHTS, sent with the message's first bytes)."""
    data = marshal.dumps(message)
    frame = len(data).to_bytes(4, "big") + data
    if fds:
        rights = b"".join(fd.to_bytes(_INT, sys.byteorder, signed=True) for fd in fds)
        sent = sock.sendmsg([frame], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, rights)])
        if sent < len(frame):
            sock.sendall(frame[sent:])
    else:
        sock.sendall(frame)


def receive(sock, want_fds=0):
    """The next message (None at the end of the stream), and the descriptors sent with
    it when ``want_fds``: ``(message, fds)``."""
    fds = []
    if want_fds:
        head, ancillary, _, _ = sock.recvmsg(4, _socket.CMSG_SPACE(want_fds * _INT))
        for level, kind, data in ancillary:
            if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
                usable = len(data) - len(data) % _INT
                fds += [int.from_bytes(data[i:i + _INT], sys.byteorder, signed=True)
                        for i in range(0, usable, _INT)]
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
            for fd in fds:
                os.close(fd)
            raise ValueError("message cut short")
        data += more
    return marshal.loads(bytes(data)), fds

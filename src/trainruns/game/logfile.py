"""A game log on disk: read strictly, written so that nothing can corrupt it.

Every log file the project writes (``trainruns play new|act``, the web page's game mode)
goes through :func:`save`:

- the text is checked first: JSON with no NaN, at most the reader's 8 MB
  (position.MAX_FILE_BYTES), so the tool never writes a log it then refuses;
- it is written to a temporary file of a unique name in the log's folder, flushed to
  disk (fsync), and renamed over the log: the log is always the old one or the new one,
  never half of one, whatever is killed when;
- a log that is a symbolic link keeps its link: the file it points to is replaced;
- a change is made under a lock on the log (``flock`` on the file itself): a second
  writer waits for the first (up to ``LOCK_WAIT`` seconds, then it is refused with
  "the game is being changed"), and then reads the log the first one wrote;
- a log changed since it was read (by a program that takes no lock) is not written
  over: refused, the change lost by neither;
- a new log never replaces a file that is there unless asked to (``--force``).

Every failure is :class:`~trainruns.errors.InputError` (exit 2, one line): a missing
or unwritable folder, a folder where the log should be, a full disk.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
import time

from trainruns.errors import InputError
from trainruns.position.reader import MAX_FILE_BYTES, parse_json

try:
    import fcntl
except ImportError:  # not on POSIX: no lock (the rename still keeps the log whole)
    fcntl = None

LOCK_WAIT = 60.0        # seconds a writer waits for another one's change
ANY = "any"             # save(): replace whatever file is there


class Stamp(tuple):
    """What a log file was when read: (device, inode, size, modification time)."""

    @classmethod
    def of(cls, st) -> "Stamp":
        return cls((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns))


def _oserror(e: OSError, doing: str, where: str) -> InputError:
    reason = e.strerror or type(e).__name__
    return InputError(f"cannot {doing} ({reason})", where)


def dump(log: dict, where: str = "log") -> bytes:
    """The log's text as written (indented JSON, one final newline): refused when it
    would hold what the reader refuses (NaN, Infinity) or pass its 8 MB."""
    try:
        text = json.dumps(log, indent=1, allow_nan=False) + "\n"
    except ValueError:
        raise InputError("the game log holds NaN or Infinity, which JSON cannot say; nothing written",
                         where) from None
    except (TypeError, RecursionError) as e:
        raise InputError(f"the game log cannot be written as JSON ({type(e).__name__}); nothing written",
                         where) from None
    data = text.encode("utf-8", "backslashreplace")
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"the game log would be larger than {MAX_FILE_BYTES // (1024 * 1024)} MB, "
                         "the most a log may be; nothing written", where)
    return data


def _open_regular(path: str, where: str, what: str) -> int:
    """A read-only descriptor of the regular file at ``path`` (a FIFO or device is not
    opened for reading, so it cannot block)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(f"no such {what} file", where) from None
    except IsADirectoryError:
        raise InputError(f"is a folder, not a {what} file", where) from None
    except OSError as e:
        raise _oserror(e, f"read the {what} file", where) from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise InputError(f"is {kind}, not a {what} file", where)
    return fd


def _read_fd(fd: int, where: str, what: str):
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise _oserror(e, f"read the {what} file", where) from None
    return parse_json(b"".join(chunks), where, what)


def read(path, what: str = "game log"):
    """The parsed log at ``path`` (the strict reader of position.py) and its
    :class:`Stamp`."""
    where = str(path)
    fd = _open_regular(str(path), where, what)
    try:
        return _read_fd(fd, where, what), Stamp.of(os.fstat(fd))
    finally:
        os.close(fd)


def _lock(fd: int, path: str, where: str, wait: float) -> bool:
    """Wait for the exclusive lock on ``fd``; False when the file at ``path`` is no
    longer the one locked (another writer replaced it meanwhile: open it again)."""
    if fcntl is None:
        return True
    deadline = time.monotonic() + wait
    pause = 0.005
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise InputError("the game is being changed by another command; nothing written, "
                                 "try again", where) from None
            time.sleep(pause)
            pause = min(pause * 2, 0.05)
        except OSError:  # a file system without locks: the rename still keeps the log whole
            return True
    try:
        now = os.stat(path)
    except OSError:
        return False
    here = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (here.st_dev, here.st_ino)


@contextlib.contextmanager
def locked(path, what: str = "game log", wait: float | None = None):
    """Hold the lock on the log at ``path`` (a link: on the file it points to) while a
    change is made: yields a :class:`Change` holding the log as read under the lock."""
    where = str(path)
    wait = LOCK_WAIT if wait is None else wait
    target = os.path.realpath(path)
    while True:
        fd = _open_regular(target, where, what)
        try:
            if _lock(fd, target, where, wait):
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    try:
        data = _read_fd(fd, where, what)
        yield Change(target, where, data, Stamp.of(os.fstat(fd)))
    finally:
        os.close(fd)   # the lock goes with it


class Change:
    """A log read under its lock (:func:`locked`): ``data``, and :meth:`write` to put
    the changed log in its place."""

    def __init__(self, target, where, data, read_stamp):
        self.target, self.where, self.data, self.stamp = target, where, data, read_stamp

    def write(self, log: dict):
        self.stamp = _put(self.target, dump(log, self.where), self.where, expect=self.stamp)
        return self.stamp


def save(path, log: dict, expect=None, wait: float | None = None):
    """Write ``log`` to ``path`` as the module says. ``expect``: None, the file must not
    be there yet (a new log); :data:`ANY`, whatever is there is replaced (``--force``);
    a :class:`Stamp`, the file must be as it was when read (else refused: it changed;
    a file gone meanwhile is written anew). Returns the new file's stamp."""
    where = str(path)
    wait = LOCK_WAIT if wait is None else wait
    data = dump(log, where)
    target = os.path.realpath(path)
    if expect is None or not os.path.lexists(target):
        return _put(target, data, where, expect=None)
    while True:  # an existing file: replaced under its lock
        fd = _open_regular(target, where, "game log")
        try:
            if _lock(fd, target, where, wait):
                return _put(target, data, where, expect=expect)
        finally:
            os.close(fd)


def _put(target: str, data: bytes, where: str, expect) -> Stamp:
    """Write ``data`` through a unique temporary file beside ``target``, fsync, and
    rename it into place (``expect``: as :func:`save`; the caller holds the lock)."""
    folder = os.path.dirname(target) or "."
    if os.path.isdir(target):
        raise InputError("is a folder, not a game log file", where)
    mode = None
    if expect is not None:
        try:
            st = os.stat(target)
        except FileNotFoundError:
            st = None
        except OSError as e:
            raise _oserror(e, "write the game log", where) from None
        if expect is not ANY and (st is None or Stamp.of(st) != expect):
            raise InputError("the game log was changed by another program since it was read; "
                             "nothing written: read it again", where)
        mode = stat.S_IMODE(st.st_mode) if st is not None else None
    elif os.path.lexists(target):
        raise InputError("already exists: give another file, or --force to write over it", where)
    tmp = os.path.join(folder, f".{os.path.basename(target)[:80]}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    except FileNotFoundError:
        raise InputError("no such folder to write the game log in", where) from None
    except NotADirectoryError:
        raise InputError("its folder is not a folder", where) from None
    except OSError as e:
        raise _oserror(e, "write the game log in its folder", where) from None
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
            written = Stamp.of(os.fstat(fd))
        finally:
            os.close(fd)
        if expect is None:
            _create(tmp, target, where)
        else:
            os.replace(tmp, target)
        _sync_folder(folder)
        return written
    except OSError as e:
        raise _oserror(e, "write the game log", where) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _create(tmp: str, target: str, where: str):
    """Put ``tmp`` at ``target`` only if nothing is there (a hard link: atomic)."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise InputError("already exists: give another file, or --force to write over it", where) from None
    except OSError:  # a file system without hard links: claim the name, then rename
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            raise InputError("already exists: give another file, or --force to write over it", where) from None
        os.replace(tmp, target)


def _sync_folder(folder: str):
    """The rename itself on disk (best effort: not every system opens a folder)."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

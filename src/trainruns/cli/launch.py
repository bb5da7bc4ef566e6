"""The ``trainruns`` command's first lines (the installed script, scripts/trainruns,
and ``python -m trainruns``): hand a ``solve`` to the warm daemon, or run the command
in this process (:mod:`trainruns.cli.main`).

A command the daemon answers costs the interpreter's start, this module, the thin
client (:mod:`trainruns.daemon.client`) and the command's own work in the daemon's
child; nothing else is loaded on that path (tests/test_lazy_imports.py,
tests/daemon/test_daemon.py): modules built into the interpreter (``time`` among
them) and ``_socket``, not ``collections``, ``re`` or ``zlib``. The installed script
does not import ``re`` as the console scripts pip writes do.
"""

import os
import sys

# (CLOCK_MONOTONIC on Linux, the clock the daemon's child reads too; ``time`` is built
# into the interpreter: importing it loads no file)
from time import perf_counter


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


def main():
    """The ``trainruns`` command of this process's command line; its exit status."""
    started = process_start()
    argv = sys.argv[1:]
    if argv == ["--version"]:
        # (what argparse's --version prints, without building the parser)
        from trainruns import __version__

        print(f"trainruns {__version__}")
        return 0
    if argv and argv[0] == "solve":  # the only command the daemon answers (for now);
        # by default: a warm process answers in milliseconds what takes a new one a
        # second of start-up (docs/daemon.md); TRAINRUNS_DAEMON=0 keeps it in-process
        from trainruns.daemon import client

        if client.wanted(argv):
            argv = client.strip_flag(argv)
            code = client.forward(argv, started)
            if code is None:
                # answered here; then a daemon for the next command, if none answers
                from trainruns.cli.main import run_process

                code = run_process(argv, started)
                if client.wants_start:
                    client.start_daemon()
                return code
            # the answer is out: nothing of this process is left to clean up, so skip
            # the interpreter's own teardown (milliseconds of a command that takes a few)
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(code)
    from trainruns.cli.main import run_process

    return run_process(argv, started)

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

import sys

from trainruns.daemon.client import dispatch, process_start


def main():
    """The ``trainruns`` command of this process's command line; its exit status."""
    started = process_start()
    argv = sys.argv[1:]
    if argv == ["--version"]:
        # (what argparse's --version prints, without building the parser)
        from trainruns import __version__

        print(f"trainruns {__version__}")
        return 0
    return dispatch(argv, started, _run_here)


def _run_here(argv, started):
    from trainruns.cli.main import run_process

    return run_process(argv, started)

"""The ``trainruns`` command: subcommands live in :mod:`trainruns.cli`.

Exit status (docs/position-format.md): 0 success, 1 a negative verdict, 2 bad input with
one line on stderr saying what is wrong and where (never a traceback). A warning
(:class:`~trainruns.errors.InputWarning`) is one ``trainruns: warning:`` line.

Building the parser imports only the command modules, which import the search, numba,
OR-Tools and matplotlib inside their ``run``: ``--help`` and ``--version`` stay fast.
"""

import os
import sys
import time

# argparse, the command modules, threading and warnings are loaded by a command run in
# this process, not by one the daemon answers (trainruns.cli.launch,
# trainruns.daemon.client)


class _UsageError(Exception):
    pass


def _parser_class():
    import argparse

    class _Parser(argparse.ArgumentParser):
        def error(self, message):
            # argparse's own usage errors are bad input too: one line, exit 2
            raise _UsageError(message)

    return _Parser


# parsers built in this process, by the command they parse (None: every command)
_PARSERS = {}


def build_parser(only=None):
    """The parser of every command, or of command ``only`` alone (what a command run
    needs: building the others costs it time). Built once per process and kept: the
    daemon's spare child builds the solve parser before its command comes
    (daemon.server.prepare), so the command does not (argparse looks up its message
    catalogues on disk for each help string)."""
    from trainruns.cli import COMMANDS

    key = only if only in COMMANDS else None
    if key not in _PARSERS:
        _PARSERS[key] = _new_parser(key)
    return _PARSERS[key]


def _new_parser(only):
    import importlib

    from trainruns import __version__
    from trainruns.cli import COMMANDS

    _Parser = _parser_class()
    parser = _Parser(prog="trainruns", description="Proven-optimal train runs for 18xx games.")
    parser.add_argument("--version", action="version", version=f"trainruns {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in [only] if only in COMMANDS else COMMANDS:
        try:
            module = importlib.import_module(f"{__package__}.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"{__package__}.{name}":
                continue  # a command not written yet
            raise
        module.register(sub)
    return parser


def main(argv=None):
    """The ``trainruns`` command ``argv`` (without the program name) run in this
    process, its clock started now. Without ``argv``: this process's command line as
    the installed command runs it (a ``solve`` goes to the daemon), for an installation
    whose ``trainruns`` is still pip's console-script wrapper; scripts/trainruns and
    ``python -m trainruns`` start at :func:`trainruns.cli.launch.main`."""
    if argv is not None:
        return _run(argv, time.perf_counter(), process=False)
    from trainruns.daemon.client import dispatch, process_start

    return dispatch(sys.argv[1:], process_start(), run_process)


def run_process(argv, started):
    """The command ``argv`` as a whole process runs it (Ctrl-C ends the process),
    its clock started at ``started`` (``time.perf_counter``): the ``trainruns``
    command, and the daemon's child that answers one (trainruns.daemon.server)."""
    return _run(argv, started, process=True)


def _run(argv, started, process):
    from trainruns.cli import LAST_WORDS

    if process:
        import signal

        _finishing()  # made before any Ctrl-C: the handler's watchdog thread shares it
        signal.signal(signal.SIGINT, _on_sigint)
    try:
        return _main(argv, started)
    except KeyboardInterrupt:
        return _interrupted(exit_now=process)
    finally:
        LAST_WORDS.clear()


_SIGNALLED = []
_FINISHING = None
# Ctrl-C is answered within this long even when the KeyboardInterrupt is lost (raised
# inside a ctypes callback of numba's compiler, Python only prints that it was ignored)
_GRACE = 0.4


def _on_sigint(signum, frame):
    """Python's own Ctrl-C, remembered (a library whose start-up it interrupts may turn
    the KeyboardInterrupt into another error: OR-Tools raises ImportError), with a
    watchdog that ends the command if the interruption does not reach :func:`main`."""
    import threading

    first = not _SIGNALLED
    _SIGNALLED.append(signum)
    if first:
        threading.Thread(target=_watchdog, daemon=True).start()
        raise KeyboardInterrupt
    # a second Ctrl-C: the first is being answered (the watchdog sees to it)


def _finishing():
    """The lock of the one that says the last line (the watchdog or :func:`_interrupted`)."""
    global _FINISHING
    if _FINISHING is None:
        import threading

        _FINISHING = threading.Lock()
    return _FINISHING


def _watchdog():
    time.sleep(_GRACE)
    if _finishing().acquire(blocking=False):
        _last_line()
        os._exit(130)


def _interrupted(exit_now=False):
    """Ctrl-C, at any moment: what the command still has to say (its LAST_WORDS), one
    line, exit 130. A kernel still running on a helper thread would keep the process
    alive, so then (and for a real command) it ends at once."""
    import threading

    if not _finishing().acquire(blocking=False):
        # the watchdog is saying it already
        time.sleep(_GRACE + 1)
        os._exit(130)
    _last_line()
    if exit_now or threading.active_count() > 1:
        os._exit(130)
    _finishing().release()
    return 130


def _last_line():
    from trainruns.cli import LAST_WORDS

    for fn in list(LAST_WORDS):
        try:
            fn()
        except Exception:  # what it could not print is lost; the line below is not
            pass
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    sys.stderr.write("trainruns: interrupted\n")
    sys.stderr.flush()


def _main(argv, started):
    import warnings

    from trainruns.errors import InputError, InputWarning, one_line

    # a command named first needs its own parser only; anything else (--help, a typo)
    # gets them all, for the list of commands
    parser = build_parser(argv[0] if argv else None)
    try:
        args = parser.parse_args(argv)
    except _UsageError as e:
        sys.stderr.write(f"trainruns: error: {one_line(e)}\n")
        return 2
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    args.started = started
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("default", InputWarning)
            warnings.showwarning = _show_warning
            return args.func(args) or 0
    except InputError as e:
        sys.stderr.write(f"trainruns: error: {one_line(e)}\n")
        return 2
    except BrokenPipeError:
        return 0
    except Exception as e:  # a bug, not bad input: still one line, but say so
        if _SIGNALLED:
            raise KeyboardInterrupt from e
        if os.environ.get("TRAINRUNS_DEBUG"):
            raise
        sys.stderr.write(f"trainruns: internal error ({type(e).__name__}: {one_line(e)}); "
                         "set TRAINRUNS_DEBUG=1 for the traceback and please report it\n")
        return 3


def _show_warning(message, category, filename, lineno, file=None, line=None):
    from trainruns.errors import InputWarning

    # only ours: a library's warning (numba's, say) is not the user's business
    if issubclass(category, InputWarning):
        from trainruns.errors import one_line

        sys.stderr.write(f"trainruns: warning: {one_line(message)}\n")


if __name__ == "__main__":
    sys.exit(main())

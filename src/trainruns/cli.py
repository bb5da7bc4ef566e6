"""The ``trainruns`` command: subcommands live in :mod:`trainruns.commands`.

Exit status (../shared/CONTRACT.md): 0 success, 1 a negative verdict, 2 bad input with
one line on stderr saying what is wrong and where (never a traceback). A warning
(:class:`~trainruns.errors.InputWarning`) is one ``trainruns: warning:`` line.

Building the parser imports only the command modules, which import the search, numba,
OR-Tools and matplotlib inside their ``run``: ``--help`` and ``--version`` stay fast.
"""

import argparse
import importlib
import os
import sys
import warnings

from . import __version__
from .errors import InputError, InputWarning
from .commands import COMMANDS


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        # argparse's own usage errors are bad input too: one line, exit 2
        raise _UsageError(message)


def build_parser():
    parser = _Parser(prog="trainruns", description="Proven-optimal train runs for 18xx games.")
    parser.add_argument("--version", action="version", version=f"trainruns {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"{__package__}.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"{__package__}.commands.{name}":
                continue  # a command not written yet
            raise
        module.register(sub)
    return parser


def main(argv=None):
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as e:
        sys.stderr.write(f"trainruns: error: {e}\n")
        return 2
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("default", InputWarning)
            warnings.showwarning = _show_warning
            return args.func(args) or 0
    except InputError as e:
        sys.stderr.write(f"trainruns: error: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("trainruns: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # a bug, not bad input: still one line, but say so
        if os.environ.get("TRAINRUNS_DEBUG"):
            raise
        sys.stderr.write(f"trainruns: internal error ({type(e).__name__}: {e}); "
                         "set TRAINRUNS_DEBUG=1 for the traceback and please report it\n")
        return 3


def _show_warning(message, category, filename, lineno, file=None, line=None):
    # only ours: a library's warning (numba's, say) is not the user's business
    if issubclass(category, InputWarning):
        sys.stderr.write(f"trainruns: warning: {message}\n")


if __name__ == "__main__":
    sys.exit(main())

"""One module per subcommand of the ``trainruns`` command.

Each module has ``register(subparsers)``, which adds its subparser and sets
``func=run`` on it; ``run(args)`` returns the exit status (0 ok, 1 negative verdict)
and raises :class:`~trainruns.errors.InputError` on bad input (exit 2).
"""

COMMANDS = ["solve", "audit", "draw", "whatif", "bench", "play", "replay", "serve", "daemon"]

# what a running command still prints when Ctrl-C ends it (the best run so far of a
# solve with a time limit); trainruns.cli.main calls them, once, before its last line
LAST_WORDS = []


def on_interrupt(fn):
    """Have ``fn()`` called if Ctrl-C ends the running command."""
    LAST_WORDS.append(fn)


def seconds(text):
    """argparse type of ``--time-limit``: a positive number of seconds (anything else is
    a usage error: one line, exit 2)."""
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value > 0 and math.isfinite(value)):  # nan, inf, 0 and below are no time limit
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds, not {text}")
    return value


def add_time_limit(parser, help):
    parser.add_argument("--time-limit", type=seconds, metavar="SECONDS", help=help)


def memory_size(text):
    """argparse type of ``--memory``: bytes, or a number with K, M or G (powers of 1024;
    :func:`trainruns.route.limits.memory_size`, which ``solve``'s ``memory`` takes too)."""
    import argparse

    from trainruns.route.limits import memory_size as size

    try:
        return size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_memory(parser):
    parser.add_argument("--memory", type=memory_size, metavar="SIZE", default=None,
                        help="memory the search may take (default 2G); past it the best run found "
                             "is given with an upper bound, not proven")


def whole(text):
    """argparse type of a whole number: ASCII digits with an optional minus sign, as the
    numbers inside names are (docs/custom-map.md "Limits"); Python's ``int`` would also
    read other scripts' digits, ``1_000``, ``+5`` and spaces."""
    import argparse
    import re

    if not (text.isascii() and re.fullmatch(r"-?[0-9]+", text)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (ASCII digits)")
    return int(text)


def workers_count(text):
    """argparse type of ``--workers``: a whole number of processes, 1 or more."""
    import argparse

    try:
        value = whole(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of worker processes") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"needs at least 1 worker, not {value}")
    return value


def add_scale_out(parser):
    """``--workers N`` and ``--scheduler ADDRESS`` (trainruns.services.sweep; docs/cluster.md)."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=workers_count, default=1, metavar="N",
                       help="run on N local worker processes (forked from this one; default 1: this process)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on the Dask cluster whose scheduler listens at ADDRESS (tcp://host:8786; "
                            "docs/cluster.md)")

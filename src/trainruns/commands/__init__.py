"""One module per subcommand of the ``trainruns`` command.

Each module has ``register(subparsers)``, which adds its subparser and sets
``func=run`` on it; ``run(args)`` returns the exit status (0 ok, 1 negative verdict)
and raises :class:`~trainruns.errors.InputError` on bad input (exit 2).
"""

COMMANDS = ["solve", "audit", "draw", "whatif", "bench", "play", "replay", "serve"]


def seconds(text):
    """argparse type of ``--time-limit``: a positive number of seconds (anything else is
    a usage error: one line, exit 2)."""
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def add_time_limit(parser, help):
    parser.add_argument("--time-limit", type=seconds, metavar="SECONDS", help=help)

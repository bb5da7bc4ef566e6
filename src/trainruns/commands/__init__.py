"""One module per subcommand of the ``trainruns`` command.

Each module has ``register(subparsers)``, which adds its subparser and sets
``func=run`` on it; ``run(args)`` returns the exit status (0 ok, 1 negative verdict)
and raises :class:`~trainruns.errors.InputError` on bad input (exit 2).
"""

COMMANDS = ["solve", "audit", "draw", "whatif", "bench"]

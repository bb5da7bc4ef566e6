"""The one error type bad input raises.

Every check on a position, a map or a declaration raises :class:`InputError` with a
message that says *what* is wrong and *where* (file, field, hex). The command turns it
into one line on stderr and exit status 2; the Python API lets it propagate.
"""


class InputError(ValueError):
    """Bad input: malformed JSON, unknown hex, tile or train, illegal rotation, ...

    ``where`` names the place (``"tokens[2]"``, ``"hex G22"``), ``what`` the problem.
    """

    def __init__(self, what: str, where: str | None = None):
        self.what = what
        self.where = where
        super().__init__(f"{where}: {what}" if where else what)


class InputWarning(UserWarning):
    """Input that is valid but almost surely not what was meant (a company with no token
    on the map). The command prints it as one ``trainruns: warning:`` line on stderr and
    still answers."""

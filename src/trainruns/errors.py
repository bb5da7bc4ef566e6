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


class StaleVersion(InputError):
    """A request for a version of the game that is no longer the current one: the
    asker (a page) is behind the game, not wrong (the table page answers 409, as it
    answers a decision taken on an old version)."""

    def __init__(self, version, current):
        super().__init__(f"version {version} is not the current one ({current}): the game has moved on", "version")


class InputWarning(UserWarning):
    """Input that is valid but almost surely not what was meant (a company with no token
    on the map). The command prints it as one ``trainruns: warning:`` line on stderr and
    still answers."""


def one_line(text: str) -> str:
    """``text`` as one line of a terminal: control and format characters (a newline,
    an escape, a right-to-left override) shown escaped, never acted on."""
    import unicodedata

    out = []
    for ch in str(text):
        cat = unicodedata.category(ch)
        if cat[0] == "C" or cat in ("Zl", "Zp"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)

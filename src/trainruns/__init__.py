"""trainruns: proven-optimal train runs for 18xx games.

Data flows one way: ``load_position`` (parse, apply the title's rules) -> Board ->
``compile_board`` (flat arrays) -> route enumeration and train assignment (numba
kernels) -> :class:`Run`.
"""

import sys
import types

from .errors import InputError

# The rest is loaded on first use (PEP 562): the command line starts without numba and
# numpy, so Ctrl-C in its first moments is already handled by trainruns.cli.
_LAZY = {"AuditResult": "audit", "audit": "audit", "Board": "board", "Bonus": "board", "Hex": "board",
         "Stop": "board", "Train": "board", "load_position": "position", "Route": "result", "Run": "result",
         "solve": "search"}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Package(types.ModuleType):
    """``trainruns.audit`` is the function, as when it was imported eagerly: loading the
    submodule of the same name must not replace it."""

    def __setattr__(self, name, value):
        if name == "audit" and isinstance(value, types.ModuleType):
            value = value.audit
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

__all__ = ["solve", "audit", "AuditResult", "load_position", "Board", "Hex", "Stop", "Train", "Bonus", "Run", "Route",
           "InputError"]
__version__ = "0.1.0"

"""trainruns: proven-optimal train runs for 18xx games.

Data flows one way: ``load_position`` (parse, apply the title's rules) -> Board ->
``compile_board`` (flat arrays) -> route enumeration and train assignment (numba
kernels) -> :class:`Run`.

The names below are loaded on first use (PEP 562), so that ``import trainruns`` and
``trainruns --help`` do not pay for numba, OR-Tools and matplotlib.
"""

import sys

__version__ = "0.1.0"

_WHERE = {
    "solve": "load", "audit": "audit", "AuditResult": "audit", "load_position": "load",
    "Board": "board", "Bonus": "board", "Hex": "board", "Stop": "board", "Train": "board",
    "Run": "result", "Route": "result", "InputError": "errors",
}

__all__ = ["solve", "audit", "AuditResult", "load_position", "Board", "Hex", "Stop", "Train", "Bonus", "Run", "Route",
           "InputError"]


def __getattr__(name):
    if name in _WHERE:
        # (__import__, not importlib: the daemon's client imports this package, and
        # importlib would load warnings too)
        module = f"{__name__}.{_WHERE[name]}"
        __import__(module)
        value = getattr(sys.modules[module], name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + __all__)


class _Package(type(sys)):
    """Importing the submodule ``trainruns.audit`` would bind the name ``audit`` to the
    module; the package's ``audit`` is the function (as before the names were lazy)."""

    def __setattr__(self, name, value):
        if name in _WHERE and isinstance(value, type(sys)):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

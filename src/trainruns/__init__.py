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
    "solve": "titles.load", "audit": "services.audit", "AuditResult": "services.audit",
    "load_position": "titles.load", "Board": "route.board", "Bonus": "route.board", "Hex": "route.board",
    "Stop": "route.board", "Train": "route.board", "Run": "route.result", "Route": "route.result",
    "InputError": "errors", "Game": "game.game", "Refusal": "game.errors", "new_log": "game.log",
    "read_log": "game.log", "format_run": "cli.solve", "draw_board": "services.draw",
    "rank_tiles": "services.whatif", "rank_tokens": "services.whatif", "rank_trains": "services.whatif",
    "audited_run": "services.declared", "caption_for": "services.declared", "save_drawing": "services.draw:save",
}

__all__ = ["solve", "audit", "AuditResult", "load_position", "Board", "Hex", "Stop", "Train", "Bonus", "Run", "Route",
           "InputError", "Game", "Refusal", "new_log", "read_log",
           "format_run", "draw_board", "rank_tiles", "rank_tokens", "rank_trains", "audited_run", "caption_for",
           "save_drawing"]


def __getattr__(name):
    if name in _WHERE:
        # (__import__, not importlib: the daemon's client imports this package, and
        # importlib would load warnings too)
        where, _, attribute = _WHERE[name].partition(":")
        module = f"{__name__}.{where}"
        __import__(module)
        value = getattr(sys.modules[module], attribute or name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + __all__)

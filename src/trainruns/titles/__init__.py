"""The shipped titles. Each lives in its own package beside this file:

- ``data/``: the title's facts as plain JSON (map, tiles, trains, phases, companies);
- ``rules.py``: the hooks that turn a position of the title into a core
  :class:`~trainruns.board.Board` (values by phase, title bonuses, restrictions);
- later, the title's game state (stock and operating rounds) beside them.

The core never asks which title it runs: a title hands it a Board.
"""

import importlib

from ..errors import InputError

# Title name in a position file -> package.
TITLES = {"1831": "g1831", "1832": "g1832", "1833NE": "g1833ne"}
_ALIASES = {"1832: The South": "1832", "1833ne": "1833NE", "1833": "1833NE"}


def names():
    return list(TITLES)


def get(name, where=None):
    """The title object (with ``build_board(data, where)``) for a title name."""
    key = _ALIASES.get(name, name) if isinstance(name, str) else name
    if key not in TITLES:
        raise InputError(f"unknown title {name!r} (shipped: {', '.join(TITLES)})", where)
    try:
        module = importlib.import_module(f"{__name__}.{TITLES[key]}")
    except ModuleNotFoundError:
        raise InputError(f"title {key} is not available in this version of trainruns", where) from None
    return module.TITLE

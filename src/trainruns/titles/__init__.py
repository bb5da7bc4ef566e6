"""The shipped titles. Each lives in its own package beside this file:

- ``data/``: the title's facts as plain JSON (map, tiles, trains, phases, companies);
- ``rules.py``: the hooks that turn a position of the title into a core
  :class:`~trainruns.route.board.Board` (values by phase, title bonuses, restrictions);
- later, the title's game state (stock and operating rounds) beside them.

The core never asks which title it runs: a title hands it a Board. What a title
declares is :class:`.base.Title`; a position with its own ``map`` is the custom title
(:mod:`.custom`).
"""

import importlib
import json

from trainruns.errors import InputError

# Title name in a position file -> package.
TITLES = {"1831": "g1831", "1832": "g1832", "1833NE": "g1833ne"}
_ALIASES = {"1832: The South": "1832", "1833ne": "1833NE", "1833": "1833NE"}


def get(name, where=None):
    """The :class:`~.base.Title` of a shipped title's name."""
    key = _ALIASES.get(name, name) if isinstance(name, str) else name
    if key not in TITLES:
        raise InputError(f"unknown title {name!r} (shipped: {', '.join(TITLES)})", where)
    try:
        module = importlib.import_module(f"{__name__}.{TITLES[key]}")
    except ModuleNotFoundError:
        raise InputError(f"title {key} is not available in this version of trainruns", where) from None
    return module.TITLE


def of_position(data: dict, where: str = "position"):
    """The :class:`~.base.Title` a position dict runs under: its ``title``, or the
    custom title when it carries its own ``map``."""
    title = data.get("title")
    if title is None:
        if "map" not in data:
            raise InputError("a position needs a 'title' or a 'map'", where)
        return importlib.import_module(f"{__name__}.custom").TITLE
    if not isinstance(title, str):
        raise InputError(f"field 'title' must be a title name ({', '.join(TITLES)}), "
                         f"not {json.dumps(title)[:40]}", where)
    return get(title, where)


def of_board(board):
    """The :class:`~.base.Title` a Board was built by (``board.title``; empty: custom)."""
    if not board.title:
        return importlib.import_module(f"{__name__}.custom").TITLE
    return get(board.title)

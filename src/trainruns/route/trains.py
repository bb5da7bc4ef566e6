"""Train names of the plain rules (docs/custom-map.md) and what they may run.

- ``"N"``: 2 to N stops, every stop counts. ``"99"`` (any N at least the number of
  stops on the board) has unlimited reach.
- ``"N/M"``: 2 to M stops, the best N count (and must include a token city).
- ``"N+S"``: at most N stops that are not towns, at most N+S in all, all count.
"""

import re

from trainruns.errors import InputError
from trainruns.route.board import Train

UNLIMITED = 1 << 20

_PLAIN = re.compile(r"^(\d+)$")
_COUNT_OF = re.compile(r"^(\d+)/(\d+)$")
_PLUS = re.compile(r"^(\d+)\+(\d+)$")


def parse_train(name, where=None) -> Train:
    """Turn a train name of the plain rules into a :class:`Train`."""
    if not isinstance(name, str):
        raise InputError(f"train {name!r} is not a train name (a string such as '3', '4/6' or '2+2')", where)
    if m := _PLAIN.match(name):
        n = int(m.group(1))
        _at_least_one(n, name, where)
        return Train(name, n, n, n)
    if m := _COUNT_OF.match(name):
        n, visit = int(m.group(1)), int(m.group(2))
        _at_least_one(n, name, where)
        if visit < n:
            raise InputError(f"train {name!r} visits fewer stops ({visit}) than it counts ({n})", where)
        return Train(name, visit, n, visit)
    if m := _PLUS.match(name):
        n, towns = int(m.group(1)), int(m.group(2))
        _at_least_one(n, name, where)
        return Train(name, n + towns, n + towns, n)
    raise InputError(f"unknown train {name!r} (expected 'N', 'N/M' or 'N+S', such as '3', '4/6', '2+2')", where)


def _at_least_one(n, name, where):
    if n < 1:
        raise InputError(f"train {name!r} must reach at least one stop", where)

"""Shared helpers of the 1833NE tests: load a fixture of fixtures/1833NE and solve it."""

import copy
import json
import os

from trainruns import solve

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "1833NE")


def fixture(name, **changes):
    """A fresh copy of fixtures/1833NE/NAME.json with top-level fields replaced."""
    with open(os.path.join(FIXTURES, f"{name}.json"), encoding="utf-8") as fh:
        pos = json.load(fh)
    pos = copy.deepcopy(pos)
    pos.update(changes)
    return pos


def run(pos):
    """(revenue, [(train, stop labels, revenue)]) of the proven best run."""
    r = solve(pos)
    assert r.optimal
    return r.revenue, [(x.train, x.stop_labels(), x.revenue) for x in r.routes]

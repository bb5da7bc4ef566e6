"""A custom-map position (docs/custom-map.md) loads in one pass: the Board read is the
one built, equal to the Board built from its checked snapshot, and refused alike."""

import copy
import glob
import json
import os

import pytest

from trainruns.errors import InputError
from trainruns.titles.custom import TITLE

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
POSITIONS = sorted(glob.glob(os.path.join(ROOT, "fixtures", "real", "*.json"))) + \
    [os.path.join(ROOT, "fixtures", "custom", "example.json")]


def _load(path):
    with open(path) as fh:
        return json.load(fh)


@pytest.mark.parametrize("path", POSITIONS, ids=os.path.basename)
def test_one_pass_board_is_the_snapshots_board(path):
    data = _load(path)
    one, two = TITLE.build_board(data, path), TITLE.build(TITLE.read_position(copy.deepcopy(data), path))
    assert one == two and any(s.tokens for hx in one.hexes.values() for s in hx.stops)
    assert (one.phases, one.axes, one.trains) == (two.phases, two.axes, two.trains)


@pytest.mark.parametrize("bad", [
    {"tokens": [{"hex": "ZZ99", "stop": 0, "corporation": "X"}]},
    {"tokens": "none"},
    {"trains": [7.5]},
    {"phase": "99"},
])
def test_one_pass_refuses_as_the_snapshot_does(bad):
    """docs/custom-map.md, "Tokens" and "Trains": the same first fault, the same words."""
    data = dict(_load(POSITIONS[0]), **bad)
    with pytest.raises(InputError) as one:
        TITLE.build_board(copy.deepcopy(data), "p")
    with pytest.raises(InputError) as two:
        TITLE.read_position(copy.deepcopy(data), "p")
    assert str(one.value) == str(two.value)

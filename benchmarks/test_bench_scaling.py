"""Scaling: 10 to 90 track hexes, 1 to 4 trains, train sizes 2 to 12 and unlimited."""

import pytest
from boards import scaling


@pytest.mark.parametrize("name,pos", scaling(), ids=[n for n, _ in scaling()])
def test_scaling(record, name, pos):
    record(pos, time_limit=20.0)

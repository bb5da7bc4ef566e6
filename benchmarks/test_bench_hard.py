"""The hard late-game family (trainruns.generate.hard_board): 10^4 to 10^6+ routes."""

import pytest

from boards import hard


@pytest.mark.parametrize("name,pos", hard(), ids=[n for n, _ in hard()])
def test_hard(record, name, pos):
    record(pos, time_limit=20.0)

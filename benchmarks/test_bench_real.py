"""The shipped positions: the boards from real play (fixtures/real), then the other fixtures."""

import pytest
from boards import shipped


@pytest.mark.parametrize("name,path", shipped(), ids=[n for n, _ in shipped()])
def test_real(record, name, path):
    row, run = record(path)
    assert run.optimal

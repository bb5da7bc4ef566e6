import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(HERE))


@pytest.fixture(scope="session", autouse=True)
def _kernels_ready():
    """Compile (or load) the kernels once, so no single test pays for it."""
    from trainruns.kernels import warm_up

    warm_up()

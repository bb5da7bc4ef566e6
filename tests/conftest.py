import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# the shared helpers (boards, the title helpers) sit here, and a test may import another
# test's helpers by its module name wherever it sits (test file names are unique)
sys.path[:0] = [str(HERE)] + sorted(str(d) for d in HERE.rglob("*") if d.is_dir() and d.name != "__pycache__" and d.name != "data")
# the commands the tests run answer in-process and start no daemon behind them (a
# `trainruns solve` goes to one by default); tests/daemon/test_daemon.py asks for its own
os.environ["TRAINRUNS_DAEMON"] = "0"


@pytest.fixture(scope="session", autouse=True)
def _kernels_ready():
    """Compile (or load) the kernels once, so no single test pays for it."""
    from trainruns.route.kernels import warm_up

    warm_up()


@pytest.fixture(scope="module")
def driver():
    """One headless Chromium per test module for the page's browser tests
    (serve_helpers.chromium: Debian's, skipped with the reason when it is missing)."""
    from serve_helpers import chromium, close

    d = chromium()
    yield d
    close(d)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """One ``trainruns serve --games FOLDER`` per test module (serve_helpers.Table)."""
    from serve_helpers import Table

    t = Table(tmp_path_factory.mktemp("games"))
    yield t
    t.stop()

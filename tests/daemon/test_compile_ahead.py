"""The daemon's spare reads the last command's position ahead and compiles its board
(trainruns.cli.solve.read_ahead): a command of the same file then answers with that
compile, which must be the compile it would have made itself (docs/daemon.md: the same
output as in-process), and is used only where its limits could not have cut it."""

import glob
import os
from types import SimpleNamespace

import numpy as np
import pytest

from trainruns.cli import solve as cli_solve
from trainruns.route.compile import compile_board
from trainruns.route.limits import Limits
from trainruns.route.search import solve
from trainruns.titles.load import load_position

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
REAL = sorted(glob.glob(os.path.join(ROOT, "fixtures", "real", "*.json")))


@pytest.fixture
def ahead():
    yield
    cli_solve._READ_AHEAD[:] = []


def _arrays(compiled):
    return {k: v for k, v in vars(compiled).items() if isinstance(v, np.ndarray)}


@pytest.mark.parametrize("path", REAL[::4], ids=os.path.basename)
def test_the_compile_ahead_is_the_commands_own(ahead, path):
    cli_solve.read_ahead(["solve", "--quiet", path], os.getcwd())
    board, compiled = cli_solve._read_ahead_board(path)
    assert compiled is not None and compiled.board is board
    own = compile_board(load_position(path), Limits(None, None), own_only=True)
    assert compiled.paths == own.paths and compiled.n_bits == own.n_bits and compiled.complete
    mine, theirs = _arrays(compiled), _arrays(own)
    assert mine.keys() == theirs.keys() and all(np.array_equal(mine[k], theirs[k]) for k in mine)
    got, want = solve(board, compiled=compiled), solve(load_position(path))
    assert (got.revenue, got.optimal, [r.stops for r in got.routes]) == \
        (want.revenue, want.optimal, [r.stops for r in want.routes])


def test_no_compile_ahead_when_a_command_comes(ahead):
    path = REAL[0]
    cli_solve.read_ahead(["solve", path], os.getcwd(), waiting=lambda: True)
    assert cli_solve._read_ahead_board(path)[1] is None


def test_a_cut_or_large_walk_is_not_kept(ahead, monkeypatch):
    """A walk its limits cut, or one with as many chains as the smallest budget keeps,
    could differ under the command's own limits: it is compiled by the command."""
    board = load_position(REAL[0])
    assert cli_solve._compile_ahead(board) is not None
    monkeypatch.setattr(cli_solve, "COMPILE_AHEAD_CHAINS", 10)
    assert cli_solve._compile_ahead(board) is None
    monkeypatch.undo()
    monkeypatch.setattr(cli_solve, "COMPILE_AHEAD_SECONDS", -1.0)
    monkeypatch.setattr("trainruns.route.compile.MIN_STEPS", 0)
    monkeypatch.setattr("trainruns.route.compile.CHECK_STEPS", 1)
    assert cli_solve._compile_ahead(board) is None


@pytest.mark.parametrize("option", [("time_limit", 30.0), ("memory", 2 << 30)])
def test_a_command_with_its_own_limits_compiles_itself(ahead, monkeypatch, option):
    path = REAL[0]
    cli_solve.read_ahead(["solve", path], os.getcwd())
    seen = []
    monkeypatch.setattr("trainruns.route.search.solve", lambda board, **kw: seen.append(kw["compiled"]) or
                        solve(board, **kw))
    monkeypatch.setattr(cli_solve, "show", lambda *a: None)
    args = dict(position=path, time_limit=None, memory=None, quiet=True, engine="auto", json=False)
    cli_solve.run(SimpleNamespace(**args))
    cli_solve.run(SimpleNamespace(**dict(args, **dict([option]))))
    assert seen[0] is not None and seen[1] is None

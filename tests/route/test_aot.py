"""The kernels compiled ahead of time (trainruns.route.kernels.aot: a whole in-process solve
without importing numba), the core's and 1831's route model's, against the numba
kernels they are compiled from: the same answers, bit for bit, on every shipped
position and on 1831 boards that take every 1831 kernel (each call replayed on the
numba kernel); the same argument types as the callers pass (no call falls back); the
GIL released as ``nogil`` does (a listing on a thread is stopped from another thread);
a module of other code never loaded; a build that cannot be done recorded once, the
numba kernels answering."""

import os
import shutil
import subprocess
import threading
import warnings

import numpy as np
import pytest

from test_1831_bound import flow_weakened  # noqa: F401 (a fixture)
from trainruns import load_position
from trainruns.errors import InputError, InputWarning
from trainruns.route import kernels
from trainruns.route.compile import compile_board
from trainruns.route.kernels import aot
from trainruns.route.search import solve
from trainruns.titles.g1831.route import kernels as kernels_1831

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
NAMES = [name for _, name, _ in aot.EXPORTS]
NAMES_1831 = [name for module, name, _ in aot.EXPORTS if module == aot.G1831]


def _face(name):
    """The module callers take kernel ``name`` from."""
    return kernels_1831 if name in NAMES_1831 else kernels


def _positions():
    out = []
    for folder, _, files in sorted(os.walk(os.path.join(ROOT, "fixtures"))):
        if "games" in folder.split(os.sep):
            continue  # game logs, not positions
        out += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".json")]
    return out


POSITIONS = _positions()
MODULE = aot.load() or aot.build()  # (a fresh clone: built here, at collection, once)
needs_module = pytest.mark.skipif(MODULE is None, reason=f"no compiled module here: {aot.failed()}")


def _board(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        try:
            return load_position(path)
        except InputError:
            return None  # a fixture of bad input (tests/position/test_bad_input*.py)


def _answer(board):
    got = solve(board).to_json()
    got.pop("seconds", None)
    return got


@needs_module
@pytest.mark.parametrize("path", POSITIONS, ids=[os.path.relpath(p, ROOT) for p in POSITIONS])
def test_compiled_and_numba_kernels_answer_the_same(monkeypatch, path):
    board = _board(path)
    if board is None:
        pytest.skip("bad input")
    fell_back = []

    def entry(name):
        def fallback():
            fell_back.append(name)
            return kernels._jit(name)

        return aot.checked(name, getattr(MODULE, name), fallback)

    for name in NAMES:
        monkeypatch.setattr(_face(name), name, entry(name), raising=False)
    compiled = _answer(board)
    assert fell_back == []  # every call had the types the module was compiled for
    for name in NAMES:
        monkeypatch.setattr(_face(name), name, kernels._jit(name), raising=False)
    assert _answer(board) == compiled  # revenue, routes, bound, candidates, search nodes


def _copy(x):
    if isinstance(x, np.ndarray):
        return x.copy()
    if isinstance(x, tuple):
        return tuple(_copy(v) for v in x)
    return x


def _same(a, b):
    """Equal bit for bit: arrays by dtype, shape and bytes; tuples item by item."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype
                and a.shape == b.shape and a.tobytes() == b.tobytes())
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b


@pytest.fixture
def recorded_1831(monkeypatch):
    """1831's kernels taken from the compiled module, each call recorded: its
    arguments before, what it returned, its arguments after (the kernels write into
    them); a call that would fall back to numba recorded apart."""
    calls, fell_back = [], []

    def entry(name):
        def fallback():
            fell_back.append(name)
            return kernels._jit(name)

        compiled = aot.checked(name, getattr(MODULE, name), fallback)

        def call(*args):
            before = _copy(args)
            out = compiled(*args)
            calls.append((name, before, _copy(out), _copy(args)))
            return out

        return call

    for name in NAMES_1831:
        monkeypatch.setattr(kernels_1831, name, entry(name), raising=False)
    return calls, fell_back


def _board_paths(monkeypatch):
    """1831 boards that take each 1831 kernel: listing and valuing paths with a bought
    right to cover (board_1831 cut to 20 hexes), the assignment by value classes, and
    random typed boards with rights and commuter runs."""
    from boards1831 import random_commuter_position, random_position

    from trainruns.services.generate import board_1831
    from trainruns.titles.g1831.route import model as model_1831

    solve(load_position(board_1831(0, n_hexes=20, own_tokens=8)))
    monkeypatch.setattr(model_1831, "BY_VALUE", True)
    solve(load_position(board_1831(1, n_hexes=20, own_tokens=8, rights=False)))
    monkeypatch.setattr(model_1831, "BY_VALUE", False)
    for pos in [random_position(s) for s in range(6)] + [random_commuter_position(500 + s) for s in range(6)]:
        try:
            solve(load_position(pos))
        except InputError:
            pass  # no run covers the bought rights (5.6.5): said so, after the kernels ran


def _replayed_on_numba(calls):
    """Each recorded call run again by the numba kernel on copies of its arguments:
    the names whose answers differ (empty: none)."""
    differ = []
    for name, before, out, after in calls:
        args = _copy(before)
        got = kernels._jit(name)(*args)
        if not (_same(got, out) and all(_same(a, b) for a, b in zip(args, after))):
            differ.append(name)
    return differ


@needs_module
def test_1831_compiled_and_numba_kernels_answer_the_same(recorded_1831, monkeypatch, request):
    calls, fell_back = recorded_1831
    _board_paths(monkeypatch)
    # the priced proof (bound.py's token lines and reach, the priced walk and
    # assign_priced): the flow model's run weakened, as tests/titles/g1831/test_1831_bound.py does
    from trainruns.services.generate import board_1831

    weakened = request.getfixturevalue("flow_weakened")
    solve(load_position(board_1831(0, n_hexes=20, own_tokens=8, rights=False)))
    assert weakened == [True]
    assert fell_back == []  # every call had the types the module was compiled for
    assert sorted({name for name, *_ in calls}) == sorted(NAMES_1831)  # each kernel taken
    assert _replayed_on_numba(calls) == []


@needs_module
def test_the_estimate_is_the_same_bit_for_bit():
    # the random walks of kernels.estimate: numba's own generator, seeded, in both
    from trainruns.services.generate import hard_board

    c = compile_board(load_position(hard_board(1, n_hexes=40)))
    seen = []
    for root in np.flatnonzero(c.stop_own):
        args = (int(root), c.adj_ptr, c.chain_to, c.chain_bits, c.stop_passable, c.stop_own, c.stop_town,
                8, 8, 200, int(root))
        a, b = MODULE.estimate_routes(*args), kernels._jit("estimate_routes")(*args)
        assert np.float64(a).tobytes() == np.float64(b).tobytes()
        seen.append(a)
    assert len([a for a in seen if a > 1000 and a != int(a)]) >= 2  # (walks that went somewhere)


@needs_module
def test_arguments_of_other_types_go_to_the_numba_kernel():
    # the module's entries would read any int64-sized data as int64: open_bound is the
    # largest bound of the open nodes down to depth d
    depth, best = np.array([2]), np.array([5])
    strided = np.array([9, -1, 3, -1, 7, -1])[::2]  # [9, 3, 7], not contiguous
    calls = []

    def fallback():
        calls.append(1)
        return kernels._jit("open_bound")

    bound = aot.checked("open_bound", MODULE.open_bound, fallback)
    assert bound(depth, strided, best) == 9 and calls == [1]
    assert bound(depth, strided.astype(np.float64).astype(np.int64), best) == 9 and calls == [1]
    assert bound(depth, np.array([1.0, 30.0, 2.0]), best) == 30 and calls == [1, 1]
    readonly = np.array([4, 3, 8])
    readonly.flags.writeable = False
    assert bound(depth, readonly, best) == 8 and calls == [1, 1, 1]


@needs_module
def test_a_listing_on_a_thread_is_stopped_from_another():
    # enumeration._in_threads relies on it: the kernel runs without the GIL, the caller
    # sets stop[0] (a deadline, Ctrl-C). 842,656,757 routes of at most 12 stops here:
    # listed whole, 26 s; holding the GIL, the kernel would list them all before the
    # caller could set the flag
    from trainruns.services.generate import hard_board

    c = compile_board(load_position(hard_board(0, n_hexes=90, trains=("12",))))
    roots = np.flatnonzero(c.stop_own).astype(np.int64)
    z = lambda n: np.zeros(n, np.int64)  # noqa: E731
    stop, started, out = z(1), threading.Event(), []

    def listing():
        started.set()
        out.append(kernels.enumerate_routes(roots, c.adj_ptr, c.chain_to, c.chain_bits, c.stop_passable,
                                            c.stop_own, c.stop_town, 12, c.n_stops, z(2), z(1), z(1), z(1),
                                            np.zeros((1, c.words), np.uint64), 10 ** 12, stop))

    assert kernels.enumerate_routes.__doc__.endswith("(trainruns.route.kernels.aot)")
    t = threading.Thread(target=listing, daemon=True)
    t.start()
    started.wait()
    stop[0] = 1
    t.join()
    assert 0 < out[0] < 842_656_757


def test_the_key_follows_the_kernels_and_the_compiler(tmp_path, monkeypatch):
    # a module built from other code is never loaded: its name carries what it was built from
    before = aot.key()
    copy = tmp_path / "kernels"
    shutil.copytree(aot.HERE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(aot, "HERE", str(copy))
    assert aot.key() == before
    routes = copy / "routes.py"
    routes.write_text(routes.read_text() + "\n# changed\n")
    changed = aot.key()
    assert changed != before
    monkeypatch.setattr(aot, "_stamp", lambda package: f"{package} 9.9".encode())
    assert aot.key() not in (before, changed)


def test_the_key_follows_1831s_kernels(tmp_path, monkeypatch):
    # 1831's kernels are compiled into the same module: a change to them (or to the
    # constants they take from kernel_arrays.py) is a module of other code
    before = aot.key()
    titles = tmp_path / "titles" / "g1831" / "route"
    titles.mkdir(parents=True)
    files = ("kernels.py", "numba_kernels.py", "kernel_arrays.py")
    for name in files:
        shutil.copy(os.path.join(aot.PACKAGE, "titles", "g1831", "route", name), titles / name)
    monkeypatch.setattr(aot, "PACKAGE", str(tmp_path))
    assert aot.key() == before
    seen = {before}
    for name in ("numba_kernels.py", "kernel_arrays.py", "kernels.py"):
        path = titles / name
        path.write_text(path.read_text().replace("NEG", "NEG ", 1))
        assert aot.key() not in seen
        seen.add(aot.key())


def test_a_build_that_fails_is_recorded_and_the_numba_kernels_answer(tmp_path, monkeypatch):
    # no C compiler here (CC=false): the build fails once, is not tried again for this
    # code, and nothing loads
    monkeypatch.setattr(aot, "folder", lambda: str(tmp_path))
    monkeypatch.setattr(aot, "_module", False)
    monkeypatch.setenv("CC", "false")
    assert aot.build() is None
    why = aot.failed()
    assert why is not None and why.startswith("exit ")
    assert aot.load() is None
    monkeypatch.setattr("subprocess.run", lambda *a, **k: pytest.fail("built again"))
    assert aot.build() is None
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".so")] == []


def test_off_keeps_to_numba(monkeypatch):
    monkeypatch.setenv("TRAINRUNS_AOT", "0")
    monkeypatch.setattr(aot, "_module", False)
    assert aot.load() is None and aot.build() is None


def test_the_build_compiles_this_package_whatever_else_is_on_the_path(tmp_path, monkeypatch):
    # the module is named by this code's key, so the build's own process must import
    # this very package, not another trainruns a PYTHONPATH or an install puts first
    # (a second checkout run beside an installed one compiled the installed kernels)
    seen = {}

    def run(argv, **kw):
        seen.update(argv=argv, env=kw["env"])
        return subprocess.CompletedProcess(argv, 1)

    monkeypatch.setattr(aot, "folder", lambda: str(tmp_path))
    monkeypatch.setattr(aot, "_module", False)
    monkeypatch.setenv("PYTHONPATH", "/elsewhere/src")
    monkeypatch.setattr("subprocess.run", run)
    assert aot.build() is None
    assert seen["env"]["PYTHONPATH"].split(os.pathsep) == [os.path.dirname(aot.PACKAGE), "/elsewhere/src"]
    assert seen["argv"][1:3] == ["-m", "trainruns.route.kernels.aot_build"]

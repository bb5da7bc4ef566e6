"""What a command loads: a plain solve imports neither OR-Tools, matplotlib
nor networkx (they serve other engines and commands), nor numba once the kernels are
compiled ahead of time (trainruns.route.kernels.aot, 1831's too), nor jsonschema for a valid position
(trainruns.position.schema's acceptor), `--help` and `--version` not even numpy, and the daemon's thin client nothing beyond the interpreter's built-in modules
(tests/daemon/test_daemon.py runs it against a daemon). Checked in a fresh interpreter, on
sys.modules after the command ran."""

import ast
import json
import os
import subprocess
import sys

import pytest

from trainruns.position.schema import _acceptor
from trainruns.route.kernels import aot

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
KO = os.path.join(ROOT, "fixtures", "real", "1889-3-6-KO-160.json")
T1832 = os.path.join(ROOT, "fixtures", "1832", "12-phase8-last-values-brown-cities.json")
T1831 = os.path.join(ROOT, "fixtures", "1831", "example.json")
HEAVY = ("ortools", "matplotlib", "networkx", "distributed", "dask")

PROBE = """
import io, json, sys, contextlib
from trainruns.cli.main import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        code = main({argv!r})
    except SystemExit as e:
        code = e.code
roots = sorted({{m.split(".")[0] for m in sys.modules}})
print(json.dumps({{"code": code, "out": out.getvalue(), "roots": roots}}))
"""


def _probe(argv):
    p = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], capture_output=True, text=True,
                       timeout=600, cwd=ROOT)
    return json.loads(p.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("path", [KO, T1832, T1831])
def test_a_plain_solve_loads_no_other_engine(path):
    got = _probe(["solve", "--json", "--quiet", path])
    assert got["code"] == 0
    assert json.loads(got["out"])["optimal"] is True
    assert "numpy" in got["roots"]  # (the probe sees real imports: the search ran)
    assert [m for m in HEAVY if m in got["roots"]] == []
    if _acceptor("custom") is not None:
        # a valid position passes the compiled acceptor (trainruns.position.schema): no jsonschema
        assert "jsonschema" not in got["roots"]
    if aot.load() is not None:
        # the kernels compiled ahead of time answer, 1831's route model's among them:
        # numba is not even imported
        assert "numba" not in got["roots"]


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["solve", "--help"]])
def test_help_and_version_load_no_search(argv):
    got = _probe(argv)
    assert got["code"] == 0 and "trainruns" in got["out"]
    assert [m for m in ("numpy", "numba", "jsonschema") + HEAVY if m in got["roots"]] == []


def test_the_daemon_client_loads_only_the_standard_library():
    """The path of a solve the daemon answers (the installed script, trainruns.cli.launch,
    the thin client, and what the client computes before it connects: the socket's path
    and its interpreter's identity): no module beyond the interpreter's built-in ones,
    ``_socket`` (a C extension) and these five of the package; not ``re`` (pip's
    console-script wrapper imports it), not ``collections`` (a named tuple), not ``zlib``
    (a shared library: the digests are Python's own hash of an int)."""
    code = ("import sys; sys.argv = ['trainruns', 'solve', '--daemon', 'x.json']\n"
            "before = set(sys.modules)\n"
            "from trainruns.cli.launch import main\n"
            "from trainruns.daemon import client\n"
            "client.socket_path(), client.interpreter()\n"
            "print(sorted(set(sys.modules) - before))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    loaded = ast.literal_eval(p.stdout)
    from trainruns.daemon.server import CLIENT_MODULES  # (the daemon compiles these for the client)

    assert [m for m in loaded if m.startswith("trainruns")] == [
        "trainruns", "trainruns.cli", "trainruns.cli.launch", "trainruns.daemon", "trainruns.daemon.client"]
    assert sorted(CLIENT_MODULES) == [m for m in loaded if m.startswith("trainruns")]
    others = [m for m in loaded if not m.startswith("trainruns") and m not in sys.builtin_module_names]
    assert others == ["_socket"]
    assert [m for m in ("re", "collections", "zlib", "enum", "functools", "numpy", "json", "argparse", "socket")
            if m in loaded] == []


def test_the_installed_script_imports_only_the_launcher():
    """scripts/trainruns (pyproject.toml's script-files): ``sys``, ``os`` (the
    interpreter's start has loaded it: site imports it) and the launcher, no ``re`` as
    pip's console-script wrapper has."""
    with open(os.path.join(ROOT, "scripts", "trainruns")) as fh:
        tree = ast.parse(fh.read())
    imported = sorted({alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
                      | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)})
    assert imported == ["os", "sys", "trainruns.cli.launch"]

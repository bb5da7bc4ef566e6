"""A company with no token of its own on the map (docs/position-format.md: every route starts from
one of its tokens): a position given from outside is answered, with one warning line,
since a slip in ``tokens`` is the likely cause; a game engine's own position is a
normal state before the company operates and is not warned about (load.py)."""

import copy
import json
import os
import subprocess
import sys
import warnings

import pytest

from trainruns.errors import InputWarning
from trainruns.titles.load import load_engine_position, load_position

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "custom", "example.json")


def tokenless():
    with open(EXAMPLE, encoding="utf-8") as fh:
        data = json.load(fh)
    data = copy.deepcopy(data)
    data["tokens"] = [dict(t, corporation="B") for t in data["tokens"]]  # someone else's
    data.pop("expected_revenue", None)
    return data


def test_a_position_from_outside_is_warned_about():
    with pytest.warns(InputWarning, match="A has no token of its own"):
        load_position(tokenless())


def test_the_same_position_from_an_engine_is_not():
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputWarning)
        board = load_engine_position(tokenless())
    assert board.corporation == "A"


def test_the_command_answers_with_one_warning_line(tmp_path):
    path = tmp_path / "tokenless.json"
    path.write_text(json.dumps(tokenless()))
    env = dict(os.environ, TRAINRUNS_DAEMON="0")
    proc = subprocess.run([sys.executable, "-m", "trainruns", "solve", str(path), "--json", "--quiet"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("trainruns: warning:") and "no token of its own" in lines[0]
    assert json.loads(proc.stdout)["revenue"] == 0  # no route can start without a token

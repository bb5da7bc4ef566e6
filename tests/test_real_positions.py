"""Every board from real play (fixtures/real), and
every shipped fixture with an expected revenue, solves to its known best revenue, proven."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from trainruns import solve

REAL = sorted((ROOT / "fixtures" / "real").glob("*.json"))
FIXTURES = sorted(p for p in (ROOT / "fixtures").rglob("*.json")
                  if "expected_revenue" in json.loads(p.read_text()))  # fixtures/real included


def test_real_positions_are_present():
    assert len(REAL) >= 20, "expected the real positions in fixtures/real"


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_known_best_revenue(path):
    expected = json.loads(Path(path).read_text())["expected_revenue"]
    run = solve(path)
    assert run.revenue == expected
    assert run.optimal


def test_edge_reuse_1850_763():
    """docs/position-format.md: a hex side is crossed once per route; the plain optimum of this
    board must not cross the I14/J13 side twice."""
    path = ROOT / "fixtures" / "real" / "1850-115810-763.json"
    run = solve(path)
    for route in run.routes:
        crossings = [h for h, _ in route.track if h in ("I14", "J13")]
        assert len(crossings) <= 2


@pytest.mark.parametrize("path", REAL[:3], ids=lambda p: p.name)
def test_command_json_matches_contract(path):
    out = subprocess.run([sys.executable, "-m", "trainruns", "solve", str(path), "--json"],
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert data["revenue"] == json.loads(path.read_text())["expected_revenue"]
    assert data["optimal"] is True
    assert sum(r["revenue"] for r in data["routes"]) == data["revenue"]
    for r in data["routes"]:
        assert all("." in s for s in r["stops"]) and len(r["stops"]) >= 2

"""Every board from real play in ../shared/positions/real, and every shipped fixture
with an expected revenue, solves to its known best revenue, proven."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, SHARED
from trainruns import solve

REAL = sorted((SHARED / "positions" / "real").glob("*.json"))
FIXTURES = sorted(p for p in (ROOT / "fixtures").rglob("*.json")
                  if "expected_revenue" in json.loads(p.read_text()))


def test_shared_positions_are_present():
    assert len(REAL) >= 20, f"expected the shared real positions in {SHARED}"


@pytest.mark.parametrize("path", REAL + FIXTURES, ids=lambda p: p.name)
def test_known_best_revenue(path):
    expected = json.loads(Path(path).read_text())["expected_revenue"]
    run = solve(path)
    assert run.revenue == expected
    assert run.optimal


def test_edge_reuse_1850_763():
    """CONTRACT.md: a hex side is crossed once per route; the plain optimum of this
    board must not cross the I14/J13 side twice."""
    path = SHARED / "positions" / "real" / "1850-115810-763.json"
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

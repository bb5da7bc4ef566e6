"""whatif's best tile lay equals the best found by laying every tile at every rotation
and solving each, on each title's fixtures and on grown
random 1832 boards. Legality in the oracle (tests/lay_oracle.py) comes from the routes
of the independent brute force, not from trainruns' reach: 1832 rulebook "Laying
Track" (some new track on a route of the company, or for an upgrade a town or city of
the tile on one)."""

import json

import pytest
from conftest import ROOT
from lay_oracle import best_legal_lay, track_of

from test_1832_random import grown
from test_1832_whatif import ATLANTA
from trainruns import titles
from trainruns.services.whatif import rank_tiles_full

FIXTURES = [ROOT / "fixtures/1832" / n for n in ("worked_example.json", "06-phase3-atlanta-distinct-cities.json",
                                                  "10-phase4-cotton-for-its-owner.json")]
FIXTURES += sorted((ROOT / "fixtures/1833NE").glob("*.json"))


def check(data):
    tiled = titles.get(data["title"]).facts.tiled
    best, legal = best_legal_lay(data, tiled)
    ranking = rank_tiles_full(data)
    listed = {(m.move["hex"], m.move["tile"], track_of(_with(data, m.move), m.move["hex"])): m
              for m in ranking.moves}
    # every lay the oracle finds legal is listed, and nothing the title refuses is
    assert legal <= set(listed)
    assert ranking.rejected == 0
    # a listed lay on no route only extends track: it cannot change the best run
    for key, m in listed.items():
        if key not in legal:
            assert m.revenue == ranking.base.revenue, m.label()
    top = ranking.moves[0].revenue if ranking.moves else None
    assert top == (ranking.base.revenue if best is None else max(best, ranking.base.revenue)
                   if any(k not in legal for k in listed) else best)


def _with(data, move):
    return dict(data, tiles=list(data.get("tiles", [])) + [{k: move[k] for k in ("hex", "tile", "rotation")}])


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_best_lay_on_fixtures_equals_laying_every_tile(path):
    data = json.loads(path.read_text())
    data.pop("expected_revenue", None)
    check(data)


def test_best_lay_on_yellow_atlanta_equals_laying_every_tile():
    """Yellow Atlanta (F10) with the GRR's city away from Columbus: no #190 rotation
    earns anything for it (whatif once moved its token to Columbus's side: 50)."""
    check(dict(ATLANTA, corporation="GRR"))


@pytest.mark.parametrize("seed", [0, 1, 4])
def test_best_lay_on_grown_1832_boards_equals_laying_every_tile(seed):
    check(grown(seed))

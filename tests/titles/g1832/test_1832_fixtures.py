"""1832 fixtures: each real-map position's best run, checked by hand (see its notes)."""

import glob
import json
import os

import pytest

import trainruns

HERE = os.path.dirname(os.path.abspath(__file__))


def _checked(path):
    # Other positions may live beside the hand-checked ones (the notebook's worked
    # example); only those carrying an expected revenue are fixtures of this test.
    with open(path) as fh:
        return "expected_revenue" in json.load(fh)


FIXTURES = [p for p in sorted(glob.glob(os.path.join(HERE, "..", "..", "..", "fixtures", "1832", "*.json"))) if _checked(p)]


def test_there_are_a_dozen_fixtures():
    assert len(FIXTURES) >= 12


@pytest.mark.parametrize("path", FIXTURES, ids=[os.path.basename(p)[:-5] for p in FIXTURES])
def test_fixture_best_revenue_is_the_hand_checked_one(path):
    with open(path) as fh:
        data = json.load(fh)
    assert data["notes"] and data["title"] == "1832"
    run = trainruns.solve(trainruns.load_position(path))
    assert run.optimal
    assert run.revenue == data["expected_revenue"], data["notes"]

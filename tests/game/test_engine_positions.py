"""The positions a game engine hands the route core are not schema-checked on every
action (:func:`trainruns.titles.load.load_engine_position`: the walk cost more than the
solve); this is the check that they need not be. Every position the engines of 1831,
1832 and 1833NE build during a seeded random game is validated here against its
title's JSON Schema (trainruns/schema/position-*.json, docs/position-format.md "Position file"),
and a position from outside is still refused as before."""

import json

import pytest

import trainruns.titles.load
from trainruns import load_position, titles
from trainruns.errors import InputError
from trainruns.game import route_adapter
from trainruns.game.selfplay import play
from trainruns.position.schema import check


@pytest.fixture
def every_engine_position(monkeypatch):
    """Schema-check (as :func:`load_position` does) each position the engines hand over;
    returns the positions seen and the problems."""
    seen, problems = [], []
    real = trainruns.titles.load.load_engine_position
    real_from = trainruns.titles.load.load_engine_position_from

    def check_one(data, where):
        seen.append(data.get("title"))
        title = titles.of_position(data, where)
        try:
            check(data, title.schema or title.name, where)
        except InputError as e:
            problems.append(f"{e}: {json.dumps(data)[:200]}")

    def checked(data, where="game position"):
        check_one(data, where)
        return real(data, where)

    def checked_from(reading, data, where="game position"):
        # a position read on its map's reading (1831: Title.read_apart)
        check_one(data, where)
        return real_from(reading, data, where)

    monkeypatch.setattr(trainruns.titles.load, "load_engine_position", checked)
    monkeypatch.setattr(trainruns.titles.load, "load_engine_position_from", checked_from)
    route_adapter.clear()   # (positions earlier tests asked about would not be read again)
    yield seen, problems
    route_adapter.clear()


@pytest.mark.parametrize("title,players,seed,actions", [
    ("1832", ["A", "B", "C", "D"], 1001, 400),
    ("1833NE", ["A", "B", "C"], 3, 300),
    ("1831", ["A", "B", "C", "D"], 5, 300),
])
def test_every_position_an_engine_builds_fits_the_schema(every_engine_position, title, players, seed, actions):
    seen, problems = every_engine_position
    _game, game_problems, _n = play(title, players, seed, max_actions=actions)
    assert game_problems == []
    assert seen, f"the {title} game asked the route core nothing in {actions} actions"
    assert set(seen) == {title}
    assert problems == []


def test_engine_path_still_checks_the_titles_rules():
    """Only the schema walk is skipped: the title's own rules still refuse a position
    (1832 rules: a tile that is not in the title's manifest)."""
    good = {"title": "1832", "phase": "2", "corporation": "ACL", "trains": ["2"], "tiles": [], "tokens": []}
    trainruns.titles.load.load_engine_position(good)
    with pytest.raises(InputError, match="9999"):
        trainruns.titles.load.load_engine_position(dict(good, tiles=[{"hex": "E9", "tile": "9999", "rotation": 0}]))


def test_a_position_from_outside_is_still_schema_checked():
    """The CLI's and the library's load_position keep the full check (a misspelled key)."""
    bad = {"title": "1832", "phase": "2", "corporation": "ACL", "trains": ["2"], "tokens": [],
           "tiles": [{"hex": "E9", "tile": "9", "rotaton": 0}]}
    with pytest.raises(InputError, match="rotaton"):
        load_position(bad)

"""The fast acceptor of trainruns.position.schema (jsonschema_rs: a valid position is
checked without importing jsonschema) never passes what jsonschema refuses: on every
shipped file, under every schema, and on mutations of each (a value of the wrong type
at a node, a key removed, an unknown key added: the bad inputs of
tests/position/test_bad_input_mutations.py, here at many more places). What it refuses, and
jsonschema too, still gets jsonschema's one line (tests/position/test_bad_input*.py)."""

import copy
import json
import random

import pytest
from conftest import ROOT
from test_bad_input_mutations import WRONG, nodes

from trainruns.position import schema

FILES = sorted(p for p in (ROOT / "fixtures").rglob("*.json") if "games" not in p.parts)  # games: logs
KINDS = list(schema.SCHEMAS)
MUTATIONS_PER_FILE = 120

pytestmark = pytest.mark.skipif(schema._acceptor("custom") is None, reason="jsonschema_rs is not installed")


def _valid(data, kind):
    return schema._validator(kind).is_valid(data)


def _mutations(data, rng):
    places = [p for p, _ in nodes(data)]
    for path in rng.sample(places, min(len(places), MUTATIONS_PER_FILE)):
        parent = data
        for p in path[:-1]:
            parent = parent[p]
        for wrong in rng.sample(WRONG, 3):
            out = copy.deepcopy(data)
            target = out
            for p in path[:-1]:
                target = target[p]
            target[path[-1]] = copy.deepcopy(wrong)
            yield out
        if isinstance(parent, dict):
            out = copy.deepcopy(data)
            target = out
            for p in path[:-1]:
                target = target[p]
            del target[path[-1]]
            yield out
            target["no_such_field"] = 1  # (free at the top level: valid there)
            yield out


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_the_acceptor_passes_nothing_jsonschema_refuses(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    rng = random.Random(str(path.relative_to(ROOT)))
    # the file itself, under every schema: the same verdict both ways
    for kind in KINDS:
        assert schema.accepts(data, kind) == _valid(data, kind), kind
    refused = 0
    for mutated in _mutations(data, rng):
        for kind in KINDS:
            if schema.accepts(mutated, kind):
                assert _valid(mutated, kind), (kind, mutated)
            else:
                refused += 1
    assert refused > 0  # (the mutations were bad input)


def test_what_the_acceptor_cannot_read_goes_to_jsonschema():
    # a number far beyond 64 bits: not accepted (no error either); jsonschema judges it
    data = json.loads((ROOT / "fixtures" / "custom" / "example.json").read_text(encoding="utf-8"))
    data["trains"] = [10 ** 400]
    assert schema.accepts(data, "custom") is False
    with pytest.raises(schema.InputError, match=r"trains\[0\]"):
        schema.check(data, "custom", "example.json")

"""The JSON Schemas of the input files ("Publish the schemas as JSON Schema
files in the package, so that editors can check and complete position files").

They are shipped in the package (src/trainruns/position/schema/) and copied to docs/schema/ for
editors; every shipped position fits its schema; each is a valid draft 2020-12 schema.
"""

import json
from importlib import resources

import pytest
from conftest import ROOT
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from trainruns.errors import InputError
from trainruns.position.schema import SCHEMAS, bundled, check, schema_files

DOCS = ROOT / "docs" / "schema"
FIXTURES = sorted(p for p in (ROOT / "fixtures").rglob("*.json") if "games" not in p.parts)  # games: logs


def test_every_schema_is_shipped_and_copied_to_docs():
    shipped = {p.name for p in resources.files("trainruns.position.schema").iterdir() if p.name.endswith(".json")}
    # game configs (game-<title>-config.json) are checked by their game, not by check()
    games = {n for n in shipped if n.startswith("game-")}
    assert set(SCHEMAS.values()) | {"common.json"} | games == shipped
    for name in shipped:
        assert json.loads((DOCS / name).read_text()) == schema_files()[name], f"docs/schema/{name} is stale"


@pytest.mark.parametrize("name", sorted(schema_files()))
def test_schemas_are_valid_draft_2020_12(name):
    Draft202012Validator.check_schema(schema_files()[name])


def kind_of(data):
    """The schema a position needs, by its title (docs/position-format.md: a title, else a map)."""
    title = data.get("title")
    return {"1832": "1832", "1833NE": "1833NE", "1831": "1831", None: "custom"}[title]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fixture_fits_its_schema(path):
    data = json.loads(path.read_text())
    check(data, kind_of(data), str(path))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_inlined_schema_agrees_with_the_files_an_editor_reads(path):
    """The checker validates a copy with the $refs inlined; an editor reads the files
    with their $refs. Both accept the fixture, and both refuse it with a typo inside."""
    data = json.loads(path.read_text())
    name = SCHEMAS[kind_of(data)]
    registry = Registry().with_resources((n, Resource.from_contents(c)) for n, c in schema_files().items())
    editor = Draft202012Validator(schema_files()[name], registry=registry)
    checker = Draft202012Validator(bundled(name))
    assert editor.is_valid(data) and checker.is_valid(data)
    tokens = data["tokens"]
    if tokens:
        tokens[0]["corporaton"] = tokens[0].pop("corporation")
        assert not editor.is_valid(data) and not checker.is_valid(data)


def test_a_declaration_fits_its_schema():
    check({"routes": [{"train": "3", "stops": ["D20.0", "A21.0"], "hexes": ["D20", "C21"]}]}, "declared", "d")
    with pytest.raises(InputError, match="routes.0.: unknown field 'stop' .did you mean 'stops'"):
        check({"routes": [{"train": "3", "stop": ["D20.0"]}]}, "declared", "d")


def test_editors_may_name_the_schema_in_the_file(tmp_path, capsys):
    """A top-level "$schema" (for editors) is a free top-level field."""
    from trainruns.cli.main import main

    data = json.loads((ROOT / "fixtures" / "custom" / "example.json").read_text())
    data["$schema"] = "../../docs/schema/position-custom.json"
    (tmp_path / "p.json").write_text(json.dumps(data))
    assert main(["solve", str(tmp_path / "p.json"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["revenue"] == data["expected_revenue"]

"""Mutated positions: every fixture, with a misspelled key at every depth, an unknown
key in every object, each field removed and values of the wrong type, must give either a
valid answer (exit 0, the JSON of docs/position-format.md) or bad input: exit 2 and
exactly one line on stderr (docs/position-format.md, "Commands and exit status"). Never
exit 3 ("internal error"), never a traceback, never a second line.

Top-level fields the project does not use are free (docs/position-format.md, "Position
file"), so the mutations leave those alone; inside any object an unknown key must be
refused, naming the object's place in the file.

The CLI runs in-process (``trainruns.cli.main.main``) for speed; a few mutated files also go
through a real ``python -m trainruns`` process.
"""

import copy
import json
import random
import subprocess
import sys

import pytest
from conftest import ROOT

from trainruns.cli.main import main

FIXTURES = sorted(p for p in (ROOT / "fixtures").rglob("*.json") if "games" not in p.parts)  # games: logs
# docs/position-format.md's examples of top-level fields a position may carry unused
FREE = {"notes", "source", "expected_revenue", "declared_revenue", "router_revenue"}
# what a position cannot do without (docs/position-format.md "Position file")
REQUIRED = ("corporation", "trains", "tokens")
# objects whose keys are data, not field names: a value or amount by phase
KEYED_BY_PHASE = ("value", "amount")
WRONG = [[], [1, [2]], {}, {"a": 1}, "x", "٣", "²", "Z99", -1, 2 ** 62, 10 ** 30, 1.5, None, True]
OBJECTS_PER_FILE = 8    # objects whose keys are misspelled / removed / added to
VALUES_PER_FILE = 10    # nodes replaced by values of the wrong type
WRONG_PER_VALUE = 3


def nodes(data, path=()):
    """Every (path, value) under the known top-level fields, depth first."""
    if isinstance(data, dict):
        for k, v in data.items():
            if path or k not in FREE:
                yield path + (k,), v
                yield from nodes(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield path + (i,), v
            yield from nodes(v, path + (i,))


def where(path):
    """The place as the error line writes it: map.hexes[3].stops[0]."""
    text = ""
    for p in path:
        text += f"[{p}]" if isinstance(p, int) else (f".{p}" if text else p)
    return text


def get(data, path):
    for p in path:
        data = data[p]
    return data


def typo(key, taken):
    """A plausible misspelling of ``key`` (a letter dropped), not itself a key here."""
    t = key[:-2] + key[-1] if len(key) > 2 else key + "x"
    return t if t not in taken else key + "_"


def solve(tmp_path, capsys, data):
    path = tmp_path / "mutated.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    status = main(["solve", str(path), "--json", "--quiet", "--time-limit", "5"])
    out, err = capsys.readouterr()
    return status, out, err


def assert_answer_or_one_line(result, label):
    status, out, err = result
    assert "Traceback" not in err, label
    if status == 0:
        answer = json.loads(out)
        assert isinstance(answer["revenue"], int) and answer["revenue"] >= 0, label
        assert all(line.startswith("trainruns: warning: ") for line in err.splitlines()), (label, err)
    else:
        assert status == 2, (label, status, err)
        assert out == "" and err.count("\n") == 1 and err.startswith("trainruns: error: "), (label, err)


def mutations(data, rng):
    """(label, mutated position, expected: 'unknown' / 'missing' / None for either)."""
    all_nodes = list(nodes(data))
    objects = [(p, v) for p, v in all_nodes if isinstance(v, dict)]
    for p, obj in rng.sample(objects, min(OBJECTS_PER_FILE, len(objects))):
        fields = p[-1] not in KEYED_BY_PHASE
        for key in list(obj):
            d = copy.deepcopy(data)
            target = get(d, p)
            target[typo(key, target)] = target.pop(key)
            yield f"{where(p)}: {key} misspelled", d, ("unknown-or-missing", p) if fields else None
            d = copy.deepcopy(data)
            get(d, p).pop(key)
            yield f"{where(p)}: {key} removed", d, None
        d = copy.deepcopy(data)
        get(d, p)["bogus"] = 1
        yield f"{where(p)}: bogus key", d, ("unknown", p) if fields else None
    for key in REQUIRED:
        if key in data:
            d = copy.deepcopy(data)
            d[typo(key, d)] = d.pop(key)
            yield f"top-level {key} misspelled", d, ("missing", ())
    values = rng.sample(all_nodes, min(VALUES_PER_FILE, len(all_nodes)))
    for p, _ in values:
        for wrong in rng.sample(WRONG, WRONG_PER_VALUE):
            d = copy.deepcopy(data)
            parent = get(d, p[:-1])
            parent[p[-1]] = copy.deepcopy(wrong)
            yield f"{where(p)} = {json.dumps(wrong, ensure_ascii=False)}", d, None


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_mutated_positions_exit_0_or_2_with_one_line(fixture, tmp_path, capsys):
    data = json.loads(fixture.read_text())
    rng = random.Random(fixture.name)
    count = 0
    for label, mutated, expect in mutations(data, rng):
        result = solve(tmp_path, capsys, mutated)
        assert_answer_or_one_line(result, label)
        if expect is not None:
            kind, p = expect
            status, _, err = result
            assert status == 2, label
            assert where(p) in err, (label, err)
            if kind == "unknown":
                assert "unknown field 'bogus'" in err, (label, err)
            elif kind == "missing":
                assert "missing field" in err, (label, err)
            else:
                assert "unknown field" in err or "missing field" in err, (label, err)
        count += 1
    assert count >= 20  # hundreds in all, over the fixtures


def test_misspelled_key_names_the_key_it_resembles(tmp_path, capsys):
    """The hint is the nearest known key of that object (difflib), e.g. corporatio."""
    data = json.loads((ROOT / "fixtures" / "1832" / "worked_example.json").read_text())
    data["tokens"][0]["corporatoin"] = data["tokens"][0].pop("corporation")
    _, _, err = solve(tmp_path, capsys, data)
    assert "tokens[0]: unknown field 'corporatoin' (did you mean 'corporation'?)" in err


@pytest.mark.parametrize("fixture", [ROOT / "fixtures" / "custom" / "example.json",
                                     ROOT / "fixtures" / "1833NE" / "boston_montreal.json",
                                     ROOT / "fixtures" / "1831" / "example.json"], ids=lambda p: p.parent.name)
def test_mutated_files_through_a_real_process(fixture, tmp_path):
    """The same guarantee from the installed command, in its own process."""
    data = json.loads(fixture.read_text())
    rng = random.Random(1)
    chosen = [m for m in mutations(data, rng) if m[2] is not None][:2]
    for i, (label, mutated, _) in enumerate(chosen):
        path = tmp_path / f"m{i}.json"
        path.write_text(json.dumps(mutated))
        out = subprocess.run([sys.executable, "-m", "trainruns", "solve", str(path), "--json"],
                             capture_output=True, text=True)
        assert out.returncode == 2 and out.stdout == "", label
        assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, (label, out.stderr)

"""Strict input: every defect seen by the outside checks, one test each. Bad input exits
2 with one line on stderr saying what and where (docs/position-format.md, "Commands and
exit status"; errors.py); never exit 3 ("internal error"), never a traceback, never an
answer that silently ignored part of the position.

Top-level fields of a position stay free (docs/position-format.md, "Position file": fields the
project does not use are ignored); inside every object an unknown key is an error.
"""

import json
import subprocess
import sys

import pytest
from conftest import ROOT

from trainruns.cli.main import main

WORKED = ROOT / "fixtures" / "1832" / "worked_example.json"       # total 110 (rulebook example)
CUSTOM = ROOT / "fixtures" / "custom" / "example.json"
B_M = ROOT / "fixtures" / "1833NE" / "boston_montreal.json"
EX1831 = ROOT / "fixtures" / "1831" / "example.json"


def load(path):
    return json.loads(path.read_text())


def run(tmp_path, capsys, data=None, raw=None, command="solve", extra=()):
    """Run the CLI in-process on a position (dict or raw text): (status, out, err)."""
    path = tmp_path / "pos.json"
    if raw is None:
        raw = json.dumps(data)
    path.write_bytes(raw if isinstance(raw, bytes) else raw.encode())
    argv = [command, str(path), *extra] + (["--json"] if command == "solve" else [])
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def assert_bad(result, *words):
    status, out, err = result
    assert status == 2, (status, out, err)
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("trainruns: error: ") and "Traceback" not in err, err
    for w in words:
        assert w in err, err
    return err


# --- silent wrong answers from a typo ----------------------------------------


def test_worked_example_is_110(tmp_path, capsys):
    status, out, _ = run(tmp_path, capsys, load(WORKED))
    assert status == 0 and json.loads(out)["revenue"] == 110


def test_misspelled_rotation_is_refused_with_a_hint(tmp_path, capsys):
    """Was: `"rotaton": 2` ignored, rotation 0 taken, "total 60 proven optimal"."""
    data = load(WORKED)
    tile = data["tiles"][0]
    tile["rotaton"] = tile.pop("rotation")
    assert_bad(run(tmp_path, capsys, data), "pos.json: tiles[0]:", "unknown field 'rotaton'",
               "did you mean 'rotation'?")


def test_misspelled_paths_and_slots_are_refused(tmp_path, capsys):
    data = load(CUSTOM)
    data["map"]["hexes"][0]["path"] = data["map"]["hexes"][0].pop("paths")
    assert_bad(run(tmp_path, capsys, data), "map.hexes[0]:", "unknown field 'path'", "did you mean 'paths'?")
    data = load(CUSTOM)
    stop = data["map"]["hexes"][0]["stops"][0]
    stop["slot"] = stop.pop("slots")
    assert_bad(run(tmp_path, capsys, data), "map.hexes[0].stops[0]:", "did you mean 'slots'?")


def test_tokens_misspelled_or_missing(tmp_path, capsys):
    """Was: a top-level "tokns", or no tokens, gave "total 0 proven optimal"."""
    data = load(WORKED)
    data["tokns"] = data.pop("tokens")
    assert_bad(run(tmp_path, capsys, data), "missing field 'tokens'", "'tokns' a typo")
    data.pop("tokns")
    assert_bad(run(tmp_path, capsys, data), "missing field 'tokens'")


def test_trains_required(tmp_path, capsys):
    data = load(CUSTOM)
    data.pop("trains")
    assert_bad(run(tmp_path, capsys, data), "missing field 'trains'")


def test_custom_map_needs_its_layout(tmp_path, capsys):
    """Was: no "layout" quietly meant flat."""
    data = load(CUSTOM)
    data["map"].pop("layout")
    assert_bad(run(tmp_path, capsys, data), "pos.json: map:", "missing field 'layout'")


def test_top_level_fields_stay_free(tmp_path, capsys):
    """docs/position-format.md: unused top-level fields are ignored, not errors."""
    data = dict(load(WORKED), source="a game", declared_revenue=100, anything={"x": [1]})
    status, out, _ = run(tmp_path, capsys, data)
    assert status == 0 and json.loads(out)["revenue"] == 110


def test_negative_stop_value(tmp_path, capsys):
    data = load(CUSTOM)
    data["map"]["hexes"][0]["stops"][0]["value"] = -30
    assert_bad(run(tmp_path, capsys, data), "map.hexes[0].stops[0].value", "-30")


def test_company_without_token_is_warned_and_answered(tmp_path, capsys):
    data = dict(load(WORKED), tokens=[])
    status, out, err = run(tmp_path, capsys, data)
    assert status == 0 and json.loads(out)["revenue"] == 0
    assert err.count("\n") == 1 and err.startswith("trainruns: warning:") and "SALR has no token" in err


def test_company_with_token_is_not_warned(tmp_path, capsys):
    status, _, err = run(tmp_path, capsys, load(WORKED))
    assert status == 0 and "warning" not in err


def test_declared_run_unknown_key(tmp_path, capsys):
    declared = tmp_path / "declared.json"
    declared.write_text(json.dumps({"routes": [{"train": "3", "stops": ["D20.0", "A21.0"], "hexs": ["D20"]}]}))
    status = main(["audit", str(WORKED), str(declared)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "declared.json: routes[0]: unknown field 'hexs' (did you mean 'hexes'?)" in err


def test_unknown_key_in_title_objects(tmp_path, capsys):
    """1833NE ferries / bonuses, 1832 cotton, 1831 track rights and commuter runs."""
    data = dict(load(B_M), ferries=[{"hex": "G22", "value": 10, "luxary": True}])
    assert_bad(run(tmp_path, capsys, data), "ferries[0]", "did you mean 'luxury'?")
    data = dict(load(WORKED), phase="4", trains=["3"], cotton={"hex": "D20", "stp": 0}, cotton_owner="SALR")
    assert_bad(run(tmp_path, capsys, data), "cotton:", "did you mean 'stop'?")
    data = load(EX1831)
    data["map"]["commuter_runs"][0]["any_strat"] = True
    assert_bad(run(tmp_path, capsys, data), "map.commuter_runs[0]", "did you mean 'any_start'?")


# --- bench, --version, --help ----------------------------------------------


def test_bench_exits_1_on_mismatch_and_error(tmp_path, capsys):
    good = dict(load(WORKED), expected_revenue=110)
    (tmp_path / "good.json").write_text(json.dumps(good))
    assert main(["bench", str(tmp_path / "good.json"), "--quiet"]) == 0
    (tmp_path / "wrong.json").write_text(json.dumps(dict(good, expected_revenue=999)))
    assert main(["bench", str(tmp_path / "wrong.json"), "--quiet"]) == 1
    assert "MISMATCH" in capsys.readouterr().out
    (tmp_path / "broken.json").write_text("{")
    assert main(["bench", str(tmp_path / "broken.json"), "--quiet"]) == 1
    assert "ERROR" in capsys.readouterr().out


def test_version(capsys):
    import trainruns

    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"trainruns {trainruns.__version__}"


def test_help_imports_no_heavy_library():
    """--help builds every subcommand's parser without numba, OR-Tools, matplotlib,
    networkx or numpy (they are imported when a command runs)."""
    code = ("import sys; from trainruns.cli.main import build_parser; build_parser().format_help(); "
            "print([m for m in ('numba', 'ortools', 'matplotlib', 'networkx', 'numpy', 'jsonschema') "
            "if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    help_ = subprocess.run([sys.executable, "-m", "trainruns", "--help"], capture_output=True, text=True)
    assert help_.returncode == 0 and "solve" in help_.stdout and "whatif" in help_.stdout


def test_draw_help_lists_the_drawing_formats():
    from trainruns.cli.draw import FORMATS_HELP
    from trainruns.services.draw import FORMATS

    assert tuple(FORMATS_HELP) == tuple(FORMATS)


# --- limits that say what they refuse ----------------------------------------


@pytest.mark.skipif(not __import__("os").path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_stops_at_the_file_cap(capsys):
    assert main(["solve", "/dev/zero"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "larger than 8 MB" in err


def test_deep_nesting(tmp_path, capsys):
    raw = '{"map": ' + "[" * 100_000 + "]" * 100_000 + "}"
    assert_bad(run(tmp_path, capsys, raw=raw), "nested more than 64 levels")
    raw = '{"notes": ' + "[" * 70 + "]" * 70 + "}"  # deeper than the cap, within Python's stack
    assert_bad(run(tmp_path, capsys, raw=raw), "nested more than 64 levels")


@pytest.mark.parametrize("escaped", [False, True])
def test_nesting_is_counted_on_what_is_read(escaped):
    """docs/custom-map.md, "Limits": 64 levels of arrays and objects, counted on the
    values read: brackets inside strings do not nest, and exactly 64 levels is within
    the limit; a key given twice is refused whichever of its values nests deeper."""
    from trainruns.errors import InputError
    from trainruns.position.reader import MAX_DEPTH, parse_json

    quote = '\\"' if escaped else ""
    text = '{"a": "' + quote + "[" * 100 + '", "b": ' + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "}"
    assert parse_json(text, "x")["a"].endswith("[" * 100)
    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    within = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    assert parse_json('{"a": ' + within + ', "b": "' + quote + '"}', "x")["b"] == ('"' if escaped else "")
    for twice in ('{"a": ' + deep + ', "a": "' + quote + '"}', '{"a": "' + quote + '", "a": ' + deep + "}"):
        with pytest.raises(InputError, match="'a' is written twice"):
            parse_json(twice, "x")
    with pytest.raises(InputError, match="nested more than 64 levels"):
        parse_json('{"a": [' + "{}, " * 5 + deep + "]}", "x")


def test_whole_numbers_up_to_the_limit_are_read():
    """docs/custom-map.md, "Limits": whole numbers below 2^63 are read as they are
    written, those of 19 digits too, and digits inside a string are no number."""
    from trainruns.errors import InputError
    from trainruns.position.reader import parse_json

    text = '{"n": [9223372036854775807, -9223372036854775807, 123456789012345678, 0, -0], "s": "' + "9" * 30 + '"}'
    assert parse_json(text, "x") == {"n": [2 ** 63 - 1, -(2 ** 63 - 1), 123456789012345678, 0, 0], "s": "9" * 30}
    assert parse_json('{"s": "' + "9" * 30 + '", "n": 12}', "x") == {"s": "9" * 30, "n": 12}
    with pytest.raises(InputError, match="2\\^63"):
        parse_json('{"s": "x", "n": -9223372036854775808}', "x")


def test_huge_integers(tmp_path, capsys):
    text = json.dumps(load(CUSTOM)).replace('"value": 30', '"value": ' + "9" * 5000, 1)
    assert_bad(run(tmp_path, capsys, raw=text), "too large", "5,000 digits")
    text = json.dumps(load(CUSTOM)).replace('"value": 30', '"value": 9223372036854775808', 1)
    assert_bad(run(tmp_path, capsys, raw=text), "too large", "2^63")


def test_nan_and_infinity_are_not_json(tmp_path, capsys):
    text = json.dumps(load(CUSTOM)).replace('"value": 30', '"value": NaN', 1)
    assert_bad(run(tmp_path, capsys, raw=text), "NaN is not a JSON number")
    text = json.dumps(load(CUSTOM)).replace('"value": 30', '"value": 1e999', 1)
    assert_bad(run(tmp_path, capsys, raw=text), "too large")


def test_a_key_written_twice_is_not_json_we_read(tmp_path, capsys):
    """JSON leaves a repeated key's meaning to the reader; a strict one refuses it rather
    than let the last value win unseen (a stop's value here, a log's title or an
    action's player elsewhere: the same reader)."""
    text = json.dumps(load(CUSTOM)).replace('"value": 30', '"value": 30, "value": 3000', 1)
    assert_bad(run(tmp_path, capsys, raw=text), "'value' is written twice")


def test_value_cap_stops_the_64_bit_wrap(tmp_path, capsys):
    """Was: three stops worth 2^62 each wrapped the sum: revenue 0, "optimal"."""
    data = load(CUSTOM)
    for h in data["map"]["hexes"]:
        for s in h["stops"]:
            s["value"] = 2 ** 62
    assert_bad(run(tmp_path, capsys, data), "is more than 100,000")
    data = load(CUSTOM)
    data["map"]["hexes"][0]["stops"][0]["value"] = 100_001
    assert_bad(run(tmp_path, capsys, data), "100001 is more than 100,000")


@pytest.mark.parametrize("train", ["٣", "²", "３"])
def test_only_ascii_digits_in_train_names(train, tmp_path, capsys):
    """Was: "٣" read as a 3-train."""
    assert_bad(run(tmp_path, capsys, dict(load(CUSTOM), trains=[train])), "trains[0]", "ASCII")


def test_only_ascii_digits_in_stop_names(tmp_path, capsys):
    """Was: "B2.٠" read as stop B2.0 (audit), "G22.²" passed isdigit() then int() failed."""
    declared = tmp_path / "declared.json"
    declared.write_text(json.dumps({"routes": [{"train": "3", "stops": ["D20.٠", "A21.0"]}]}))
    assert main(["audit", str(WORKED), str(declared)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "routes[0].stops[0]" in err and "stop name" in err
    data = dict(load(B_M), bonuses=[{"name": "x", "between": ["G22.²", "B3"], "amount": 10}])
    assert_bad(run(tmp_path, capsys, data), "bonuses[0].between[0]")
    data = load(CUSTOM)
    data["map"]["hexes"][0]["paths"][0][1] = "s٠"
    assert_bad(run(tmp_path, capsys, data), "map.hexes[0].paths[0][1]", "a path end")


LIST_FOR_STRING = {
    "title": (WORKED, lambda d: d.update(title=["1832"]), "field 'title'"),
    "token hex": (WORKED, lambda d: d["tokens"][0].update(hex=["D20"]), "tokens[0].hex"),
    "tile hex": (WORKED, lambda d: d["tiles"][0].update(hex={"id": "D20"}), "tiles[0].hex"),
    "tile": (WORKED, lambda d: d["tiles"][0].update(tile=["15"]), "tiles[0].tile"),
    "train": (WORKED, lambda d: d.update(trains=[["3"]]), "trains[0]"),
    "1833NE train": (B_M, lambda d: d.update(trains=[{"3/5": 1}]), "trains[0]"),
    "1831 id": (EX1831, lambda d: d["map"]["hexes"][0].update(id=["E1"]), "map.hexes[0].id"),
    "1831 part_of": (EX1831, lambda d: d["map"]["hexes"][1].update(part_of=["E3"]), "map.hexes[1].part_of"),
    "custom axes": (CUSTOM, lambda d: d["map"].update(axes=["x", "y"]), "map.axes"),
    "custom hex id": (CUSTOM, lambda d: d["map"]["hexes"][0].update(id={"A": 1}), "map.hexes[0].id"),
}


@pytest.mark.parametrize("case", LIST_FOR_STRING)
def test_list_or_object_where_a_string_is_expected(case, tmp_path, capsys):
    """Was: exit 3 (a list is unhashable, an object has no .upper())."""
    path, mutate, where = LIST_FOR_STRING[case]
    data = load(path)
    mutate(data)
    assert_bad(run(tmp_path, capsys, data), where)


@pytest.mark.parametrize("limit", ["inf", "-inf", "nan", "-1", "1e999"])
def test_time_limit_must_be_finite(limit, capsys):
    assert main(["solve", str(WORKED), "--time-limit", limit]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--time-limit" in err


def test_more_than_63_bonus_groups(tmp_path, capsys):
    """Was: exit 3, "more than 63 distinct bonus stop groups". 1833NE bonuses are capped
    at 24 (two places each) and ferries at 12, so the shipped bonus's 2 groups and the
    position's stay within the search's 63-bit masks."""
    hexes = ["G22", "B3", "A6", "A12", "F5", "C4", "D20", "E21", "C22", "B21"]
    bonuses = [{"name": f"b{i}", "between": [hexes[i % 10], hexes[(i + 1) % 10]], "amount": 10} for i in range(40)]
    assert_bad(run(tmp_path, capsys, dict(load(B_M), bonuses=bonuses)), "bonuses", "more than the 24 allowed")


def test_hex_and_train_caps(tmp_path, capsys):
    """docs/custom-map.md "Limits": 5,000 hexes, 100 trains."""
    data = load(CUSTOM)
    hexes = [{"id": f"A{2 * i + 1}", "stops": [], "paths": []} for i in range(5001)]
    data["map"]["hexes"] = hexes
    assert_bad(run(tmp_path, capsys, data), "map.hexes", "5,001 entries, more than the 5,000 allowed")
    data = dict(load(CUSTOM), trains=["2"] * 101)
    assert_bad(run(tmp_path, capsys, data), "trains", "101 entries, more than the 100 allowed")


def test_a_real_subprocess_run_is_one_line(tmp_path):
    data = load(WORKED)
    data["tiles"][2]["rotaton"] = 0
    (tmp_path / "p.json").write_text(json.dumps(data))
    out = subprocess.run([sys.executable, "-m", "trainruns", "solve", str(tmp_path / "p.json")],
                         capture_output=True, text=True)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "tiles[2]: unknown field 'rotaton'" in out.stderr


def test_path_ends_read_before_do_not_let_a_wrong_end_through():
    """docs/custom-map.md, "Paths": an end is a hex side 0-5 (a whole number, not true
    or 1.0) or a stop or junction of that hex; the same end written in another hex is
    checked against that hex."""
    from trainruns.errors import InputError
    from trainruns.position.reader import parse_paths

    assert parse_paths([[1, "s1"], [0, "j0"]], 2, 1, "h") == [(("side", 1), ("stop", 1)), (("side", 0), ("junction", 0))]
    for bad, said in (([[True, "s0"]], "neither a hex side"), ([[1.0, "s0"]], "neither a hex side"),
                      ([[1, "s1"]], "names stop 1, but the hex has 1"), ([[0, "j0"]], "names junction 0")):
        with pytest.raises(InputError, match=said) as e:
            parse_paths([[1, "s0"]] + bad, 1, 1 if "junction" not in said else 0, "h")
        assert "h.paths[1]" in str(e.value)

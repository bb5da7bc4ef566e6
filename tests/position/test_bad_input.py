"""Bad input gets one line on stderr saying what and where, and exit status 2
(docs/position-format.md, "Commands and exit status"); never a traceback, never a silent answer."""

import copy
import json

import pytest

from trainruns.cli.main import main

GOOD = {
    "map": {"layout": "flat", "phases": ["2", "3"],
            "hexes": [{"id": "B2", "stops": [{"kind": "city", "value": 30, "slots": 1}],
                       "paths": [[0, "s0"]]},
                      {"id": "B4", "stops": [{"kind": "town", "value": {"2": 10, "3": 20}}],
                       "paths": [[3, "s0"]]}]},
    "phase": "3", "corporation": "A", "trains": ["2"],
    "tokens": [{"hex": "B2", "stop": 0, "corporation": "A"}],
}


def run_cli(tmp_path, capsys, data, raw=None, extra=()):
    path = tmp_path / "pos.json"
    path.write_text(raw if raw is not None else json.dumps(data))
    status = main(["solve", str(path), "--json", *extra])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def mutate(fn):
    data = copy.deepcopy(GOOD)
    fn(data)
    return data


def test_good_position_solves(tmp_path, capsys):
    status, out, err = run_cli(tmp_path, capsys, GOOD)
    assert status == 0
    assert json.loads(out)["revenue"] == 50


CASES = {
    "malformed JSON": (None, '{"map": ', "malformed JSON at line 1"),
    "not an object": (None, "[1, 2]", "must be a JSON object"),
    "no map or title": (mutate(lambda d: d.pop("map")), None, "needs a 'title' or a 'map'"),
    "unknown title": (mutate(lambda d: d.update(title="1899")), None, "unknown title '1899'"),
    "bad layout": (mutate(lambda d: d["map"].update(layout="round")), None, "map.layout: must be a layout: 'flat' or 'pointy'"),
    "bad hex id": (mutate(lambda d: d["map"]["hexes"][0].update(id="2B")), None, 'map.hexes[0].id: must be a hex id'),
    "hex twice": (mutate(lambda d: d["map"]["hexes"][1].update(id="B2")), None, "hex B2 is listed twice"),
    "off grid": (mutate(lambda d: d["map"]["hexes"][1].update(id="B3")), None, "off the map's grid"),
    "side out of range": (mutate(lambda d: d["map"]["hexes"][0]["paths"].append([7, "s0"])), None,
                          "paths[1][0]: 7 is more than 5: must be a path end"),
    "missing stop": (mutate(lambda d: d["map"]["hexes"][0]["paths"].append([1, "s3"])), None,
                     "names stop 3, but the hex has 1"),
    "path to itself": (mutate(lambda d: d["map"]["hexes"][0]["paths"].append([1, 1])), None,
                       "cannot join"),
    "unknown stop kind": (mutate(lambda d: d["map"]["hexes"][0]["stops"][0].update(kind="port")), None,
                          "stops[0].kind: must be a stop kind"),
    "value not a number": (mutate(lambda d: d["map"]["hexes"][0]["stops"][0].update(value="30")), None,
                           "must be a whole number of dollars"),
    "value for unknown phase": (mutate(lambda d: d["map"]["hexes"][1]["stops"][0].update(value={"9": 1})),
                                None, "names phase '9'"),
    "no earlier phase entry": (mutate(lambda d: d["map"]["hexes"][1]["stops"][0].update(value={"3": 1})
                                      or d.update(phase="2")), None, "no entry for phase '2'"),
    "phase not listed": (mutate(lambda d: d.update(phase="7")), None, "phase '7' is not one of"),
    "unknown train": (mutate(lambda d: d.update(trains=["2", "X"])), None, "unknown train 'X'"),
    "trains not a list": (mutate(lambda d: d.update(trains="2")), None, "trains: must be a list of train names"),
    "no corporation": (mutate(lambda d: d.pop("corporation")), None, "missing field 'corporation'"),
    "token unknown hex": (mutate(lambda d: d["tokens"].append({"hex": "Z9", "stop": 0, "corporation": "B"})),
                          None, "unknown hex 'Z9'"),
    "token on a town": (mutate(lambda d: d["tokens"].append({"hex": "B4", "stop": 0, "corporation": "B"})),
                        None, "tokens go on cities"),
    "token over slots": (mutate(lambda d: d["tokens"].append({"hex": "B2", "stop": 0, "corporation": "B"})),
                         None, "all taken"),
    "token no stop": (mutate(lambda d: d["tokens"].append({"hex": "B2", "stop": 4, "corporation": "B"})),
                      None, "has no stop 4"),
}


@pytest.mark.parametrize("case", CASES)
def test_bad_input_exits_2_with_one_line(case, tmp_path, capsys):
    data, raw, message = CASES[case]
    status, out, err = run_cli(tmp_path, capsys, data, raw)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert message in err, err
    assert "pos.json" in err  # says where


def test_missing_file(capsys):
    assert main(["solve", "/no/such/file.json"]) == 2
    assert "no such position file" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["solve", "audit", "draw", "whatif", "bench"])
@pytest.mark.parametrize("limit", ["-1", "0", "soon"])
def test_bad_time_limit(command, limit, capsys):
    extra = {"audit": ["d.json"], "draw": ["--out", "x.svg"]}.get(command, [])
    assert main([command, "pos.json", *extra, "--time-limit", limit]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--time-limit" in err


def test_unknown_option_is_bad_input(capsys):
    assert main(["solve", "x.json", "--fast"]) == 2
    assert capsys.readouterr().err.count("\n") == 1

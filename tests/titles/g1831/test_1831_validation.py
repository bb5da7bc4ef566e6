"""Bad 1831 input raises InputError(what, where); the command prints one line, exit 2."""

import json
import subprocess
import sys

import pytest
from boards1831 import line

from trainruns.errors import InputError
from trainruns.titles.load import load_position

S, Y = "station", "yard"
TOKS = [("A1", 0, "A"), ("B2", 0, "A")]


def base(**kw):
    return line([(20, [S, Y]), (30, [S])], tokens=TOKS, **kw)


@pytest.mark.parametrize("mutate, message", [
    (lambda p: p["map"]["hexes"][0]["stops"][0].update(slot_types=["station", "depot"]),
     "slot_types.1.: must be a site type"),  # the schema (position-1831.json) says what a site is
    (lambda p: p["map"]["hexes"][0]["stops"][0].pop("slot_types"), "needs 'slot_types'"),
    (lambda p: p["map"]["hexes"][0]["stops"][0].update(slots=3), "slot_types lists 2"),
    (lambda p: p["tokens"].append({"hex": "B2", "stop": 0, "corporation": "B", "slot": 4}), "has no slot 4"),
    (lambda p: p["tokens"].append({"hex": "B2", "stop": 0, "corporation": "B", "slot": 0}), "already holds A"),
    (lambda p: p["tokens"].append({"hex": "B2", "stop": 0, "corporation": "B"}), "'slot'"),
    (lambda p: p["tokens"].append({"hex": "A1", "stop": 0, "corporation": "B", "type": "tower"}), "tokens.2..type: must be a site type"),
    (lambda p: p["tokens"].append({"hex": "A1", "stop": 0, "corporation": "B", "slot": 1, "type": "station"}),
     "yard site, not a station"),
    (lambda p: p.update(trains=["3X"]), "unknown train kind '3X'"),
    (lambda p: p.update(trains=["3"]), "unknown train kind '3'"),
    (lambda p: p.update(trains=["1S"]), "at least two tokens"),
    (lambda p: p.update(trains=[{"name": "3S", "status": "rusty"}]), "train status"),
    (lambda p: p.update(phase="D"), "1831 phase"),
    (lambda p: p.update(track_rights=[{"hex": "B2", "stop": 0, "slot": 0}]), "own token"),
    (lambda p: p.update(track_rights=[{"hex": "A1", "stop": 0, "slot": 1}]), "is empty"),
    (lambda p: p.update(rules={"pass_tokens": True}), "rules: unknown field 'pass_tokens'"),
    (lambda p: p["map"]["hexes"][1].update(part_of="Z9"), "not on the map"),
    (lambda p: p["map"]["hexes"][1].update(revisit_after=["A1"]), "revisit_after"),
    (lambda p: p["map"].update(commuter_runs=[{"cycle": ["A1", "Q7"]}]), "not a city hex"),
    (lambda p: p.pop("map"), "missing field 'map': an 1831 map"),
])
def test_bad_input_names_what_and_where(mutate, message):
    pos = base()
    mutate(pos)
    with pytest.raises(InputError, match=message.replace("(", r"\(")) as e:
        load_position(pos)
    assert e.value.where


def test_5_2_7_6_two_tokens_of_one_corporation_in_a_city():
    pos = base()
    pos["tokens"].append({"hex": "A1", "stop": 0, "corporation": "A", "slot": 1})
    load_position(pos)  # a Station and a Rail Yard: fine from the first 3-train
    pos["phase"] = "2"
    with pytest.raises(InputError, match="before the first 3-train"):
        load_position(pos)


def test_command_prints_one_line_and_exits_2(tmp_path):
    pos = base(trains=["4Q"])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(pos))
    out = subprocess.run([sys.executable, "-m", "trainruns", "solve", str(path), "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "unknown train kind '4Q'" in out.stderr


def test_command_solves_the_example(tmp_path):
    from pathlib import Path
    example = Path(__file__).resolve().parents[3] / "fixtures" / "1831" / "example.json"
    out = subprocess.run([sys.executable, "-m", "trainruns", "solve", str(example), "--json", "--quiet"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    want = json.loads(example.read_text())["expected_revenue"]
    assert got["optimal"] and got["revenue"] == want


def test_track_past_a_city_is_refused_not_answered_wrongly_5_6_2_1():
    """5.6.2.1 "A train may not use the same city hex twice": a city hex whose track
    also runs from side to side past the city could be used twice by one route (the
    city, then the track past it), which the route search does not count as a second
    use. Here a 4S from B2 would run B2 - B4 - C5, round by C3 and past B4's city to A5
    for 170; the rule allows 130 at most. The position is refused (exit 2), and the same
    board without that track is read as before."""
    def hexes(bypass):
        return [
            {"id": "B2", "stops": [{"kind": "city", "slot_types": [S], "value": 10}], "paths": [["s0", 0]]},
            {"id": "B4", "stops": [{"kind": "city", "slot_types": [S], "value": 10}],
             "paths": [[3, "s0"], ["s0", 5]] + ([[1, 4]] if bypass else [])},
            {"id": "C5", "stops": [{"kind": "city", "slot_types": [S], "value": 10}], "paths": [[2, "s0"], ["s0", 3]]},
            {"id": "C3", "stops": [], "paths": [[0, 1]]},
            {"id": "A5", "stops": [{"kind": "city", "slot_types": [S], "value": 100}], "paths": [[4, "s0"]]},
        ]

    def position(bypass):
        return {"title": "1831", "phase": "3", "corporation": "A", "trains": ["4S"],
                "map": {"layout": "flat", "hexes": hexes(bypass)},
                "tokens": [{"hex": h, "stop": 0, "corporation": "A", "slot": 0} for h in ("B2", "B4", "C5", "A5")]}

    with pytest.raises(InputError, match="5.6.2.1") as e:
        load_position(position(True))
    assert e.value.where == "position: map.hexes[1] (B4).paths"
    load_position(position(False))

"""1832 positions with bad input: each kind gives InputError naming what and where,
and the command exits 2 with one line on stderr."""

import copy
import json
import os
import subprocess
import sys

import pytest

import trainruns
from trainruns.errors import InputError

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "..", "..", "fixtures", "1832", "01-phase2-two-train-exactly-two.json")) as fh:
    BASE = json.load(fh)


def bad(changes, tiles_extra=None):
    data = copy.deepcopy(BASE)
    data.pop("expected_revenue"), data.pop("notes")
    data.update(changes)
    if tiles_extra:
        data["tiles"] = data["tiles"] + tiles_extra
    return data


def error_of(data):
    with pytest.raises(InputError) as info:
        trainruns.load_position(data)
    return str(info.value)


CASES = {
    # name: (changes, extra tiles, words the message must contain)
    "unknown-hex": ({}, [{"hex": "Z99", "tile": "8", "rotation": 0}], ["unknown hex", "Z99", "tiles[5]"]),
    "unknown-tile": ({}, [{"hex": "C19", "tile": "999", "rotation": 0}], ["unknown tile", "999"]),
    "tile-over-count": ({"phase": "3", "trains": ["3"]},
                        [{"hex": "D18", "tile": "1" if False else "16", "rotation": 0},
                         {"hex": "C19", "tile": "16", "rotation": 0}], ["tile 16", "manifest has 1"]),
    "rotation-out-of-range": ({}, [{"hex": "C19", "tile": "8", "rotation": 6}], ["rotation", "0-5"]),
    "city-tile-on-clear-hex": ({}, [{"hex": "C19", "tile": "57", "rotation": 0}], ["57", "C19", "cannot stand"]),
    "plain-track-on-town": ({}, [{"hex": "B18", "tile": "9", "rotation": 1}], ["B18", "town"]),
    "town-tile-on-large-city": ({}, [{"hex": "C7", "tile": "4", "rotation": 0}], ["C7", "city"]),
    "single-town-on-double-town": ({}, [{"hex": "C17", "tile": "4", "rotation": 0}], ["C17", "double town"]),
    "city-tile-on-medium-city-in-phase-2": ({}, [{"hex": "D8", "tile": "57", "rotation": 2}],
                                            ["D8", "upgrade", "phase 3"]),
    "green-in-phase-2": ({}, [{"hex": "C19", "tile": "16", "rotation": 0}], ["green", "phase 2"]),
    "brown-in-phase-4": ({"phase": "4", "trains": ["4"]}, [{"hex": "C7", "tile": "63", "rotation": 0}],
                         ["brown", "phase 4"]),
    "not-an-upgrade": ({"phase": "3", "trains": ["3"]},
                       [{"hex": "C19", "tile": "9", "rotation": 0}, {"hex": "C19", "tile": "16", "rotation": 0}],
                       ["not an upgrade of tile 9", "C19"]),
    "upgrade-loses-track": ({"phase": "3", "trains": ["3"]},
                            [{"hex": "C19", "tile": "9", "rotation": 0},
                             {"hex": "C19", "tile": "19", "rotation": 1}], ["does not keep the track", "C19"]),
    "atlanta-tile-elsewhere": ({"phase": "3", "trains": ["3"]}, [{"hex": "C7", "tile": "190", "rotation": 0}],
                               ["190", "only", "F10"]),
    "atlanta-takes-only-its-tile": ({"phase": "3", "trains": ["3"]}, [{"hex": "F10", "tile": "14", "rotation": 0}],
                                    ["F10", "190"]),
    "upgrade-on-town-loses-track": ({"phase": "3", "trains": ["3"]},
                                    [{"hex": "B18", "tile": "4", "rotation": 1},
                                     {"hex": "B18", "tile": "141", "rotation": 0}], ["does not keep the track"]),
    "savannah-tile-elsewhere": ({"phase": "5", "trains": ["5"]}, [{"hex": "C7", "tile": "193", "rotation": 0}],
                                ["193", "H16"]),
    "no-63-on-charleston": ({"phase": "5", "trains": ["5"]}, [{"hex": "G17", "tile": "63", "rotation": 0}],
                            ["63", "G17"]),
    "no-63-on-jacksonville": ({"phase": "5", "trains": ["5"]}, [{"hex": "J14", "tile": "63", "rotation": 0}],
                              ["63", "J14"]),
    "611-not-on-savannah": ({"phase": "5", "trains": ["5"]}, [{"hex": "H16", "tile": "611", "rotation": 0}],
                            ["611", "G17, J14"]),
    "tile-on-grey-hex": ({}, [{"hex": "B14", "tile": "9", "rotation": 0}], ["B14", "gray"]),
    "track-off-the-map": ({}, [{"hex": "D2", "tile": "9", "rotation": 0}], ["off the map", "D2"]),
    "track-into-blank-grey-side": ({}, [{"hex": "H2", "tile": "9", "rotation": 0}], ["blank side", "I1"]),
    "token-on-missing-city": ({"tokens": [{"hex": "C19", "stop": 0, "corporation": "SALR"}]}, None,
                              ["C19", "no stop"]),
    "token-on-town": ({"tokens": [{"hex": "E21", "stop": 0, "corporation": "SALR"}]}, None, ["town"]),
    "token-beyond-slots": ({"tokens": [{"hex": "D20", "stop": 0, "corporation": "SALR"},
                                       {"hex": "D20", "stop": 0, "corporation": "SOU"}]}, None, ["slot", "D20"]),
    "unknown-corporation": ({"corporation": "PRR"}, None, ["unknown corporation", "PRR"]),
    "unknown-token-corporation": ({"tokens": [{"hex": "D20", "stop": 0, "corporation": "B&O"}]}, None,
                                  ["B&O", "tokens[0]"]),
    "train-not-yet-available": ({"trains": ["3"]}, None, ["3-train", "phase 2"]),
    "train-scrapped": ({"phase": "4", "trains": ["2"]}, None, ["scrapped", "phase 4"]),
    "train-3-scrapped-in-6": ({"phase": "6", "trains": ["3"]}, None, ["scrapped", "phase 6"]),
    "unknown-train": ({"trains": ["7"]}, None, ["unknown train", "'7'"]),
    "diesel": ({"trains": ["D"]}, None, ["Diesel"]),
    "over-train-limit": ({"phase": "5", "trains": ["5", "4", "3"]}, None, ["limit", "phase 5"]),
    "unknown-phase": ({"phase": "7"}, None, ["phase", "'7'"]),
    "cotton-in-phase-6": ({"phase": "6", "trains": ["6"], "cotton": {"hex": "D20", "stop": 0},
                           "cotton_owner": "SALR"}, None, ["Cotton", "phase six"]),
    "port-in-phase-8": ({"phase": "8", "trains": ["8"], "port": {"hex": "N16"}, "port_owner": "FECR"}, None,
                        ["Port", "phase six"]),
    "port-in-phase-2": ({"port": {"hex": "N16"}, "port_owner": "FECR"}, None, ["Port", "phase 3"]),
    "key-west-in-phase-8": ({"phase": "8", "trains": ["8"], "key_west": True}, None, ["Key West", "phase 8"]),
    "key-west-in-phase-2": ({"key_west": True}, None, ["Key West", "before phase 3"]),
    "cotton-on-coastal-city": ({"phase": "3", "trains": ["3"], "cotton": {"hex": "J14", "stop": 0},
                                "cotton_owner": "SALR"}, None, ["coastal", "J14"]),
    "cotton-on-town": ({"phase": "3", "trains": ["3"], "cotton": {"hex": "B18", "stop": 0},
                        "cotton_owner": "SALR"}, None, ["no city", "B18"]),
    "cotton-without-owner": ({"phase": "3", "trains": ["3"], "cotton": {"hex": "D20", "stop": 0}}, None,
                             ["Cotton token's owner"]),
    "port-without-anchor": ({"phase": "3", "trains": ["3"], "port": {"hex": "D20"}, "port_owner": "SALR"}, None,
                            ["anchor", "D20"]),
    "coal-token-not-bool": ({"coal_token": "yes"}, None, ["coal_token", "true or false"]),
    # [17.2] 1830 Diesels: "Discard the 8-trains and 10-trains ... Phases eight and ten are
    # deleted"; the 4-train "will be rusted by the Diesel"
    "diesels-not-bool": ({"diesels": "yes"}, None, ["diesels"]),
    "diesels-phase-8": ({"phase": "8", "trains": ["6"], "diesels": True}, None, ["phase", "'8'"]),
    "diesels-10-train": ({"phase": "12", "trains": ["10"], "diesels": True}, None, ["Diesels", "10-trains"]),
    "diesels-4-train-in-12": ({"phase": "12", "trains": ["4"], "diesels": True}, None, ["scrapped", "phase 12"]),
    "5-train-in-12-without-diesels": ({"phase": "12", "trains": ["5"]}, None, ["scrapped", "phase 12"]),
    # [10.2.1] excess trains: over the limit only in a game's position before the discard
    "over-limit-says-must-discard": ({"phase": "5", "trains": ["5", "4", "3"]}, None, ["must_discard", "[10.2.1]"]),
    "must-discard-within-limit": ({"phase": "5", "trains": ["5", "4"], "must_discard": True}, None,
                                  ["must_discard", "within the limit of 2"]),
    "must-discard-not-bool": ({"must_discard": 1}, None, ["must_discard"]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_is_an_input_error_naming_the_problem(name):
    changes, extra, words = CASES[name]
    message = error_of(bad(changes, extra))
    for w in words:
        assert w in message, (name, message)


def test_a_legal_position_passes():
    # The same machinery accepts the position without the bad lay (no false alarms).
    trainruns.load_position(bad({}))
    trainruns.load_position(bad({"phase": "3", "trains": ["3"]},
                                [{"hex": "C19", "tile": "9", "rotation": 0},
                                 {"hex": "C19", "tile": "19", "rotation": 0}]))
    trainruns.load_position(bad({"phase": "5", "trains": ["5"]}, [{"hex": "F10", "tile": "191", "rotation": 0}]))
    # [17.2] "5-trains are permanent trains as in 1830"; the 4-trains run until the diesel
    trainruns.load_position(bad({"phase": "12", "trains": ["5", "12"], "diesels": True}))
    trainruns.load_position(bad({"phase": "6", "trains": ["4", "6"], "diesels": True}))
    # [10.2.1] the excess is held until the president discards it
    trainruns.load_position(bad({"phase": "5", "trains": ["5", "4", "3"], "must_discard": True}))


def test_cli_exit_2_one_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad({"corporation": "PRR"})))
    proc = subprocess.run([sys.executable, "-m", "trainruns", "solve", str(path), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "PRR" in lines[0]

"""1833NE positions with bad input fail with one clear InputError naming what and where
(unknown hex/tile, rotation outside 0-5, tiles the phase or the map forbid, tokens on
missing cities, unknown corporations)."""

import pytest
from _1833ne import fixture

from trainruns import InputError, load_position


def _with_tile(entry, **changes):
    pos = fixture("boston_montreal", **changes)
    pos["tiles"] = pos["tiles"] + [entry]
    return pos


@pytest.mark.parametrize("entry, msg", [
    ({"hex": "Z9", "tile": "9", "rotation": 0}, "unknown hex 'Z9'"),
    ({"hex": "E14", "tile": "999", "rotation": 0}, "unknown tile '999'"),
    ({"hex": "E14", "tile": "9", "rotation": 6}, "must be a rotation 0-5"),
    ({"hex": "E14", "tile": "9", "rotation": -1}, "must be a rotation 0-5"),
    ({"hex": "A6", "tile": "9", "rotation": 0}, "printed red"),
    ({"hex": "E14", "tile": "57", "rotation": 0}, "cannot stand on E14"),
    ({"hex": "E14", "tile": "23", "rotation": 0}, "green tile .* may not be laid in phase I"),
    ({"hex": "G22", "tile": "N25", "rotation": 0}, "may only be laid on B3"),
    ({"hex": "B9", "tile": "7", "rotation": 3}, "impassable border at side 4"),
])
def test_bad_tile_lays(entry, msg):
    """Map and tile rules: known hex and tile, rotation 0-5, colours by phase (yellow in
    I, green from II, brown from IV), labelled tiles only on their city, no track across
    an impassable border."""
    with pytest.raises(InputError, match=msg):
        load_position(_with_tile(entry, phase="I", trains=["2"]))


@pytest.mark.parametrize("token, msg", [
    ({"hex": "G18", "stop": 0, "corporation": "B&L"}, "has no stop"),
    ({"hex": "C4", "stop": 0, "corporation": "B&L"}, "tokens go on cities"),
    ({"hex": "Q3", "stop": 0, "corporation": "B&L"}, "unknown hex"),
    ({"hex": "G22", "stop": 0, "corporation": "XYZ"}, "unknown corporation 'XYZ'"),
])
def test_bad_tokens(token, msg):
    """Tokens go on cities that exist on the map as it stands, of known corporations."""
    pos = fixture("boston_montreal")
    pos["tokens"].append(token)
    with pytest.raises(InputError, match=msg):
        load_position(pos)


def test_two_stations_per_corporation():
    """"It only has 2 stations, its home and one more costing $80"."""
    pos = fixture("boston_montreal", phase="II")
    pos["tokens"] += [{"hex": "G20", "stop": 0, "corporation": "B&L"}, {"hex": "B3", "stop": 0, "corporation": "B&L"}]
    with pytest.raises(InputError, match="more than 2 stations"):
        load_position(pos)


def test_corporation_names():
    """Reference ids and the rules' B&W; any name only in the Takeover game."""
    load_position(fixture("boston_montreal", corporation="B&W",
                          tokens=[{"hex": "G22", "stop": 1, "corporation": "B&W"}]))
    with pytest.raises(InputError, match="unknown corporation"):
        load_position(fixture("boston_montreal", corporation="VS1", tokens=[]))
    load_position(fixture("boston_montreal", corporation="VS1", tokens=[], takeover_game=True))


def test_phase_must_be_i_to_v():
    with pytest.raises(InputError, match="phase"):
        load_position(fixture("boston_montreal", phase="VI"))

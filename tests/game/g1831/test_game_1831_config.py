"""The 1831 config (docs/game-1831.md "The config"): a player's own copy loads, and every
typo, wrong type or impossible value is refused with one line naming where.

The rulebook gives the procedure, not the numbers, so the market, par
chart, trains, company table, map and tiles come from a config; its checks are the
rulebook's facts about them (each test names the section) or readings listed in
docs/gaps.md ("1831 config").
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from trainruns.errors import InputError
from trainruns.titles.g1831.game.config import PACKAGE, Config
from trainruns.titles.tiled import load_data

CONFIGS = Path(__file__).resolve().parents[3] / "fixtures" / "games" / "1831-configs"


def shipped() -> dict:
    """The shipped config with its map and tile manifest inline (a config may hold them
    as objects: docs/game-1831.md)."""
    d = load_data(PACKAGE, "config.json")
    return dict(d, map=load_data(PACKAGE, "map.json"), tiles=load_data(PACKAGE, "tiles.json"))


def fixture(name: str) -> dict:
    """A config of fixtures/games/1831-configs with its map and tiles files inline."""
    d = json.loads((CONFIGS / f"config-{name}.json").read_text())
    for part in ("map", "tiles"):
        d[part] = json.loads((CONFIGS / d[part]).read_text())
    return d


def refused(data) -> InputError:
    with pytest.raises(InputError) as e:
        Config(data)
    err = e.value
    assert "\n" not in str(err), str(err)
    assert (err.where or "").startswith("config"), str(err)
    return err


# --- a player's own copies ---------------------------------------------------------------

@pytest.mark.parametrize("name,companies,sizes", [("a", 16, [2, 3, 4, 5, 6, 7, 8, 9, 12, 15]),
                                                  ("b", 30, [2, 3, 4, 5, 6, 7, 9, 12, 15])])
def test_a_players_copy_loads_with_its_own_numbers(name, companies, sizes):
    """The fixture configs differ from the shipped one where a real copy would (market
    size and prices, par chart, trains, company count, map and tiles); they load as
    written, not as the shipped numbers."""
    c = Config(fixture(name))
    assert not c.shipped and not c.invented
    assert len(c.companies) == companies
    assert [t["size"] for t in c.trains] == sizes
    assert c.market != shipped()["market"]
    assert len(c.map["hexes"]) != len(shipped()["map"]["hexes"])


def test_config_files_are_read_beside_the_working_directory(monkeypatch, tmp_path):
    """``map`` and ``tiles`` may be file names, read from the working directory
    (docs/game-1831.md); a file that is missing is one line naming config.map."""
    monkeypatch.chdir(CONFIGS)
    data = json.loads((CONFIGS / "config-a.json").read_text())
    assert Config(data).map["layout"] == "flat"
    err = refused(dict(data, map="no-such-map.json"))
    assert err.where == "config.map" and "no-such-map.json" in err.what
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    err = refused(dict(data, tiles=str(tmp_path / "binary.json")))
    assert err.where == "config.tiles" and "UTF-8" in err.what


def test_a_typo_in_the_map_file_names_its_place(monkeypatch, tmp_path):
    """A misspelt key deep in a map file: one line naming config.map.hexes[i]."""
    m = json.loads((CONFIGS / "map-a.json").read_text())
    m["hexes"][3]["terain"] = m["hexes"][3].pop("terrain")
    (tmp_path / "map.json").write_text(json.dumps(m))
    (tmp_path / "tiles.json").write_text((CONFIGS / "tiles-a.json").read_text())
    data = json.loads((CONFIGS / "config-a.json").read_text())
    monkeypatch.chdir(tmp_path)
    err = refused(dict(data, map="map.json", tiles="tiles.json"))
    assert err.where == "config.map.hexes[3]" and "terain" in err.what


# --- the fuzz: every key of the shipped config ---------------------------------------

def _walk(obj, path=()):
    """Every (path, value) below obj; a path is a tuple of dict keys and list indices."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield path + (k,), v
            yield from _walk(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield path + (i,), v
            yield from _walk(v, path + (i,))


def _kind(path) -> tuple:
    """The path with list indices and tile numbers as '*': one kind of key."""
    return tuple("*" if isinstance(p, int) or (i == 2 and path[:2] == ("tiles", "tiles")) else p
                 for i, p in enumerate(path))


def _keys():
    """The first and last place of every kind of key in the shipped config (its map and
    tile manifest included): every key the format has, at every depth."""
    seen = {}
    for path, _ in _walk(shipped()):
        seen.setdefault(_kind(path), []).append(path)
    return sorted({p for paths in seen.values() for p in (paths[0], paths[-1])}, key=str)


def _wrong_type(v):
    if isinstance(v, bool):
        return "yes"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return 7
    if isinstance(v, list):
        return {"x": v}
    if isinstance(v, dict):
        return [v]
    return 7   # null (a market square that is none)


def _at(data, path):
    for p in path[:-1]:
        data = data[p]
    return data, path[-1]


KEYS = _keys()


def test_the_fuzz_covers_every_depth():
    kinds = {_kind(p) for p in KEYS}
    assert ("market", "rows", "*", "*", "p") in kinds
    assert ("map", "hexes", "*", "stops", "*", "slot_types", "*") in kinds
    assert ("tiles", "tiles", "*", "paths", "*", "*") in kinds
    assert ("trains", "*", "counts", "10", "YD") in kinds
    assert len(kinds) > 50


@pytest.mark.parametrize("path", KEYS, ids=lambda p: ".".join(map(str, p)))
def test_every_key_mutated_is_one_line(path):
    """Each key of the config, its map and its tiles, at every depth: a wrong type and
    (for a named key) a misspelling are refused as one line naming the key's place or
    its parent's; deleting it either loads (an optional key) or is refused the same way."""
    base = shipped()
    where = "config" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path[:-1])

    data = copy.deepcopy(base)
    parent, key = _at(data, path)
    parent[key] = _wrong_type(parent[key])
    err = refused(data)
    assert err.where.startswith(where), (str(err), where)

    if isinstance(key, str) and not (len(path) == 3 and path[:2] == ("tiles", "tiles")):
        data = copy.deepcopy(base)
        parent, key = _at(data, path)
        parent[key + "x"] = parent.pop(key)
        err = refused(data)
        assert err.where.startswith(where), (str(err), where)

    data = copy.deepcopy(base)
    parent, key = _at(data, path)
    del parent[key]
    try:
        Config(data)
    except InputError as e:
        assert "\n" not in str(e) and (e.where or "").startswith("config"), str(e)
    else:
        assert _kind(path) in OPTIONAL, f"deleting {path} loads"


# what may be left out: notes, names, a hex's city (none), a market square's area, the
# map's axes (letters across by default), and items of lists (one hex, company, square,
# par value, tile or track less is another copy, checked as such)
OPTIONAL = {("notes",), ("invented",), ("map", "notes"), ("tiles", "notes"), ("map", "axes"),
            ("map", "hexes", "*", "name"), ("market", "rows", "*", "*", "area"), ("companies", "*"),
            ("map", "hexes", "*"), ("market", "rows", "*", "*"), ("par_chart", "*"), ("tiles", "tiles", "*"),
            ("tiles", "tiles", "*", "paths", "*")}


# --- impossible values ---------------------------------------------------------------

def test_a_row_that_does_not_rise_is_refused_4_3():
    """4.3, 5.8.1: the marker moves right to a higher price, so each row's P prices rise
    left to right (C prices do not fall)."""
    d = shipped()
    d["market"]["rows"][2][4]["p"] = d["market"]["rows"][2][3]["p"]
    err = refused(d)
    assert err.where == "config.market.rows[2][4]" and "rise" in err.what
    d = shipped()
    d["market"]["rows"][0][1]["c"] = d["market"]["rows"][0][0]["c"] - 1
    assert refused(d).where == "config.market.rows[0][1]"


def test_a_par_value_off_the_par_column_is_refused_4_7_5():
    """4.7.5: the Stock Marker goes to the PAR square whose P price is the par value."""
    d = shipped()
    d["par_chart"] = sorted(d["par_chart"] + [77])
    err = refused(d)
    assert err.where == "config.par_chart" and "77" in err.what and "4.7.5" in err.what
    d = shipped()
    d["par_unselectable"] = [167]
    assert refused(d).where == "config.par_unselectable"


def test_a_par_square_in_a_closed_or_split_area_is_refused_4_3_2_4_3_4():
    d = shipped()
    col = d["market"]["par_column"]
    d["market"]["rows"][0][col]["area"] = "split"
    assert refused(d).where == f"config.market.rows[0][{col}]"


def test_more_players_than_the_config_has_companies_is_one_line_3_2_1_1():
    """3.2.1.1: 5 players use 22 companies; config-a lists 16 (a copy for 3-4 players)."""
    from test_game_1831_config_games import game

    with pytest.raises(InputError) as e:
        game("a", n=5)
    assert e.value.where == "config.companies" and "22" in e.value.what


def test_a_split_market_needs_one_target_4_3_4():
    d = shipped()
    for row in d["market"]["rows"]:
        for sq in row:
            if sq and sq.get("area") == "target":
                del sq["area"]
    assert "4.3.4" in refused(d).what
    d = shipped()
    d["market"]["rows"][5][2]["area"] = "target"
    assert "SPLIT TARGET" in refused(d).what


def test_no_first_train_is_refused_5_3_8():
    """5.3.8: the bank sells the lowest size first; none of them for some player count
    would leave the game without a train to buy."""
    d = shipped()
    d["trains"][0]["counts"]["5"] = {"S": 0, "MX": 0, "YD": 0}
    err = refused(d)
    assert err.where == "config.trains[0].counts.5"


def test_a_phase_train_left_out_is_refused_5_3_5():
    """5.3.5 names the first 3-, 4-, 5-, 6-, 7-, 9-, 12- and 15-trains: each is listed."""
    d = shipped()
    d["trains"] = [t for t in d["trains"] if t["size"] != 9]
    err = refused(d)
    assert err.where == "config.trains" and "9-train" in err.what


def test_a_printed_city_says_its_size_5_2_3_9():
    """5.2.3.9: two Stations or Rail Yards make a small city, three a large one; the size
    picks its tiles (5.2.3.12), so a city hex without it is refused, not left tileless."""
    d = shipped()
    del d["map"]["hexes"][1]["city"]
    assert "5.2.3.9" in refused(d).what
    d = shipped()
    d["map"]["hexes"][1]["city"] = "large"      # A5 has two sites
    assert refused(d).where == "config.map.hexes[1].stops[0].slot_types"


def test_a_hex_off_the_grid_is_refused():
    """Doubled coordinates: on the shipped flat map A1 and B2 exist, so A2 cannot."""
    d = shipped()
    d["map"]["hexes"].append({"id": "A2", "terrain": "plains"})
    err = refused(d)
    assert err.where.startswith("config.map") and "off the map's grid" in err.what
    d = shipped()
    d["map"]["hexes"].append({"id": "A1", "terrain": "river"})
    assert "twice" in refused(d).what


def test_a_home_off_the_cities_is_refused():
    d = shipped()
    d["companies"][3]["home"] = "A1"
    assert refused(d).where == "config.companies[3].home"
    d["companies"][3]["home"] = "Z99"
    assert refused(d).where == "config.companies[3].home"


def test_map_extensions_are_checked():
    """The map format's own facts (docs/rules-1831.md): double track on a path of the
    hex, a red extension of a city on the map and red itself (5.2.3.10), commuter runs
    between cities (5.6.7)."""
    d = shipped()
    d["map"]["hexes"][0].update(paths=[[0, 3]], double_track=[[1, 4]])
    assert "double_track" in refused(d).what
    d = shipped()
    d["map"]["hexes"][0].update(terrain="red", part_of="Q9", stops=[{"kind": "city", "slot_types": ["yard"]}])
    assert "Q9" in refused(d).what
    d = shipped()
    d["map"]["hexes"][0].update(part_of="A5", stops=[{"kind": "city", "slot_types": ["yard"]}])
    assert refused(d).where == "config.map.hexes[0].terrain"
    d = shipped()
    d["map"]["commuter_runs"] = [{"cycle": ["A5", "A1"]}]
    assert "A1" in refused(d).what


def test_tiles_are_checked():
    """The manifest: track ends exist; ``only_on`` names hexes of the map (5.2.6.9)."""
    d = shipped()
    d["tiles"]["tiles"]["101"]["paths"] = [[0, "s0"]]
    assert refused(d).where.startswith("config.tiles.tiles.101")
    d = shipped()
    d["tiles"]["tiles"]["302"]["only_on"] = ["Q9"]
    assert refused(d).where == "config.tiles.tiles.302.only_on[0]"
    d = shipped()
    d["tiles"]["tiles"]["302"]["double_track"] = [[0, 1]]
    assert refused(d).where == "config.tiles.tiles.302.double_track[0]"


def test_a_city_and_a_city_tile_give_their_size_and_sites_5_2_3_12():
    """5.2.3.9, 5.2.3.12: a city tile says its size (which cities it goes on), and a
    size is said only with the city's sites, on a tile and on the map (the schema)."""
    d = shipped()
    tile = next(n for n, t in d["tiles"]["tiles"].items() if t.get("stops"))
    del d["tiles"]["tiles"][tile]["city"]
    assert refused(d).where == f"config.tiles.tiles.{tile}" and "city" in refused(d).what
    d = shipped()
    plain = next(n for n, t in d["tiles"]["tiles"].items() if not t.get("stops"))
    d["tiles"]["tiles"][plain]["city"] = "small"
    assert refused(d).where.startswith(f"config.tiles.tiles.{plain}") and "stops" in refused(d).what
    d = shipped()
    i = next(k for k, h in enumerate(d["map"]["hexes"]) if not h.get("stops"))
    d["map"]["hexes"][i]["city"] = "small"
    assert refused(d).where.startswith(f"config.map.hexes[{i}]") and "stops" in refused(d).what


def test_a_city_tile_with_track_past_its_city_is_refused_5_6_2_1():
    """5.6.2.1 "A train may not use the same city hex twice": track from side to side
    past a city would be a second use of its hex that the route search does not count,
    so such a tile (none in the shipped configs) is refused, not played (docs/gaps.md)."""
    d = shipped()
    name, tile = next((n, t) for n, t in d["tiles"]["tiles"].items() if t.get("stops"))
    sides = {x for p in tile["paths"] for x in p if isinstance(x, int)}
    free = [k for k in range(6) if k not in sides]
    tile["paths"].append(free[:2])
    e = refused(d)
    assert e.where == f"config.tiles.tiles.{name}.paths" and "5.6.2.1" in e.what


def test_city_tiles_keep_the_printed_site_types_5_2_3_12():
    """5.2.3.12 "The token types on the tile must match the token types on the map", and
    5.2.6.5: tokens stay on the new tile. A large city printed Rail Yard first would put
    its Station token on a Rail Yard site of the tile (the game keeps sites by index)."""
    d = shipped()
    c5 = next(h for h in d["map"]["hexes"] if h["id"] == "C5")
    c5["stops"][0]["slot_types"] = ["yard", "station", "black"]
    err = refused(d)
    assert "5.2.3.12" in err.what and "C5" in err.what
    d = shipped()
    d["tiles"]["tiles"]["711"]["stops"][0]["slot_types"] = ["station", "yard", "yard"]
    err = refused(d)
    assert err.where == "config.tiles.tiles.711.stops[0].slot_types" and "5.2.6.5" in err.what


# --- through the command line ----------------------------------------------------------

def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "trainruns", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


def test_bad_configs_through_the_command_exit_2_with_one_line(tmp_path):
    """``trainruns play new 1831 --config FILE``: exit 2, one stderr line, no traceback,
    for a typo in the config, a wrong type in the map file it names, and a map file that
    is not JSON."""
    for name in ("map-a.json", "tiles-a.json"):
        (tmp_path / name).write_text((CONFIGS / name).read_text())
    good = json.loads((CONFIGS / "config-a.json").read_text())
    cases = []
    bad = copy.deepcopy(good)
    bad["companies"][2]["statons"] = bad["companies"][2].pop("stations")
    cases.append((bad, None, "config.companies[2]"))
    m = json.loads((CONFIGS / "map-a.json").read_text())
    m["hexes"][1]["stops"][0]["value"] = "a hundred"
    cases.append((good, json.dumps(m), "config.map.hexes[1].stops[0].value"))
    cases.append((good, "{not json", "config.map"))
    for i, (cfg, map_text, where) in enumerate(cases):
        (tmp_path / "map-a.json").write_text(map_text or (CONFIGS / "map-a.json").read_text())
        (tmp_path / "c.json").write_text(json.dumps(cfg))
        r = _cli("play", "new", "1831", "--players", "A,B,C", "--config", "c.json", cwd=tmp_path)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1, (i, r.returncode, r.stderr)
        assert where in lines[0] and "Traceback" not in r.stderr, (i, lines[0])


def test_301_is_laid_only_joining_baltimore_and_washington_5_2_6_9():
    """5.2.6.9: "#301 and #401 may only be placed in the blank hex that separates
    Baltimore and Washington, and only in an orientation that connects" them. In
    config-a, E7 lies between Baltimore D8 and Washington F8; of the six turns of #301
    only those whose double track faces both are laid (counted here from the hex grid)."""
    from trainruns.route.hexgrid import neighbour, parse_hex_id
    from trainruns.titles.g1831.route.board_map import GameMap

    c = Config(fixture("a"))
    m = GameMap(c.map, c.tiles)
    at = {parse_hex_id(h): h for h in m.hexes}
    x, y = parse_hex_id("E7")
    for tile in ("301", "401"):
        (a, b), = c.tiles["tiles"][tile]["double_track"]
        expected = {rot for rot in range(6)
                    if {at.get(neighbour(x, y, (a + rot) % 6, "flat")), at.get(neighbour(x, y, (b + rot) % 6, "flat"))}
                    == {"D8", "F8"}}
        assert expected == {0}
        assert {rot for rot in range(6) if m.oriented("E7", tile, rot)} == expected
    assert all(m.oriented("E7", "24", rot) for rot in range(6))   # other tiles: any turn


def test_a_connects_hex_away_from_the_tile_is_refused_5_2_6_9():
    d = fixture("a")
    d["tiles"]["tiles"]["301"]["connects"] = ["D8", "G9"]
    assert refused(d).where == "config.tiles.tiles.301.connects[1]"
    d = fixture("a")
    del d["tiles"]["tiles"]["301"]["only_on"]
    assert refused(d).where == "config.tiles.tiles.301.connects"

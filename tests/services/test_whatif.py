"""whatif and bench: legality of each candidate move rule by rule
(1832 rulebook "Laying Track" and "Placing a Token"), rankings whose best move is
known by hand, and the commands' output and exit codes."""

import contextlib
import copy
import io
import json
import subprocess
import sys

import pytest
from conftest import ROOT

from trainruns.cli.main import main
from trainruns.cli.progressbar import ProgressBar
from trainruns.errors import InputError
from trainruns.position.reader import parse_paths
from trainruns.route.hexgrid import neighbour, parse_hex_id
from trainruns.services.whatif import (
    rank_tiles,
    rank_tiles_full,
    rank_tokens,
    rank_tokens_full,
    rank_trains,
    tile_candidates,
    token_candidates,
    train_candidates,
)
from trainruns.titles.g1832 import TITLE

TILED = TITLE.facts.tiled


def salr(phase="2", tiles=None, tokens=None, trains=None):
    """SALR at Raleigh (D20), yellow city #57 running D18 (side 1) - D22 (side 4)."""
    if trains is None:  # a train that exists in the phase ([10], Table 1)
        trains = ["2"] if phase in ("2", "3") else ["5"]
    return {"title": "1832", "phase": phase, "corporation": "SALR", "trains": list(trains),
            "tiles": [{"hex": "D20", "tile": "57", "rotation": 1}] if tiles is None else tiles,
            "tokens": [{"hex": "D20", "stop": 0, "corporation": "SALR"}] + (tokens or [])}


# Raleigh - D22 - C23 - Norfolk (B24, grey, one slot); beyond Norfolk lies B22.
TO_NORFOLK = [{"hex": "D20", "tile": "57", "rotation": 1}, {"hex": "D22", "tile": "8", "rotation": 1},
              {"hex": "C23", "tile": "9", "rotation": 0}]


def lays(data):
    return [m for m, _ in tile_candidates(data)]


def sides_of(tile, rot):
    spec = TILED.tiles[tile]
    out = set()
    for a, b in parse_paths(spec["paths"], len(spec["stops"]), 0, "t", rot):
        out |= {e[1] for e in (a, b) if e[0] == "side"}
    return out


# the map's hexes by place (doubled coordinates), read here from the map's ids
COORDS = {parse_hex_id(h, TILED.axes): h for h in TILED.hexes}


def side_towards(hex_id, other):
    x, y = parse_hex_id(hex_id, TILED.axes)
    for e in range(6):
        if COORDS.get(neighbour(x, y, e, TILED.layout)) == other:
            return e
    raise AssertionError(f"{other} is not next to {hex_id}")


# --- Laying Track: New Tiles -----------------------------------------------------------


def test_new_tiles_must_connect_to_reached_track():
    """"Laying Track" / New Tiles: "trace an unblocked ... train run ... from one of its
    tokens to some of the new track on the new tile": D18 is next to Raleigh's track
    end, so a lay there is legal only with track on the side facing Raleigh; a hex the
    company's track does not reach (B8) takes no lay at all."""
    moves = lays(salr())
    d18 = [m for m in moves if m["hex"] == "D18"]
    assert d18, "a yellow lay continuing Raleigh's track toward D18 is legal"
    facing = side_towards("D18", "D20")
    assert all(facing in sides_of(m["tile"], m["rotation"]) for m in d18)
    assert len(d18) < 3 * 6  # the rotations pointing away are left out
    assert not [m for m in moves if m["hex"] == "B8"]
    assert all(m["hex"] in ("D18", "D22") for m in moves)  # Raleigh's #57 has no other end


def test_home_city_first_tile_is_legal():
    """"Laying Track" / New Tiles: "its home city hex will often not have any track in
    it. The placement of this first tile by that company is a valid tile lay"."""
    moves = lays(salr(tiles=[]))
    on_home = {m["tile"] for m in moves if m["hex"] == "D20"}
    assert on_home == {"5", "6", "57"}  # "Large Cities": only #5, #6, #57
    assert all(m["hex"] == "D20" for m in moves)


def test_blocked_by_other_company_tokens():
    """"Laying Track" / New Tiles: the run must be "unblocked (by other company
    tokens)": with Norfolk's only slot held by N&W, SALR cannot reach B22 beyond it."""
    open_ = lays(salr(tiles=TO_NORFOLK))
    assert any(m["hex"] == "B22" for m in open_)
    blocked = lays(salr(tiles=TO_NORFOLK, tokens=[{"hex": "B24", "stop": 0, "corporation": "N&W"}]))
    assert not any(m["hex"] == "B22" for m in blocked)


def test_no_lay_on_grey_or_red_hexes():
    """"Tile Placement Restrictions" and New Tiles ("No tile may be placed on an area of
    the map that does not have the grid on it"): grey Norfolk and red Richmond take no
    tile even when the company reaches them."""
    moves = lays(salr(phase="5", tiles=TO_NORFOLK))
    assert not any(m["hex"] in ("B24", "A21") for m in moves)
    for m in moves:
        assert TILED.hexes[m["hex"]].get("color") not in ("gray", "red")


def test_no_track_off_the_map_or_into_blank_sides():
    """"Tile Placement Restrictions": no track may end against the map edge (D22's side
    4 has no hex) or against a blank side of a grey hex."""
    moves = lays(salr(tiles=[{"hex": "D20", "tile": "57", "rotation": 1}]))
    d22 = [m for m in moves if m["hex"] == "D22"]
    assert d22
    for m in moves:
        x, y = parse_hex_id(m["hex"], TILED.axes)
        for side in sides_of(m["tile"], m["rotation"]):
            assert COORDS.get(neighbour(x, y, side, TILED.layout)) is not None, m


# --- Laying Track: Upgrading Tiles ------------------------------------------------------


def test_upgrades_only_in_their_phase():
    """"Upgrading Tiles": "Tiles may only be upgraded in the appropriate phase [4.2]":
    no upgrade in phase 2; green but not brown in phase 3; brown from phase 5."""
    def colours(phase):
        return {TILED.tiles[m["tile"]]["color"] for m in lays(salr(phase=phase)) if m.get("replaces")}

    assert colours("2") == set()
    assert colours("3") == {"green"}
    assert "brown" not in colours("3")
    d20 = [m for m in lays(salr(phase="5", tiles=[{"hex": "D20", "tile": "57", "rotation": 1},
                                                 {"hex": "D20", "tile": "14", "rotation": 1}]))
           if m["hex"] == "D20"]
    assert d20 and {TILED.tiles[m["tile"]]["color"] for m in d20} == {"brown"}


def test_upgrades_follow_the_chart():
    """"Upgrade Chart" [23]: the yellow city #57 upgrades to #14 or #15 only."""
    ups = {m["tile"] for m in lays(salr(phase="3")) if m["hex"] == "D20"}
    assert ups == {"14", "15"}


def test_upgrade_keeps_existing_track():
    """"Upgrading Tiles": an upgrade only adds track ("delete the segments existing on
    the tile being upgraded ... the new track segments" are what is left)."""
    old = sides_of("57", 1)
    for m in lays(salr(phase="3")):
        if m["hex"] == "D20":
            assert old <= sides_of(m["tile"], m["rotation"])


def test_upgrade_needs_the_company_on_the_tile():
    """"Upgrading Tiles": "at least one new track segment ... must form part of a legal
    route of the company, or a town or city on the new tile must be on a route of the
    company": a yellow tile off the company's network cannot be upgraded by it."""
    far = {"hex": "B8", "tile": "9", "rotation": 2}
    tiles = [{"hex": "D20", "tile": "57", "rotation": 1}, far]
    TILED.check_lay("B8", "9", 2, None, "3", "test")  # the far tile itself stands legally
    moves = lays(salr(phase="3", tiles=tiles))
    assert not any(m["hex"] == "B8" for m in moves)
    assert any(m["hex"] == "D20" and m.get("replaces") == "57" for m in moves)


def test_tile_counts_limit_the_supply():
    """Tile manifest [23]: a tile whose every copy is on the map cannot be laid. #57
    has five copies; with all five on the map, Raleigh's first tile is #5 or #6."""
    cities = [h for h, spec in TILED.hexes.items() if spec.get("kind") == "city" and h != "D20"]
    placed = []
    for h in cities:
        for rot in range(6):
            try:
                TILED.check_lay(h, "57", rot, None, "2", "test")
            except Exception:
                continue
            placed.append({"hex": h, "tile": "57", "rotation": rot})
            break
        if len(placed) == TILED.manifest["counts"]["57"]:
            break
    assert len(placed) == TILED.manifest["counts"]["57"]
    on_home = {m["tile"] for m in lays(salr(tiles=placed)) if m["hex"] == "D20"}
    assert on_home == {"5", "6"}


def test_medium_city_town_upgrades_to_yellow_city():
    """"Medium Cities" [6.4.2]: a yellow town tile on a medium city may become a yellow
    city tile (#5, #6, #57) or a green town tile."""
    data = json.loads((ROOT / "fixtures/1832/11-phase3-medium-city-upgraded.json").read_text())
    data["tiles"] = [t for t in data["tiles"] if not (t["hex"] == "D8" and t["tile"] == "57")]
    ups = {m["tile"] for m in lays(data) if m["hex"] == "D8"}
    assert {"5", "6", "57"} & ups and ups <= {"5", "6", "57", "141", "142", "143", "144"}


def test_identical_rotations_are_one_move():
    """A symmetric tile gives identical track at several rotations; each is one move
    (#57 is straight: three distinct lays on a hex, not six)."""
    data = salr(tiles=[])
    rots = [m["rotation"] for m in lays(data) if m["tile"] == "57"]
    assert len(rots) == len(set(rots)) and len(rots) <= 3


# --- rankings known by hand -------------------------------------------------------------


def test_best_tile_lay_known_by_hand():
    """Worked example (phase 3, SALR 3 + 2 trains, 110: Raleigh 30 + Richmond 30 with
    the 3, Raleigh + Norfolk with the 2). The only way to earn more with one lay is to
    bring Wilmington (E21, a town worth 10) onto the 3-train's run: 120, +10."""
    data = json.loads((ROOT / "fixtures/1832/worked_example.json").read_text())
    moves = rank_tiles(data)
    assert moves[0].revenue == 120 and moves[0].gain == 10
    assert {m.move["hex"] for m in moves if m.gain > 0} == {"E21"}
    assert all(m.optimal for m in moves)


def _line_map(token_at="B2"):
    """B2 (city 10, our token) - B4 (city 20, 2 slots) - B6 (off-board 100); A5 (city 5)
    hangs off B4. Flat layout: side 0 is south, B2 -> B4 -> B6; side 1 of B4 is A5."""
    return {"map": {"layout": "flat", "hexes": [
        {"id": "B2", "stops": [{"kind": "city", "value": 10, "slots": 1}], "paths": [["s0", 0]]},
        {"id": "B4", "stops": [{"kind": "city", "value": 20, "slots": 2}],
         "paths": [[3, "s0"], ["s0", 0], ["s0", 1]]},
        {"id": "B6", "stops": [{"kind": "offboard", "value": 100}], "paths": [[3, "s0"]]},
        {"id": "A5", "stops": [{"kind": "city", "value": 5, "slots": 1}], "paths": [[4, "s0"]]},
    ]}, "corporation": "A", "trains": ["2"], "tokens": [{"hex": token_at, "stop": 0, "corporation": "A"}]}


def test_best_token_known_by_hand():
    """"Placing a Token": both B4 and A5 are reachable with free slots. A 2-train from B2
    earns 30 (B2-B4); a token in B4 lets it run B4-B6 = 120 (+90); A5 adds nothing."""
    moves = rank_tokens(_line_map())
    assert [(m.move["hex"], m.revenue, m.gain) for m in moves] == [("B4", 120, 90), ("A5", 30, 0)]


def test_token_rules_full_own_and_unreachable_cities():
    """"Placing a Token": "The city must have space for the token and must not already
    contain a token of the company", and it must be reachable by a route."""
    data = _line_map()
    data["map"]["hexes"][3]["paths"] = []  # A5 cut off: unreachable
    data["tokens"].append({"hex": "B4", "stop": 0, "corporation": "X"})
    data["tokens"].append({"hex": "B4", "stop": 0, "corporation": "Y"})  # B4 now full
    assert token_candidates(data) == []
    own = _line_map()
    own["tokens"].append({"hex": "B4", "stop": 0, "corporation": "A"})
    assert [m["hex"] for m, _ in token_candidates(own)] == ["A5"]  # not B2/B4: already ours


@pytest.mark.parametrize("path", [ROOT / "fixtures/1832/whatif_late.json",
                                  ROOT / "fixtures/real/1889-4-9-SR-180.json",
                                  ROOT / "fixtures/real/1850-115810-784.json"], ids=lambda p: p.name)
def test_token_flag_flip_equals_solving_the_variant(path):
    """The fast token ranking (one compile, a flag flipped per candidate) gives the same
    revenues as loading and solving each variant position."""
    data = json.loads(path.read_text())
    fast = rank_tokens_full(data)
    slow = rank_tokens_full(data, reuse=False)
    assert fast.moves and [(m.move["hex"], m.move["stop"], m.revenue) for m in fast.moves] == \
        [(m.move["hex"], m.move["stop"], m.revenue) for m in slow.moves]


def test_bigger_train_earns_more_on_a_long_network():
    """A long line of cities: a 4-train earns more than a 3, a 3 more than a 2."""
    hexes = [{"id": f"B{2 * i + 2}", "stops": [{"kind": "city", "value": 10 * (i + 1), "slots": 1}],
              "paths": ([[3, "s0"]] if i else []) + ([["s0", 0]] if i < 5 else [])} for i in range(6)]
    data = {"map": {"layout": "flat", "hexes": hexes}, "corporation": "A", "trains": ["2"],
            "tokens": [{"hex": "B2", "stop": 0, "corporation": "A"}]}
    moves = rank_trains(data, names=["2", "3", "4"])
    assert [m.move["train"] for m in moves] == ["4", "3", "2"]
    assert moves[0].revenue > moves[1].revenue > moves[2].revenue


def test_title_trains_are_those_of_the_phase_within_the_limit():
    """[10], Table 1: in phase 8 the 5-, 6- and 8-trains exist (2-4 are scrapped, 12 not
    yet bought), and the first 10-train would start phase 10 [4.2]; the phase-8 limit
    is 2 trains, so with two none is legal."""
    data = json.loads((ROOT / "fixtures/1832/whatif_late.json").read_text())
    one = dict(data, trains=["8"])
    assert [m["train"] for m, _ in train_candidates(one)] == ["5", "6", "8", "10"]
    assert train_candidates(dict(data, trains=["8", "6"])) == []
    moves = rank_trains(one)
    by = {m.move["train"]: m.revenue for m in moves}
    assert by["8"] >= by["6"] >= by["5"]


def test_first_train_of_next_type_starts_its_phase():
    """[4.2] / Table 1: in phase 3 the first 4-train starts phase 4, which scraps the
    2-trains; the candidate is that variant (phase 4, the 3 and the new 4)."""
    data = json.loads((ROOT / "fixtures/1832/worked_example.json").read_text())
    cands = train_candidates(data)
    assert [m["train"] for m, _ in cands] == ["2", "3", "4"]
    move, variant = cands[-1]
    assert move == {"train": "4", "starts_phase": "4", "scrapped": ["2"]}
    assert variant["phase"] == "4" and variant["trains"] == ["3", "4"]
    with pytest.raises(InputError):
        train_candidates(data, names=["7"])  # a name the caller gives must exist


def test_late_tile_ranking():
    """A full tile ranking of a grown late-game position (65 tiles, phase 8): best
    first, and the candidate filter and the title's own loader agree."""
    data = json.loads((ROOT / "fixtures/1832/whatif_late.json").read_text())
    moves = rank_tiles(data)
    assert len(moves) > 20
    assert moves == sorted(moves, key=lambda m: -m.revenue)
    # the candidate filter and the title's own loader agree: no candidate is refused
    assert rank_tiles_full(data).rejected == 0


def test_progress_bar_draws_and_clears():
    stream = io.StringIO()
    bar = ProgressBar(4, "x", stream=stream, enabled=True)
    for _ in range(4):
        bar.advance()
    assert "4/4" in stream.getvalue() and "#" * 30 in stream.getvalue()
    bar.close()
    assert stream.getvalue().endswith("\r\x1b[K")
    quiet = io.StringIO()
    ProgressBar(3, stream=quiet).advance()  # not a terminal: nothing drawn
    assert quiet.getvalue() == ""


def test_variants_do_not_touch_the_caller_position():
    data = salr()
    before = copy.deepcopy(data)
    rank_tiles(data)
    assert data == before


# --- commands ---------------------------------------------------------------------------


def cli(*args):
    """The command in this process (a subprocess pays the kernel load each time; one
    test below runs the real executable)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in args])
        except SystemExit as e:
            code = e.code
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def test_real_executable_exit_codes(tmp_path):
    ok = subprocess.run([sys.executable, "-m", "trainruns", "bench", str(ROOT / "fixtures" / "1832"), "--csv"],
                        capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout.startswith("path,")
    bad = subprocess.run([sys.executable, "-m", "trainruns", "whatif", str(tmp_path / "none.json"), "--tiles"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_bench_matches_every_expected_revenue():
    out = cli("bench", ROOT / "fixtures" / "1832", ROOT / "fixtures" / "real", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    rows = data["positions"]
    assert len(rows) >= 33 and all(r["error"] is None for r in rows)
    assert all(r["match"] for r in rows if r["expected_revenue"] is not None)
    assert data["summary"]["mismatched"] == 0 and data["summary"]["with_expected"] >= 33


def test_bench_reports_bad_files_and_exit_codes(tmp_path):
    (tmp_path / "bad.json").write_text("{")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "badtrain.json").write_text(json.dumps(dict(salr(), trains=["9"])))
    out = cli("bench", tmp_path, "--csv")
    assert out.returncode == 1  # an ERROR row makes the benchmark fail, for CI
    lines = out.stdout.strip().splitlines()
    assert lines[0].startswith("path,revenue") and len(lines) == 3
    assert "malformed JSON" in out.stdout and "unknown train" in out.stdout
    assert cli("bench", tmp_path / "missing.json").returncode == 2
    assert cli("bench", tmp_path, "--time-limit", "0").returncode == 2
    (tmp_path / "empty").mkdir()
    assert cli("bench", tmp_path / "empty").returncode == 2


def test_whatif_command(tmp_path):
    pos = tmp_path / "p.json"
    pos.write_text(json.dumps(_line_map()))
    out = cli("whatif", pos, "--tokens", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["current_revenue"] == 30 and data["moves"][0]["move"]["hex"] == "B4"
    assert data["moves"][0]["gain"] == 90
    out = cli("whatif", pos, "--trains", "--train", "3", "--top", "1")
    assert out.returncode == 0 and "buy a 3-train" in out.stdout
    assert cli("whatif", pos, "--trains").returncode == 2            # custom map: name the trains
    assert cli("whatif", pos, "--tiles").returncode == 2             # custom map: no tiles
    assert cli("whatif", pos).returncode == 2                        # no kind of move
    assert cli("whatif", pos, "--tokens", "--top", "0").returncode == 2
    assert cli("whatif", tmp_path / "none.json", "--tokens").returncode == 2
    late = cli("whatif", ROOT / "fixtures/1832/whatif_late.json", "--tiles", "--top", "3")
    assert late.returncode == 0 and sum(line.strip()[:1].isdigit() and ". " in line
                                                 for line in late.stdout.splitlines()[2:]) == 3


def test_reach_with_a_budget_says_it_is_not_complete():
    """Bounded everywhere: a reach walk stopped by its budget says so, and what it found
    is part of the full reach (never a place no run reaches)."""
    from trainruns import load_position
    from trainruns.route.reach import reach

    board = load_position(json.loads((ROOT / "fixtures/1832/whatif_late.json").read_text()))
    full, cut = reach(board), reach(board, budget=5)
    assert full.complete and not cut.complete
    assert cut.stops <= full.stops and len(cut.stops) < len(full.stops)
    assert all(hexes <= full.sides.get(node, set()) for node, hexes in cut.sides.items())

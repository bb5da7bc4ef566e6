"""``trainruns whatif --tiles`` on an 1831 position that names its tile set
(``"tile_set": "shipped"``, docs/position-format.md): the lays come from the game's own
generator (1831 rulebook 5.2.4.1 reach, 5.2.6 colours, upgrades and track kept), so a
real game's position ranks every lay its track step lists, and a lay's variant is the
position the game reaches by making it."""

from __future__ import annotations

import contextlib
import copy
import io
import json

import pytest

from trainruns.cli.main import main
from trainruns.errors import InputError
from trainruns.game import route_adapter
from trainruns.game.selfplay import play
from trainruns.services.whatif import rank_tiles_full, tile_candidates
from trainruns.titles.g1831.route.moves import tile_set

# seeded random 1831 game (3 players, seed 1) at MEC's track step after 473 actions:
# its trains run for $940, and its track step lists thirteen lays
SEED, ACTIONS, CORP = 1, 473, "MEC"


@pytest.fixture(scope="module")
def at_track_step():
    game, problems, _n = play("1831", ["A", "B", "C"], SEED, max_actions=ACTIONS)
    assert not problems and type(game.round.step()).__name__ == "TrackStep"
    return game


def named(game, cid=CORP):
    return dict(game.rules.position(cid), tile_set="shipped")


def key(m):
    return m["hex"], str(m["tile"]), m["rotation"]


def test_every_lay_the_game_lists_is_ranked_5_2_4(at_track_step):
    g = at_track_step
    pos = named(g)
    listed = {key(a) for a in g.actions() if a["type"] == "lay_tile"}
    ranking = rank_tiles_full(copy.deepcopy(pos))
    ranked = {key(m.move) for m in ranking.moves}
    assert listed and listed <= ranked and ranking.rejected == 0
    # some lay earns more than the run without one (the ranking is not all ties)
    base = route_adapter.best_run(g.rules.position(CORP))[0]
    assert base > 0 and ranking.moves[0].revenue > base


def test_a_lays_variant_is_the_position_the_game_reaches_5_2_6():
    g, _problems, _n = play("1831", ["A", "B", "C"], SEED, max_actions=ACTIONS)
    pos = named(g)
    variants = {key(m): (m, v) for m, v in tile_candidates(pos)}
    upgrade = next(a for a in g.actions() if a["type"] == "lay_tile" and "replaces" in variants[key(a)][0])
    move, variant = variants[key(upgrade)]
    assert move["replaces"] == g.rules.laid()[upgrade["hex"]][0]
    g.act(upgrade)
    after = g.rules.position(CORP)
    assert variant["map"] == after["map"] and variant["tokens"] == after["tokens"]


def test_whatif_tiles_command_ranks_it(at_track_step, tmp_path):
    path = tmp_path / "nyc.json"
    path.write_text(json.dumps(named(at_track_step)))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["whatif", str(path), "--tiles", "--json"])
    assert code in (0, None)
    moves = json.loads(out.getvalue())["moves"]
    assert moves and all({"hex", "tile", "rotation"} <= set(m["move"]) for m in moves)


@pytest.mark.parametrize("change, message", [
    (lambda p: p.pop("tile_set"), "names its tile set"),
    (lambda p: p.update(tile_set="printed"), 'not "printed"'),
    (lambda p: next(h for h in p["map"]["hexes"] if "tile" in h).update(tile="9999"), "not in the tile set"),
])
def test_a_position_that_cannot_name_its_lays_is_bad_input(at_track_step, change, message):
    pos = named(at_track_step)
    change(pos)
    with pytest.raises(InputError) as e:
        tile_candidates(pos)
    assert message in str(e.value)


# A small position on the shipped tile set (flat layout): PRR's token on Pittsburgh (C5,
# large) with yellow city tile #512 turned to run to sides 2 (B4) and 4 (D4).
def small_position(phase="2", laid=None, hexes=("C5", "B4", "D4", "C3", "C7", "B6", "D6"), tokens=("C5",)):
    tiles = tile_set("shipped")
    laid = laid or {"C5": ("512", 2)}
    return {"title": "1831", "phase": phase, "corporation": "PRR", "trains": ["2S"], "tile_set": "shipped",
            "map": {"layout": "flat", "axes": {"x": "letter", "y": "number"},
                    "hexes": [tiles.hex_entry(h, laid) for h in hexes]},
            "tokens": [{"hex": h, "stop": 0, "slot": 0, "corporation": "PRR"} for h in tokens]}


def lays_of(pos):
    return sorted((m["hex"], m["tile"], m["rotation"]) for m, _v in tile_candidates(pos))


def test_small_position_lays_counted_by_hand_5_2_3_8_and_5_2_4_1():
    """Phase 2 lays yellow only (5.2.6.6). 5.2.4.1: only hexes PRR's track reaches, at the
    side it arrives by. D4 (entered at its side 1): the straight to 4, gentle curves to
    3 and 5, sharp curves to 0 and 2: five lays. B4 (entered at its side 5): its side 2
    is the map's edge (5.2.3.8: no track to the border), so no straight; gentle curves
    to 1 and 3, sharp to 0 and 4: four lays. C5 takes no green yet; C3, C7, B6 and D6
    touch no track of PRR's. Nine lays."""
    assert lays_of(small_position()) == [
        ("B4", "102", 3), ("B4", "102", 5), ("B4", "103", 4), ("B4", "103", 5),
        ("D4", "101", 1), ("D4", "102", 1), ("D4", "102", 5), ("D4", "103", 0), ("D4", "103", 1)]


def test_small_position_upgrades_keep_track_5_2_6_5():
    """Phase 3 adds green (5.2.6.1, 5.2.6.6): the nine yellow lays, and Pittsburgh's #512
    (sides 2 and 4) upgraded to a large green city (5.2.3.12) keeping both sides
    (5.2.6.5): #611 (sides 0, 1, 3, 4) only at rotation 1 (rotation 4 lays the same
    track), #612 (sides 0-3) at rotations 1 and 2: three upgrades, twelve lays."""
    lays = lays_of(small_position(phase="3"))
    assert [m for m in lays if m[0] == "C5"] == [("C5", "611", 1), ("C5", "612", 1), ("C5", "612", 2)]
    assert len(lays) == 12


def test_small_position_ranks_the_lay_joining_two_tokens_first_5_2_2():
    """A second PRR token on Harrisburg (E5, #512 to sides 0 and 2): D4 is now entered
    at its sides 1 and 5 (nine lays: straights 1-4 and 5-2, gentle 1-3, 1-5, 5-3, sharp
    1-0, 1-2, 5-4, 5-0), E7 at its side 3 (five), B4 as before (four): eighteen. Only
    the curve 1-5 on D4 (#102 at rotation 5) joins the two cities, so a 2S runs
    Pittsburgh-Harrisburg: 360 + 360 and a Station's $10 at each end (5.2.7.5)."""
    pos = small_position(laid={"C5": ("512", 2), "E5": ("512", 0)}, tokens=("C5", "E5"),
                         hexes=("C5", "B4", "D4", "C3", "C7", "B6", "D6", "E5", "E7", "E3", "F4", "F6"))
    assert len(lays_of(pos)) == 18
    ranking = rank_tiles_full(copy.deepcopy(pos))
    assert ranking.rejected == 0 and len(ranking.moves) == 18
    best = ranking.moves[0]
    assert (best.move["hex"], best.move["tile"], best.move["rotation"], best.revenue) == ("D4", "102", 5, 740)
    assert all(m.revenue == 0 for m in ranking.moves[1:])


# PRR's token on Harrisburg (E5, #512 turned to sides 3 and 5), a gentle curve on F6
# (#102, sides 2 and 4) and Scranton (G5, small city, #501 entered at its side 1): PRR's
# track reaches Scranton, and phase 3 lets it upgrade #501 to green #601 or #602.
SCRANTON = {"E5": ("512", 3), "F6": ("102", 2), "G5": ("501", 0)}


def scranton_upgrades(tokens):
    pos = small_position(phase="3", laid=SCRANTON, hexes=("E5", "F6", "G5", "E3", "E7", "D4", "D6", "F4", "G7"),
                         tokens=("E5",))
    pos["tokens"] += [{"hex": "G5", "stop": 0, "slot": slot, "corporation": corp} for slot, corp in tokens]
    return sorted((m["tile"], m["rotation"]) for m, _v in tile_candidates(pos) if m["hex"] == "G5")


@pytest.mark.parametrize("tokens, may_upgrade", [
    ((), True),                                # two vacancies
    (((0, "NYC"),), True),                     # the Rail Yard site is free
    (((0, "NYC"), (1, "B&O")), False),         # full of others, and #601/#602 add no site
    (((0, "NYC"), (1, "PRR")), True),          # full, but PRR holds a token there
])
def test_full_city_upgraded_only_by_its_token_holders_5_2_4_1(tokens, may_upgrade):
    """5.2.4.1: "If a city is fully tokenized, and further upgrading would not produce a
    vacancy, then only the corporations with tokens in the city may upgrade it further."
    A small city's green tiles keep its two sites (#501: Station and Rail Yard; #601,
    #602 the same), so when NYC and B&O fill Scranton, PRR may not upgrade it; the game
    refuses the same lay (test_game_1831_track_duties.py)."""
    upgrades = scranton_upgrades(tokens)
    # reached from Harrisburg, #601 and #602 keep #501's track only at rotation 0 (a
    # token of PRR's own in Scranton reaches it from its other side too: more rotations)
    assert ({("601", 0), ("602", 0)} <= set(upgrades)) if may_upgrade else upgrades == []

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

# seeded random 1831 game (3 players, seed 0) at NYC's track step after 365 actions: a
# 3MX and four 2S run for $510, and its track step lists seven lays
ACTIONS = 365


@pytest.fixture(scope="module")
def at_track_step():
    game, problems, _n = play("1831", ["A", "B", "C"], 0, max_actions=ACTIONS)
    assert not problems and type(game.round.step()).__name__ == "TrackStep"
    return game


def named(game, cid="NYC"):
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
    base = route_adapter.best_run(g.rules.position("NYC"))[0]
    assert base > 0 and ranking.moves[0].revenue > base


def test_a_lays_variant_is_the_position_the_game_reaches_5_2_6():
    g, _problems, _n = play("1831", ["A", "B", "C"], 0, max_actions=ACTIONS)
    pos = named(g)
    variants = {key(m): (m, v) for m, v in tile_candidates(pos)}
    upgrade = next(a for a in g.actions() if a["type"] == "lay_tile" and "replaces" in variants[key(a)][0])
    move, variant = variants[key(upgrade)]
    assert move["replaces"] == g.rules.laid()[upgrade["hex"]][0]
    g.act(upgrade)
    after = g.rules.position("NYC")
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

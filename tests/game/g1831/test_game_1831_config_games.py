"""1831 games on a player's own config (fixtures/games/1831-configs): what random games on
them found wrong, each pinned by its rule, and a seeded random game played to the end
with the contract's guarantees checked after every action (docs/game-log.md)."""

from __future__ import annotations

import pytest
from test_game_1831_config import fixture

from tests._1831 import operated
from trainruns.errors import InputError
from trainruns.game.game import Game
from trainruns.titles.g1831.game.state import Token
from trainruns.titles.load import load_engine_position
from trainruns.game.state import LaidTile


def game(name="a", n=3, seed=1, variants=()):
    return Game("1831", [f"P{i}" for i in range(n)], seed, variants, fixture(name))


def test_a_red_extension_is_one_city_for_tokens_5_2_7_6():
    """5.2.3.10: Buffalo's red hex E1 is "part of the same hex" as D2, so 5.2.7.6's one
    Rail Yard per city counts them together: a company with a Rail Yard in D2 is not
    offered E1's Rail Yard site (random games placed it there, and the route core then
    refused the position: two Rail Yards in city D2). One with only a Station in D2 is."""
    g = game()
    r = g.rules
    r.state.phase = "3"   # a Station and a Rail Yard per city (5.2.7.6)
    r.state.tiles.append(LaidTile("D2", "52", 1))   # D2's side 4 joins E1
    nkp = operated(g, "NKP", 60, "P0")    # its home: a Rail Yard in D2
    assert [(x.hex, x.type) for x in nkp.sites] == [("D2", "yard")]
    r.state.pay("bank", "corp:NKP", 1000 - nkp.cash)
    assert not [m for m in r.token_places(nkp) if m["hex"] == "E1"]
    e = operated(g, "P&R", 60, "P1")      # its home: a Station in D2
    assert [(x.hex, x.type) for x in e.sites] == [("D2", "station")]
    r.state.pay("bank", "corp:P&R", 1000 - e.cash)
    assert [(m["hex"], m["kind"]) for m in r.token_places(e) if m["hex"] == "E1"] == [("E1", "yard")]
    load_engine_position(r.position("P&R"))


def test_a_home_token_on_a_black_site_keeps_its_type_after_the_upgrade_5_2_5_1():
    """5.2.5.1: with its city full, B&O's home Station goes on Pittsburgh's black site
    ("does not have to match the correct type"); the green tile makes that site a Rail
    Yard, and 5.2.6.5 keeps every token on the new tile: the token stays a Station."""
    g = game()
    r = g.rules
    r.state.phase = "3"
    # Pittsburgh B6 [station, yard, black]: two other companies fill its open sites
    for cid, slot, kind in (("PRR", 0, "station"), ("NYC", 1, "yard")):
        r.state.corp[cid].sites.append(Token("B6", slot, kind))
        r.state.corp[cid].tokens.append(("B6", 0))
    bo = operated(g, "B&O", 60, "P0")
    assert bo.sites == [Token("B6", 2, "station", home_black=True)]
    r.state.tiles.append(LaidTile("B6", "59", 0))   # green: sites [station, yard, yard]
    pos = r.position("B&O")
    load_engine_position(pos)
    tok = next(t for t in pos["tokens"] if t["corporation"] == "B&O")
    assert tok == {"hex": "B6", "stop": 0, "slot": 2, "corporation": "B&O", "home": True, "type": "station"}
    # a token that is not the home token still must match its site
    del tok["home"]
    with pytest.raises(InputError, match="is a yard site, not a station"):
        load_engine_position(pos)


@pytest.mark.parametrize("name,n,seed,variants", [("a", 3, 3, ()), ("a", 4, 1, ("extended",))])
def test_random_games_on_a_players_config_finish_with_money_and_shares_conserved(name, n, seed, variants):
    """The outside check, here: a seeded random game on the player's own config to its
    end, every docs/game-log.md guarantee checked after every action (money and shares
    conserved among them; game/selfplay.py). Seed 3 for 3 players is the game that first
    found the black-site home token above."""
    from trainruns.game.selfplay import play_one

    out = play_one({"title": "1831", "players": [f"P{i}" for i in range(n)], "seed": seed, "max_actions": 3000,
                    "variants": list(variants), "config": fixture(name)})
    assert out["problems"] == []
    assert out["finished"] and not out["capped"]


def test_a_tile_not_in_the_manifest_is_refused_5_2_6():
    """The config names tiles only as its manifest's numbers: a lay of any other tile is
    refused with a rule id (the log unchanged), never a crash. Played on config-a until
    the first lay is listed."""
    import random

    from trainruns.game.errors import Refusal
    from trainruns.game.selfplay import fill

    g = game(seed=3)
    rng = random.Random(3)
    for _ in range(400):
        listed = g.actions()
        lay = next((a for a in listed if a["type"] == "lay_tile"), None)
        if lay:
            break
        g.act(fill(rng.choice([a for a in listed if a["type"] != "pass"] or listed), rng))
    assert lay is not None
    before = len(g.entries)
    with pytest.raises(Refusal) as e:
        g.act(dict(lay, tile="999"))
    # the first lay listed is mostly a company's home tile, its first play (5.2.5)
    assert e.value.rule in ("track.illegal", "5.2.5") and len(g.entries) == before
    g.act(lay)   # the listed lay itself is accepted


def test_a_log_on_a_config_that_names_its_files_replays_from_anywhere(tmp_path, monkeypatch):
    """docs/game-log.md: a game is its log, replayed deterministically. A config that
    names its map and tiles files (read from the working directory) is kept in the log
    with them read in, so the log replays in another directory, where those names mean
    nothing, to the same state."""
    import json

    from test_game_1831_config import CONFIGS

    monkeypatch.chdir(CONFIGS)
    config = json.loads((CONFIGS / "config-a.json").read_text())
    assert isinstance(config["map"], str) and isinstance(config["tiles"], str)
    g = Game("1831", ["P0", "P1", "P2"], 5, (), config)
    for _ in range(12):
        g.act(next(a for a in g.actions() if a["type"] != "pass") if len(g.actions()) > 1 else g.actions()[0])
    log = json.loads(json.dumps(g.log()))
    assert log["config"]["map"] == fixture("a")["map"] and log["config"]["tiles"] == fixture("a")["tiles"]
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="cannot read the map file"):
        Game("1831", ["P0", "P1", "P2"], 5, (), config)   # the names alone: not here
    again = Game.replay(log)
    assert again.rules.state_json() == g.rules.state_json() and again.log() == g.log()

"""1831 5.2.5 on the shipped (invented) config: "When a company operates for the first
time, its first play will be to lay a tile on its home city if this is not already
done" (1831 rulebook). Its home token goes on that tile, so after it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trainruns.game.errors import Refusal
from trainruns.game.game import Game
from trainruns.game.state import LaidTile

OPENING = Path(__file__).resolve().parents[3] / "fixtures" / "games" / "1831-opening.log"


def first_operation():
    """The opening fixture at LIRR's first track step: its home city E11 is untiled."""
    g = Game.replay(json.loads(OPENING.read_text()))
    c = g.rules.state.corp["LIRR"]
    assert g.active()["corporation"] == "LIRR" and c.home == "E11" and "E11" not in g.rules.laid()
    return g, c


def test_the_first_play_is_the_home_tile_required_not_optional_5_2_5():
    g, c = first_operation()
    listed = g.actions()
    # only yellow tiles on the home city are listed: no pass, no other lay, no token
    assert listed and all(a["type"] == "lay_tile" and a["hex"] == "E11" for a in listed)
    with pytest.raises(Refusal) as e:
        g.act({"type": "pass", "corporation": "LIRR"})
    assert e.value.rule == "5.2.5"
    with pytest.raises(Refusal) as e:
        g.act({"type": "place_token", "corporation": "LIRR", "hex": "E11", "kind": "station"})
    assert e.value.rule == "5.2.5"


def test_the_home_token_goes_down_after_the_home_tile_not_before_5_2_5():
    g, c = first_operation()
    assert c.sites == [] and not c.home_done      # no token on the untiled city yet
    cash = c.cash
    lay = g.actions()[0]
    g.act(lay)
    events = [e["event"] for e in g.to_json()["events"]]
    assert events.index("tile") < events.index("token")
    assert [x.hex for x in c.sites] == ["E11"] and c.home_done
    assert g.rules.laid()["E11"] == (lay["tile"], lay["rotation"])
    r = g.rules
    assert c.cash == cash - r.map.cost("E11", False, r.numbers["terrain_cost"]) - r.token_price(c.home_type)
    # the lay was the first of its lays this turn; now it may pass
    assert any(a["type"] == "pass" for a in g.actions())


def _home_tiled_before_its_turn():
    """The opening, with E11 tiled before LIRR's first turn (as another company could):
    (the game after its actions, LIRR)."""
    log = Game.replay(json.loads(OPENING.read_text()), upto=None).log()
    g = Game(log["title"], log["players"], log["seed"], log.get("variants") or (), log.get("config"))
    home = g.rules.state.corp["LIRR"]
    tile = next(m for m in g.rules.map.home_lays("E11", {}, ["yellow"], {}))
    g.rules.state.tiles.append(LaidTile.of(tile))
    for a in log["actions"]:
        g.act(a)
    return g, home


def test_a_home_city_already_tiled_gets_its_token_at_the_start_5_2_5():
    g2, home = _home_tiled_before_its_turn()
    assert [x.hex for x in home.sites] == ["E11"]
    assert all(a["hex"] != "E11" for a in g2.actions() if a["type"] == "lay_tile")


def test_the_home_token_counts_toward_the_phases_three_tokens_5_2_5():
    """5.2.5: "If it laid its home city tile this counts towards its total track lay, and
    its purchase of its home token counts toward its token limit" (5.2.4.3: "They may
    build up to three Stations and Rail Yards"): after LIRR's home tile and home token,
    one of its three tokens of the phase is used, so it may buy two more, not three."""
    g, c = first_operation()
    r = g.rules
    g.act(g.actions()[0])
    assert [x.hex for x in c.sites] == ["E11"]
    assert r.tokens_bought(c) == 1
    g.round.step().turn.tokens = 3                # as if it had bought two more
    assert r.token_places(c) == []


def test_a_home_token_placed_at_the_turns_start_counts_too_5_2_5():
    """5.2.5, as above, for a home city tiled before the company's first turn: its home
    token goes down as the turn starts and is one of the phase's three tokens."""
    g2, home = _home_tiled_before_its_turn()
    assert g2.active()["corporation"] == "LIRR" and [x.hex for x in home.sites] == ["E11"]
    assert g2.rules.tokens_bought(home) == 1

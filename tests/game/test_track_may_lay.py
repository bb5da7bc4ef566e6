"""Whether a company may lay a tile at all (the track step's question, answered at the
first legal lay: ``may_lay_tile``) against the full listing (``bool(tile_lays)``), on
every track step of seeded random games of each title: 1832 [6] Laying Track (two
yellow tiles or one upgrade, terrain paid from cash, [16.1] blocked hexes, [17.5] the
Civil War's tiles), 1833NE (1830's lays, P2's B&L, P3's free lays), 1831 5.2.4-5.2.6.

The lay generator skips the hexes no run of the company touches; the listing with that
skip is compared with the generator asked about every hex (``touched_hexes`` made to
answer all of them), on the same positions."""

from __future__ import annotations

import pytest

from trainruns.game import route_adapter
from trainruns.game.selfplay import play
from trainruns.game.steps.token import TokenStep
from trainruns.game.steps.track import TrackStep
from trainruns.titles import moves

GAMES = {   # title: (seeds, players, actions per game)
    "1832": ((1, 2, 3), 4, 900),
    "1833NE": ((1, 2, 3), 4, 700),
    "1831": ((1,), 4, 500),
}


def _operating(title):
    """Every game state of the title's seeded random games at a company's track or token
    step (its trains within the limit), the game copied so the position stays as it was."""
    seeds, players, actions = GAMES[title]
    out = []

    def seen(game, _state):
        step = game.round.step() if not game.finished else None
        if isinstance(step, (TrackStep, TokenStep)) and not step.done:
            out.append(game.copy())
        return []

    for seed in seeds:
        play(title, [chr(ord("A") + i) for i in range(players)], seed, max_actions=actions, on_state=seen)
    return out


def _same(game, corp, lays) -> bool:
    listed = game.rules.tile_lays(corp, lays)
    assert game.rules.may_lay_tile(corp, lays) == bool(listed), (corp.id, lays, listed[:3])
    return bool(listed)


@pytest.mark.parametrize("title", sorted(GAMES))
def test_may_lay_tile_is_whether_any_lay_is_listed(title):
    answers = []
    for game in _operating(title):
        step = game.round.step()
        corp = step.corp
        lays = step.lays if isinstance(step, TrackStep) else []
        answers.append(_same(game, corp, lays))
        if isinstance(step, TrackStep) and answers[-1]:
            # one lay more: the turn's allowance partly used ([6]: a second yellow
            # tile, none after an upgrade; 1831 5.2.4: up to four)
            m = game.rules.tile_lays(corp, lays)[0]
            game.act({"type": "lay_tile", "corporation": corp.id, "hex": m["hex"], "tile": m["tile"],
                      "rotation": m["rotation"]})
            answers.append(_same(game, corp, step.lays))
    # both answers occur often, so a wrong one could not pass unseen
    assert answers.count(True) > 20 and answers.count(False) > 20, (answers.count(True), answers.count(False))


@pytest.mark.parametrize("title", ["1832", "1833NE"])
def test_lays_skipped_hexes_change_nothing(title, monkeypatch):
    positions = [game.rules.position(game.round.step().corp.id) for game in _operating(title)[::7]]
    assert positions
    fast = [route_adapter.tile_lays(p) for p in positions]
    route_adapter.clear()
    monkeypatch.setattr(moves, "touched_hexes", lambda reached: _Everything())
    try:
        slow = [route_adapter.tile_lays(p) for p in positions]
    finally:
        route_adapter.clear()
    assert fast == slow
    assert sum(map(len, fast)) > 50


class _Everything:
    """Every hex: the generator asks each hex's tiles, as without the skip."""

    def __contains__(self, _hex_id):
        return True

"""Seeded random play in-process, checking docs/game-log.md's guarantees after every
action (shared by tests/game/test_game_selfplay.py and benchmarks/). The checks live in the
package (trainruns.game.selfplay, also behind `trainruns play selfplay`); ``play``
here is an 1832 game."""

from __future__ import annotations

from trainruns.game.selfplay import check_state, fill, money  # noqa: F401  (the tests' imports)
from trainruns.game.selfplay import play as play_title


def play(players, seed, max_actions=3000, check_undo_every=0, on_state=None):
    """One random 1832 game; returns (game, problems, actions taken)."""
    return play_title("1832", players, seed, max_actions, check_undo_every, on_state)

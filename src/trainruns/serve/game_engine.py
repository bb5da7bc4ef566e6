"""The one place ``trainruns serve`` talks to the game engine (:mod:`trainruns.game`).

The game mode uses only what docs/game-log.md promises of a game (new, load,
actions, act, state, log, position) plus the stock market's grid for drawing it, all
through the functions below, so a change in the engine's Python API is mended here.
"""

from __future__ import annotations

from trainruns.errors import InputError
from trainruns.game.errors import Refusal  # noqa: F401  (re-exported: an illegal action)
from trainruns.game.game import TITLES, Game
from trainruns.game.log import FORMAT, effective


def is_log(data):
    """Whether a parsed JSON file is a game log (else it is taken as a position)."""
    return isinstance(data, dict) and data.get("format") == FORMAT


def titles():
    return sorted(TITLES)


def new(title, players, seed=None, variants=(), config=None, where="--new"):
    """A new game, as ``trainruns play new`` starts one (a bad title, player list,
    variant or config is an :class:`InputError`)."""
    if title not in TITLES:
        raise InputError(f"no game engine for title {title!r} (games: {', '.join(titles())})", where)
    if len(set(players)) != len(players) or not all(players):
        raise InputError("player names must be distinct and not empty", "players" if where != "--new" else "--players")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InputError("the seed must be a whole number", "seed")
    if not all(isinstance(v, str) for v in variants):
        raise InputError("variants must be names", "variants")
    return Game(title, list(players), seed, list(variants), config)


def load(log, where="log"):
    """The game of a log, replayed (a bad log is an :class:`InputError`)."""
    return Game.replay(log, where=where)


def act(game, action):
    """Check and apply one action; a :class:`Refusal` (rule id, message) leaves the game
    unchanged."""
    game.act(action, where="action")


def actions(game):
    return game.actions()


def active(game):
    return game.active()


def state(game):
    return game.to_json()


def log(game):
    return game.log()


def can_undo(game):
    """Whether a decision stands that ``undo`` would take back."""
    return bool(effective(game.log()["actions"]))


def position(game, corporation=None):
    return game.position(corporation)


def market(game):
    """The stock market as rows of boxes and the price tokens stacked on them: the
    market's own ``view()`` (game/market.py's boxes ``{"price", "zone"}``; 1831's
    squares of two prices, 4.3: ``{"price": C, "preferred": P, "zone"}``)."""
    return game.rules.market.view()

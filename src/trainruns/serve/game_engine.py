"""The one place ``trainruns serve`` talks to the game engine (:mod:`trainruns.game`).

The game mode uses only what docs/game-log.md promises of a game (new, load,
actions, act, state, log, position) plus the stock market's grid for drawing it, all
through the functions below, so a change in the engine's Python API is mended here.
"""

from __future__ import annotations

from trainruns.errors import InputError
from trainruns.game.errors import Refusal  # noqa: F401  (re-exported: an illegal action)
from trainruns.game.game import TITLES, Game, rules_class
from trainruns.game.log import FORMAT, effective, read_log


def is_log(data):
    """Whether a parsed JSON file is a game log (else it is taken as a position)."""
    return isinstance(data, dict) and data.get("format") == FORMAT


def titles():
    return sorted(TITLES)


def variants(title) -> dict:
    """The variants a new game of ``title`` may choose: name -> what it changes."""
    return dict(rules_class(title).known_variants)


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


def history(game):
    """Every decision that stands, in order, as the page's history lists it: ``{"round":
    the round it was taken in, "action": the decision as the log records it, "events":
    what followed from it by rule}``. The game's log replayed once more, each decision
    as :meth:`Game.replay` applies it (a run keeps the proof its log recorded), to read
    the round before it and the events after it."""
    data = read_log(game.log(), "log")
    replay = Game.new(data)
    out = []
    standing = effective(data["actions"])
    for i, a in enumerate(standing):
        when = replay.to_json()["round"]
        try:
            replay._apply(a, f"log: actions[{i}]", replaying=True)
        except (Refusal, InputError):
            # a game set up by hand (tests) has a log its setup does not replay: its
            # decisions are listed without their rounds and events, never invented
            return out + [{"round": None, "action": b, "events": []} for b in standing[i:]]
        out.append({"round": when, "action": replay.applied[-1], "events": list(replay.state.events)})
    return out


def taken_back(game):
    """The decisions the log's last undos took back and nothing has replaced since, the
    next to take again last: an undo takes back the decision standing last; a decision
    equal to the one taken back last takes it again (a redo, as :func:`redo` logs it);
    any other decision forgets them."""
    standing, undone = [], []
    for a in game.log()["actions"]:
        if isinstance(a, dict) and a.get("type") == "undo":
            if standing:
                undone.append(standing.pop())
        else:
            undone = undone[:-1] if undone and a == undone[-1] else []
            standing.append(a)
    return undone


def redo(game, decision):
    """The game with ``decision`` (one taken back by ``undo``, as its log recorded it)
    taken again: the log with it appended, replayed, so a run keeps its recorded proof
    (docs/game-log.md guarantee 9: the game of a log is its replay)."""
    data = log(game)
    data["actions"].append(decision)
    return load(data)


def take_back(game, count):
    """The game with its last ``count`` decisions taken back: ``count`` undos appended to
    its log, replayed once."""
    data = log(game)
    data["actions"].extend({"type": "undo"} for _ in range(count))
    return load(data)


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


def copy(game):
    """A game to act on apart from ``game``, in the same state (the advisor's search)."""
    return game.copy()

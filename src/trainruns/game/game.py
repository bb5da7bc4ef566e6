"""A game: a title's setup plus its log replayed (docs/game-log.md).

:meth:`Game.act` checks one decision and appends it; :meth:`Game.replay` rebuilds a
game from a log (``undo`` included: see :func:`.log.effective`). The current round's
current step lists the legal actions and processes one; whatever follows by rule
without a choice happens in :meth:`_advance` and is reported as ``events``.
"""

from __future__ import annotations

import copy
import importlib
import json
import random
import types

from trainruns.errors import InputError
from trainruns.game.action import validate
from trainruns.game.errors import Refusal
from trainruns.game.log import (MAX_ACTION_BYTES, MAX_LOG_BYTES, PROOF_FIELDS, effective, new_log, read_log,
                                recorded_proof)
from trainruns.game.repair import illegal, passes_before, repair
from trainruns.game.state import LaidTile
from trainruns.game.train import Train
from trainruns.titles import TITLES


def _json_size(value) -> int:
    return len(json.dumps(value))   # ASCII, as the log is written


# values deepcopy returns as they are (a Train and a laid tile too: frozen, their
# __deepcopy__ is themselves);
# a function is not among them: a closure is copied with its cells (:func:`_closure`)
_ATOMIC = frozenset({int, float, bool, str, bytes, complex, type(None), type, range, type(Ellipsis),
                     type(NotImplemented), type(len), Train, LaidTile})
_PLAIN: dict = {}   # class -> whether deepcopy copies it as its __dict__ (a plain instance)


def _plain(cls) -> bool:
    """Whether ``copy.deepcopy`` copies an instance of ``cls`` by a new object with its
    ``__dict__`` deep-copied: no copy hooks, no slots, no pickling state of its own."""
    kept = _PLAIN.get(cls)
    if kept is None:
        kept = _PLAIN[cls] = (
            getattr(cls, "__deepcopy__", None) is None and "__slots__" not in dir(cls)
            and cls.__reduce_ex__ is object.__reduce_ex__ and cls.__reduce__ is object.__reduce__
            and getattr(cls, "__getstate__", object.__getstate__) is object.__getstate__
            and getattr(cls, "__setstate__", None) is None and cls.__new__ is object.__new__
            and type(cls) is type and not issubclass(cls, (dict, list, tuple, set, frozenset)))
    return kept


_MISSING = object()


def _deep_copy(x, memo: dict):
    """``copy.deepcopy(x, memo)``, the same copy made faster for what a game holds
    (dicts, lists, tuples, sets and plain instances); anything else is deepcopy's."""
    cls = type(x)
    if cls in _ATOMIC:
        return x
    y = memo.get(id(x), _MISSING)
    if y is not _MISSING:
        return y
    atomic = _ATOMIC   # (the checks inline: most values are numbers and text)
    if cls is dict:
        y = memo[id(x)] = {}
        for k, v in x.items():
            y[k if type(k) in atomic else _deep_copy(k, memo)] = v if type(v) in atomic else _deep_copy(v, memo)
    elif cls is list:
        y = memo[id(x)] = []   # first, for a list that holds itself
        y += [v if type(v) in atomic else _deep_copy(v, memo) for v in x]
    elif cls is tuple:
        items = [v if type(v) in atomic else _deep_copy(v, memo) for v in x]
        y = memo.get(id(x), _MISSING)   # a tuple that holds itself through a list
        if y is _MISSING:
            y = x if all(a is b for a, b in zip(items, x)) else tuple(items)
            memo[id(x)] = y
    elif _plain(cls):
        y = memo[id(x)] = object.__new__(cls)
        d = y.__dict__
        for k, v in x.__dict__.items():
            d[k] = v if type(v) in atomic else _deep_copy(v, memo)
    elif cls is types.FunctionType:
        return x if x.__closure__ is None else _closure(x, memo)
    elif cls is random.Random:
        # deepcopy seeds a new generator from the system's entropy before setting its
        # state; the state alone (immutable) makes the same generator
        y = memo[id(x)] = random.Random.__new__(cls)
        y.setstate(x.getstate())
        y.__dict__.update((k, _deep_copy(v, memo)) for k, v in x.__dict__.items() if k != "gauss_next")
    else:
        return copy.deepcopy(x, memo)
    return y


def _closure(f, memo: dict):
    """A copy of the closure ``f`` whose cells hold copies of what ``f``'s cells hold.
    A step may keep a closure to call later (an offer's deal on acceptance, a
    protection's turn order): acting on a copy of the game must call the copy's, never
    change the game it was copied from, as deepcopy's copy (a function is kept as it
    is) would. (:func:`_deep_copy` looked ``f`` up in ``memo`` first.)"""
    cells = []
    for cell in f.__closure__:
        new = memo.get(id(cell), _MISSING)
        if new is _MISSING:
            new = memo[id(cell)] = types.CellType()
            try:
                contents = cell.cell_contents
            except ValueError:   # a cell not yet filled
                pass
            else:
                new.cell_contents = _deep_copy(contents, memo)
        cells.append(new)
    g = memo[id(f)] = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, tuple(cells))
    g.__kwdefaults__, g.__qualname__ = f.__kwdefaults__, f.__qualname__
    g.__dict__.update(f.__dict__)
    return g


def rules_class(title: str, where="title"):
    """The title's game engine: the ``Rules`` class of its package's ``game`` module
    (titles/<package>/game.py); every shipped title has one."""
    if title not in TITLES:
        raise InputError(f"no game engine for title {title!r} (games: {', '.join(TITLES)})", where)
    return importlib.import_module(f"trainruns.titles.{TITLES[title]}.game.rules").Rules


def _claimed_proof(action: dict, recorded: dict) -> str | None:
    """What a new ``run_routes`` says of its run's proof (``proven``, ``bound``) that the
    run the game made does not say: why it is refused, or None. The proof is the game's
    to record (a log keeps it, docs/game-log.md); an action may repeat it, never change
    it (what an action says is what happens)."""
    said = {k: action[k] for k in PROOF_FIELDS if k in action}
    if action.get("type") != "run_routes" or not said:
        return None
    made = {k: recorded[k] for k in PROOF_FIELDS if k in recorded}
    if all(k in made and made[k] == v and type(made[k]) is type(v) for k, v in said.items()):
        return None
    def shown(proof):
        return ", ".join(f"{k} {json.dumps(v)}" for k, v in proof.items())

    return (f"a run's proof is the game's to record: this run's is "
            f"{shown(made) or 'none (a declared run is not searched)'}, not {shown(said)}")


class Game:
    def __init__(self, title: str, players: list[str], seed=None, variants=(), config=None, where=None):
        """A new game; ``where`` (a log's file, a command) leads the place named by bad
        input in its frame or in the title's own checks of its setup."""
        self.header = new_log(title, players, seed, variants, config, where or "game")
        self.finished = False
        self.end_reason = None
        self.result = None
        self.entries: list[dict] = []   # the log's actions as recorded (undo included)
        self._size = None               # the log's size as compact JSON, once counted
        self.applied: list[dict] = []   # the decisions that stand
        # no round while the rules set the game up: an undo sets this same object up
        # again, and the rules must not see the round of the game being undone
        self.round = None
        try:
            self.rules = rules_class(title)(self, list(players), seed, list(self.header["variants"]), config)
        except InputError as e:   # the title's own checks of its players, variants and config
            if where is None:
                raise
            raise InputError(e.what, f"{where}: {e.where}" if e.where else where) from None
        self.state = self.rules.state
        self.round = self.rules.first_round()
        self._advance()

    # --- building ------------------------------------------------------------------------

    @classmethod
    def new(cls, log: dict, where="log") -> "Game":
        return cls(log["title"], log["players"], log.get("seed"), log.get("variants"), log.get("config"), where)

    @classmethod
    def replay(cls, log, upto: int | None = None, where="log") -> "Game":
        """The game of a log (or of its first ``upto`` actions). A recorded action the
        game refuses makes the log bad input."""
        data = read_log(log, where)
        game = cls.new(data, where)
        game._replay(data["actions"] if upto is None else data["actions"][:upto], where)
        return game

    @classmethod
    def repaired(cls, log, where="log") -> tuple["Game", list[dict]]:
        """The game of a log recorded before a rules fix that offers a new choice, with
        the passes declining it inserted (:func:`.repair.repair`), and those passes."""
        data = read_log(log, where)
        game = cls.new(data, where)
        return game, repair(game, effective(data["actions"], where), where)

    def _replay(self, entries: list, where: str):
        for i, a in enumerate(effective(entries, where)):
            try:
                self.apply_recorded(a, f"{where}: actions[{i}]")
            except Refusal as r:
                hint = ""
                if passes_before(self, a, f"{where}: actions[{i}]"):
                    hint = ("; it is legal after a pass declining a choice the rules now offer (a log from "
                            "before a rules fix: `trainruns play repair` inserts the pass)")
                raise illegal(i, r, where, hint) from None
        self.entries = list(entries)
        self._size = None

    def apply_recorded(self, a: dict, where: str):
        """Apply a decision a log recorded (its entry is the caller's to keep)."""
        self._apply(a, where, replaying=True)

    def log(self) -> dict:
        return dict(copy.deepcopy(self.header), actions=copy.deepcopy(self.entries))

    def _log_view(self) -> dict:
        """The log as :meth:`log` gives it, not copied: for measuring its size."""
        return dict(self.header, actions=self.entries)

    def copy(self) -> "Game":
        """A game to act on apart from this one, in the same state: its state copied,
        not replayed. The logs' records are never changed once made and the rules'
        tables never after the game starts (:meth:`GameRules.fixed`), so the copy shares
        them; the rest is :func:`_deep_copy`'s (deepcopy's copy, made faster)."""
        if self._size is None:
            self._size = _json_size(self._log_view())   # counted once, not once by each copy
        memo = {id(self.entries): list(self.entries), id(self.applied): list(self.applied),
                id(self.header): self.header}
        for part in self.rules.fixed():
            memo[id(part)] = part
        return _deep_copy(self, memo)

    # --- acting --------------------------------------------------------------------------

    def act(self, action, where="action"):
        """Check and apply one action (``undo`` included). Raises :class:`Refusal`
        (the game is unchanged) or :class:`InputError`."""
        a = validate(action, self.rules.action_types, where)
        size = _json_size(a)
        if size > MAX_ACTION_BYTES:
            raise InputError(f"an action is at most {MAX_ACTION_BYTES // 1024} kB as JSON (this one: {size:,} bytes)",
                             where)
        if self._size is None:
            self._size = _json_size(self._log_view())
        if self._size + size > MAX_LOG_BYTES:
            raise InputError(f"the game log would pass {MAX_LOG_BYTES // (1024 * 1024)} MB, the most it may hold",
                             where)
        if a["type"] == "undo":
            if not self.applied:
                raise Refusal("undo.nothing", "there is no decision to take back")
            # undo = the log replayed without the last decision, in this same object
            # (rounds, steps and the title's rules all hold it)
            self._restart(self.entries + [{"type": "undo"}])
            return
        entries = self.entries
        self._apply(a, where)
        wrong = _claimed_proof(a, self.applied[-1])
        if wrong:
            self._restart(entries)   # the run is made: the game put back as its log left it
            raise Refusal("run.proof", wrong)
        self.entries.append(self.applied[-1])
        self._size += _json_size(self.entries[-1]) + 2

    def _restart(self, entries: list):
        """This same object set up again and ``entries`` replayed (rounds, steps and the
        title's rules all hold it): undo, and taking back a decision refused once made."""
        h = self.header
        self.__init__(h["title"], h["players"], h["seed"], h["variants"], h["config"])
        self._replay(entries, "log")

    def _apply(self, action: dict, where: str, replaying: bool = False):
        """One decision: the current step processes it and says how the log records it.
        A replayed run keeps the proof its log recorded (:func:`.log.recorded_proof`); a
        run new to the game keeps only what its own search proved. A run's proof, when
        there is one, is in the state's events too (``run``)."""
        a = validate(action, self.rules.action_types, where)
        self.rules.check_ids(a, where)
        if self.finished:
            raise Refusal("game.finished", f"the game is over ({self.end_reason})")
        step = self.round.step()
        before = self.state.events
        self.state.events = []
        try:
            recorded = step.process(a)
        except Refusal:
            self.state.events = before
            raise
        recorded = recorded or a
        self.rules.after_action()
        if replaying:
            try:
                recorded = recorded_proof(a, recorded, where)
            except InputError:
                self.state.events = before
                raise
        if recorded.get("type") == "run_routes" and "proven" in recorded:
            self.state.event("run", corporation=recorded["corporation"], revenue=recorded.get("revenue"),
                             proven=recorded["proven"], bound=recorded["bound"])
        self.applied.append(recorded)
        self._advance()

    def _advance(self):
        while not self.finished:
            self.round.settle()
            if self.finished or not self.round.over:
                return
            self.round = self.rules.next_round()

    def finish(self, reason: str):
        self.finished = True
        self.end_reason = reason
        self.result = {p.name: self.rules.value(p.name) for p in self.state.players}
        self.state.event("game_end", reason=reason)

    # --- reading -------------------------------------------------------------------------

    def actions(self) -> list[dict]:
        if self.finished:
            return []
        return self.round.step().actions()

    def active(self) -> dict | None:
        if self.finished:
            return None
        return self.round.step().active()

    def to_json(self) -> dict:
        return self.rules.state_json()

    def position(self, corporation: str | None = None) -> dict:
        return self.rules.position(corporation)

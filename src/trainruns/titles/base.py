"""The declared interface between the route core and a title.

The core and the commands ask a title only what :class:`Title` declares; nothing
generic reads a title's attributes by name. A title is data plus these hooks:

- reading: :meth:`Title.read` turns position JSON into a :class:`Snapshot`, and every
  check of the input happens there (the JSON Schema of the title, then the title's own
  rules: phase, company, trains, tiles, tokens);
- building: :meth:`Title.board` turns a snapshot into a core
  :class:`~trainruns.route.board.Board`, a pure function (each call a fresh Board, the
  snapshot unchanged), so a game engine may hand over a snapshot and ask for boards.
  Every title reads into a frozen dataclass of its own (:meth:`Title.read_position`:
  1831's ``Position1831``, 1832's ``Position1832``, 1833NE's ``Position1833NE``, the
  custom map's ``PositionCustom``) and builds from that alone (:meth:`Title.build`);
- route model: optional, set on the Board by the title (1831's token-to-token runs,
  1833NE's interconnection bonus); it keeps no state between calls;
- moves: :class:`~trainruns.titles.moves.TitleMoves` (tile lays, token placements,
  train purchases), each title's own;
- wording: the rule ids and citations the audit gives (:attr:`Title.audit_sections`,
  :attr:`Title.audit_messages`), the title's own audit checks
  (:meth:`Title.audit_checks`), which generic rules its route model decides
  (:attr:`Title.audit_model_decides`), and how the routes it matched are valued as one
  run (:meth:`Title.audit_run`).

The custom map (the plain rules of docs/custom-map.md) is a title too (:mod:`.custom`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from trainruns.position.schema import check
from trainruns.route.board import Board
from trainruns.route.describe import describe_route
from trainruns.titles.moves import TitleMoves


@dataclass(frozen=True)
class Snapshot:
    """A position after every check: which title, the position as read (``data``, a
    private copy), where it came from (for messages), and ``position``: the title's
    typed reading (:meth:`Title.read_position`), which :meth:`Title.board` builds Boards
    from."""

    title: str
    data: dict
    where: str
    position: object


class Title(TitleMoves):
    """What every title declares. A subclass sets ``name`` and ``schema`` and
    implements :meth:`read_position` and :meth:`build`; :meth:`read` and :meth:`board`
    keep the snapshot between them for callers that hold on to one, and
    :meth:`build_board` goes straight through (a title may do it in one pass, laying
    the board out as it checks it, when that is quicker)."""

    name = ""
    schema = ""  # the JSON Schema of its positions (trainruns/position/schema/position-NAME.json)

    # --- wording (audit) ---------------------------------------------------------------
    audit_sections: dict = {}   # rule id -> rulebook section, cited after the message
    audit_messages: dict = {}   # rule id -> message template in the title's words
    # the generic rules a route model decides by itself (None: the audit's default set)
    audit_model_decides: frozenset | None = None
    # the rules oblige a company that can earn with a train to run at least one
    # (1831 5.6.6); the audit then refuses an empty declaration (``no-train-run``)
    audit_must_run: bool = False

    def audit_checks(self, board: Board, routes: list) -> list:
        """The title's own rules on a declared run: [(route index, rule id, message)]."""
        return []

    def audit_why_not(self, rs, stops: list, train: str) -> str | None:
        """Why no route of the model's set ``rs`` runs the declared ``stops`` (stop ids of
        ``rs.compiled``) for a ``train``-train, when the title can tell: a rule id of its
        :attr:`audit_messages` (a template given ``{train}`` and ``{stops}``), or ``(rule
        id, fields)`` whose fields the template uses too (``stop``: a stop id, given as
        its name); None leaves the audit's ``not-a-title-route``."""
        return None

    def audit_run(self, board: Board, rs, routes: list, picks: dict):
        """The declared routes a route model matched, valued as one run (a title whose
        run has rules of its own, such as 1831's bought track rights, 5.6.5).

        ``rs``: the model's route set (None when no route was matched); ``routes``: the
        declared routes; ``picks``: declared index -> route of ``rs`` for the routes
        without a problem. Returns ``({index: Route}, [(train, rule id, message)])``;
        by default each route as the model describes it, and no problem."""
        return {i: describe_route(rs, k, routes[i].train_spec) for i, k in picks.items()}, []

    # --- reading and building -----------------------------------------------------------

    def load(self, data: dict, where: str = "position", shaped: bool = False) -> Board:
        """Check a position dict of this title and build its Board in one pass (what
        :func:`trainruns.load_position` does: no snapshot kept, nothing copied).

        ``shaped``: the caller vouches that ``data`` fits the title's JSON Schema, since
        its own code built it (a game engine's position:
        :func:`trainruns.titles.load.load_engine_position`), so the schema is not walked again;
        the title's rules are checked all the same."""
        if not shaped:
            check(data, self.schema or self.name, where)
        return self.build_board(data, where)

    def read_trains(self, data: dict, where: str = "position") -> list | None:
        """The running company's trains of a schema-checked position dict, checked as
        :meth:`load` checks them, when the rest of its Board does not depend on them: a
        Board of the same map read before, with these trains, is then this position's
        (:func:`trainruns.game.route_adapter.board`). None where the title's rules make
        the Board from its trains too (a route model holding them, trains idled by a
        rule): the position is read whole."""

    def read_apart(self, data: dict, where: str = "position"):
        """The typed reading (:meth:`read_position`) of a schema-checked position dict
        but for the running company's trains, which :meth:`with_trains` adds, for a
        title whose Board holds its trains in more than its ``trains`` (a route model
        built with them), so that :meth:`read_trains` cannot apply: a game asks about
        one map with many sets of trains, and the map is then read once
        (:func:`trainruns.game.route_adapter.board`). None where the title does not
        read apart."""
        return None

    def with_trains(self, reading, data: dict, where: str = "position"):
        """The typed reading of ``data``, a position that differs only in its ``trains``
        from the one :meth:`read_apart` read as ``reading``, its trains checked as
        :meth:`read_position` checks them."""
        raise NotImplementedError

    def read(self, data: dict, where: str = "position") -> Snapshot:
        """Check a position dict of this title (schema, then the title's rules) and
        return its snapshot. Bad input raises :class:`~trainruns.errors.InputError`."""
        check(data, self.schema or self.name, where)
        data = copy.deepcopy(data)
        return Snapshot(self.name, data, where, self.read_position(data, where))

    def board(self, snapshot: Snapshot) -> Board:
        """A fresh Board of ``snapshot`` (pure: the snapshot is not changed)."""
        return self.build(snapshot.position)

    def read_position(self, data: dict, where: str):
        """The typed reading of a schema-checked position dict, every rule checked (a
        frozen dataclass of the title's own)."""
        raise NotImplementedError

    def build(self, position) -> Board:
        """The Board of a typed reading (pure: a fresh Board each call)."""
        raise NotImplementedError

    def build_board(self, data: dict, where: str) -> Board:
        """The Board of a schema-checked position dict, checking the title's rules."""
        return self.build(self.read_position(data, where))

"""Audit a declared run: is it legal, every reason why not, and how much better the best is.

A declaration lists, per train, the stops it runs, and may pin the track by the hexes it
runs through (in order, as ``solve --json`` prints them)::

    {"routes": [{"train": "3", "stops": ["B2.0", "C3.0", "D4.0"],
                 "hexes": ["B2", "C3", "D4"]}]}

A declaration is legal when *some* choice of track makes all its routes legal together
(docs/position-format.md). That is decided exactly: between each pair of consecutive stops the
candidates are the chains of the :class:`~trainruns.route.compile.CompiledBoard` from the one
to the other, and a backtracking search picks one chain per leg so that no track bit
(path, shared hex side, junction) is used twice in the whole run; within a route that is
"uses no track twice", across trains "the trains share no track". The hexes pin, when
given, must be exactly the hexes the chosen track runs through.

**Bad input or a problem of the declaration?** The boundary:

- *Bad input* (:class:`~trainruns.errors.InputError`, exit 2): anything that stops the
  declaration from being read as a list of trains with stop names: the file is missing
  or not JSON, it is not an object with a list ``routes``, a route is not an object,
  its ``train`` is missing or not a string/number, ``stops`` is missing or not a list, a
  stop is not a string of the form ``HEX.K`` (``B2.0``), or ``hexes`` is given and is
  not a list of strings.
- *A problem* (exit 1): a well-formed declaration that says something false about the
  board or the rules: a stop or hex the board does not have (``unknown-stop``,
  ``unknown-hex``), a train the corporation does not own (``unknown-train``), and every
  rule below. These are what an auditor is asked to find, so all of them are reported.

Rule ids (stable, kebab-case): ``unknown-train``, ``train-declared-twice``,
``unknown-stop``, ``unknown-hex``, ``too-few-stops``, ``too-many-stops``,
``stop-repeated``, ``stop-not-enterable``, ``passes-offboard``, ``passes-blocked-city``,
``no-token``, ``stops-not-connected``, ``track-reused``, ``hexes-not-followed``,
``track-shared``, and ``not-a-title-route`` for titles with their own route model
(1831's token-to-token and commuter runs). For those, the model's list of legal routes
(:func:`trainruns.route.enumeration.enumerate_all`) decides what only it knows (the rules in
``ROUTE_MODEL_DECIDES``: length, repeats, passing, tokens) and the track: a declared
route must be one of its routes (stops in either order, hexes pin honoured), the trains'
routes pairwise disjoint, and each is valued as the model values it. A route of fewer
than two stops is ``not-a-title-route`` there too. The title then values the matched
routes as one run (``audit_run`` on its title object): 1831 chooses which bought track
rights each route runs to, as ``solve`` does, and names a right no choice runs to
(``track-right-unused``, 5.6.5). A title whose rules oblige a company to run a train
when one can earn (``audit_must_run``, 1831 5.6.6) refuses an empty declaration then
(``no-train-run``).

Messages are sentences a player understands. A title cites its rulebook: it may give
``audit_sections`` (rule id -> section, appended as "(rulebook: ...)") and
``audit_messages`` (rule id -> message template, see ``MESSAGES``) on its title object.
A title object may also provide ``audit_checks(board, routes) -> [(route index, rule,
message)]`` for rules of its own.

The declaration is valued as the rules value it (each route: its counted stops, the
best ``counts`` of them with a token city among them, plus the bonuses it earns), and
the proven best run (:func:`trainruns.solve`) is given with the difference.
"""

from __future__ import annotations

import copy
import os
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from trainruns.errors import InputError
from trainruns.position.reader import read_json
from trainruns.position.schema import check
from trainruns.route.board import OFFBOARD, Board, stop_name
from trainruns.route.compile import CompiledBoard, compile_board
from trainruns.route.describe import describe_route
from trainruns.route.result import Route, Run, hexes_along
from trainruns.route.routeset import train_kinds
from trainruns.route.search import solve
from trainruns.route.value import compiled_bonuses
from trainruns.route.value import counted as counted_stops
from trainruns.services.audit_track import choose_track, first_clashes, pick_disjoint
from trainruns.titles.load import load_position

_STOP = re.compile(r"^([A-Z]+\d+)\.(\d+)$")

# Default sentence per rule id (a title may override any of them). Fields: {train} "The
# 3-train", {other} "the 4-train", {corporation}, {stop}, {stops}, {a}, {b}, {n}, {limit},
# {times}, {hexes}, {hex}, {name}, {owned}, {detail}.
MESSAGES = {
    "unknown-train": "{corporation} owns no {name}-train (its trains: {owned}).",
    "train-declared-twice": "{train} is declared {n} times but {corporation} owns {owned} of them; "
                            "each train runs at most once.",
    "unknown-stop": "There is no stop {stop}: {detail} (a stop is HEX.K, K counting the hex's "
                    "stops from 0).",
    "unknown-hex": "There is no hex {hex} on the board, so the route cannot run through it.",
    "too-few-stops": "{train} runs {n} stop(s); a route needs at least 2.",
    "too-many-stops": "{train} visits {n} stops but may visit at most {limit}.",
    "too-many-nontowns": "{train} visits {n} stops that are not towns but may visit at most {limit}.",
    "stop-repeated": "{train} visits {stop} {times}; a route visits each stop at most once.",
    "stop-not-enterable": "{corporation} may not run to or through {stop}.",
    "passes-offboard": "{train} runs through the off-board {stop}; an off-board may only "
                       "start or end a route.",
    "passes-blocked-city": "{train} runs through {stop}, which is full of other companies' "
                           "tokens; such a city may only start or end a route.",
    "no-token": "{train}'s route includes no city holding a token of {corporation}; every "
                "route must.",
    "stops-not-connected": "{train}: no track joins {a} to {b} without passing another stop.",
    "track-reused": "{train} cannot run {stops}: every way along the track uses some track "
                    "(a path or a hex edge) twice.",
    "hexes-not-followed": "{train}: no track joining {stops} runs through exactly the hexes "
                          "{hexes}.",
    "track-shared": "{train} and {other} can only run on the same track: every choice of "
                    "track makes them share a path or hex edge, and one company's trains "
                    "may not.",
    "not-a-title-route": "{train}: {stops} is not a route this title's rules allow.",
    "no-train-run": "{corporation} declares no train, but its trains can earn ${best}; it must "
                    "run at least one.",
}

# Rules a title with its own route model decides by its route set, not generically.
# Passing a stop stays generic: the board's ``passable`` marks are the title's own
# (1831 5.2.4.1, 5.6.2.2: mapformat.mark_blocks), and the model reads the same marks.
ROUTE_MODEL_DECIDES = frozenset({"too-few-stops", "too-many-stops", "stop-repeated", "no-token"})

@dataclass
class Problem:
    """One broken rule: which train, the stable rule id, and a sentence."""

    train: str
    rule: str
    message: str

    def to_json(self):
        return {"train": self.train, "rule": self.rule, "message": self.message}


@dataclass
class DeclaredRoute:
    """One declared route, read and valued.

    ``refs`` has ``None`` for a stop the board does not have; ``track`` is the track the
    audit chose (empty when no legal choice exists); ``revenue`` is what the route earns
    by the rules (its known stops, counted as the train counts, plus bonuses)."""

    train: str
    labels: list[str]
    refs: list
    hexes: list[str] | None = None
    revenue: int = 0
    counted: list[bool] = field(default_factory=list)
    values: list[int] = field(default_factory=list)
    bonuses: list[tuple[str, int]] = field(default_factory=list)
    track: list[tuple[str, int]] = field(default_factory=list)
    train_spec: object = None  # the board's Train, None for an unknown train
    chains: list = field(default_factory=list)  # chain ids of the chosen track
    model_route: object = None  # a title route model's Route for it (value, track)

    def to_json(self):
        out = {"train": self.train, "stops": list(self.labels), "revenue": self.revenue,
               "values": list(self.values)}
        if self.counted and not all(self.counted):
            out["counted"] = list(self.counted)
        if self.bonuses:
            out["bonuses"] = [{"name": n, "amount": a} for n, a in self.bonuses]
        if self.track:
            out["hexes"] = hexes_along(self.track)
        return out

    def as_route(self) -> Route:
        earned = (list(self.model_route.earned) if self.model_route is not None
                  else [[("value", v)] if c else [] for v, c in zip(self.values, self.counted)])
        return Route(train=self.train, stops=[r for r in self.refs if r is not None],
                     revenue=self.revenue, counted=list(self.counted), track=list(self.track),
                     bonuses=list(self.bonuses), earned=earned)


@dataclass
class AuditResult:
    """The verdict: legal or not, every problem, the declared and the best revenue."""

    board: Board
    routes: list[DeclaredRoute]
    problems: list[Problem]
    best: Run

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def declared_revenue(self) -> int:
        return sum(r.revenue for r in self.routes)

    @property
    def best_revenue(self) -> int:
        return self.best.revenue

    @property
    def difference(self) -> int:
        """How much more the best run earns than the declaration (0: it is a best run)."""
        return self.best_revenue - self.declared_revenue

    def verdict(self) -> str:
        """One line: legal or not, and whether a better run exists."""
        head = "the declared run is legal" if self.legal else \
            f"the declared run is NOT legal ({len(self.problems)} problem(s))"
        proven = "" if self.best.optimal else " (best found, not proven optimal)"
        if self.difference > 0:
            return f"{head}; a better run exists: +${self.difference}{proven}"
        if self.legal:
            return f"{head} and earns the most possible{proven}"
        return head

    def to_json(self):
        return {
            "legal": self.legal,
            "declared_revenue": self.declared_revenue,
            "best_revenue": self.best_revenue,
            "difference": self.difference,
            "better_run_exists": self.difference > 0,
            "verdict": self.verdict(),
            "problems": [p.to_json() for p in self.problems],
            "routes": [r.to_json() for r in self.routes],
            "best": self.best.to_json(),
        }


# --- reading the declaration (bad input raises) ---------------------------------------


def read_declaration(source, where=None):
    """A declaration (path or parsed dict) as ``[(train, [stop labels], hexes or None)]``.

    Only the structure is checked here (see the module docstring for the boundary);
    whether the stops exist is the audit's business."""
    if isinstance(source, (str, os.PathLike)):
        where = where or str(source)
        source = read_json(source, "declared routes")
    where = where or "declared routes"
    if isinstance(source, dict):
        check(source, "declared", where)  # every object of the declaration: schema/declared.json
    routes = source.get("routes") if isinstance(source, dict) else None
    if not isinstance(routes, list):
        raise InputError("a declaration is an object with a list 'routes'", where)
    out = []
    for i, r in enumerate(routes):
        w = f"{where}: routes[{i}]"
        if not isinstance(r, dict):
            raise InputError("a declared route is an object with 'train' and 'stops'", w)
        train = r.get("train")
        if isinstance(train, int) and not isinstance(train, bool):
            train = str(train)
        if not isinstance(train, str) or not train:
            raise InputError("a declared route needs a 'train' (its name, such as \"3\")", w)
        stops = r.get("stops")
        if not isinstance(stops, list):
            raise InputError("a declared route needs a list 'stops'", w)
        for s in stops:
            if not isinstance(s, str) or not _STOP.match(s):
                raise InputError(f"{s!r} is not a stop name like 'B2.0' (hex.stop)", w)
        hexes = r.get("hexes")
        if hexes is not None and (not isinstance(hexes, list)
                                  or not all(isinstance(h, str) for h in hexes)):
            raise InputError("'hexes' must be a list of hex ids such as [\"B2\", \"C3\"]", w)
        out.append((train, list(stops), list(hexes) if hexes is not None else None))
    return out


# --- the audit -----------------------------------------------------------------------


def audit(position_or_board, declared, time_limit: float | None = None,
          best: Run | None = None) -> AuditResult:
    """Audit ``declared`` (path or dict) against a position (path, dict or Board).

    ``best``: a run already solved for this board (skips the search); else
    :func:`trainruns.solve` finds it, within ``time_limit`` seconds if given."""
    board = position_or_board if isinstance(position_or_board, Board) else load_position(position_or_board)
    decl = read_declaration(declared)
    auditor = _Auditor(board)
    routes, problems = auditor.run(decl)
    if best is None:
        best = solve(board, time_limit=time_limit)
    if not decl and best.revenue > 0 and auditor.title.audit_must_run:
        auditor._report("", "no-train-run", best=best.revenue)  # (its list is ``problems``)
    return AuditResult(board=board, routes=routes, problems=problems, best=best)


class _Auditor:
    """Holds the board, its compiled track and the title's wording while one declaration
    is checked. Each ``_check_*`` method checks one rule and records its problems."""

    def __init__(self, board: Board, compiled: CompiledBoard | None = None):
        self.board = board
        self.compiled = compiled or compile_board(board)
        # Track questions are asked of a board where every stop may be entered: the
        # compiler drops chains into stops a corporation may not enter, but "is there
        # track from A to B" must not turn into a second, misleading problem when the
        # real one is "you may not enter B" (that one is reported on its own).
        self.track = self.compiled
        if any(not s.enterable for h in board.hexes.values() for s in h.stops):
            relaxed = copy.deepcopy(board)
            for h in relaxed.hexes.values():
                for s in h.stops:
                    s.enterable = True
            self.track = compile_board(relaxed)
        self._legs = {}
        for c, (a, b) in enumerate(zip(self.track.chain_from.tolist(), self.track.chain_to.tolist())):
            self._legs.setdefault((a, b), []).append(c)
        self._chain_mask = [sum(int(w) << (64 * i) for i, w in enumerate(row))
                            for row in self.track.chain_bits]
        self._chain_hexes = [self._hexes_of_chain(c) for c in range(self.track.n_chains)]
        self.sections, self.messages, self.title = _wording(board)
        self.problems: list[Problem] = []
        self._faulty = set()  # id() of the routes with a problem
        # With its own route model a title decides these rules itself (1831 runs to a
        # city twice on commuter runs, its trains' lengths are its own): the generic
        # check would be wrong, and the model's verdict is ``not-a-title-route`` or the
        # rule the title names (:meth:`~trainruns.titles.base.Title.audit_why_not`).
        self.model_decides = set()
        if board.route_model is not None:
            self.model_decides = set(self.title.audit_model_decides or ROUTE_MODEL_DECIDES)

    # -- driver --

    def run(self, decl):
        routes = [self._read_route(train, labels, hexes) for train, labels, hexes in decl]
        self._declared = Counter(r.train for r in routes)  # routes per train name
        self._check_trains(routes)
        for i, r in enumerate(routes):
            self._check_route(i, r, routes)
        if self.board.route_model is None:
            self._check_track(routes)
        # (a title's route model decides track itself: see _check_route_model)
        self._check_title_rules(routes)
        for r in routes:
            self._value(r)
        return routes, self.problems

    def _read_route(self, train, labels, hexes):
        refs = []
        for s in labels:
            m = _STOP.match(s)
            hex_id, k = m.group(1), int(m.group(2))
            hx = self.board.hexes.get(hex_id)
            refs.append((hex_id, k) if hx is not None and k < len(hx.stops) else None)
        spec = next((t for t in self.board.trains if t.name == train), None)
        return DeclaredRoute(train=train, labels=labels, refs=refs, hexes=hexes, train_spec=spec)

    def _report(self, route, rule, template=None, **fields):
        """A generic check's problem of ``rule`` (:meth:`_record`), left to the title's
        route model where it decides that rule."""
        if rule not in self.model_decides:
            self._record(route, rule, template, **fields)

    def _record(self, route, rule, template=None, **fields):
        """Record a problem of ``rule``; ``template`` picks another sentence for it."""
        key = template or rule
        template = self.messages.get(key) or MESSAGES[key]
        fields.setdefault("corporation", self.board.corporation)
        if "train" in fields:  # it opens the sentence ("The 3MX-train": str.capitalize lowers the rest)
            fields["train"] = fields["train"][:1].upper() + fields["train"][1:]
        text = template.format(**fields)
        section = self.sections.get(rule)
        if section:
            text = f"{text} (rulebook: {section})"
        train = route.train if isinstance(route, DeclaredRoute) else route
        self._faulty.add(id(route))
        self.problems.append(Problem(train=train, rule=rule, message=text))

    def _name(self, ref):
        return stop_name(self.board, ref)

    def _train_words(self, routes, i):
        """"the 3-train", or "the 3-train of route 2" when two routes name the 3."""
        name = routes[i].train
        return f"the {name}-train" + (f" of route {i + 1}" if self._declared[name] > 1 else "")

    # -- rules about the trains --

    def _check_trains(self, routes):
        """A route is run by a train the corporation owns, each train at most once
        (``unknown-train``; ``train-declared-twice`` for the declarations beyond the
        number of such trains the corporation owns)."""
        owned = Counter(t.name for t in self.board.trains)
        seen = Counter()
        for i, r in enumerate(routes):
            seen[r.train] += 1
            if r.train not in owned:
                names = ", ".join(t.name for t in self.board.trains) or "none"
                self._report(r, "unknown-train", name=r.train, owned=names)
            elif seen[r.train] > owned[r.train]:
                self._report(r, "train-declared-twice", train=f"The {r.train}-train", n=self._declared[r.train],
                             owned=owned[r.train])

    # -- rules about one route, without track --

    def _check_route(self, i, r, routes):
        """Every rule a route breaks whatever track it takes."""
        who = self._train_words(routes, i)
        self._check_known_stops(r)
        self._check_known_hexes(r)
        self._check_length(r, who)
        self._check_repeats(r, who)
        self._check_enterable(r)
        self._check_passing(r, who)
        self._check_token(r, who)
        self._check_connected(r, who)

    def _check_known_stops(self, r):
        """Every stop named exists on the board (``unknown-stop``)."""
        for label, ref in zip(r.labels, r.refs):
            if ref is None:
                hex_id, k = _STOP.match(label).groups()
                hx = self.board.hexes.get(hex_id)
                detail = (f"the board has no hex {hex_id}" if hx is None else
                          f"hex {hex_id} has no stops" if not hx.stops else
                          f"hex {hex_id} has only {len(hx.stops)} stop(s)")
                self._report(r, "unknown-stop", stop=label, detail=detail)

    def _check_known_hexes(self, r):
        """Every hex of the ``hexes`` pin exists on the board (``unknown-hex``)."""
        for h in dict.fromkeys(r.hexes or []):
            if h not in self.board.hexes:
                self._report(r, "unknown-hex", hex=h)

    def _check_length(self, r, who):
        """A route has 2 stops at least and at most the train's reach: ``visits`` stops
        in all and ``nontowns`` that are not towns (N+S trains) (``too-few-stops``,
        ``too-many-stops``)."""
        n = len(r.labels)
        if n < 2:
            self._report(r, "too-few-stops", train=who, n=n)
        t = r.train_spec
        if t is None:
            return
        if n > t.visits:
            self._report(r, "too-many-stops", train=who, n=n, limit=t.visits)
        elif t.nontowns < t.visits:
            nontowns = sum(1 for ref in r.refs if ref is not None and self.board.stop(ref).kind != "town")
            if nontowns > t.nontowns:
                self._report(r, "too-many-stops", train=who, n=nontowns, limit=t.nontowns,
                             template="too-many-nontowns")

    def _check_repeats(self, r, who):
        """A route visits no stop twice (``stop-repeated``, once per repeated stop)."""
        counts = Counter(ref for ref in r.refs if ref is not None)
        for ref, n in counts.items():
            if n > 1:
                self._report(r, "stop-repeated", train=who, stop=self._name(ref),
                             times="twice" if n == 2 else f"{n} times")

    def _check_enterable(self, r):
        """A title may forbid the corporation a stop altogether (1832: the Coal Fields
        without a WVCF token) (``stop-not-enterable``)."""
        for ref in dict.fromkeys(ref for ref in r.refs if ref is not None):
            if not self.board.stop(ref).enterable:
                self._report(r, "stop-not-enterable", stop=self._name(ref))

    def _check_passing(self, r, who):
        """Only a route's two ends may be off-boards or cities full of other companies'
        tokens (``passes-offboard``, ``passes-blocked-city``)."""
        for ref in r.refs[1:-1]:
            if ref is None:
                continue
            stop = self.board.stop(ref)
            if not stop.enterable or self.board.is_passable(stop):
                continue  # a forbidden stop is reported once, as such
            rule = "passes-offboard" if stop.kind == OFFBOARD else "passes-blocked-city"
            self._report(r, rule, train=who, stop=self._name(ref))

    def _check_token(self, r, who):
        """A route includes a city with the corporation's token (``no-token``). With it
        on the route, an N/M train's counted stops can always include it."""
        if not any(ref is not None and self._own(ref) for ref in r.refs) and r.refs:
            self._report(r, "no-token", train=who)

    def _check_connected(self, r, who):
        """Consecutive stops are joined by track with no stop between them
        (``stops-not-connected``)."""
        for a, b in zip(r.refs, r.refs[1:]):
            if a is None or b is None or a == b:
                continue
            if not self._candidates(a, b):
                self._report(r, "stops-not-connected", train=who, a=self._name(a),
                             b=self._name(b))

    def _own(self, ref):
        stop = self.board.stop(ref)
        return stop.enterable and self.board.is_own_token(stop)

    def _candidates(self, a, b):
        return self._legs.get((self.track.stop_id(a), self.track.stop_id(b)), [])

    # -- rules about track --

    def _check_track(self, routes):
        """Choose track for every route so that no piece of track is used twice in the
        whole run: within a route (``track-reused``; ``hexes-not-followed`` when only
        the hexes pin prevents it) and between trains (``track-shared``)."""
        plans = {}
        for i, r in enumerate(routes):
            if len(r.refs) < 2 or any(ref is None for ref in r.refs):
                continue
            legs = [self._candidates(a, b) for a, b in zip(r.refs, r.refs[1:])]
            if any(not leg for leg in legs):
                continue  # already reported as stops-not-connected
            if r.hexes is not None and any(h not in self.board.hexes for h in r.hexes):
                continue  # already reported as unknown-hex
            who = self._train_words(routes, i)
            stops = " - ".join(self._name(ref) for ref in r.refs)
            plan = (legs, r.hexes)
            if choose_track(self._chain_mask, self._chain_hexes, [plan]) is None:
                if r.hexes is not None and choose_track(self._chain_mask, self._chain_hexes, [(legs, None)]) is not None:
                    self._report(r, "hexes-not-followed", train=who, stops=stops,
                                 hexes=", ".join(r.hexes))
                else:
                    self._report(r, "track-reused", train=who, stops=stops)
                continue
            if r.train_spec is not None:  # a train the corporation lacks does not run
                plans[i] = plan
        order = sorted(plans)
        chosen = choose_track(self._chain_mask, self._chain_hexes, [plans[i] for i in order])
        if chosen is None:
            self._report_shared(routes, plans, order)
            return
        for i, chains in zip(order, chosen):
            routes[i].chains = chains
            routes[i].track = [self.track.paths[p] for c in chains for p in self._chain_paths(c)]

    def _report_shared(self, routes, plans, order):
        """Name, for each train that cannot run apart from an earlier one, the first such
        train; if every pair can but not all together, name the whole group."""
        def key(i):
            legs, hexes = plans[i]
            return tuple(tuple(leg) for leg in legs), None if hexes is None else tuple(hexes)

        def reach(i):
            mask = 0
            for leg in plans[i][0]:
                for c in leg:
                    mask |= self._chain_mask[c]
            return mask

        pairs = first_clashes(order, key, reach,
                              lambda i, j: choose_track(self._chain_mask, self._chain_hexes,
                                                        [plans[i], plans[j]]) is None)
        for i, j in pairs:
            self._report(routes[j], "track-shared", train=self._train_words(routes, j),
                         other=self._train_words(routes, i))
        if not pairs:
            names = [self._train_words(routes, i) for i in order]
            self._report(routes[order[-1]], "track-shared", train=", ".join(names[:-1]),
                         other=names[-1])

    def _chain_paths(self, c):
        comp = self.track
        return comp.chain_paths[comp.chain_path_ptr[c]:comp.chain_path_ptr[c + 1]].tolist()

    def _hexes_of_chain(self, c):
        return hexes_along([self.track.paths[p] for p in self._chain_paths(c)])

    # -- title rules --

    def _check_title_rules(self, routes):
        """A title's own rules (``audit_checks`` on its title object), and for a title
        with its own route model, that each route is one the model allows."""
        for i, rule, message in self.title.audit_checks(self.board, routes):
            self.problems.append(Problem(train=routes[i].train, rule=rule, message=message))
        if self.board.route_model is not None:
            self._check_route_model(routes)

    def _check_route_model(self, routes):
        """Titles whose routes are not the plain rules' (1831: token to token, typed
        trains) list every legal route. Each declared route that passed the generic
        checks must be one of them (``not-a-title-route``), and the trains must still
        fit on disjoint track when only such routes are allowed (``track-shared``);
        the routes are then valued as the model values them."""
        # a route already known to be illegal is not looked up again: one reason is enough
        ready = [i for i, r in enumerate(routes)
                 if r.train_spec is not None and None not in r.refs and id(r) not in self._faulty]
        for i in [i for i in ready if len(routes[i].refs) < 2]:
            # (the generic too-few-stops is the model's to decide: no route has one stop)
            self._report(routes[i], "not-a-title-route", train=self._train_words(routes, i),
                         stops=" - ".join(self._name(ref) for ref in routes[i].refs) or "an empty list of stops")
        ready = [i for i in ready if len(routes[i].refs) >= 2]
        if not ready:
            self._settle_run(None, routes, {})
            return
        # every legal route, not just those the title's own assignment keeps (1831 keeps
        # only the best run when track rights were bought)
        # (only along the declared stops: a full-size map has far too many to list)
        along = [[self.compiled.stop_id(ref) for ref in routes[i].refs] for i in ready]
        rs = self.board.route_model.all_routes(self.compiled, train_kinds(self.board), along=along)
        first = rs.stops[rs.ptr[:-1]] if len(rs) else np.zeros(0, np.int64)
        last = rs.stops[rs.ptr[1:] - 1] if len(rs) else np.zeros(0, np.int64)
        length = np.diff(rs.ptr)

        def matching(stops):
            """Routes of the set with exactly these stops, in this order or reversed."""
            a, b = stops[0], stops[-1]
            near = np.flatnonzero((length == len(stops)) & (((first == a) & (last == b)) | ((first == b) & (last == a))))
            out = []
            for k in near.tolist():
                seq = tuple(rs.stops[rs.ptr[k]:rs.ptr[k + 1]].tolist())
                if seq == stops or seq[::-1] == stops:
                    out.append(k)
            return out

        options = {}
        for i in ready:
            r = routes[i]
            stops = tuple(self.compiled.stop_id(ref) for ref in r.refs)
            kind = rs.kinds.index(r.train) if r.train in rs.kinds else -1
            ks = [k for k in matching(stops) if kind >= 0 and rs.values[k, kind] >= 0]
            if r.hexes is not None:
                ks = [k for k in ks if hexes_along(describe_route(rs, k, r.train_spec).track) == r.hexes]
            if not ks:
                why = self.title.audit_why_not(rs, list(stops), r.train) or "not-a-title-route"
                rule, fields = (why, {}) if isinstance(why, str) else why
                fields = {k: self._name(self.compiled.stop_refs[v]) if k == "stop" else v for k, v in fields.items()}
                self._record(r, rule, train=self._train_words(routes, i),
                             stops=" - ".join(self._name(ref) for ref in r.refs), **fields)
            else:
                options[i] = ks
        masks = {k: sum(int(w) << (64 * j) for j, w in enumerate(rs.bits[k]))
                 for ks in options.values() for k in ks}
        order = sorted(options)
        picked = pick_disjoint(order, options, masks)
        if picked is None:
            def reach(i):
                mask = 0
                for k in options[i]:
                    mask |= masks[k]
                return mask

            pairs = first_clashes(order, lambda i: tuple(options[i]), reach,
                                  lambda i, j: pick_disjoint([i, j], options, masks) is None)
            for i, j in pairs or [(order[-2], order[-1])]:
                self._report(routes[j], "track-shared", train=self._train_words(routes, j),
                             other=self._train_words(routes, i))
            self._settle_run(rs, routes, {})
            return
        self._settle_run(rs, routes, dict(zip(order, picked)))

    def _settle_run(self, rs, routes, picks):
        """The title values the matched routes as one run and names what the run as a
        whole breaks (1831: a bought track right no train runs to, 5.6.5): the title's
        rule, asked of the title (:meth:`~trainruns.titles.base.Title.audit_run`)."""
        described, problems = self.title.audit_run(self.board, rs, routes, picks)
        for i, route in described.items():
            routes[i].model_route = route
            routes[i].track = list(route.track)
        for train, rule, message in problems:
            section = self.sections.get(rule)
            self.problems.append(Problem(train=train, rule=rule,
                                         message=f"{message} (rulebook: {section})" if section else message))

    # -- value --

    def _value(self, r):
        """What the route earns by the rules: the train counts its ``counts`` most
        valuable stops (a token city among them), plus every bonus whose stop groups
        the route touches and that pays this train (as kernels/values.py does)."""
        refs = [ref for ref in r.refs if ref is not None]
        r.values = [self.board.stop(ref).value for ref in refs]
        if r.train_spec is None or not refs:
            r.counted = [False] * len(refs)
            r.revenue = 0
            return
        own = [self._own(ref) for ref in refs]
        counts = r.train_spec.counts
        if any(own):
            r.counted = counted_stops(r.values, own, counts)
        else:  # an illegal route; count its best stops so the number still means something
            best = sorted(range(len(refs)), key=lambda i: -r.values[i])[:counts]
            r.counted = [i in best for i in range(len(refs))]
        r.bonuses = compiled_bonuses(self.track, [self.track.stop_id(ref) for ref in refs], r.train)
        r.revenue = sum(v for v, c in zip(r.values, r.counted) if c) + sum(a for _, a in r.bonuses)
        if r.model_route is not None:  # the title's route model knows its own values
            m = r.model_route
            r.counted, r.bonuses, r.revenue = list(m.counted), list(m.bonuses), m.revenue
            # what each counted stop earns there (1831: city plus token), so the values add up
            r.values = [sum(a for _, a in e) if e else v for e, v in zip(m.earned, r.values)] \
                if len(m.earned) == len(r.values) else r.values


def _wording(board):
    """The title's rulebook sections and message overrides (its declared wording,
    :class:`~trainruns.titles.base.Title`), and the title (the custom map is one too)."""
    from trainruns import titles

    title = titles.of_board(board)
    return dict(title.audit_sections), dict(title.audit_messages), title

"""The board: hexes with their stops and track, tokens, the phase, the trains.

This is the model every title and every custom map is turned into before compiling.
Values are already those of the current phase, and title rules (a private company's
bonus, a hex a corporation may not enter) are already applied by the title's hooks, so
the compiler and the search need to know nothing about any title.

Track is a list of *paths* per hex; a path joins two *ends*: a hex side (``("side", e)``,
e in 0-5, already rotated), a stop of the hex (``("stop", k)``) or a junction of the hex
(``("junction", k)``: a point where track meets that is not a stop and earns nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field

CITY, TOWN, OFFBOARD = "city", "town", "offboard"
STOP_KINDS = (CITY, TOWN, OFFBOARD)

End = tuple  # ("side", e) | ("stop", k) | ("junction", k)


@dataclass
class Stop:
    """A revenue location: a city (with token slots), a town or an off-board area."""

    kind: str
    value: int
    slots: int = 0
    tokens: list[str] = field(default_factory=list)
    name: str | None = None
    # Title rules may forbid a corporation to reach a stop at all (1832: the Coal Fields
    # without a coal token) or to run through it; None means "by the plain rules".
    enterable: bool = True
    passable: bool | None = None


@dataclass
class Hex:
    """One hex of the map as it stands: its stops and its track paths."""

    id: str
    x: int
    y: int
    stops: list[Stop] = field(default_factory=list)
    paths: list[tuple[End, End]] = field(default_factory=list)
    junctions: int = 0
    name: str | None = None
    tile: str | None = None
    rotation: int = 0
    # Facts a title keeps for drawing or tile laying (colour, terrain, labels, ...).
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Train:
    """A train as the search sees it.

    ``visits``: most stops the route may have; ``counts``: how many of them earn (the
    best ones); ``nontowns``: most stops that are not towns. A plain N-train is
    (N, N, N); an N/M train visits M and counts the best N; an N+S train visits N+S,
    of which at most N are not towns, and every stop counts.
    """

    name: str
    visits: int
    counts: int
    nontowns: int

    @property
    def kind(self):
        return (self.visits, self.counts, self.nontowns)


@dataclass(frozen=True)
class Bonus:
    """Extra revenue for a route that visits at least one stop of every group.

    A group is a frozenset of stop references ``(hex id, stop index)``. One group gives a
    stop bonus (a port, a cotton token); two give a connection bonus (Boston-Montreal).
    ``trains`` limits the bonus to trains with those names (empty: every train).
    """

    name: str
    amount: int
    groups: tuple[frozenset, ...]
    trains: frozenset = frozenset()


class RouteModel:
    """What a title's route model declares (``Board.route_model``): a title
    whose routes are not the plain rules' lists them itself. It keeps no state between
    calls: each call works from its arguments alone.

    - ``routes(compiled, kinds, deadline, progress, limits)``: the route set the search
      assigns trains to (a :class:`~trainruns.route.routeset.RouteSet`), its arrays within
      ``limits.array_budget()`` (:mod:`trainruns.route.limits`; None: the default budget);
    - ``all_routes(..., along)``: every legal route, for the audit (default:
      ``routes``); with ``along`` (stop-id sequences) it may list only the routes with
      one of those stop sequences (in order or reversed), and a few more;
    - ``upper_bound(compiled)``: no run earns more (the bound of a stopped search), or
      None when the title cannot say;
    - ``bound_at_once(compiled)``: such a bound worked out without the search kernels
      (the answer of a solve whose deadline passes while the kernels are compiled for
      the first time), or None: the solve then waits for the kernels."""

    def routes(self, compiled, kinds, deadline=None, progress=None, limits=None):
        raise NotImplementedError

    def all_routes(self, compiled, kinds, deadline=None, progress=None, along=None):
        return self.routes(compiled, kinds, deadline, progress)

    def upper_bound(self, compiled):
        return None

    def bound_at_once(self, compiled):
        return None


@dataclass
class Board:
    """Everything the search needs about one corporation's run."""

    layout: str
    hexes: dict[str, Hex]
    phase: str
    corporation: str
    trains: list[Train]
    phases: list[str] = field(default_factory=list)
    bonuses: list[Bonus] = field(default_factory=list)
    title: str | None = None
    axes: dict = field(default_factory=lambda: {"x": "letter", "y": "number"})
    # A title whose routes are not the plain rules' (1831: token to token, typed trains)
    # supplies its own route model: an object with
    # ``routes(compiled, kinds, deadline, progress) -> trainruns.route.routeset.RouteSet``.
    # Assigning trains to routes stays the core's.
    route_model: RouteModel | None = None

    def stop(self, ref):
        hex_id, k = ref
        return self.hexes[hex_id].stops[k]

    def stop_refs(self):
        for hex_id, hx in self.hexes.items():
            for k in range(len(hx.stops)):
                yield hex_id, k

    def is_own_token(self, stop: Stop) -> bool:
        return stop.kind == CITY and self.corporation in stop.tokens

    def is_passable(self, stop: Stop) -> bool:
        """Plain rules: an off-board, and a city whose every slot holds other
        corporations' tokens, may end a route but not be passed through."""
        if stop.passable is not None:
            return stop.passable
        if stop.kind == OFFBOARD:
            return False
        if stop.kind == CITY and self.corporation not in stop.tokens:
            return not (stop.slots > 0 and len(stop.tokens) >= stop.slots)
        return True

    def stop_label(self, ref) -> str:
        hex_id, k = ref
        return f"{hex_id}.{k}"


def stop_name(board: Board, ref) -> str:
    """A stop as a player names it: "E5.0 Atlanta" (its label and its name, the
    stop's own or the hex's), or "E5.0" when it has none."""
    hx = board.hexes[ref[0]]
    label = f"{ref[0]}.{ref[1]}"
    name = board.stop(ref).name or hx.name
    return f"{label} {name}" if name else label

"""What a search returns: the run (one route per running train) and how sure it is."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Route:
    """One train's route.

    ``stops`` are ``(hex id, stop index)`` in order along the route; ``counted`` says which
    of them earn (all, except for N/M trains); ``track`` lists ``(hex id, path index)``
    of the paths the route runs on, in order, so the route can be drawn or audited.
    ``earned`` gives, per stop, the parts of what it earns as ``(name, amount)``: a city
    value, a token's value (1831), ... (empty for a stop passed or not counted), so that
    ``parts()`` plus the bonuses add up to ``revenue``.
    """

    train: str
    stops: list[tuple[str, int]]
    revenue: int
    counted: list[bool] = field(default_factory=list)
    track: list[tuple[str, int]] = field(default_factory=list)
    bonuses: list[tuple[str, int]] = field(default_factory=list)
    earned: list[list[tuple[str, int]]] = field(default_factory=list)

    def stop_labels(self):
        return [f"{h}.{k}" for h, k in self.stops]

    def parts(self):
        """Every part of the route's revenue as ``(stop position or None, name, amount)``:
        what each stop earns, then each bonus. They add up to ``revenue``."""
        out = [(i, name, amount) for i, parts in enumerate(self.earned) for name, amount in parts]
        return out + [(None, name, amount) for name, amount in self.bonuses]

    def parts_json(self):
        """``parts()`` for the JSON of docs/position-format.md (an extra field): stop parts name their stop."""
        labels = self.stop_labels()
        return [({"at": i, "stop": labels[i]} if i is not None else {"bonus": True})
                | {"name": name, "amount": amount} for i, name, amount in self.parts()]


@dataclass
class Run:
    """The result of a solve: the routes, their total, and whether it is proven best.

    ``bound`` is an upper bound on the best revenue (equal to ``revenue`` when proven).
    ``engine`` names the engine whose run this is: ``greedy`` (the quick run), ``search``
    (the branch and bound), ``cpsat`` or ``flow``; the one asked for may not be the one
    that ran (``flow`` on a title with its own route model runs the search).
    """

    routes: list[Route]
    revenue: int
    optimal: bool
    bound: int
    seconds: float = 0.0
    candidates: int = 0
    nodes: int = 0
    idle: list[str] = field(default_factory=list)
    engine: str = "search"
    # (kind index, route index) of the chosen routes in the route set they came from:
    # a later search over the same set may start from them (not part of the answer)
    picks: list = field(default_factory=list, repr=False, compare=False)

    def to_json(self, with_seconds=True):
        out = {
            "revenue": self.revenue,
            "optimal": self.optimal,
            "routes": [
                {"train": r.train, "revenue": r.revenue, "stops": r.stop_labels(),
                 "hexes": hexes_along(r.track)}
                | ({"counted": r.counted} if not all(r.counted) else {})
                | ({"bonuses": [{"name": n, "amount": a} for n, a in r.bonuses]} if r.bonuses else {})
                | ({"parts": r.parts_json()} if r.earned else {})
                for r in self.routes
            ],
        }
        if not self.optimal:
            out["bound"] = self.bound
        if self.idle:
            out["idle"] = list(self.idle)
        if with_seconds:
            out["seconds"] = round(self.seconds, 6)
        out["candidates"] = self.candidates
        out["engine"] = self.engine  # the engine whose run this is (greedy, search, cpsat, flow)
        return out


def hexes_along(track):
    """The hexes a route's track runs through, in order, each once per visit."""
    hexes = []
    for hex_id, _ in track:
        if not hexes or hexes[-1] != hex_id:
            hexes.append(hex_id)
    return hexes

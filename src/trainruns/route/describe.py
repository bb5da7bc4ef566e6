"""A route of a :class:`~trainruns.route.routeset.RouteSet` told as the result type
(:class:`trainruns.route.result.Route`): its stops from the token outwards, the stops that
count, its track and the bonuses it earns."""

from __future__ import annotations

from trainruns.route.result import Route
from trainruns.route.routeset import RouteSet


def describe_route(routes: RouteSet, r: int, train) -> Route:
    """A route of the set as the result type: stops, counted stops, track, bonuses."""
    comp = routes.compiled
    a, b = routes.ptr[r], routes.ptr[r + 1]
    stop_ids = routes.stops[a:b]
    refs = [comp.stop_refs[s] for s in stop_ids]
    track = []
    for i in range(b - a - 1):
        c = routes.chains[a + i]
        ps = comp.chain_paths[comp.chain_path_ptr[c]:comp.chain_path_ptr[c + 1]]
        ps = ps[::-1] if i < routes.split[r] else ps
        track.extend(comp.paths[p] for p in ps)
    counted = list(routes.counted_for(r, train.name))
    earned = list(routes.earned_for(r, train.name))
    if routes.split[r] == len(stop_ids) - 1:
        # the route ends at its root token: list it from the token outwards
        refs, track, counted, earned = refs[::-1], track[::-1], counted[::-1], earned[::-1]
    bonuses = routes.bonuses_for(r, train.name)
    kind = routes.kinds.index(train.name)
    return Route(train=train.name, stops=refs, revenue=int(routes.values[r, kind]),
                 counted=counted, track=track, bonuses=bonuses, earned=earned)

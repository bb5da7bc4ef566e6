"""Declared routes (``{"routes": [{"train": "3", "stops": ["B2.0", "C3.0"]}]}``) for drawing.

A declaration names stops only. To draw it along the track, each leg between two
consecutive stops gets the shortest run of track that joins them without visiting any
other stop and without reusing track an earlier leg or train took. This is a drawing
aid, not a legality check (that is the audit's job): a leg with no such track is drawn
as a straight dashed line.

:func:`audited_run` is what the ``draw`` command and the notebook use: the audit's own
track and verdict, with the shortest-track fallback only for routes the audit rejects;
:func:`declared_run` does without the audit.
"""

from __future__ import annotations


import networkx as nx

from .errors import InputError
from .hexgrid import neighbour, opposite
from .position import read_json
from .result import Route, Run



def parse_declaration(source, board, where=None):
    """Read a declaration (a path or a parsed dict) into ``[(train, [(hex, k), ...])]``;
    its structure is checked by the audit's reader, and every stop must exist here."""
    from .audit import read_declaration

    out = []
    for i, (train, labels, _) in enumerate(read_declaration(source, where)):
        stops = []
        for label in labels:
            hex_id, k = label.rsplit(".", 1)
            if hex_id not in board.hexes or int(k) >= len(board.hexes[hex_id].stops):
                raise InputError(f"the board has no stop {label}", f"{where or 'declared routes'}: routes[{i}]")
            stops.append((hex_id, int(k)))
        out.append((train, stops))
    return out


def _path_graph(board):
    """Directed graph of ways to run a path: node ``(hex, j, e)`` is path j of a hex
    entered by its end e (0 or 1), left by the other; an edge means the second can follow
    the first (across a hex side into the neighbour, or through a junction)."""
    g = nx.DiGraph()
    at_side, at_junction = {}, {}
    for hex_id, hx in board.hexes.items():
        for j, ends in enumerate(hx.paths):
            for e, (kind, k) in enumerate(ends):
                g.add_node((hex_id, j, e))
                if kind == "side":
                    at_side.setdefault((hex_id, k), []).append((j, e))
                elif kind == "junction":
                    at_junction.setdefault((hex_id, k), []).append((j, e))
    at = {(hx.x, hx.y): hex_id for hex_id, hx in board.hexes.items()}
    for (hex_id, side), here in at_side.items():
        hx = board.hexes[hex_id]
        other = at.get(neighbour(hx.x, hx.y, side, board.layout))
        for j2, e2 in at_side.get((other, opposite(side)), []) if other else []:
            for j, e in here:
                # Leave path j through its end e, enter path j2 through its end e2.
                g.add_edge((hex_id, j, 1 - e), (other, j2, e2))
    for (hex_id, _), here in at_junction.items():
        for j, e in here:
            for j2, e2 in here:
                if j2 != j:
                    g.add_edge((hex_id, j, 1 - e), (hex_id, j2, e2))
    return g


def find_track(board, stops, used=(), partial=False):
    """Track ``[(hex, path index)]`` joining the stops in order, or None if some leg has
    none (``partial``: the legs that have track, the others left out, so the drawing
    follows the track where there is some). ``used``: paths already taken by other
    trains, never reused."""
    g = _path_graph(board)
    taken = set(used)
    track = []
    for a, b in zip(stops, stops[1:]):
        leg = _leg(board, g, a, b, taken)
        if leg is None:
            if partial:
                continue
            return None
        track.extend(leg)
        taken.update(leg)
    return track


def _leg(board, g, a, b, taken):
    """The shortest track from stop ``a`` to stop ``b`` on paths not ``taken``.

    The graph is not copied per leg (a route of a thousand stops would copy the board's
    graph a thousand times): the taken paths are hidden by a view, and the two ends are
    joined to the graph for this search only, as the last edges of their nodes, so the
    search sees what it saw on a copy."""
    def free(n):
        return n in ("start", "end") or (n[0], n[1]) not in taken

    starts = [(a[0], j, e) for j, ends in enumerate(board.hexes[a[0]].paths)
              for e, end in enumerate(ends) if end == ("stop", a[1]) and free((a[0], j, e))]
    ends_ = [(b[0], j, 1 - e) for j, ends in enumerate(board.hexes[b[0]].paths)
             for e, end in enumerate(ends) if end == ("stop", b[1]) and free((b[0], j, 1 - e))]
    if not starts or not ends_:
        return None
    g.add_edges_from(("start", n) for n in starts)
    g.add_edges_from((n, "end") for n in ends_)
    try:
        nodes = nx.shortest_path(nx.subgraph_view(g, filter_node=free), "start", "end")
    except nx.NetworkXNoPath:
        return None
    finally:
        g.remove_nodes_from(["start", "end"])
    return [(n[0], n[1]) for n in nodes[1:-1]]


def declared_run(board, source, where=None):
    """A :class:`Run` of the declared routes, with track found where it simply can be.

    Revenues are the plain sums of the stops' current values (an audit knows better);
    a route whose track was not found has empty ``track`` and is drawn dashed.
    """
    routes, used = [], set()
    for train, stops in parse_declaration(source, board, where):
        track = find_track(board, stops, used) or []
        used.update(track)
        revenue = sum(board.stop((h, k)).value for h, k in stops)
        routes.append(Route(train=train, stops=stops, revenue=revenue,
                            counted=[True] * len(stops), track=track))
    total = sum(r.revenue for r in routes)
    return Run(routes=routes, revenue=total, optimal=False, bound=total, engine="declared")


def audited_run(board, declaration, best=None, where=None):
    """The declared run as the audit (:mod:`trainruns.audit`) sees it, ready to draw.

    Returns ``(run, verdict)``: the audit's :class:`~trainruns.audit.AuditResult` and a
    :class:`Run` whose legal routes follow the track the audit chose; a route it found
    no legal track for follows the shortest track joining its stops, if any (else it is
    drawn straight and dashed). Pass ``caption_for(verdict)`` and
    ``[p.to_json() for p in verdict.problems]`` to ``draw_board`` to mark what is wrong.
    """
    from .audit import audit

    if not isinstance(declaration, dict):
        where = where or str(declaration)
        declaration = read_json(declaration, "declared routes")
    verdict = audit(board, declaration, best=best)
    routes, used = [], set()
    for declared_route in verdict.routes:
        route = declared_route.as_route()
        if not route.track and len(route.stops) > 1:
            route.track = find_track(board, route.stops, used, partial=True) or []
        used.update(route.track)
        routes.append(route)
    total = verdict.declared_revenue
    return Run(routes=routes, revenue=total, optimal=False, bound=total, engine="declared"), verdict


def caption_for(verdict):
    """What the legend says after a declared run's total."""
    head = "declared, legal" if verdict.legal else "declared, NOT legal"
    return f"{head}; best is {verdict.best_revenue}"

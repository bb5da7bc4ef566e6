"""Declared routes (``{"routes": [{"train": "3", "stops": ["B2.0", "C3.0"]}]}``) for drawing.

A declaration names stops only. To draw it along the track, each leg between two
consecutive stops gets the shortest run of track that joins them without visiting any
other stop and without reusing track an earlier leg or train took. This is a drawing
aid, not a legality check (that is the audit's job): a leg with no such track is drawn
as a straight dashed line.

:func:`audited_run` is what the ``draw`` command and the notebook use: the audit's own
track, verdict and values (the one revenue rule, :mod:`trainruns.route.value`), with the
shortest-track fallback only for routes the audit rejects.
"""

from __future__ import annotations

import networkx as nx

from trainruns.position.reader import read_json
from trainruns.route.result import Run
from trainruns.route.track import ends_by_node


def _path_graph(board):
    """Directed graph of ways to run a path: node ``(hex, j, e)`` is path j of a hex
    entered by its end e (0 or 1), left by the other; an edge means the second can follow
    the first (across a hex side into the neighbour, or through a junction): the track
    nodes of :mod:`trainruns.route.track`, seen from the paths."""
    g = nx.DiGraph()
    for hex_id, hx in board.hexes.items():
        for j, ends in enumerate(hx.paths):
            for e in range(len(ends)):
                g.add_node((hex_id, j, e))
    for node, here in ends_by_node(board).items():
        for hex_id, j, e in here:
            for hex2, j2, e2 in here:
                # leave path j through its end e, enter path j2 through its end e2: at a
                # side into the other hex only, at a junction onto another path
                if (hex2 != hex_id) if node[0] == "side" else (hex2 == hex_id and j2 != j):
                    g.add_edge((hex_id, j, 1 - e), (hex2, j2, e2))
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


def audited_run(board, declaration, best=None, where=None):
    """The declared run as the audit (:mod:`trainruns.services.audit`) sees it, ready to draw.

    Returns ``(run, verdict)``: the audit's :class:`~trainruns.services.audit.AuditResult` and a
    :class:`Run` whose legal routes follow the track the audit chose; a route it found
    no legal track for follows the shortest track joining its stops, if any (else it is
    drawn straight and dashed). Pass ``caption_for(verdict)`` and
    ``[p.to_json() for p in verdict.problems]`` to ``draw_board`` to mark what is wrong.
    """
    from trainruns.services.audit import audit

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

"""The board's track graph, defined once: what its nodes are and which paths join them.

A path of a hex joins two of its ends. An end is a stop of the hex, a junction of the
hex (a point where paths meet without a stop), or a *hex side*: the edge the hex shares
with its neighbour across that side (or a map-edge side with no hex beyond), one node
for both hexes. Crossing a hex side means arriving on a path of one hex and leaving on
a path of the other; turning back into the same hex at a side is not a move.

Node names (:func:`end_node`): ``("stop", (hex, k))``, ``("junction", (hex, k))`` and
``("side", ((hex, e), (other, opposite(e))))`` (sorted; one pair at the map edge).

Every reader asks this module: :func:`track_graph` (a networkx multigraph, one edge per
path) answers graph questions (reach, connectivity: :mod:`trainruns.route.reach`); the
compiler numbers the same nodes into arrays for the search (:mod:`trainruns.route.compile`);
the declared-run drawing aid follows path ends through the same nodes
(:func:`ends_by_node`, :mod:`trainruns.services.declared`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainruns.route.board import Board
from trainruns.route.hexgrid import NEIGHBOUR_OFFSETS, neighbour, opposite

if TYPE_CHECKING:  # networkx is loaded when a track graph is built, not by a plain solve
    import networkx as nx


def hex_at(board: Board) -> dict:
    """Doubled coordinates -> hex id, for finding a neighbour."""
    return {(hx.x, hx.y): hid for hid, hx in board.hexes.items()}


def side_node(board: Board, hex_id, e, at=None):
    """The node of hex side ``e`` of ``hex_id``, shared with the neighbour across it."""
    if at is None:
        at = hex_at(board)
    hx = board.hexes[hex_id]
    return _side(hex_id, e, at.get(neighbour(hx.x, hx.y, e, board.layout)))


def _side(hex_id, e, other):
    """The node of hex side ``e`` of ``hex_id`` with ``other`` across it (None at the
    map's edge): the pair of (hex, side) sorted, one pair at the edge."""
    if not other:
        return ("side", ((hex_id, e),))
    return ("side", tuple(sorted(((hex_id, e), (other, opposite(e))))))


def end_node(board: Board, at, hex_id, end):
    """The node at ``end`` (``("stop"|"junction"|"side", k)``) of a path of ``hex_id``."""
    what, k = end
    if what == "side":
        return side_node(board, hex_id, k, at)
    return (what, (hex_id, k))


def track_graph(board: Board) -> nx.MultiGraph:
    """The board's track: one edge per path between the nodes of its two ends, keyed
    ``(hex, j)`` with the path's hex as ``hex``."""
    import networkx as nx

    at = hex_at(board)
    g = nx.MultiGraph()
    for hid, hx in board.hexes.items():
        for j, (a, b) in enumerate(hx.paths):
            g.add_edge(end_node(board, at, hid, a), end_node(board, at, hid, b), key=(hid, j), hex=hid)
    return g


def track_lists(board: Board) -> dict:
    """The edges of :func:`track_graph` without networkx, for a reader that walks them
    many times a second (:func:`trainruns.route.reach.reach`): node -> {other node ->
    [the hex of each path joining them]}, nodes, neighbours and paths in the order the
    multigraph holds them (a node where a path first reaches it, a neighbour where its
    first path to the node is, the paths in board order), so that a walk over these
    lists steps exactly as the same walk over the graph's ``edges(node)``."""
    at = hex_at(board)
    offsets = NEIGHBOUR_OFFSETS[board.layout]
    adj: dict = {}
    for hid, hx in board.hexes.items():
        x, y = hx.x, hx.y
        for a, b in hx.paths:
            ends = []
            for what, k in (a, b):
                if what == "side":
                    dx, dy = offsets[k]   # (side_node's neighbour, its lookups made once a hex)
                    ends.append(_side(hid, k, at.get((x + dx, y + dy))))
                else:
                    ends.append((what, (hid, k)))
            u, v = ends
            nu = adj.get(u)
            if nu is None:
                nu = adj[u] = {}
            nv = adj.get(v)
            if nv is None:
                nv = adj[v] = {}
            joined = nu.get(v)
            if joined is None:
                joined = nu[v] = nv[u] = []
            joined.append(hid)
    return adj


def ends_by_node(board: Board) -> dict:
    """Each junction and hex-side node -> the path ends at it, ``[(hex, j, e)]`` in board
    order (path ``j`` of ``hex`` touches the node by its end ``e``, 0 or 1)."""
    at = hex_at(board)
    out = {}
    for hid, hx in board.hexes.items():
        for j, ends in enumerate(hx.paths):
            for e, end in enumerate(ends):
                if end[0] != "stop":
                    out.setdefault(end_node(board, at, hid, end), []).append((hid, j, e))
    return out

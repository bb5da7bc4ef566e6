"""Where one legal run of the operating company can reach: the reach that decides tile
and token legality.

1832 rulebook "Laying Track": a new tile must continue track the company can reach by
"an unblocked (by other company tokens) train run of any length from one of its
tokens"; "Placing a Token": the company "must be able to trace a valid train route from
one of its station tokens to the city". A run is one unbranched line: it starts at a
city holding the company's token, follows track, never uses a piece of track, a hex
side, a junction or a stop twice (so it never reverses at a stop), crosses a hex side
into the other hex only, and passes only stops a route may pass (not an off-board, not a
city full of other companies' tokens, not a stop the title closes). Its length is not
limited (a run of "any length").

The track graph is the networkx multigraph of :mod:`trainruns.route.track` (one edge per
path). A first, loose trace
(graph search that may visit a node twice) bounds the reach from above; the exact reach
walks every run depth first, skipping a partial run whose visited set contains that of
an earlier run arriving the same way (everything it could reach, the earlier one could).
The walk stops as soon as it has found the whole loose bound, and once its work passes
``budget`` steps; then ``complete`` is False and the reach may miss places (never invents
one). Its work is the runs it steps along and the dominance tests: a partial run tested
against the visited sets of n earlier runs counts n / ``SETS_PER_STEP`` steps more, so
that the budget bounds the walk's time even where those lists grow to thousands. A
long list is tested by node (:class:`_Earlier`), not set by set: the same answer, sooner.

:func:`reach` walks the graph numbered once into lists (a node's moves, whether it may
be entered or passed, a run's visited set as the bits of one int); :func:`plain_reach`
is the same walk on the networkx graph, the definition the numbered one must equal (the
same runs in the same order, so the same reach, also when the budget stops it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trainruns.route.board import Board
from trainruns.route.track import track_graph, track_lists

BUDGET = 500_000  # run-walking steps (a few seconds) before the reach gives up being exact
# comparing a run's visited set with this many earlier ones costs about one step
SETS_PER_STEP = 64
# a node's earlier sets past this many are tested by node (:class:`_Earlier`)
INDEX_FROM = 256


@dataclass
class Reach:
    """``stops``: the ``(hex, k)`` stops a run reaches; ``sides``: each reached hex-side
    node with the hexes whose track a run arrives on (a run goes on across the side into
    the *other* hex only); ``complete``: the walk finished (the reach is exact)."""

    stops: set = field(default_factory=set)
    sides: dict = field(default_factory=dict)
    complete: bool = True

    def arrives_at_side(self, node, into_hex):
        """Some run arrives at hex-side ``node`` on track of a hex other than ``into_hex``,
        so it may continue on ``into_hex``'s track there."""
        return bool(self.sides.get(node, set()) - {into_hex})


def _starts(board):
    return [("stop", ref) for ref in board.stop_refs()
            if board.is_own_token(board.stop(ref)) and board.stop(ref).enterable]


def _may_pass(board, node):
    """A run may go on through this node (its start is always left)."""
    if node[0] != "stop":
        return True
    stop = board.stop(node[1])
    return stop.enterable and (board.is_passable(stop) or board.is_own_token(stop))


def _may_enter(board, node):
    return node[0] != "stop" or board.stop(node[1]).enterable


def _moves(g, node, via_hex):
    """(next node, path key, its hex) from ``node``, arrived on track of ``via_hex``."""
    for _, other, key, data in g.edges(node, keys=True, data=True):
        if node[0] == "side" and data["hex"] == via_hex:
            continue  # at a hex side a run continues in the other hex only
        yield other, key, data["hex"]


def loose_reach(board: Board, numbered=None) -> Reach:
    """An upper bound of :func:`reach`: a graph search that may pass a node twice, on
    the numbered graph (:func:`_numbered`, or ``numbered`` given)."""
    nodes, index, adjacent, enter, passes = _numbered(board) if numbered is None else numbered
    out = Reach()
    seen = set()
    todo = [(n, None) for n in _starts(board)]
    while todo:
        node, via_hex = todo.pop()
        _record(out, node, via_hex)
        i = index.get(node)
        if i is None:
            continue  # a start on no track (every move leads to a node of the graph)
        if via_hex is not None and not passes[i]:
            continue
        side = node[0] == "side"
        key = (node, via_hex if side else None)
        if key in seen:
            continue
        seen.add(key)
        for j, _bit, hid, other, _to_side in adjacent[i]:
            if side and hid == via_hex:
                continue  # at a hex side a run continues in the other hex only
            if enter[j]:
                todo.append((other, hid))
    return out


def _record(out, node, via_hex):
    if node[0] == "stop":
        out.stops.add(node[1])
    elif node[0] == "side":
        out.sides.setdefault(node, set()).add(via_hex)


def _size(r: Reach):
    return len(r.stops) + sum(len(v) for v in r.sides.values())


def plain_reach(board: Board, budget: int = BUDGET) -> Reach:
    """:func:`reach` walked on the networkx graph as the module docstring says it, node
    by node: the reference the numbered walk is checked against."""
    g = track_graph(board)
    bound = loose_reach(board, graph_numbered(board, g))
    target = _size(bound)
    out = Reach()
    for start in _starts(board):
        _record(out, start, None)
    steps = compared = 0
    dominated = {}  # (node, hex arrived from at a side) -> visited sets of runs that came so
    for start in _starts(board):
        if start not in g:
            continue
        stack = [(start, None, None, frozenset([start]))]
        while stack:
            if _size(out) >= target:
                return out
            steps += 1
            if steps + compared // SETS_PER_STEP > budget:
                out.complete = False
                return out
            node, via_key, via_hex, visited = stack.pop()
            if via_key is not None:
                if not _may_pass(board, node):
                    continue  # a run may end here, not go on
                earlier = dominated.setdefault((node, via_hex if node[0] == "side" else None), [])
                compared += len(earlier)
                if any(e <= visited for e in earlier):
                    continue
                earlier.append(visited)
            for other, key, hid in _moves(g, node, via_hex):
                if other in visited or not _may_enter(board, other):
                    continue
                _record(out, other, hid)
                stack.append((other, key, hid, visited | {other}))
    return out


def _numbered(board):
    """The track graph as lists, read from :func:`~trainruns.route.track.track_lists`:
    node index -> its moves, each ``(next node index, its bit, its hex, the next node,
    whether it is a hex side)``, in :func:`_moves`' order (the nodes in the graph's
    order); and per node whether a run may enter it and pass it."""
    adj = track_lists(board)
    return _lists(board, list(adj), lambda n: ((other, hid) for other, hexes in adj[n].items() for hid in hexes))


def graph_numbered(board, g=None):
    """:func:`_numbered` read from the networkx graph (every move :func:`_moves` lists,
    none arrived by): the definition the lists must equal, the same nodes and moves in
    the same order."""
    g = track_graph(board) if g is None else g
    return _lists(board, list(g.nodes), lambda n: ((other, hid) for other, _key, hid in _moves(g, n, None)))


def _lists(board, nodes, moves):
    index = {n: i for i, n in enumerate(nodes)}
    adjacent = [[(index[other], 1 << index[other], hid, other, other[0] == "side") for other, hid in moves(n)]
                for n in nodes]
    enter = [_may_enter(board, n) for n in nodes]
    passes = [_may_pass(board, n) for n in nodes]
    return nodes, index, adjacent, enter, passes


class _Earlier:
    """The visited sets of the earlier runs that came one way to one node, and the test
    whether one of them is a subset of a run's visited set (each set an int of node
    bits). Up to ``INDEX_FROM`` sets are compared one by one; past that, by node: for
    each node an int whose bit k says that set k holds it, so that the sets holding a
    node the run has not visited are ruled out a node at a time (the nodes most sets
    hold first), and the test ends as soon as none is left."""

    __slots__ = ("sets", "all", "bits", "members", "at")

    def __init__(self, visited):
        self.sets = [visited]
        self.bits = None

    def dominates_or_keeps(self, visited) -> bool:
        """Some earlier set is a subset of ``visited`` (True); else ``visited`` is kept."""
        sets = self.sets
        n = len(sets)
        if self.bits is None:
            for e in sets:
                if e & visited == e:
                    return True
            sets.append(visited)
            if n + 1 >= INDEX_FROM:
                self._index()
            return False
        full = self.all
        out = 0  # the sets holding a node that ``visited`` does not
        for bit, members in zip(self.bits, self.members):
            if not visited & bit:
                out |= members
                if out == full:
                    break
        else:
            return True
        sets.append(visited)
        k = 1 << n
        self.all = full | k
        members, at = self.members, self.at
        x = visited
        while x:
            low = x & -x
            j = at.get(low)
            if j is None:
                at[low] = len(members)
                self.bits.append(low)
                members.append(k)
            else:
                members[j] |= k
            x ^= low
        if n & (n - 1) == 0:
            self._order(dict(zip(self.bits, members)))  # (re-sorted as the sets double)
        return False

    def _index(self):
        by_node = {}
        for k, e in enumerate(self.sets):
            x = e
            while x:
                low = x & -x
                by_node[low] = by_node.get(low, 0) | 1 << k
                x ^= low
        self.all = (1 << len(self.sets)) - 1
        self._order(by_node)

    def _order(self, by_node):
        ranked = sorted(by_node.items(), key=lambda item: -item[1].bit_count())
        self.bits = [bit for bit, _ in ranked]
        self.members = [m for _, m in ranked]
        self.at = {bit: j for j, bit in enumerate(self.bits)}


def reach(board: Board, budget: int = BUDGET) -> Reach:
    """Every stop and hex-side arrival some single legal run of the company reaches
    (module docstring): :func:`plain_reach`'s walk, each run's visited set an int of
    node bits, the reach's size counted as it grows."""
    numbered = _numbered(board)
    nodes, index, adjacent, enter, passes = numbered
    target = _size(loose_reach(board, numbered))
    out = Reach()
    starts = _starts(board)
    for start in starts:
        _record(out, start, None)
    size = _size(out)
    is_side = [n[0] == "side" for n in nodes]
    stops, sides = out.stops, out.sides
    steps = compared = 0
    dominated = {}  # (node, hex arrived from at a side) -> visited sets of runs that came so
    for start in starts:
        if start not in index:
            continue
        s = index[start]
        stack = [(s, False, None, 1 << s)]
        while stack:
            if size >= target:
                return out
            steps += 1
            if steps + compared // SETS_PER_STEP > budget:
                out.complete = False
                return out
            i, arrived, via_hex, visited = stack.pop()
            side = is_side[i]
            if arrived:
                if not passes[i]:
                    continue  # a run may end here, not go on
                key = (i, via_hex) if side else i
                earlier = dominated.get(key)
                if earlier is None:
                    dominated[key] = _Earlier(visited)
                else:
                    compared += len(earlier.sets)
                    if earlier.dominates_or_keeps(visited):
                        continue
            for j, bit, hid, node, to_side in adjacent[i]:
                if visited & bit or not enter[j] or side and hid == via_hex:
                    continue  # (at a hex side a run continues in the other hex only)
                if to_side:
                    seen = sides.get(node)
                    if seen is None:
                        sides[node] = {hid}
                        size += 1
                    elif hid not in seen:
                        seen.add(hid)
                        size += 1
                elif node[0] == "stop" and node[1] not in stops:
                    stops.add(node[1])
                    size += 1
                stack.append((j, True, hid, visited | bit))
    return out

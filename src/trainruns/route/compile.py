"""Compile a :class:`~trainruns.route.board.Board` into flat numpy arrays for the kernels.

The track graph is the one of :mod:`trainruns.route.track`: three kinds of node (stops,
junctions, *hex sides*), a path joining two of them; crossing a hex side means arriving
on a path of one hex and leaving on a path of the other one. Here its nodes are
numbered (stops first) for arrays.

Between two stops, track runs as a *chain*: the paths and hex sides from one stop to the
next with no stop in between. The search walks chains, never single paths, so its
adjacency is stop -> outgoing chains in CSR form.

Every piece of track that two routes could both use gets one bit: each path, and each
hex side where two or more paths meet on *both* hexes (elsewhere a crossing always uses
the single path on one side, whose bit already says it), and each junction. "Do two routes share track" is
then a bitwise AND of their masks.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

import numpy as np

from trainruns.errors import InputError
from trainruns.route.board import TOWN, Board
from trainruns.route.hexgrid import neighbour, opposite
from trainruns.route.track import end_node, hex_at


@dataclass
class CompiledBoard:
    """The board as arrays. Stop ids index ``stop_refs``; chain ids index ``chain_*``."""

    board: Board
    stop_refs: list            # stop id -> (hex id, stop index)
    stop_value: np.ndarray     # int64, value in this phase for this corporation
    stop_town: np.ndarray      # bool, a town (for N+S trains)
    stop_passable: np.ndarray  # bool, a route may run through it
    stop_own: np.ndarray       # bool, a city holding the corporation's token
    stop_groups: np.ndarray    # int64 bit mask of the bonus groups the stop is in
    paths: list                # path id -> (hex id, path index)
    n_bits: int
    words: int
    adj_ptr: np.ndarray        # int64 [n_stops + 1]: the chains leaving stop s are adj_ptr[s] .. adj_ptr[s + 1] - 1
    chain_from: np.ndarray     # int64
    chain_to: np.ndarray       # int64
    chain_bits: np.ndarray     # uint64 [n_chains, words]
    chain_path_ptr: np.ndarray # int64 [n_chains + 1]
    chain_paths: np.ndarray    # int64 path ids in order from chain_from to chain_to
    bonus_required: np.ndarray # int64 group mask each bonus needs
    bonus_amount: np.ndarray   # int64
    bonus_names: list = field(default_factory=list)
    bonus_trains: list = field(default_factory=list)  # frozenset of train names, empty: all
    # False when compiling stopped early (deadline, memory budget or work cap): the chains
    # are all real track, but some are missing, so no route set or model built on them
    # proves anything
    complete: bool = True
    # compiled for one corporation only (``own_only``): which stops its track joins to a
    # token (no route reaches the others); None: every stop
    stop_reach: np.ndarray = None

    @property
    def n_stops(self):
        return len(self.stop_refs)

    @property
    def n_chains(self):
        return len(self.chain_to)

    def stop_id(self, ref):
        return self._stop_ids[tuple(ref)]

    def __post_init__(self):
        self._stop_ids = {ref: i for i, ref in enumerate(self.stop_refs)}


# Chains between two stops can be exponentially many (a hex with all 15 side-to-side
# paths, repeated). Compiling stops after this many steps of the chain walk, or when the
# chains would outgrow their share of the memory budget, or at the deadline; the board
# is then marked incomplete (see ``CompiledBoard.complete``).
MAX_CHAIN_STEPS = 10_000_000
# bytes one chain takes while compiling (Python lists) and after (arrays), a generous
# figure, and the time turning it into arrays takes (measured: 18 us on a busy machine)
CHAIN_BYTES = 1000
SECONDS_PER_CHAIN = 2e-5
# look at the clock every this many steps of the chain walk (a few milliseconds), and
# not before this many: even past the deadline the token cities get some track
CHECK_STEPS = 2048
MIN_STEPS = 20_000


def compile_board(board: Board, limits=None, own_only=False, progress=None) -> CompiledBoard:
    """Compile the board's stops, track and bonuses into arrays (see module docstring).

    ``limits`` (a :class:`trainruns.route.limits.Limits`) bounds the chain walk: past half
    the time left to its deadline, or with more chains than a quarter of its memory
    budget holds, compiling stops with the chains found so far and ``complete=False``.

    ``own_only``: compile only the track connected to the corporation's tokens (what
    its routes can use; a huge map's far side costs nothing then). Stop ids stay those
    of the whole board; track bits are renumbered in the same order with the unused ones
    left out, so on a board whose track is all connected nothing changes.

    ``progress`` (a :class:`trainruns.route.progress.Progress`) hears of a long chain walk.
    """
    stop_refs = list(board.stop_refs())
    stop_ids = {ref: i for i, ref in enumerate(stop_refs)}
    stops = [board.stop(ref) for ref in stop_refs]

    nodes = _TrackNodes(board, stop_ids)
    kept = _hexes_joined_to_tokens(board, nodes.at) if own_only else None
    paths, path_nodes = [], []
    for hex_id, hx in board.hexes.items():
        if kept is not None and hex_id not in kept:
            continue
        for j, (a, b) in enumerate(hx.paths):
            paths.append((hex_id, j))
            path_nodes.append((nodes.node(hex_id, a), nodes.node(hex_id, b)))

    # incidence: node -> [(path id, which end)]
    incident = [[] for _ in range(nodes.count)]
    for p, (na, nb) in enumerate(path_nodes):
        incident[na].append(p)
        incident[nb].append(p)

    # bits: one per path, then one per hex side with >= 2 paths on both hexes
    side_bit = {}
    n_bits = len(paths)
    for node, kind in nodes.kind.items():
        if kind == "junction":
            # a junction is a point on the track: no route passes it twice
            side_bit[node] = n_bits
            n_bits += 1
    for node, hex_sides in nodes.side_hexes.items():
        if len(hex_sides) == 2:
            per_hex = {}
            for p in incident[node]:
                per_hex.setdefault(paths[p][0], []).append(p)
            if len(per_hex) == 2 and all(len(v) >= 2 for v in per_hex.values()):
                side_bit[node] = n_bits
                n_bits += 1
    enterable = [s.enterable for s in stops]
    reach = None
    if own_only:
        reach = _connected(incident, path_nodes, nodes.count,
                           [i for i, s in enumerate(stops) if s.enterable and board.is_own_token(s)])
    chains = []  # (from stop, to stop, [path ids], [bit ids])
    walk = _Walk(limits, progress)
    # the token cities' chains first: when the walk is cut, routes can still start there
    # (chains are sorted by their first stop below, so the order is the same either way)
    own = [s for s in range(len(stops)) if stops[s].enterable and board.is_own_token(stops[s])]
    own_set = set(own)
    starts = [s for s in own + [s for s in range(len(stops)) if s not in own_set]
              if enterable[s] and (reach is None or reach[s])]
    for k, s in enumerate(starts):
        walk.begin(len(starts) - k)
        _chains_from(s, stop_ids, nodes, incident, path_nodes, paths, side_bit, enterable, chains, walk)
        if walk.stopped:
            break
    chains.sort(key=lambda c: c[0])
    n_chains = len(chains)
    chain_from = np.array([c[0] for c in chains], dtype=np.int64)
    chain_to = np.array([c[1] for c in chains], dtype=np.int64)
    # (whole arrays at once: a cut walk can leave a hundred thousand chains)
    n_bit_ids = np.array([len(c[3]) for c in chains], dtype=np.int64)
    bit_ids = np.fromiter(itertools.chain.from_iterable(c[3] for c in chains), dtype=np.int64,
                          count=int(n_bit_ids.sum()))
    if own_only:
        # renumber the bits the chains use 0.. in the same order, leaving out the rest
        used_bits, bit_ids = np.unique(bit_ids, return_inverse=True)
        bit_ids = bit_ids.astype(np.int64).reshape(-1)
        n_bits = len(used_bits)
    words = max(1, (n_bits + 63) // 64)
    chain_bits = np.zeros((n_chains, words), dtype=np.uint64)
    rows = np.repeat(np.arange(n_chains, dtype=np.int64), n_bit_ids)
    np.bitwise_or.at(chain_bits, (rows, bit_ids >> 6),
                     np.left_shift(np.uint64(1), (bit_ids & 63).astype(np.uint64)))
    path_ptr = np.zeros(n_chains + 1, dtype=np.int64)
    path_ptr[1:] = np.cumsum([len(c[2]) for c in chains])
    flat_paths = list(itertools.chain.from_iterable(c[2] for c in chains))
    adj_ptr = np.zeros(len(stops) + 1, dtype=np.int64)
    np.add.at(adj_ptr, chain_from + 1, 1)
    adj_ptr = np.cumsum(adj_ptr)

    groups, bonus_required = _bonus_groups(board, stop_ids)
    stop_groups = np.zeros(len(stops), dtype=np.int64)
    for s, mask in groups.items():
        stop_groups[s] = mask

    return CompiledBoard(
        board=board,
        stop_refs=stop_refs,
        stop_value=np.array([s.value for s in stops], dtype=np.int64),
        stop_town=np.array([s.kind == TOWN for s in stops], dtype=np.bool_),
        stop_passable=np.array([board.is_passable(s) and s.enterable for s in stops], dtype=np.bool_),
        stop_own=np.array([board.is_own_token(s) and s.enterable for s in stops], dtype=np.bool_),
        stop_groups=stop_groups,
        paths=paths,
        n_bits=n_bits,
        words=words,
        adj_ptr=adj_ptr.astype(np.int64),
        chain_from=chain_from,
        chain_to=chain_to,
        chain_bits=chain_bits,
        chain_path_ptr=path_ptr,
        chain_paths=np.array(flat_paths, dtype=np.int64),
        bonus_required=np.array(bonus_required, dtype=np.int64),
        bonus_amount=np.array([b.amount for b in board.bonuses], dtype=np.int64),
        bonus_names=[b.name for b in board.bonuses],
        bonus_trains=[b.trains for b in board.bonuses],
        complete=walk.complete,
        stop_reach=None if reach is None else np.array(reach[:len(stops)], dtype=np.bool_),
    )


class _Walk:
    """The budget of the chain walk: steps, chains kept, the deadline.

    When the walk must be cut, no single stop, and no single way out of a stop, may
    take it all (the all-15-paths hexes make one way out exponential): each start stop
    gets its share of the steps and time left, and each way out of it a share of the
    stop's. A share used up cuts that part only; the budget as a whole (steps, chains,
    half the time left) ends the walk."""

    def __init__(self, limits, progress=None):
        self.progress = progress
        self.steps = 0
        self.max_chains = None
        # compiling may take half the time left: listing routes and assigning trains
        # on what it found need the rest
        self.until = None
        if limits is not None:
            self.max_chains = max(1000, limits.array_budget() // 4 // CHAIN_BYTES)
            if limits.deadline is not None:
                self.until = time.perf_counter() + max(limits.left(), 0.0) / 2
        self.complete = True
        self.stopped = False
        self.share = (None, MAX_CHAIN_STEPS)          # (time, steps) the current part may reach
        self.outer = self.share

    def begin(self, parts_left, inner=False):
        """Start one of ``parts_left`` parts (a start stop, or ``inner``: a way out of
        it) with its share of what is left."""
        until, steps = self.outer if inner else (self.until, MAX_CHAIN_STEPS)
        now = time.perf_counter()
        share_time = None if until is None else now + max(until - now, 0.0) / parts_left
        self.share = (share_time, self.steps + max(steps - self.steps, 0) // parts_left)
        if not inner:
            self.outer = self.share

    def step(self, n_chains):
        """Count one step; False when this part (or the whole walk) must stop."""
        self.steps += 1
        if self.steps % CHECK_STEPS:
            return True
        if self.progress and self.steps % (64 * CHECK_STEPS) == 0:
            self.progress.update("compile", chains=n_chains, steps=self.steps)
        now = time.perf_counter()
        # (turning the chains into arrays takes time too: keep it for that)
        finish = n_chains * SECONDS_PER_CHAIN
        if (self.steps >= MAX_CHAIN_STEPS
                or (self.max_chains is not None and n_chains >= self.max_chains)
                or (self.until is not None and self.steps >= MIN_STEPS and now + finish >= self.until)):
            self.complete = False
            self.stopped = True
            return False
        until, steps = self.share
        if self.steps >= steps or (until is not None and self.steps >= MIN_STEPS and now >= until):
            self.complete = False
            return False
        return True


def _hexes_joined_to_tokens(board, at):
    """The hexes whose track may join a hex holding one of the corporation's tokens
    (across sides where both hexes have track): the rest cannot be on its routes."""
    def sides(hx):
        return {k for a, b in hx.paths for what, k in (a, b) if what == "side"}

    start = [hid for hid, hx in board.hexes.items()
             if any(s.enterable and board.is_own_token(s) for s in hx.stops)]
    seen = set(start)
    stack = list(start)
    while stack:
        hx = board.hexes[stack.pop()]
        for k in sides(hx):
            other = at.get(neighbour(hx.x, hx.y, k, board.layout))
            if other is not None and other not in seen and opposite(k) in sides(board.hexes[other]):
                seen.add(other)
                stack.append(other)
    return seen


def _connected(incident, path_nodes, n_nodes, sources):
    """Which track nodes are joined to ``sources`` by track (through anything)."""
    seen = [False] * n_nodes
    stack = list(sources)
    for s in stack:
        seen[s] = True
    while stack:
        node = stack.pop()
        for p in incident[node]:
            a, b = path_nodes[p]
            other = b if a == node else a
            if not seen[other]:
                seen[other] = True
                stack.append(other)
    return seen


class _TrackNodes:
    """Numbers the nodes of the track graph (:mod:`trainruns.route.track` names them): stops
    first, then junctions and hex sides in the order paths first reach them."""

    def __init__(self, board: Board, stop_ids):
        self.board = board
        self.stop_ids = stop_ids
        self.count = len(stop_ids)
        self.ids = {}
        self.side_hexes = {}  # hex-side node -> set of hexes whose paths reach it
        self.kind = {}        # node -> "side" | "junction"
        self.at = hex_at(board)

    def node(self, hex_id, end):
        if end[0] == "stop":
            return self.stop_ids[(hex_id, end[1])]
        key = end_node(self.board, self.at, hex_id, end)
        if key not in self.ids:
            self.ids[key] = self.count
            self.kind[self.count] = key[0]
            self.count += 1
        node = self.ids[key]
        if key[0] == "side":
            self.side_hexes.setdefault(node, set()).add(hex_id)
            if len(key[1]) == 2:  # a side between two hexes (not the map's edge)
                self.side_hexes[node] |= {key[1][0][0], key[1][1][0]}
        return node


def _chains_from(start, stop_ids, nodes, incident, path_nodes, paths, side_bit, enterable, out, walk):
    """Every chain of track from stop ``start`` to another enterable stop.

    A chain uses no path, hex side or junction twice. Stops end it; it never turns back
    into the hex it came from at a hex side. ``walk`` (the budget) may cut it short.

    The ways out of the start are walked one after the other, the last first: the
    order of a single depth-first search with all of them on its stack.
    """
    n_stops = len(stop_ids)

    def other_end(p, node):
        a, b = path_nodes[p]
        return b if a == node else a

    ways = incident[start][::-1]
    for k, p in enumerate(ways):
        walk.begin(len(ways) - k, inner=True)
        _walk_way(start, p, n_stops, nodes, incident, paths, side_bit, enterable, other_end, out, walk)
        if walk.stopped:
            return


def _walk_way(start, p, n_stops, nodes, incident, paths, side_bit, enterable, other_end, out, walk):
    """The chains of ``_chains_from`` that leave ``start`` by path ``p``."""
    # explicit stack: (node, arrived by path, paths so far, bits so far, nodes used)
    stack = [(other_end(p, start), p, [p], [p], {start})]
    while stack:
        if not walk.step(len(out)):
            return
        node, via, ps, bits, used = stack.pop()
        if node < n_stops:
            if node != start and enterable[node]:
                out.append((start, node, ps, bits))
            continue
        if node in used:
            continue
        used = used | {node}
        if node in side_bit:
            bits = bits + [side_bit[node]]
        came_from_hex = paths[via][0]
        is_side = nodes.kind[node] == "side"
        for q in incident[node]:
            if q == via or q in ps:
                continue
            if is_side and paths[q][0] == came_from_hex:
                continue  # at a hex side, track continues in the other hex only
            stack.append((other_end(q, node), q, ps + [q], bits + [q], used))


MAX_BONUS_GROUPS = 63  # one bit each in the stops' int64 masks


def _bonus_groups(board, stop_ids):
    """Give each distinct stop group of the bonuses a bit; a stop's mask says which
    groups it belongs to, a bonus's mask which groups a route must touch."""
    group_bit, stop_mask, required = {}, {}, []
    for bonus in board.bonuses:
        need = 0
        for group in bonus.groups:
            if group not in group_bit:
                if len(group_bit) == MAX_BONUS_GROUPS:
                    # bad input, not a bug: say what and where (exit 2), not an internal error
                    raise InputError(f"the bonuses name more than {MAX_BONUS_GROUPS} distinct groups of stops "
                                     f"(bonus {bonus.name!r}); the search keeps each group in one bit of a "
                                     "64-bit mask", "bonuses")
                group_bit[group] = len(group_bit)
                for ref in group:
                    s = stop_ids[tuple(ref)]
                    stop_mask[s] = stop_mask.get(s, 0) | (1 << group_bit[group])
            need |= 1 << group_bit[group]
        required.append(need)
    return stop_mask, required

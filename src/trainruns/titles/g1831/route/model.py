"""The 1831 route model: the object a Board carries as ``route_model`` (route/board.py).

``routes(compiled, kinds, deadline, progress)`` returns every token-to-token path with,
per train kind, the most that kind earns on it (kernels.py), plus the commuter runs
(commuter.py). Assigning trains to routes stays the core's, except when the
corporation bought track rights: each must be run to by some train (5.6.5), which the
core's assignment cannot say, so then this model assigns the trains itself
(``kernels.assign_covering``) and hands the core only the chosen routes. A listed
board of many paths is first cut by the track prices (priced_listing.py): only the
routes a better run than a first one could take go to the core, with their bound.

Boards with too many paths to list (the printed map's size: passing cities freely,
5.6.2.3) go to the flow model (flow.py), held to the track prices' bound (bound.py)
and started from a first run found by counted work (first.py), which is the answer
whenever CP-SAT finds nothing better; its run, when unproven, to the priced proof
(``_priced_proof``): only the paths that could be in a better run at those prices are
listed and searched.

The model keeps no state between calls, but for a memo of each compiled
board's priced bound (a pure function of the board): what it works out for one compiled
board (:class:`StopArrays`) is passed along explicitly and kept on the route set it
returns, so two calls never see each other's arrays.
"""

from __future__ import annotations

import dataclasses
import time
import weakref
from dataclasses import dataclass, field

import numpy as np

from trainruns.errors import InputError
from trainruns.route.board import RouteModel
from trainruns.route.limits import Limits
from trainruns.route.packing import MARGIN as PACKING_MARGIN
from trainruns.route.packing import packing_bound
from trainruns.route.routeset import RouteSet
from trainruns.titles.g1831.route import kernels, track
from trainruns.titles.g1831.route.commuter import TooManySteps, commuter_paths, inside_city
from trainruns.titles.g1831.route.trains import MIXED, STATION, YARD, may_commute, parse_train_name, token_values

TYPE_CODE = {STATION: 0, YARD: 1, MIXED: 2}
MAX_RIGHTS = 16
# The search lists token-to-token paths while the routes it keeps (about 0.45 KB each
# with what the assignment adds) fit the memory budget and are this many at most (0
# sends every board to the flow model); beyond, the run is found by the flow model
# (flow.py), which lists none. A count, not the clock, so that a board takes the same
# way under any load. Measured (benchmarks/README.md, "1831: listing or the flow
# model", again in "the flow model's order by labels"; 22 invented boards of 28-54
# hexes, `--time-limit 10`, each way): up to 7,467 paths listing proves in 0.0-0.1 s
# and the flow model in 0.7-1.1 s; from 12,571 paths the flow model proves in 0.8-5.3
# s, listing in 0.3-7.5 s up to 49,132 paths, and from 89,781 it left 6 of 8 boards
# unproven at 10 s (three of them ending 0.6-1.2 s past the limit)
PATH_LIMIT = 10_000
# Paths listed per call of the kernel: each chunk is valued before the next is listed
CHUNK = 1 << 16
# Token sequences whose values are remembered from chunk to chunk at most (memory)
KNOWN_SEQUENCES = 1 << 20
# Bytes a kept route costs later, beyond its arrays (the assignment's candidates)
PER_ROUTE_LATER = 96
# With a deadline, the share of the time left that listing may take before the flow
# model gets the rest
LIST_SHARE = 0.5
# Steps of the walk between two looks at the clock, counting the paths first or listing
# them with a deadline; and the share of the listing's time the count may take
COUNT_STEPS = 1_000_000
COUNT_SHARE = 0.25
# Steps of the commuter runs' walk (commuter.py) at most, in every mode (with a time
# limit or without, the search's call or the audit's): beyond, the flow model takes the
# board, or, where it does not apply, the route set is cut (incomplete: not proven, with
# a bound). Without this cap the walk of a full-size map (passing cities freely) never
# ends.
COMMUTER_STEPS = 500_000
# ... and when the board goes to the flow model (its paths too many to list): the walk
# there only serves the priced proof, which does without it
FLOW_COMMUTER_STEPS = 50_000
# Trains assigned by value classes first (``_assign_by_value``): off by default, as it
# was the slower of the two where both prove (20-24 hex boards: 0.55-2.4 s against
# 0.1-1.0 s CPU), and on a 52-hex board (1.8 million paths, 368 classes, the classes'
# bound 2,600 against a best run near 1,700) it found no run in 5 million steps. Steps
# of that search without a time limit, and the share of the time left it may take; past
# either, every route goes to the core
BY_VALUE = False
BY_VALUE_STEPS = 20_000_000
BY_VALUE_SHARE = 0.25
# Seconds the flow model gets without a time limit: unproven by then, the answer says so
FLOW_SECONDS = 120.0
# Seconds the track prices' bound (bound.py) may take at most
BOUND_SECONDS = 10.0
# The share of the time left (of FLOW_SECONDS without a time limit) that the flow model
# gets; the priced proof of its run (``_priced_proof``) gets the rest, when that is at
# least PROOF_MIN_SECONDS (else the flow model takes all: a short limit wants a run)
FLOW_SHARE = 0.75
# the share of the flow model's time its first step, the paths alone, may take
# (Model1831._paths_first): the rest is kept for the runs with a commuter run, when it is
# COMMUTER_STEP_SECONDS at least (a shorter rest, taken from the first part that every
# proof needs, seldom closes a commuter part its bound leaves open: they took 0.1-10.6 s
# on the full-size family; what the first part leaves unused goes to the later parts)
PATHS_SHARE = 0.8
COMMUTER_STEP_SECONDS = 4.0
PROOF_MIN_SECONDS = 20.0
# ... and the seconds that must be left when the flow model stopped before its share ran
# out (it proved the best run of the paths alone, 5.6.7's commuter runs left out) for
# the priced proof to settle the commuter runs (with less, its listing and search at a
# second target ended up to 0.75 s past a 10 s limit)
PROOF_LEFT_SECONDS = 2.0
# The track prices refined with real paths (bound.refined) only with at least this many
# seconds left (or no time limit): 0.4-8 s of CPU on the full-size family for 0-2% of
# the bound, which a short limit wants for CP-SAT's run
REFINE_MIN_SECONDS = 20.0
# CP-SAT told that a run earns more than the first run (flow.solve's ``hold``) instead of
# starting from it (a hint)
HOLD_TO_FIRST = False


class _PerBoard:
    """A value kept per compiled board while the board lives (an id is reused once its
    object is gone, so each entry holds a weak reference to check it against)."""

    def __init__(self):
        self._store = {}

    def get(self, compiled, missing=None):
        hit = self._store.get(id(compiled))
        return hit[1] if hit is not None and hit[0]() is compiled else missing

    def setdefault(self, compiled, value):
        """The value kept for ``compiled``, ``value`` kept first when there is none."""
        hit = self.get(compiled, _MISSING)
        return self.put(compiled, value) if hit is _MISSING else hit

    def put(self, compiled, value):
        key = id(compiled)
        hit = self._store.get(key)
        if hit is None or hit[0]() is not compiled:
            weakref.finalize(compiled, self._store.pop, key, None)
        self._store[key] = (weakref.ref(compiled), value)
        return value


_MISSING = object()
# per compiled board, its priced bound (or None): see Model1831.priced_bound
_PRICED = _PerBoard()
# per compiled board, a target the priced proof ruled out (no run earns more), for
# :meth:`Model1831.upper_bound`
_BELOW = _PerBoard()
# per compiled board, ``{(commuter kinds, lower): bound}`` of bound.commuting_bound (ended
# before its deadline): the flow model's parts and then the priced proof ask for the same
_COMMUTING = _PerBoard()
# the priced proof's first target below the bound, as a share of it, and how much
# further below each next one is than the last (as trainruns.route.proof's targets: near the
# bound the floors are high and few paths are listed)
TARGET_FIRST_STEP = 0.004
TARGET_GROWTH = 1.5


@dataclass
class TypedRouteSet(RouteSet):
    """A RouteSet whose routes pass cities without running to them: ``counted_for``
    says which stops a train runs to (the core's describe_route cannot know)."""

    model: object = None                 # the Model1831 that listed the routes
    arrays: object = None                # its StopArrays for this compiled board
    visit: np.ndarray = None             # per stop entry: the train runs to it (commuter runs pass some)
    is_commuter: np.ndarray = None       # per route: a commuter run (5.6.7)
    forced_mask: dict = field(default_factory=dict)  # route -> the track rights it must run to (5.6.5)
    paths_proven: bool = False  # the flow model's run, best of the runs without a commuter run (5.6.7)

    def counted_for(self, r, train_name):
        """The stops train ``train_name`` runs to on route ``r`` (5.6.2.3, 5.6.3)."""
        return [c is not None for c in self.model.chosen(self, r, train_name)]

    def earned_for(self, r, train_name):
        """Per stop, what the train earns there: the city's value and its token's
        (5.6.3: "the value of the city ... plus the value of the token in the city")."""
        return self.model.earned(self, r, train_name)


@dataclass
class StopArrays:
    """The 1831 facts of one compiled board by stop id (the kernels' input): city
    groups, what a Station or Rail Yard of the corporation (or a bought right) is
    worth at each stop, the track bits with double track, the Delaware revisits."""

    model: object
    compiled: object
    group_id: dict
    stop_group: np.ndarray
    stop_pass: np.ndarray
    st_val: np.ndarray
    yd_val: np.ndarray
    st_right: np.ndarray
    yd_right: np.ndarray
    stop_own: np.ndarray
    chain_bits: np.ndarray
    group_has_station: np.ndarray
    rev_a: np.ndarray
    rev_b: np.ndarray
    chain_und: np.ndarray
    chain_reenters: np.ndarray
    walk_to: np.ndarray

    @property
    def facts(self):
        return self.model.facts

    @property
    def strict(self):
        return self.model.strict

    def type_caps(self, train):
        return self.model.type_caps(train)

    def track_bits(self, chains):
        """The track bits the chains ``chains`` use (their bit sets joined)."""
        bits = np.zeros(self.compiled.words, np.uint64)
        for c in chains:
            bits |= self.chain_bits[c]
        return bits

    def south_of(self, stops):
        """(Delaware group, city a, city b) when the path ``stops`` enters the Delaware
        large city twice (5.6.2.1), else None."""
        groups = [int(self.stop_group[s]) for s in stops]
        for g in set(groups):
            if self.rev_a[g] >= 0:
                entries = sum(1 for i, x in enumerate(groups) if x == g and (i == 0 or groups[i - 1] != g))
                if entries > 1:
                    return g, int(self.rev_a[g]), int(self.rev_b[g])
        return None


class Model1831(RouteModel):
    """Per-stop 1831 facts by stop reference, and the search over them. Read-only
    after construction: every call works on its own :class:`StopArrays`.

    A solve's counted budget (``Limits.work``, :class:`trainruns.route.limits.Work`):
    ``covering_nodes`` stops the search for a run covering every bought right (and the
    assignment by value classes) after that many nodes instead of by the deadline;
    ``path_steps`` stops the listing of the paths from each token after that many steps
    forward (the set is then incomplete). A game sets both, wanting the same answer
    under any load; without it the deadline's budget holds and every path is listed."""

    def __init__(self, board, facts, phase, options):
        self.board, self.facts, self.options = board, facts, options
        self.strict = options.strict
        self.token_value = token_values(phase)

    def type_caps(self, train):
        """(most Stations, most Rail Yards) ``train`` runs to (5.6.2.3): its size for the
        types it runs to, 0 for the other; a mixed train's printed counts when the
        position gives them (``rules.mixed_counts``)."""
        if train.type == STATION:
            return train.size, 0
        if train.type == YARD:
            return 0, train.size
        caps = self.options.mixed_counts.get(train.name)
        return (caps["station"], caps["yard"]) if caps else (train.size, train.size)

    # --- arrays by stop id ----------------------------------------------------------

    def _arrays(self, compiled) -> StopArrays:
        """The facts of ``compiled`` by stop id (a new object each call)."""
        board, facts, corp = self.board, self.facts, self.board.corporation
        refs = compiled.stop_refs
        n = len(refs)
        groups = sorted({facts.group[r] for r in refs})
        group_id = {g: i for i, g in enumerate(groups)}
        stop_group = np.array([group_id[facts.group[r]] for r in refs], np.int64)
        stop_pass = np.array([bool(board.stop(r).passable) for r in refs], np.bool_)
        st_val = np.full(n, -1, np.int64)
        yd_val = np.full(n, -1, np.int64)
        st_right = np.full(n, -1, np.int64)
        yd_right = np.full(n, -1, np.int64)
        for s, ref in enumerate(refs):
            city = board.stop(ref).value
            for site in facts.sites.get(ref, []):
                if site.holder == corp or site.right >= 0:
                    val, right = (st_val, st_right) if site.type == "station" else (yd_val, yd_right)
                    val[s] = city + self.token_value[site.type]
                    if site.right >= 0:
                        right[s] = site.right
        stop_own = (st_val >= 0) | (yd_val >= 0)
        chain_bits = track.chain_bits(board, compiled, facts.double_sides)
        group_has_station = np.zeros(len(groups), np.bool_)
        group_has_station[stop_group[st_val >= 0]] = True
        rev_a = np.full(len(groups), -1, np.int64)
        rev_b = np.full(len(groups), -1, np.int64)
        for g, (a, b) in facts.revisit.items():
            if g in group_id and a in group_id and b in group_id:
                rev_a[group_id[g]] = group_id[a]
                rev_b[group_id[g]] = group_id[b]
        # a chain and the same track walked the other way share one undirected id
        key = {}
        for c in range(compiled.n_chains):
            ps = tuple(compiled.chain_paths[compiled.chain_path_ptr[c]:compiled.chain_path_ptr[c + 1]])
            key[(int(compiled.chain_from[c]), int(compiled.chain_to[c]), ps)] = c
        chain_und = np.array(
            [min(c, key.get((int(compiled.chain_to[c]), int(compiled.chain_from[c]),
                             tuple(compiled.chain_paths[compiled.chain_path_ptr[c]:compiled.chain_path_ptr[c + 1]][::-1])), c))
             for c in range(compiled.n_chains)], np.int64)
        # 5.2.3.10: a city and its red extension are "part of the same hex", so a chain
        # between two of its stops through any other hex leaves the city and enters it
        # again (5.6.2.1: a route enters a city once). The walk sees such a chain turned
        # back to the stop it leaves, which a path never re-enters (kernels.token_paths):
        # it is never taken (chains are numbered by the stop they leave, so they stay)
        reenters = ((stop_group[compiled.chain_from] == stop_group[compiled.chain_to])
                    & (compiled.chain_from != compiled.chain_to))
        if reenters.any():
            reenters &= ~inside_city(compiled, stop_group)
        walk_to = np.where(reenters, compiled.chain_from, compiled.chain_to).astype(np.int64)
        return StopArrays(self, compiled, group_id, stop_group, stop_pass, st_val, yd_val, st_right, yd_right,
                          stop_own, chain_bits, group_has_station, rev_a, rev_b, chain_und, reenters, walk_to)


    # --- the hooks -------------------------------------------------------------------

    def upper_bound(self, compiled):
        """No run earns more than the lowest of these bounds (the bound of a search
        stopped early): the track prices' bound of bound.py (:meth:`priced_bound`), each
        train running to its ``size`` best tokens (:meth:`token_bound`), and the lowest
        target the priced proof ruled out on this board (:meth:`_priced_proof`)."""
        trivial = self.token_bound(compiled)
        priced = self.priced_bound(compiled)
        out = trivial if priced is None else min(trivial, priced)
        below = _BELOW.get(compiled)
        if below is not None:
            out = min(out, below)  # the priced proof ruled out every run above it
        return out

    def priced_bound(self, compiled, arrays=None, deadline=None):
        """The Lagrangian bound of bound.py (prices on the track, 5.6.2), worked out once
        per compiled board (it takes a second or so on a full-size map, and the core
        asks for the bound again and again while it searches): a pure function of the
        board, so two calls agree. At most ``BOUND_SECONDS`` (or until ``deadline``):
        a bound cut short is the best one found so far, still a bound. None when the
        method had no time to price a route. Rounded down to the board's revenue step
        (bound.revenue_step: every run earns a sum of token values, 5.6.3)."""
        out = self._priced(compiled, arrays, deadline)
        if out is None:
            return None
        value = int(out[0].value)
        return value - value % out[1].step

    def _priced(self, compiled, arrays=None, deadline=None):
        """:meth:`priced_bound`'s ``(bound, pricing)`` (bound.priced, then bound.refined
        with ``REFINE_MIN_SECONDS`` or more left), or None."""
        from trainruns.titles.g1831.route import bound

        hit = _PRICED.get(compiled, _MISSING)
        if hit is not _MISSING:
            return hit
        now = time.perf_counter()
        until = now + BOUND_SECONDS
        until = until if deadline is None else min(until, deadline)
        out = bound.priced(arrays or self._arrays(compiled), deadline=until)
        if out is not None and (deadline is None or deadline - now >= REFINE_MIN_SECONDS):
            # the prices lowered further with real paths for lines (bound.refined), in
            # what is left of BOUND_SECONDS
            out = (bound.refined(out[1], out[0], deadline=until), out[1])
        return _PRICED.put(compiled, out)

    def bound_at_once(self, compiled):
        """:meth:`token_bound`: it needs no kernel."""
        return self.token_bound(compiled)

    def token_bound(self, compiled):
        """No run earns more than each train running to its ``size`` best tokens (city
        plus token value), each token counted at most twice (the Delaware city may be
        run to twice, 5.6.2.1), or, on a commuter run, as often as it can come round:
        consecutive visits are to different cities, so at most every other one, half
        the train's size rounded up (5.6.7)."""
        arrays = self._arrays(compiled)
        best = np.maximum(arrays.st_val, arrays.yd_val)
        best = np.sort(best[best > 0])[::-1]
        total = 0
        for t in self.board.trains:
            times = 2
            if self.facts.commuter and t.visits >= 5:
                times = max(times, (t.visits + 1) // 2)
            total += int(np.repeat(best, times)[: t.visits].sum())
        return total

    def all_routes(self, compiled, kinds, deadline=None, progress=None, along=None):
        """Every legal route valued per train kind, bought rights or not: what an audit
        of declared routes needs (``routes`` keeps only the best run when rights were
        bought). With ``along`` (stop-id sequences) only track between stops next to
        each other in one of them is walked: the routes listed include every one with
        those stops in that order (or reversed), and stay few however dense the map (a
        full-size map has 10^7 routes)."""
        if along is not None:
            compiled = _along(compiled, along)
        return self.routes(compiled, kinds, deadline, progress, enforce_rights=False, use_flow=False)

    def routes(self, compiled, kinds, deadline=None, progress=None, enforce_rights=True, use_flow=True,
               limits=None):
        """Every route of the corporation worth running, valued per train kind (see module
        docstring). With ``use_flow`` (the search's call), when the routes listed would
        outgrow the memory budget of ``limits`` (or the paths listed pass
        ``PATH_LIMIT``, or listing passes its share of the deadline), only the best run's
        routes, found by the flow model (flow.py) without listing paths."""
        arrays = self._arrays(compiled)
        work = None if limits is None else limits.work
        path_steps = work.path_steps if work else None
        n_rights = len(self.facts.rights)
        if n_rights > MAX_RIGHTS:
            raise InputError(f"at most {MAX_RIGHTS} track rights are supported, not {n_rights}", "track_rights")
        kind_names = [k.name for k in kinds]
        types = [parse_train_name(k.name) for k in kinds]
        n_masks = 1 << n_rights
        valuer = self._valuer(arrays, types, n_masks)
        listed = extra = budget = first = None
        walked_out = False  # the commuter runs' walk passed COMMUTER_STEPS already
        if use_flow:
            t0 = time.perf_counter()
            until = None if deadline is None else t0 + LIST_SHARE * (deadline - t0)
            budget = (limits or Limits()).array_budget()
            # the paths counted first (a numba walk, about 0.5 microseconds a path). The
            # commuter runs' walk (5.6.7; plain Python, about a microsecond a step on a
            # full-size map) then gets its whole cap if the paths are to be listed; for the
            # flow model it waits for the priced proof, which alone uses the runs (when
            # walked within FLOW_COMMUTER_STEPS; their priced best when not). (A game's
            # step budget bounds the listing already: no count first)
            count_until = None if until is None else t0 + COUNT_SHARE * (until - t0)
            sizes = None if path_steps else self._fits(arrays, len(types) * n_masks, budget, PATH_LIMIT,
                                                            count_until)
            listing = bool(path_steps) or sizes is not None
            if not listing:
                # the flow model's CP-SAT imported meanwhile, beside the first run's kernels
                from trainruns.route.cpsat import preload_cp_model

                preload_cp_model()
            if listing:
                try:
                    extra = self._commuter_runs(arrays, types, COMMUTER_STEPS, until)
                except TooManySteps as e:
                    walked_out = e.out_of_steps  # (a walk too long hands the board over)
            if listing and extra is not None:
                # (a game's step budget lists within it, by counted work: no path limit)
                listed = self._paths(arrays, valuer, until, progress, True, None if path_steps else PATH_LIMIT,
                                     budget, sizes, path_steps=path_steps)
            if listed is None:
                # too many routes to hold (passing cities freely, 5.6.2.3), or listing
                # took its share of the time: the flow model
                # a first run, by counted work (first.py): the answer whatever happens to
                # CP-SAT on a busy machine, and where CP-SAT starts
                end = time.perf_counter() + FLOW_SECONDS if deadline is None else deadline
                left = end - time.perf_counter()
                prove = left >= PROOF_MIN_SECONDS
                flow_end = end - (1 - FLOW_SHARE) * left if prove else end
                first = self._first_run(arrays, valuer, kind_names, flow_end)
                # the paths alone, then the runs with a commuter run (a commuter city the
                # flow model cannot take: the paths alone, their run not proven until the
                # commuter runs are settled, by their bound or the priced proof)
                flowed = self._paths_first(arrays, kinds, flow_end, progress, budget, first)
                # unproven: the routes that could still beat its run, by the track
                # prices, and a search over them proves it best or finds the best (on a
                # short limit too, when CP-SAT stopped early: the best run of the paths
                # alone proven, a commuter run left to settle). With bought rights it
                # proves the run, or nothing (see _priced_proof)
                unproven = flowed is not None and not flowed.complete
                if unproven and (prove or end - time.perf_counter() >= PROOF_LEFT_SECONDS):
                    try:
                        extra = self._commuter_runs(arrays, types, FLOW_COMMUTER_STEPS, end)
                    except TooManySteps:
                        extra = None
                    proved = self._priced_proof(arrays, valuer, types, flowed, extra, end, progress, budget, work)
                    if proved is not None:
                        return proved
                    if end - time.perf_counter() >= PROOF_MIN_SECONDS / 2:
                        # the proof gave up early (a commuter run might beat its floor):
                        # the time left to the flow model again, the better run kept
                        again = self._flow_routes(arrays, kinds, end, progress, budget, paths_alone=True,
                                                  first=first)
                        if again is not None and (again.complete or _revenue(again) > _revenue(flowed)):
                            flowed = again
                if flowed is not None:
                    return flowed
        cut = False
        if listed is None:
            # the audit's call, or the flow model does not apply: listed within the
            # deadline and the memory budget, the set cut (incomplete) past either
            # (a third of the budget: the chunks are joined, then the routes worth
            # running taken out, each a copy held with the one before for a moment)
            until = deadline
            if use_flow and deadline is not None:
                # the search's call: the paths kept are joined (a copy of up to a third
                # of the budget) and then assigned by the core, both after the listing
                # ends: half the time left is theirs
                now = time.perf_counter()
                until = now + LIST_SHARE * max(0.0, deadline - now)
            listed = self._paths(arrays, valuer, until, progress, budget=None if budget is None else budget // 3,
                                 keep_cut=True, path_steps=path_steps)
        if extra is None and walked_out:
            extra, cut = [], True  # (the same walk again would pass the cap again)
        elif extra is None:
            try:
                extra = self._commuter_runs(arrays, types, COMMUTER_STEPS, deadline)
            except TooManySteps:
                extra, cut = [], True  # past the cap or the deadline: no commuter run, nothing proven
        ptr, stops, chains, bits, values, complete = listed
        complete = complete and not cut
        if first is not None and not complete:
            # the listing cut short: the first run's paths join the routes, so the run
            # assigned over them earns at least as much
            ptr, stops, chains, bits, values = _join([(ptr, stops, chains, bits, values),
                                                      self._first_paths(arrays, valuer, first)])
        visit = np.ones(len(stops), np.bool_)
        n_plain = len(ptr) - 1
        ptr, stops, chains, bits, values, visit = self._add_commuter(
            arrays, types, n_masks, extra, ptr, stops, chains, bits, values, visit)
        found = _Found(arrays, kind_names, ptr, stops, chains, bits, visit,
                       np.arange(len(ptr) - 1) >= n_plain, complete)
        if n_rights == 0 or not enforce_rights:
            flat = values.max(axis=2)
            if BY_VALUE and enforce_rights and found.complete:
                chosen = self._assign_by_value(found, flat, deadline, work)
                if chosen is not None:
                    return chosen
            keep = np.flatnonzero((flat >= 0).any(axis=1))
            if use_flow and enforce_rights and work is None:
                # the search's call: the routes no better run takes dropped by the track
                # prices, whose bound the core's search then reports (priced_listing.py;
                # not in a game, whose answer is counted work alone: these take a share
                # of the clock)
                from trainruns.titles.g1831.route.priced_listing import cut_by_prices

                return cut_by_prices(self, found, flat[keep], keep, deadline)
            return self._subset(found, flat[keep], keep)
        return self._assign_with_rights(found, values, deadline, work)

    def _valuer(self, arrays, types, n_masks):
        """``value(ptr, stops) -> values[route, kind, rights mask]``: the most each kind
        earns on each path (kernels.best_counts; the Delaware valued again under
        ``delaware_south: "run_to"``). A path's value depends only on the tokens it passes
        (kernels.token_sequences): each sequence is valued once, however many paths
        (passing other cities, on other track) share it."""
        kind_type = np.array([TYPE_CODE[t.type] for t in types], np.int64)
        kind_size = np.array([t.size for t in types], np.int64)
        caps = np.array([self.type_caps(t) for t in types], np.int64).reshape(-1, 2)
        cap_s, cap_y = np.ascontiguousarray(caps[:, 0]), np.ascontiguousarray(caps[:, 1])
        sep = len(arrays.stop_group)  # the separator: one more stop, of a group of its own, earning nothing
        group = np.append(arrays.stop_group, arrays.stop_group.max(initial=0) + 1)
        st_val, yd_val = np.append(arrays.st_val, -1), np.append(arrays.yd_val, -1)
        st_right, yd_right = np.append(arrays.st_right, -1), np.append(arrays.yd_right, -1)
        earns = arrays.stop_own
        known = {}  # sequence hash -> (sequence bytes, values): sequences seen in earlier chunks

        def value_all(ptr, stops):
            values = np.empty((len(ptr) - 1, len(types), n_masks), np.int64)
            kernels.best_counts(ptr, stops, group, st_val, yd_val, st_right, yd_right, kind_type, kind_size,
                                cap_s, cap_y, self.strict, n_masks, values)
            return values

        def value(ptr, stops):
            n = len(ptr) - 1
            cptr = np.zeros(n + 1, np.int64)
            cst = np.empty(len(stops), np.int64)
            hashes = np.empty(n, np.uint64)
            kernels.token_sequences(ptr, stops, arrays.stop_group, earns, sep, cptr, cst, hashes)
            _, first, inverse = np.unique(hashes, return_index=True, return_inverse=True)
            rep = first[inverse.reshape(-1)]
            alone = np.flatnonzero(~kernels.same_sequence(cptr, cst, rep))  # hash collisions
            rep[alone] = alone
            todo, rows = [], {}
            for r in np.concatenate([first, alone]).tolist():
                seq = cst[cptr[r]:cptr[r + 1]].tobytes()
                hit = known.get(int(hashes[r]))
                if hit is not None and hit[0] == seq:
                    rows[r] = hit[1]
                else:
                    todo.append(r)
            if todo:
                todo = np.array(todo, np.int64)
                sub_ptr, sub_stops = _take(cptr, cst, todo)
                fresh = value_all(sub_ptr, sub_stops)
                for i, r in enumerate(todo.tolist()):
                    rows[r] = fresh[i]
                    if len(known) < KNOWN_SEQUENCES:
                        known.setdefault(int(hashes[r]), (cst[cptr[r]:cptr[r + 1]].tobytes(), fresh[i]))
            reps = np.array(sorted(rows), np.int64)
            table = np.array([rows[r] for r in reps.tolist()], np.int64).reshape(len(reps), len(types), n_masks)
            values = table[np.searchsorted(reps, rep)]
            if self.options.delaware_south == "run_to":
                self._revalue_delaware(arrays, ptr, stops, types, values)
            return values

        return value

    def _revalue_delaware(self, arrays, ptr, stops, types, values):
        """``delaware_south: "run_to"``: a path back to the Delaware large city earns only
        with tokens run to in both cities south between its two visits (5.6.2.1); the
        kernel checked only that it entered them, so such paths are valued again here."""
        from trainruns.titles.g1831.route.explain import best_per_rights

        has_rev = np.flatnonzero(arrays.rev_a >= 0)
        if not len(has_rev):
            return
        hit = np.isin(arrays.stop_group[stops], has_rev)
        owner = np.repeat(np.arange(len(ptr) - 1), np.diff(ptr))
        for r in np.unique(owner[hit]):
            path = [int(s) for s in stops[ptr[r]:ptr[r + 1]]]
            south = arrays.south_of(path)
            if south is None:
                continue
            values[r] = -1
            for k, t in enumerate(types):
                for m, (v, _) in best_per_rights(arrays, path, t, south).items():
                    values[r, k, m] = v

    def _fits(self, arrays, n_values, budget, limit=None, deadline=None):
        """(paths, their stops) when the paths' arrays fit ``budget`` bytes (and are
        ``limit`` at most), else None:
        the walk run once without keeping a path, stopped as soon as the paths are too
        many (about 0.5 microseconds a path: far less than listing them, so a board too
        large to list goes to the flow model without losing the time to try). None
        too when ``deadline`` passes first."""
        compiled = arrays.compiled
        per_path = 8 + 8 * compiled.words + 8 * n_values + PER_ROUTE_LATER  # beyond 16 bytes a stop
        most = budget // (per_path + 32)
        if limit is not None:
            most = min(most, limit)
        none = np.zeros(1, np.int64)
        no_bits = np.zeros((1, compiled.words), np.uint64)
        status = np.zeros(1, np.int64)
        paths = stops = 0
        unpriced = kernels.no_prices(compiled.n_stops, compiled.n_chains)
        for root in np.flatnonzero(arrays.stop_own):
            state = kernels.walk_state(compiled.n_stops, len(arrays.rev_a), compiled.words, int(root))
            meta = state[-1]
            while True:
                # in slices of COUNT_STEPS steps, the clock looked at between them
                kernels.token_paths(compiled.adj_ptr, arrays.walk_to, arrays.chain_bits,
                                    arrays.chain_und, arrays.stop_group, arrays.stop_pass, arrays.stop_own,
                                    arrays.rev_a, arrays.rev_b, none, none, none, no_bits, most - paths,
                                    meta[1] + COUNT_STEPS, *unpriced, *state, status)
                if status[0] == kernels.OVER or (paths + meta[2]) * per_path + 16 * (stops + meta[3]) > budget:
                    return None
                if status[0] != kernels.CUT:
                    break
                if deadline is not None and time.perf_counter() > deadline:
                    return None
            paths, stops = paths + meta[2], stops + meta[3]
        return int(paths), int(stops)

    def _paths(self, arrays, value, deadline, progress, give_up=False, limit=None, budget=None, sizes=None,
               keep_cut=False, prices=None, path_steps=None):
        """Every token-to-token path (kernels.token_paths), root by root, in chunks of
        ``CHUNK`` paths, each valued (``value``) as it comes, so that only the routes are
        held, never a root's paths twice. Returns (ptr, stops, chains, bits, values,
        complete), or None when more than ``limit`` paths were walked or the arrays kept
        passed ``budget`` bytes (with ``keep_cut``: the paths held by then, the set
        incomplete), or with ``give_up`` when ``deadline`` passed (the caller
        then turns to the flow model). Else a deadline leaves the set cut (``complete``
        False), as does a game's step budget ``path_steps`` (:class:`Work`). With ``sizes`` (paths,
        stops: :meth:`_fits` counted them) the chunks go straight into arrays of that
        size, so the routes are never held twice (no joining of parts). ``prices``: the
        priced cut of kernels.token_paths (None: every path)."""
        compiled = arrays.compiled
        prices = prices or kernels.no_prices(compiled.n_stops, compiled.n_chains)
        n_kinds = len(prices[1])
        roots = np.flatnonzero(arrays.stop_own)
        n_groups = len(arrays.rev_a)
        words = compiled.words
        most = (1 << 62) if limit is None else max(limit, 0)
        longest = compiled.n_stops + 2
        out_ptr = np.zeros(CHUNK + 1, np.int64)
        out_stops = np.empty(CHUNK * min(longest, 24) + longest, np.int64)
        out_chains = np.empty_like(out_stops)
        out_bits = np.empty((CHUNK, words), np.uint64)
        status = np.zeros(1, np.int64)
        parts, complete, late, held, walked = [], True, False, 0, 0
        room = None if sizes is None else _Room(sizes[0], sizes[1], words)
        for i, root in enumerate(roots):
            state = kernels.walk_state(compiled.n_stops, n_groups, words, int(root), n_kinds)
            meta = state[-1]
            while True:
                if deadline is not None and time.perf_counter() > deadline:
                    if give_up:
                        return None
                    complete, late = False, True
                    break
                # with a deadline, in slices of COUNT_STEPS steps, the clock looked at
                # between them: the priced cut may walk millions of steps without keeping
                # a path, so a full chunk alone would leave the clock unread for minutes
                steps = path_steps or 0
                if deadline is not None and (not steps or meta[1] + COUNT_STEPS < steps):
                    steps = meta[1] + COUNT_STEPS
                n = kernels.token_paths(compiled.adj_ptr, arrays.walk_to, arrays.chain_bits,
                                        arrays.chain_und, arrays.stop_group, arrays.stop_pass, arrays.stop_own,
                                        arrays.rev_a, arrays.rev_b, out_ptr, out_stops, out_chains, out_bits,
                                        most - walked, steps, *prices, *state, status)
                paused = status[0] == kernels.CUT and steps != (path_steps or 0)
                walked += n
                if status[0] == kernels.OVER:
                    return None
                if n and room is not None:
                    room.put(out_ptr, out_stops, out_chains, out_bits, n, value(out_ptr[: n + 1], out_stops[:out_ptr[n]]))
                elif n:
                    end = out_ptr[n]
                    part = (out_ptr[: n + 1].copy(), out_stops[:end].copy(), out_chains[:end].copy(),
                            out_bits[:n].copy())
                    part = part + (value(part[0], part[1]),)
                    parts.append(part)
                    held += sum(a.nbytes for a in part) + PER_ROUTE_LATER * (len(part[0]) - 1)
                    if budget is not None and held > budget:
                        if not keep_cut:
                            return None
                        complete, late = False, True  # the routes held so far, incomplete
                        break
                if paused:
                    continue
                if status[0] == kernels.CUT:
                    complete = False  # (the step budget is per token: the next one is walked)
                if status[0] != kernels.FULL:
                    break
            if progress:
                progress.update("routes", roots_done=i + 1, roots=len(roots), paths=walked,
                                routes=walked if room is not None else sum(len(p[0]) - 1 for p in parts))
            if late:
                break
        if room is not None and room.at:
            return room.arrays() + (complete,)
        if not parts:
            none = np.zeros(1, np.int64)
            parts = [(none, none[:0], none[:0], out_bits[:0].copy(), value(none, none[:0]))]
        return _join(parts) + (complete,)

    def _first_run(self, arrays, valuer, kind_names, deadline=None):
        """first.py's run of this board (None: none found), with the track prices'
        start where the prices are known (:meth:`_priced` for ``deadline``, the flow
        model's: the prices it is then held to, worked out once)."""
        from trainruns.titles.g1831.route import first

        priced = self._priced(arrays.compiled, arrays, deadline)
        return first.first_run(arrays, list(self.board.trains), valuer, kind_names, priced=priced)

    def _first_paths(self, arrays, valuer, first):
        """The paths of the run ``first`` as listed paths (ptr, stops, chains, bits,
        values), each valued for every kind by ``valuer``."""
        ptr, stops, chains, bits = [0], [], [], []
        for _, st, ch, _, _ in first.chosen:
            ptr.append(ptr[-1] + len(st))
            stops += st
            chains += list(ch) + [-1]
            bits.append(arrays.track_bits(ch))
        ptr, stops = np.array(ptr, np.int64), np.array(stops, np.int64)
        return (ptr, stops, np.array(chains, np.int64),
                np.array(bits, np.uint64).reshape(len(first.chosen), arrays.compiled.words), valuer(ptr, stops))

    def _paths_first(self, arrays, kinds, end, progress, memory, first):
        """The flow model's best run by ``end``, the runs taken in parts (flow.solve's
        ``commute`` and ``revisit``). First the paths that enter the Delaware city once
        at most (5.6.2.1) and are no commuter run (5.6.7): a third of the model's
        variables and a sixth of its constraints, which CP-SAT proves two to four times
        as fast (``PATHS_SHARE`` of the time at most). Then, with the time left and each
        held above the best run so far, the paths that enter the Delaware twice, and
        the runs with a commuter run (beside paths that enter the Delaware once or
        twice; a part per commuter circuit, then one for two commuter runs), unless the
        track prices bound those at the best run's revenue (:meth:`_commuters_bounded`).
        The run is proven when each part was: its best found, or none above the run
        before it."""
        now = time.perf_counter()
        kept = (1 - PATHS_SHARE) * (end - now)
        best = self._flow_routes(arrays, kinds, end - (kept if kept >= COMMUTER_STEP_SECONDS else 0.0), progress,
                                 memory, first=first, commute="none", revisit="none")
        if best is None or best.complete:
            return self._some_run(best)
        settled = best.paths_proven
        delaware = bool((arrays.rev_a >= 0).any())
        if delaware:
            best, settled = self._held_above(arrays, kinds, end, progress, memory, best, settled, "none", "only")
        commuting = bool(arrays.facts.commuter) and any(may_commute(parse_train_name(t.name))
                                                         for t in self.board.trains)
        if settled and (not commuting or self._commuters_bounded(arrays, _revenue(best), end)):
            best.complete = True
            return self._some_run(best)
        # (the best of the runs without a commuter run, when settled: the priced proof's start)
        best.paths_proven = settled
        if commuting:
            # a commuter run beside paths that enter the Delaware once or twice (the
            # second entry's labels cost CP-SAT little: benchmarks/README.md, "the
            # commuter part in one piece"), one part per commuter circuit with the
            # others left out, then the runs with two commuter runs or more (where two
            # trains may run one): the commuter parts of six full-size boards so took
            # CP-SAT 0.9-5.4 s in all where one part took it 0.9-10.8 s
            # (benchmarks/README.md, "a part per commuter circuit")
            from trainruns.titles.g1831.route.flow import commuter_circuits

            owners = commuter_circuits(arrays, self.board.trains)   # each circuit's train
            for part in [*range(len(owners)), *(["several"] if len(set(owners)) > 1 else [])]:
                if not self._part_bounded(arrays, part, owners, _revenue(best), end):
                    best, settled = self._held_above(arrays, kinds, end, progress, memory, best, settled, part,
                                                     "model")
            best.complete = settled
        return self._some_run(best)

    def _part_bounded(self, arrays, part, owners, known, deadline):
        """Whether the track prices bound a commuter part of :meth:`_paths_first`
        (flow.solve's ``commute``: a circuit's number, or ``"several"``) at ``known``, so
        that no run of it earns more and CP-SAT need not be asked: a circuit's runs by
        its train held to commuter runs, the runs with two commuter runs or more by each
        two of the circuits' trains held to them (5.6.7). ``owners``: each circuit's
        train (flow.commuter_circuits)."""
        names = [t.name for t in self.board.trains]
        if part != "several":
            return self._commuting_bounded(arrays, (names[owners[part]],), known, deadline)
        pairs = {(names[a], names[b]) for a in set(owners) for b in set(owners) if a < b}
        return all(self._commuting_bounded(arrays, pair, known, deadline) for pair in pairs)

    def _held_above(self, arrays, kinds, end, progress, memory, best, settled, commute, revisit):
        """One part of :meth:`_paths_first`'s runs (``commute``, ``revisit``), CP-SAT held
        above the run ``best``: ``(the better run, whether every part so far is settled)``.
        A part is settled when CP-SAT found its best run (it earns more) or proved that
        none earns more."""
        from trainruns.titles.g1831.route.first import FirstRun

        if time.perf_counter() >= end:
            return best, False
        known = _revenue(best)
        more = self._flow_routes(arrays, kinds, end, progress, memory, first=FirstRun([], known, 0),
                                 commute=commute, revisit=revisit, hold=True)
        if more is None:
            return best, False  # (the model cannot take this board's commuter runs)
        settled = settled and (more.complete or more.paths_proven)
        return (more if _revenue(more) > known else best), settled

    def _some_run(self, rs):
        """``rs``, unless it is proven and holds no run on a board with bought rights:
        then no run runs to every right (5.6.5), which is bad input."""
        if rs is not None and rs.complete and not len(rs.values) and self.facts.rights:
            _no_covering_run(self)
        return rs

    def _flow_routes(self, arrays, kinds, deadline, progress, memory=None, paths_alone=False, first=None,
                     commute="model", revisit="model", hold=None):
        """The best run by the flow model (flow.py) as a route set of its routes alone,
        each valued for its own train's kind (as ``_assign_with_rights`` hands over its
        choice), complete when CP-SAT proved it best; None where the model does not
        apply (the caller lists paths; ``paths_alone``, ``commute``, ``revisit`` and
        ``hold``: flow.solve's, ``hold`` by default ``HOLD_TO_FIRST``). Past ``deadline``
        or beyond ``memory`` bytes the set is empty and incomplete: the core reports
        :meth:`upper_bound`."""
        from trainruns.titles.g1831.route import flow
        from trainruns.titles.g1831.route.explain import best_choice

        if deadline is None:
            deadline = time.perf_counter() + FLOW_SECONDS
        trains = list(self.board.trains)
        # the track prices' bound first: the flow model is told no run earns more, so
        # CP-SAT proves a run that reaches it best at once (its own bound starts far higher)
        upper = self.priced_bound(arrays.compiled, arrays, deadline)
        out = flow.solve(arrays, trains, deadline=deadline, progress=progress, memory=memory, upper=upper,
                         paths_alone=paths_alone, first=first, hold=HOLD_TO_FIRST if hold is None else hold,
                         commute=commute, revisit=revisit)
        if out is None:
            return None
        chosen, proven, bound = out
        if proven and bound == -1:
            _no_covering_run(self)
        kind_names = [k.name for k in kinds]
        ptr, stops, chains, visit, bits, commuter = [0], [], [], [], [], []
        values = np.full((len(chosen), len(kinds)), -1, np.int64)
        masks = {}
        for row, (ti, st, ch, vis, is_commuter, mask) in enumerate(chosen):
            ptr.append(ptr[-1] + len(st))
            stops += st
            chains += list(ch) + [-1]
            visit += vis
            bits.append(arrays.track_bits(ch))
            commuter.append(is_commuter)
            tt = parse_train_name(trains[ti].name)
            if is_commuter:
                value = sum(int(arrays.st_val[s]) for s, v in zip(st, vis) if v)
            else:
                south = arrays.south_of(st) if self.options.delaware_south == "run_to" else None
                value = best_choice(arrays, st, tt, mask, south)[0]
            values[row, kind_names.index(trains[ti].name)] = value
            masks[row] = mask
        found = _Found(arrays, kind_names, np.array(ptr, np.int64), np.array(stops, np.int64),
                       np.array(chains, np.int64),
                       np.array(bits, np.uint64).reshape(len(chosen), arrays.compiled.words),
                       np.array(visit, np.bool_), np.array(commuter, np.bool_), proven)
        if upper is not None and int(values.max(axis=1).sum()) >= upper:
            found.complete = True  # the run reaches the track prices' bound: no run earns more
        rs = self._subset(found, values, np.arange(len(chosen), dtype=np.int64))
        rs.forced_mask = masks
        # CP-SAT proved the paths alone best, a commuter run left out (flow.solve's
        # paths_alone): the priced proof has the commuter runs to settle, no more
        rs.paths_proven = not proven and bound is not None
        return rs

    def _commuters_settled(self, arrays, flowed, deadline):
        """Whether the flow model's run ``flowed``, proven best of the runs without a
        commuter run (``paths_proven``), is proven best of all
        (:meth:`_commuters_bounded` at its revenue). Marks ``flowed`` complete when so."""
        if not flowed.paths_proven or not self._commuters_bounded(arrays, _revenue(flowed), deadline):
            return False
        flowed.complete = True
        return True

    def _commuters_bounded(self, arrays, known, deadline):
        """Whether no run with a commuter run (5.6.7) earns more than ``known``: each
        commuter train in turn held to commuter runs (:meth:`_commuting_bounded`)."""
        pricing = self._priced(arrays.compiled, arrays, deadline)
        if pricing is None or not pricing[1]._commuter:
            return False
        kind_of = {k.name: k for k in pricing[1].kinds}
        return all(self._commuting_bounded(arrays, (name,), known, deadline)
                   for name in sorted({t.name for t in self.board.trains if may_commute(kind_of[t.name])}))

    def _commuting_bounded(self, arrays, names, known, deadline):
        """Whether no run in which the trains ``names`` (a kind's name once per train)
        each run a commuter run (5.6.7) earns more than ``known``: the track prices with
        those trains held to commuter runs (bound.commuting_bound, from the board's
        prices and from 0 by turns) bound the runs at ``known``. The prices leave out
        that a run must use each token bought as a track right (5.6.5): a bound over
        more runs, so it holds on a board with rights too."""
        from trainruns.titles.g1831.route import bound as bound_1831

        out = self._priced(arrays.compiled, arrays, deadline)
        if out is None or not out[1]._commuter:
            return False
        names = tuple(sorted(names))
        done = _COMMUTING.setdefault(arrays.compiled, {})
        bound = done.get((names, known), -1)
        if bound == -1:
            bound = bound_1831.commuting_bound(out[1], names, known, deadline, board_prices=out[0].price)
            if deadline is None or time.perf_counter() < deadline:
                done[(names, known)] = bound
        return bound is not None and bound <= known

    def _priced_proof(self, arrays, value, types, flowed, extra, deadline, progress, budget, work=None):
        """The proof of the flow model's unproven run ``flowed``, as the core
        proves its monsters (trainruns.route.proof). With
        the track prices of bound.py, a run earning more than a target gives each train
        a route whose value less its price is above the train's floor (trainruns.
        lagrange.reduced_floors: the other trains at their best priced routes). The
        targets step down from the bound to the flow model's revenue (as the core's
        ``prove``): near the bound the floors are high and few paths pass them. At each
        target only those paths are listed (kernels.token_paths' priced cut), valued
        (5.6.3) and kept if above some kind's floor; the linear relaxation of packing
        them on the track (route/packing.py: the trains together, 5.6.2) rules the
        target out when its bound is at or below it, else drops the routes its reduced
        costs leave in no run above it, and the trains are assigned to the rest
        (kernels.assign_priced, the track prices pruning): a run found above the target
        is the best (every route of a better run was listed); none lowers the bound to
        the target (kept for :meth:`upper_bound`, even when a lower target is not
        ruled out in time). Returns the best run's route set, complete (proven): the
        better run found, or ``flowed`` itself; None where this proves nothing more: no
        prices, the commuter runs not walked (``extra`` None) and one could beat its
        floor at the target (their priced best, bound.py's DP), or the listing or the
        search past ``deadline`` or beyond ``budget`` bytes.

        Bought track rights (5.6.5: a run runs to every token bought as one): the prices,
        the paths listed and their search leave that rule out, so they bound more runs
        than the legal ones and a target they rule out holds; a run they find above a
        target need not run to every right, so there it proves nothing (None), and
        ``flowed`` (the flow model keeps the rule) stays the answer."""
        from trainruns.route.lagrange import SCALE, reduced_floors
        from trainruns.titles.g1831.route import bound as bound_1831

        compiled = arrays.compiled
        out = self._priced(compiled, arrays, deadline)
        if out is None:
            return None
        bound, pricing = out
        known = _revenue(flowed)
        trains = sorted(self.board.trains, key=lambda t: (t.name, -t.visits))
        kind_of = {k.name: k for k in pricing.kinds}
        cost, _ = pricing.arc_costs(bound.price)
        dist, nxt = pricing._distances(cost)
        if self._commuters_settled(arrays, flowed, deadline):
            return flowed
        # each commuter kind's best priced commuter run (5.6.7), for the floors below
        commuting = {t.name: pricing._best_commuter(kind_of[t.name].size, dist, nxt)[0] for t in trains
                     if extra is None and pricing._commuter and may_commute(kind_of[t.name])}
        names = [t.name for t in types]
        priced = bound_1831.priced_cut(pricing, bound.price, names)
        top = int(bound.value)
        # the lowest target at which no unwalked commuter run can be in a better run (its
        # kind's priced best at or below the floor): the descent stops there at the latest
        gate = max([-(-(best + 1 + int(bound.total) - bound.best[name]) // SCALE) - 1
                    for name, best in commuting.items()], default=known)
        if gate >= top:
            return None
        step = max(1, int(top * TARGET_FIRST_STEP))
        target = max(known, gate, top - step)
        while True:
            floor = reduced_floors(bound, trains, target)
            if any(best > floor[name] for name, best in commuting.items()):
                return None  # the commuter runs were not walked and one could be in a better run
            out = self._priced_search(arrays, value, types, flowed, extra, trains, bound, priced, floor, target,
                                      deadline, progress, budget, work)
            if out is None:
                return None
            if out is not True:
                # a run above the target: the best (with rights, of runs that may leave
                # one out: nothing proven)
                return None if self.facts.rights else out
            _rule_out(compiled, target)
            if target <= known:
                flowed.complete = True  # no run earns more than the flow model's
                return flowed
            if target <= gate:
                return None  # below it a commuter run, not walked, could be in a better run
            step = max(step + 1, int(step * TARGET_GROWTH))
            target = max(known, gate, target - step)

    def _priced_search(self, arrays, value, types, flowed, extra, trains, bound, priced, floor, target, deadline,
                       progress, budget, work=None):
        """One target of :meth:`_priced_proof`: the paths above the ``floor`` of the
        prices ``priced`` listed and searched. Returns the route set of the best run when
        it earns more than ``target`` (complete), True when no run does, None when the
        listing or the search did not end (deadline, budget)."""
        from trainruns.route.lagrange import SCALE
        from trainruns.route.limits import on_thread

        names = [t.name for t in types]
        chain_price = priced[0]
        prices = priced[:4] + (np.array([floor[name] for name in names], np.int64),) + priced[5:]
        listed = self._paths(arrays, value, deadline, progress, give_up=True, budget=budget, prices=prices,
                             path_steps=work.path_steps if work else None)
        if listed is None or not listed[5]:
            return None  # (or not every path walked: a game's step budget)
        if deadline is not None and time.perf_counter() >= deadline:
            return None  # the listing ended past the deadline (its last chunk valued)
        ptr, stops, chains, bits, values, _ = listed
        visit = np.ones(len(stops), np.bool_)
        n_plain = len(ptr) - 1
        ptr, stops, chains, bits, values, visit = self._add_commuter(
            arrays, types, values.shape[2], extra, ptr, stops, chains, bits, values, visit)
        found = _Found(arrays, names, ptr, stops, chains, bits, visit, np.arange(len(ptr) - 1) >= n_plain, True)
        # each route's price and, per kind, its slack: the kind's best priced route less
        # its value less its price (scaled); kept where the floor lets it be in a better run
        paid = np.where(chains >= 0, chain_price[np.maximum(chains, 0)], 0)
        price = np.add.reduceat(paid, ptr[:-1]) if len(ptr) > 1 else np.zeros(0, np.int64)
        flat = values.max(axis=2)
        kind_index = {name: k for k, name in enumerate(names)}

        def above(name):
            """(the routes a train of kind ``name`` may run in a better run, their worths)"""
            k = kind_index[name]
            worth = flat[:, k] * SCALE - price
            return np.flatnonzero((flat[:, k] >= 0) & (worth > floor[name])), worth

        # the trains together (route/packing.py): the linear relaxation of packing these
        # candidates bounds every run of them; at or below the target no run is above
        # it. Else only the candidates its reduced costs leave in a run above the target
        # are searched (reduced-cost fixing), still priced by the track prices: the
        # relaxation's duals, many of its reduced costs 0, leave the search's look-ahead
        # nothing to cut with (40hex-s0's second target: unfinished in 6.7 s of CPU
        # against 2.9 s)
        kind_names = sorted({t.name for t in trains})
        cands = [above(name)[0] for name in kind_names]
        cand_kind = np.repeat(np.arange(len(kind_names)), [len(r) for r in cands])
        cand_route = np.concatenate(cands) if cands else np.zeros(0, np.int64)
        cand_value = flat[cand_route, [kind_index[kind_names[k]] for k in cand_kind]] if len(cand_route) else []
        caps = [sum(t.name == name for t in trains) for name in kind_names]
        packed = packing_bound(cand_value, cand_kind, caps, bits[cand_route], target, deadline)
        if packed.bound < target + 1 - PACKING_MARGIN:
            return True
        # (a run above the target earns at most the relaxation's bound, one not above it
        # at most the target: the board's bound, should the search not end)
        _rule_out(arrays.compiled, int(np.floor(packed.bound + PACKING_MARGIN)))
        kept = {name: cands[k][packed.keep[cand_kind == k]] for k, name in enumerate(kind_names)}

        def of_kind(name):
            k = kind_index[name]
            _, worth = above(name)
            r = kept[name]
            sl = bound.best[name] - worth[r]
            # the train idle: route -1, value 0, its whole best as slack
            r = np.append(r, -1)
            sl = np.append(sl, bound.best[name])
            v = np.append(flat[r[:-1], k], 0)
            order = np.argsort(sl, kind="stable")
            return sl[order], r[order], v[order]

        # the trains whose candidates take the most track first: each later train's least
        # slack among the routes left free (the search's cut) then rises soonest. (Fewest
        # candidates first, the usual order, left a full-size board's long 12MX routes,
        # 73,101 of them, for last: 4.1 s at 48hex-s1's first target, 0.03 s this way)
        pops = kernels.popcounts(np.ascontiguousarray(bits))
        track = {}
        for name in names:
            r = kept[name]
            track[name] = float(pops[r].mean()) if len(r) else 0.0
        trains = sorted(trains, key=lambda t: (-track[t.name], t.name))
        start, end, twin, _, (cs, cr, cv) = _candidates(trains, of_kind, 3)
        choice = np.full(len(trains), -1, np.int64)
        stop = np.zeros(1, np.int64)
        budget_nodes = _node_budget(deadline) if work is None else work.covering_nodes
        best, status = on_thread(kernels.assign_priced, (
            start, end, twin, cr, cv, cs, np.ascontiguousarray(bits), int(bound.total), SCALE, target, choice,
            budget_nodes if budget_nodes >= 0 else 1 << 62, stop), stop, deadline, "the priced search")
        if status != 0:
            return None
        if best <= target:
            return True
        chosen = [(i, int(cr[choice[i]])) for i in range(len(trains)) if choice[i] >= 0 and cr[choice[i]] >= 0]
        return self._run_of(found, trains, [(i, r, flat[r, kind_index[trains[i].name]]) for i, r in chosen], True)

    def _commuter_runs(self, arrays, types, max_steps=None, deadline=None):
        """5.6.7: the commuter runs (commuter.py) for the longest Station train. More
        than ``max_steps`` steps of their walk, or past ``deadline``, raise
        TooManySteps."""
        size = max([t.size for t in types if t.type == STATION], default=0)
        return list(commuter_paths(arrays, size, max_steps, deadline))

    def _add_commuter(self, arrays, types, n_masks, extra, ptr, stops, chains, bits, values, visit):
        """The commuter runs ``extra`` added to the routes, valued here: every visit runs
        to its Station (5.6.7)."""
        if not extra:
            return ptr, stops, chains, bits, values, visit
        more, stops, chains, visit = [int(ptr[-1])], [stops], [chains], [visit]
        new_bits, new_vals = [bits], []
        for st, ch, vis, b in extra:
            more.append(more[-1] + len(st))
            stops.append(np.array(st, np.int64))
            chains.append(np.array(ch + [-1], np.int64))
            visit.append(np.array(vis, np.bool_))
            new_bits.append(b.reshape(1, -1))
            total = sum(int(arrays.st_val[s]) for s, v in zip(st, vis) if v)
            mask = 0
            for s, v in zip(st, vis):
                if v and arrays.st_right[s] >= 0:
                    mask |= 1 << int(arrays.st_right[s])
            row = np.full((1, len(types), n_masks), -1, np.int64)
            for k, t in enumerate(types):
                if t.type == STATION and t.size >= max(5, sum(vis)):
                    row[0, k, mask] = total
            new_vals.append(row)
        return (np.concatenate([ptr, np.array(more[1:], np.int64)]), np.concatenate(stops), np.concatenate(chains),
                np.concatenate(new_bits), np.concatenate([values] + new_vals), np.concatenate(visit))

    def _subset(self, found, values, keep, complete=None):
        """The routes ``keep`` of ``found`` (valued ``values``, one row each) as a
        TypedRouteSet (chains aligned with stops as the core's are: chain i joins stops i
        and i+1, the last one unused; all forwards)."""
        ptr, compiled = found.ptr, found.arrays.compiled
        complete = found.complete if complete is None else complete
        keep = np.asarray(keep, np.int64)
        if len(keep) == len(ptr) - 1 and np.array_equal(keep, np.arange(len(keep))):
            # every route: the arrays as they are (a full-size map's are not copied)
            new_ptr, stops, chains, visit, bits = ptr, found.stops, found.chains, found.visit, found.bits
        else:
            lens = ptr[keep + 1] - ptr[keep]
            new_ptr = np.zeros(len(keep) + 1, np.int64)
            np.cumsum(lens, out=new_ptr[1:])
            idx = np.repeat(ptr[keep] - new_ptr[:-1], lens) + np.arange(new_ptr[-1], dtype=np.int64)
            stops, chains, visit, bits = found.stops[idx], found.chains[idx], found.visit[idx], found.bits[keep]
        return TypedRouteSet(compiled, new_ptr, stops, chains, np.zeros(len(keep), np.int64), bits,
                             list(found.kind_names), np.ascontiguousarray(values), complete,
                             model=self, arrays=found.arrays, visit=visit, is_commuter=found.commuter[keep])

    def _run_of(self, found, trains, chosen, complete):
        """The core's route set of a run chosen here (``chosen``: [(train index, route,
        value)]): each route alone, valued for its own train's kind only (the others -1),
        so the core assigns it to that train."""
        kind_index = {name: k for k, name in enumerate(found.kind_names)}
        keep = np.array([r for _, r, _ in chosen], np.int64)
        forced = np.full((len(keep), len(found.kind_names)), -1, np.int64)
        for row, (i, _, v) in enumerate(chosen):
            forced[row, kind_index[trains[i].name]] = v
        return self._subset(found, forced, keep, complete)

    def _assign_by_value(self, found, values, deadline=None, work=None):
        """The best run, trains assigned here to classes of routes of equal value
        (kernels.assign_by_value) and track resolved only for the classes chosen, handed
        to the core as its routes alone (as ``_assign_with_rights`` does). Passing
        cities freely (5.6.2.2, 5.6.2.3) gives a token sequence thousands of tracks that
        earn the same: they differ only in the track they take, so a search over the
        routes themselves tries each in turn, while this one tries a value once and
        looks for routes that share no track (5.6.2) only when the values allow. Exact:
        routes of one class are interchangeable but for their track, and every route of
        a chosen class is tried before the class is given up. None when the search ran
        out of its steps (a share of the time left): the caller hands the core every
        route."""
        n = len(values)
        if n == 0 or values.shape[1] == 0 or not self.board.trains:
            return None
        # classes: equal value rows (one column per train kind)
        by_row = np.lexsort(values.T[::-1])
        rows = values[by_row]
        new = np.ones(n, np.bool_)
        new[1:] = (rows[1:] != rows[:-1]).any(axis=1)
        cls_of = np.empty(n, np.int64)
        cls_of[by_row] = np.cumsum(new) - 1
        # each class's routes, fewest track bits first (the likeliest to fit)
        cls_route = np.lexsort((kernels.popcounts(found.bits), cls_of)).astype(np.int64)
        cls_ptr = np.flatnonzero(np.r_[True, np.diff(cls_of[cls_route]) != 0, True]).astype(np.int64)
        heads = cls_route[cls_ptr[:-1]]
        must = np.ascontiguousarray(np.bitwise_and.reduceat(found.bits[cls_route], cls_ptr[:-1], axis=0))
        class_values = values[heads]
        trains = sorted(self.board.trains, key=lambda t: (-t.visits, t.name))
        kind_index = {name: k for k, name in enumerate(found.kind_names)}
        def of_kind(name):
            col = class_values[:, kind_index[name]]
            c = np.flatnonzero(col >= 0)
            c = c[np.argsort(-col[c], kind="stable")]
            return col[c], c

        start, end, twin, rest, (cv, cc) = _candidates(trains, of_kind, 2)
        if work is not None:
            steps = work.covering_nodes  # a game's fixed budget: the same answer under any load
        elif deadline is None:
            steps = BY_VALUE_STEPS
        else:
            steps = _node_budget(time.perf_counter() + BY_VALUE_SHARE * (deadline - time.perf_counter()))
        routes = np.full(max(len(trains), 1), -1, np.int64)
        stopped = np.zeros(1, np.bool_)
        best = kernels.assign_by_value(start, end, twin, cc, cv, rest, cls_ptr, cls_route,
                                       np.ascontiguousarray(found.bits), must, steps, routes, stopped)
        if stopped[0] or best < 0:
            return None
        chosen = [(i, int(routes[i])) for i in range(len(trains)) if routes[i] >= 0]
        return self._run_of(found, trains, [(i, r, values[r, kind_index[trains[i].name]]) for i, r in chosen], True)

    def _assign_with_rights(self, found, values, deadline=None, work=None):
        """5.6.5: choose the run here, every bought right run to by some train, and hand
        the core only the chosen routes, each valued for its own train's kind."""
        bits, complete = found.bits, found.complete
        trains = sorted(self.board.trains, key=lambda t: (-t.visits, t.name))
        n_masks = values.shape[2]
        # a (route, rights) candidate is useless when a superset of rights earns as much
        best_super = np.full(values.shape, -1, np.int64)
        for m in range(n_masks):
            sup = [m2 for m2 in range(n_masks) if m2 & m == m and m2 != m]
            if sup:
                best_super[:, :, m] = values[:, :, sup].max(axis=2)
        useful = (values >= 0) & (values > best_super)
        kind_index = {name: k for k, name in enumerate(found.kind_names)}
        def of_kind(name):
            k = kind_index[name]
            r, m = np.nonzero(useful[:, k, :])
            v = values[r, k, m]
            order = np.argsort(-v, kind="stable")
            return v[order], r[order], m[order]

        start, end, twin, rest, (cv, cr, cm) = _candidates(trains, of_kind, 3)
        from trainruns.route.limits import on_thread

        choice = np.full(max(len(trains), 1), -1, np.int64)
        stopped = np.zeros(1, np.bool_)
        stop = np.zeros(1, np.int64)
        # the node budget alone does not bound the time: a node may pass over a great
        # many candidates that share track; the flag is set at the deadline
        best = on_thread(kernels.assign_covering, (start, end, twin, cr, cv, cm, bits, rest, n_masks - 1, choice,
                                                   _node_budget(deadline) if work is None
                                                   else work.covering_nodes, stopped, stop),
                         stop, deadline, "the covering search")
        complete = complete and not stopped[0]
        if best < 0 and not complete:
            # stopped early (time limit): not finding a covering run proves nothing; the
            # core reports no run and the model's upper bound
            keep = np.zeros(0, np.int64)
            return self._subset(found, np.zeros((0, len(found.kind_names)), np.int64), keep, complete)
        if best < 0:
            _no_covering_run(self)
        chosen = [(i, int(choice[i])) for i in range(len(trains)) if choice[i] >= 0]
        rs = self._run_of(found, trains, [(i, cr[k], cv[k]) for i, k in chosen], complete)
        rs.forced_mask = {row: int(cm[k]) for row, (_, k) in enumerate(chosen)}
        return rs

    # --- describing a route ------------------------------------------------------------

    def chosen(self, rs, r, train_name):
        """Per stop of route ``r``, the token type the train runs to there (None: passed),
        recomputed for display: the best choice (ties: the first found), covering this
        route's rights if forced (5.6.2.3, 5.6.3, 5.6.5)."""
        from trainruns.titles.g1831.route.explain import best_choice

        a, b = rs.ptr[r], rs.ptr[r + 1]
        if rs.is_commuter[r]:  # a commuter run: its visits run to Stations (5.6.7)
            return ["station" if v else None for v in rs.visit[a:b]]
        path = [int(s) for s in rs.stops[a:b]]
        south = rs.arrays.south_of(path) if self.options.delaware_south == "run_to" else None
        return best_choice(rs.arrays, path, parse_train_name(train_name), rs.forced_mask.get(r, 0), south)[1]

    def earned(self, rs, r, train_name):
        """Per stop of route ``r``: [("city", value), (token type, token value)] where the
        train runs to a token, [] where it passes (5.6.3)."""
        refs = [rs.compiled.stop_refs[s] for s in rs.stops[rs.ptr[r]:rs.ptr[r + 1]]]
        return [[("city", self.board.stop(ref).value), (ty, self.token_value[ty])] if ty else []
                for ref, ty in zip(refs, self.chosen(rs, r, train_name))]


@dataclass
class _Found:
    """What one call of :meth:`Model1831.routes` found before choosing (passed along
    explicitly instead of kept on the model)."""

    arrays: StopArrays
    kind_names: list
    ptr: np.ndarray
    stops: np.ndarray
    chains: np.ndarray
    bits: np.ndarray
    visit: np.ndarray
    commuter: np.ndarray
    complete: bool


def _revenue(rs):
    """What the run of route set ``rs`` earns (each route at its own train's kind)."""
    return int(rs.values.max(axis=1, initial=0).sum())


def _rule_out(compiled, value):
    """No run of ``compiled`` earns more than ``value`` (for Model1831.upper_bound)."""
    below = _BELOW.get(compiled)
    if below is None or value < below:
        _BELOW.put(compiled, value)


def _no_covering_run(model):
    names = ", ".join(f"{h}.{k} slot {j}" for h, k, j in model.facts.rights)
    raise InputError(f"no run of {model.board.corporation}'s trains runs to every bought track right "
                     f"({names}); 5.6.5 requires each to be used", "track_rights")


# Branch-and-bound nodes a second, a busy machine's figure: turns what is left of a
# time limit into a node budget for the rights-covering assignment (its kernel is not
# resumable, so the clock cannot be checked inside it).
NODES_PER_SECOND = 2_000_000


def _candidates(trains, of_kind, n_arrays):
    """The trains' candidates laid end to end, as the assignment kernels take them.
    ``of_kind(name)`` gives a train kind's ``n_arrays`` arrays, its values first, best
    first; trains of one kind share one segment. Returns ``(start, end, twin, rest,
    arrays)``: train i's segment, whether it repeats the train before it, and ``rest[i]``
    the most the trains from i on can add (each its best candidate)."""
    seg, cols, off = {}, [[] for _ in range(n_arrays)], 0
    for t in trains:
        if t.name in seg:
            continue
        arrays = of_kind(t.name)
        for col, a in zip(cols, arrays):
            col.append(a)
        seg[t.name] = (off, off + len(arrays[0]))
        off += len(arrays[0])
    arrays = [np.concatenate(c).astype(np.int64) if c else np.zeros(0, np.int64) for c in cols]
    values = arrays[0]
    start = np.array([seg[t.name][0] for t in trains], np.int64)
    end = np.array([seg[t.name][1] for t in trains], np.int64)
    twin = np.array([i > 0 and trains[i].name == trains[i - 1].name for i in range(len(trains))], np.bool_)
    rest = np.zeros(len(trains) + 1, np.int64)
    for i in range(len(trains) - 1, -1, -1):
        rest[i] = rest[i + 1] + (values[start[i]] if end[i] > start[i] else 0)
    return start, end, twin, rest, arrays


def _node_budget(deadline):
    if deadline is None:
        return -1
    return max(1000, int((deadline - time.perf_counter()) * NODES_PER_SECOND))


def _along(compiled, sequences):
    """A view of ``compiled`` whose stops lead only along the legs of ``sequences``: a
    chain from one stop of a sequence to the next or the one before keeps its id and
    its end; any other chain is turned back to the stop it leaves, and a path never
    enters a stop it is on (kernels.token_paths), so it is never taken. (Chains are
    numbered by the stop they leave, so they cannot simply be left out.)"""
    legs = set()
    for seq in sequences:
        for a, b in zip(seq, seq[1:]):
            legs.add((int(a), int(b)))
            legs.add((int(b), int(a)))
    chain_to = compiled.chain_to.copy()
    for s in range(compiled.n_stops):
        for c in range(compiled.adj_ptr[s], compiled.adj_ptr[s + 1]):
            if (s, int(chain_to[c])) not in legs:
                chain_to[c] = s
    return dataclasses.replace(compiled, chain_to=chain_to)


class _Room:
    """Arrays for a known number of paths and stops, filled chunk by chunk."""

    def __init__(self, paths, stops, words):
        self.ptr = np.zeros(paths + 1, np.int64)
        self.stops = np.empty(stops, np.int64)
        self.chains = np.empty(stops, np.int64)
        self.bits = np.empty((paths, words), np.uint64)
        self.values = None
        self.at = 0

    def put(self, ptr, stops, chains, bits, n, values):
        a, s0, end = self.at, self.ptr[self.at], ptr[n]
        if self.values is None:
            self.values = np.empty((len(self.bits),) + values.shape[1:], np.int64)
        self.ptr[a + 1:a + n + 1] = ptr[1:n + 1] + s0
        self.stops[s0:s0 + end] = stops[:end]
        self.chains[s0:s0 + end] = chains[:end]
        self.bits[a:a + n] = bits[:n]
        self.values[a:a + n] = values
        self.at += n

    def arrays(self):
        a = self.at
        return (self.ptr[:a + 1], self.stops[:self.ptr[a]], self.chains[:self.ptr[a]], self.bits[:a],
                self.values[:a])


def _take(ptr, stops, idx):
    """(ptr, stops) of the paths ``idx`` of (ptr, stops), in that order."""
    lens = ptr[idx + 1] - ptr[idx]
    new_ptr = np.zeros(len(idx) + 1, np.int64)
    np.cumsum(lens, out=new_ptr[1:])
    at = np.repeat(ptr[idx] - new_ptr[:-1], lens) + np.arange(new_ptr[-1], dtype=np.int64)
    return new_ptr, stops[at]


def _join(parts):
    """One (ptr, stops, chains, bits, values) of several (at least one), in order."""
    ptrs, off = [np.zeros(1, np.int64)], 0
    for p in parts:
        ptrs.append(p[0][1:] + off)
        off += p[0][-1]
    return (np.concatenate(ptrs), np.concatenate([p[1] for p in parts]), np.concatenate([p[2] for p in parts]),
            np.concatenate([p[3] for p in parts]), np.concatenate([p[4] for p in parts]))

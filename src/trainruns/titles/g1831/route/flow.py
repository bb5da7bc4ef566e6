"""The whole 1831 run as one CP-SAT model over the track graph, listing no paths: for
boards where passing cities freely (5.6.2.3) makes the token-to-token paths too many to
list (a board the size of the printed map has 10^7 of them).

Per train an ``AddCircuit`` over a depot and the stops (as :mod:`trainruns.route.cpsat_flow`
does for the plain rules): the circuit through the depot is the train's path, a stop
with its self-loop set is not on it, the depot's self-loop set: the train does not run
a path. The rules, each a constraint:

- 5.6.2: every track bit (a hex path, a side of double track: 5.6.2.4) is used at most
  once by all trains together (a run says which stops it goes between; the track
  between two stops is chosen once for all runs: :mod:`flow_track`); a city group (a
  city and its red extension, 5.2.3.10) is entered at most once, moving between its
  stops only along track in its own hexes; a stop that does not let trains through (a
  city full of other tokens) only ends a path;
- 5.6.2.1: the Delaware large city is a second node with the same track; the path may
  be there once more only after entering both cities south of it in between (each
  stop of the path labelled before, between or after the two entries:
  ``_second_entry``), with ``delaware_south: "run_to"`` after running to a token in
  each;
- 5.6.2.3: an S train runs to Stations, a YD train to Rail Yards, an MX train to at
  least one of each, at most its size in all (and a mixed train's given caps); at most
  one token per city visit; with ``pass_own_tokens: false`` no city visit passes a token
  the train could run to without running to one;
- 5.6.2.5: a path starts and ends at tokens it runs to, and runs to two at least;
- 5.6.3: it earns what the tokens it runs to are worth (city + token value);
- 5.6.5: every bought track right is run to by some train;
- 5.6.7: a Station train of size 5 or more may run a commuter run instead of a path:
  a circuit of its own per run and starting city (``_commuter_circuit``), its track
  counted with the others'.

Not modelled (``solve`` returns None and the caller lists paths as before): a Delaware
group of more than one stop. A commuter city whose stops could be walked round within
the city (``_member_track_is_forest``) is beyond the commuter circuit: None too, unless
the caller asks for ``paths_alone``; the model then runs paths alone, and its run, legal,
is never called proven when a commuter run could have been run (the caller's priced
proof, which prices commuter runs its own way, decides).

Time and memory: the model is built in Python, which the solver's time limit does not
cover, so the build looks at the clock as it goes (:class:`_Clock`) and gives up past
the deadline; a model CP-SAT would take longer to set up than the time left, or bigger
than the memory budget, is not built at all (the core's flow model's measures,
:mod:`trainruns.route.cpsat_flow`). Either way the answer is no run, not proven: the caller
reports the route model's upper bound.
"""

from __future__ import annotations

import time

import numpy as np

from trainruns.route.cpsat_flow import BYTES_PER_CHAIN_LITERAL, SECONDS_PER_CHAIN_LITERAL
from trainruns.titles.g1831.route.commuter import inside_city, station_cycles
from trainruns.titles.g1831.route.flow_track import Track
from trainruns.titles.g1831.route.trains import MIXED, may_commute, parse_train_name

# Model literals built between two looks at the clock
CLOCK_EVERY = 2000
# CP-SAT's workers: its portfolio of 8 (search strategies, large neighbourhoods, core
# based bounds) shares the 2 cores of the machine it was tuned on, and proves the
# full-size boards that 2 workers never did: measured (the flow model alone, 40-45 s
# limit) on 48hex-s0 / s1 / s2, 52hex-s4 and 54hex-s0's paths alone in 3.9 / 26 / 31 /
# 17 / 13 s, where 2 workers stopped at the limit with bounds 70-80 above the same runs.
# That is the whole model's (``commute`` and ``revisit`` both "model"). Its parts
# (Model1831._paths_first) are proven by CP-SAT's core-based search (its ``core``
# subsolver, as a weighted MaxSAT: CP-SAT's log shows its bound closing onto the run on
# 5 of 6 first parts of the full-size family, the linear relaxation's staying at the
# cap). A part runs that search alone in one worker (PART_WORKERS), and beside it, as a
# second solver on the machine's other core, CP-SAT's own search on its linear
# relaxation (one worker, PART_LINEARIZATION); the first to prove stops the other
# (route.cpsat.run_with_rival). With the cut of ``_odd_passes`` that relaxation proves
# first parts the core search takes long over, and the reverse, so the pair proves
# each as soon as the faster of the two: alone, 40 s each (benchmarks/README.md, "a
# path passing a stop leaves it by two tracks"), the core search / the linear one
# proved rights1-46hex-s7 in 13.0 / 7.5 s, nodelaware-44hex-s10 27.6 / 8.1 s,
# nocommute-50hex-s6 25.4 / 14.3 s, mixedcounts-48hex-s27 1.7 / 2.1 s and
# rights2-50hex-s9 1.7 / 4.3 s. One solve of two workers (the core search and one of
# large neighbourhoods, sharing their runs) was slower than either alone:
# mixedcounts-48hex-s27 8.4-10.3 s. Given more than PART_SECONDS, a part gets 8
# workers again: on the first parts no setting proved in 20 s, 8 found better runs
# than 4 (nocommute-50hex-s6, nodelaware-44hex-s10, rights1-46hex-s7)
WORKERS = 8
PART_WORKERS = 1
PART_SUBSOLVERS = ("core",)
PART_SECONDS = 20.0
# ... and with CP-SAT's fuller linear relaxation (``linearization_level`` 2, its default
# 1), which the core search propagates with: 14 exported first parts, two runs each with
# CP-SAT's 4 workers and 20 s, took 192 s to their proofs against 207 s, and the family
# at ``--time-limit 10`` proved 16 of 33 against 15 (benchmarks/README.md)
PART_LINEARIZATION = 2
# The second solver of a part searches its linear relaxation bound first (CP-SAT's
# ``use_objective_lb_search``: it asks for a run worth the objective's bound, and
# lowers the bound each time none is): on these models the first run is found in a
# second or two and the rest is the proof. The first parts of the four boards the
# family left unproven at 10 s, 8 seeds each, 15 s: 17 of 32 runs proven within 7 s
# against 12, 250 s in all against 302; the family at ``--time-limit 10``, two rounds
# interleaved board by board, 32 and 32 of 33 proven against 30 and 29
# (benchmarks/README.md)
PART_BOUND_FIRST = True
# CP-SAT's time past its limit, per model literal (chains x trains and commuter circuits,
# as ``_solve`` counts them), on this model: given 0.05 s, the family's models (OR-Tools
# 9.15, 4 and 8 workers; the whole model of six boards and 26 parts) answered in 0.075 s
# at most, up to 8,680 literals (redtokens-48hex-s12's whole model, 8,941 variables):
# 3e-6 s a literal, taken 7 times over. Beyond SETUP_MEASURED_LITERALS, unmeasured on
# this model, the core flow model's measure (fifty times more) holds. A part held above
# the best run is often closed by presolve in 0.02-0.1 s: refusing it for a set-up
# time it does not take left proofs unfinished with a second or two unused
SETUP_SECONDS_PER_LITERAL = 2e-5
SETUP_MEASURED_LITERALS = 10_000


class _Late(Exception):
    """The deadline passed while the model was being built."""


class _Clock:
    """Looks at the clock every ``CLOCK_EVERY`` ticks (one per literal built) and raises
    :class:`_Late` once ``deadline`` has passed; ``looked`` counts the looks (tests
    check that the build stage looks)."""

    def __init__(self, deadline):
        self.deadline, self.ticks, self.looked = deadline, 0, 0

    def tick(self, n=1):
        self.ticks += n
        if self.deadline is not None and self.ticks >= CLOCK_EVERY:
            self.ticks = 0
            self.now()

    def now(self):
        self.looked += 1
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _Late


def _setup_seconds(literals):
    """How long past its time limit CP-SAT may take to set up a model of ``literals``
    (see SETUP_SECONDS_PER_LITERAL)."""
    per = SETUP_SECONDS_PER_LITERAL if literals <= SETUP_MEASURED_LITERALS else SECONDS_PER_CHAIN_LITERAL
    return per * literals


def _reachable(arrays):
    """Stops a path may touch: joined to one of the corporation's tokens by track that
    passes only stops that let trains through."""
    comp = arrays.compiled
    seen = set(int(s) for s in np.flatnonzero(arrays.stop_own))
    stack = list(seen)
    while stack:
        s = stack.pop()
        if not arrays.stop_pass[s] and not arrays.stop_own[s]:
            continue
        for i in range(comp.adj_ptr[s], comp.adj_ptr[s + 1]):
            u = int(comp.chain_to[i])
            if u not in seen:
                seen.add(u)
                stack.append(u)
    return sorted(seen)


def _need(model, cond, enforce=None):
    """``model.add(cond)`` (only if ``enforce``), where ``cond`` may have come out a
    plain bool because a sum had no literals."""
    if isinstance(cond, (bool, np.bool_)):
        if not cond:
            model.add_bool_or([] if enforce is None else [~enforce])
        return
    if enforce is None:
        model.add(cond)
    else:
        model.add(cond).only_enforce_if(enforce)


def _commuter_circuit(model, arrays, seq, first_repeat, node_set, track, right_lits, obj, clock):
    """One commuter run (5.6.7) of ``len(seq)`` visits at most, cities ``seq`` in turn,
    as a circuit: a node per visit and stop of its city, and one per stop it may pass
    (not a city of the run, lets trains through, no Station of the corporation under
    ``pass_own_tokens: false``; each passed once in the whole run). Visits come in
    order: a stop passed has the number of the leg it is on (the visit before it), and
    the run goes from visit ``j`` only to visit ``j + 1``, directly or by stops of leg
    ``j``. Each visit runs to one Station of its city, the run starts and ends with one
    and comes back to a city (more than ``first_repeat`` visits). Its legs go between
    stops on the chains of ``track`` (flow_track.Track). Returns (active, start
    literals, arc literals by pair of nodes, run-to literals, end literals).

    (Leg numbers, not positions along the run: a position per node and an equation per
    arc taken gave CP-SAT a linear relaxation that knows nothing of the order.)"""
    sg = arrays.stop_group
    members = set(seq)
    keys = [(j, s) for j, g in enumerate(seq) for s in np.flatnonzero(sg == g).tolist() if s in node_set]
    keys += [(-1, s) for s in sorted(node_set) if sg[s] not in members and arrays.stop_pass[s]
             and not (arrays.strict and arrays.group_has_station[sg[s]])]
    ids = {k: i + 1 for i, k in enumerate(keys)}
    active = model.new_bool_var("commuter")
    arcs = [(0, 0, ~active)]
    vis, start, y, leg, ends = {}, {}, {}, {}, {}
    for k, i in ids.items():
        vis[k] = model.new_bool_var("")
        arcs.append((i, i, ~vis[k]))
        model.add_implication(vis[k], active)
        if k[0] < 0:
            leg[k] = model.new_int_var(0, len(seq) - 1, "")
        if k[0] >= 0 and arrays.st_val[k[1]] >= 0:
            y[k] = model.new_bool_var("")
            model.add_implication(y[k], vis[k])
            obj.append(int(arrays.st_val[k[1]]) * y[k])
            if arrays.st_right[k[1]] >= 0:
                right_lits.setdefault(int(arrays.st_right[k[1]]), []).append(y[k])
            if k[0] == 0:
                start[k] = model.new_bool_var("")
                arcs.append((0, i, start[k]))
                model.add_implication(start[k], y[k])
            if k[0] >= first_repeat:
                end = ends[k] = model.new_bool_var("")
                arcs.append((i, 0, end))
                model.add_implication(end, y[k])
    at = {}
    for k in keys:
        at.setdefault(k[1], []).append(k)
    arc_lit = {}
    for lo, hi in track.between:
        for a, b in ((lo, hi), (hi, lo)):
            clock.tick()
            same = sg[a] == sg[b]
            for ka, kb in ((ka, kb) for ka in at.get(a, []) for kb in at.get(b, []) if _in_turn(ka, kb, same)):
                lit = arc_lit[(ka, kb)] = model.new_bool_var("")
                track.go(a, b, lit)
    for (ka, kb), lit in arc_lit.items():
        arcs.append((ids[ka], ids[kb], lit))
        # a stop passed is on the leg after the visit it comes from, before the next
        if ka[0] >= 0 and kb[0] < 0:
            model.add(leg[kb] == ka[0]).only_enforce_if(lit)
        elif ka[0] < 0 and kb[0] >= 0:
            model.add(leg[ka] == kb[0] - 1).only_enforce_if(lit)
        elif ka[0] < 0 and kb[0] < 0:
            model.add(leg[kb] == leg[ka]).only_enforce_if(lit)
    model.add_circuit(arcs)
    # each visit enters its city once and runs to one Station there; visits in order
    blocks = {}
    for k in keys:
        blocks.setdefault((k[0], int(sg[k[1]])) if k[0] >= 0 else (-1, int(sg[k[1]])), []).append(k)
    seen = {}
    for (j, g), ks in blocks.items():
        inside = set(ks)
        if len(ks) > 1:
            entries = [lit for (ka, kb), lit in arc_lit.items() if kb in inside and ka not in inside]
            entries += [start[k] for k in ks if k in start]
            _need(model, sum(entries) <= 1)
        if j >= 0:
            here = model.new_bool_var("")
            model.add_max_equality(here, [vis[k] for k in ks])
            _need(model, sum(y[k] for k in ks if k in y) == here)
            seen[j] = (here, ks)
    for j in range(1, len(seq)):
        if j in seen and j - 1 in seen:
            model.add_implication(seen[j][0], seen[j - 1][0])
    return active, start, arc_lit, y, ends


def _in_turn(ka, kb, same):
    """Whether a commuter run may go from node ``ka`` to node ``kb`` (``(visit or -1 for
    a stop passed, stop)``; ``same``: their stops are in one city): from a visit to the
    next visit, or within its city; to or from a stop passed; within a passed city on
    one leg (5.6.7)."""
    if ka[0] >= 0 and kb[0] >= 0:
        return kb[0] == ka[0] if same else kb[0] == ka[0] + 1
    return ka[0] == kb[0] if same else True


def _one_way(model, starts, ends):
    """A run and its reverse are one run (the same stops and track, each token run to as
    often): CP-SAT is told to keep the one that starts at the lower stop. ``starts`` and
    ``ends``: (the stop's number, the literal "the run starts / ends there") of every
    way the run may start and end, of which one of each holds when it runs."""
    _need(model, sum(n * lit for n, lit in starts) <= sum(n * lit for n, lit in ends))


def _commuter_runs(arrays, types):
    """``(train index, commuter run, its cycle of city groups, its starts)`` for each
    commuter run a train of ``types`` may run: a Station train of size 5 or more
    (5.6.7), the run one of commuter.station_cycles."""
    cycles = list(station_cycles(arrays))
    for ti, tt in enumerate(types):
        if may_commute(tt):
            for run, cycle, starts, _ in cycles:
                yield ti, run, cycle, starts


def commuter_circuits(arrays, trains):
    """The commuter circuits of ``solve``'s model for ``trains``, one per train, commuter
    run and starting city, as the index of the train each is for, in the order
    ``solve``'s ``commute`` numbers them."""
    types = [parse_train_name(t.name) for t in trains]
    return [ti for ti, _, _, starts in _commuter_runs(arrays, types) for _ in starts]


def _reverse_is_rotation(cycle):
    """Whether the commuter cycle ``cycle`` (its cities in turn) read backwards is one of
    its rotations, as a cycle out and back is (White Plains - New York - Long Island
    West - Long Island East - Long Island West - New York; Baltimore - Washington,
    5.6.7). A run may then start at any of its cities (``any_start``), so every run's
    reverse, its visits backwards on the same track, is a run of the same value."""
    rev = cycle[::-1]
    return any(rev == cycle[r:] + cycle[:r] for r in range(len(cycle)))


def _member_track_is_forest(arrays):
    """Whether no commuter city can be walked round within itself: the track inside it
    (5.2.3.10: between its stops, in its own hexes; commuter.inside_city) joins its
    stops without a cycle and at most once each. (A visit may then never come back to a
    stop of its city, which is what the commuter circuit assumes; commuter.py allows
    that on other track once the visit has run to its Station.) Track that leaves the
    city and comes back into it enters it again (``StopArrays.chain_reenters``), and a
    chain back to the stop it leaves goes round outside it: neither is a move within the
    city, and neither the model nor commuter.py takes them, so they make no cycle."""
    comp = arrays.compiled
    sg = arrays.stop_group
    cities = {arrays.group_id[x] for run in arrays.facts.commuter for x in run["cycle"]}
    root = {}  # stop -> a stop joined to it by track inside its city (its tree's root at the end)

    def find(s):
        while root.get(s, s) != s:
            s = root[s]
        return s

    tracks = set()
    for c in np.flatnonzero(inside_city(comp, sg)).tolist():
        if int(sg[comp.chain_from[c]]) not in cities or int(arrays.chain_und[c]) in tracks:
            continue  # another city's, or the same track walked the other way
        tracks.add(int(arrays.chain_und[c]))
        a, b = find(int(comp.chain_from[c])), find(int(comp.chain_to[c]))
        if a == b:
            return False  # a second track between stops already joined
        root[a] = b
    return True


def solve(arrays, trains, deadline=None, workers=None, progress=None, memory=None, clock=None, upper=None,
          paths_alone=False, first=None, hold=False, commute="model", revisit="model"):
    """The best run by the model of the module docstring.

    Returns None when the board has a rule the model does not cover (see above), else
    ``(chosen, proven, bound)``: ``chosen`` is ``[(train index, stops, chains, visit
    flags, commuter?, rights mask run to)]`` for the running trains, ``proven`` whether
    CP-SAT proved it best, ``bound`` its objective bound (None unless CP-SAT proved its
    model's optimum: a bound of a search stopped early is not trusted, see
    trainruns.route.cpsat; with the paths alone and a commuter run left out, the run is the
    best of the runs without a commuter run, not proven best). Past ``deadline``
    (in the build too) or beyond ``memory`` bytes: ``([], False, None)``, no run and
    nothing proven. ``clock``: the :class:`_Clock` to look at (made here if None).
    ``upper``: a revenue no run exceeds (the route model's bound): the objective is held
    to it, so CP-SAT's own bound starts there and a run reaching it is proven best at
    once. Exact: no run is cut off. ``paths_alone``: on a board whose commuter city is
    walked round within itself, the paths-alone model (module docstring) instead of None.

    ``first``: a legal run already found (first.py's ``FirstRun``): CP-SAT starts from
    it (a hint, so its large neighbourhoods improve on it at once), and it is the
    answer whenever CP-SAT finds nothing better, whatever stops it (the deadline, the
    build, the memory). With ``hold`` CP-SAT is told instead that a run earns more than
    ``first`` (no hint: it searches only better runs); its finding none proves ``first``
    best (of the paths alone, when a commuter run was left out).

    ``commute``: ``"model"``, the commuter runs in the model where it can take them (as
    above); ``"none"``, the paths alone on every board, a commuter run left out as
    ``paths_alone`` leaves it (a smaller model, which CP-SAT proves up to twice as fast
    on the full-size boards); ``"only"``, runs with a commuter run alone, with ``hold``
    the runs with one earning more than ``first`` (None where the model cannot take
    the board's commuter runs); a number ``k``, the runs whose one commuter run is on
    circuit ``k`` (of ``commuter_circuits``), the other circuits left out of the model;
    ``"several"``, the runs with two commuter runs or more (by two trains: a train runs
    one at most). Those last two split ``"only"``: the runs of ``"only"`` are those of
    each circuit alone and of ``"several"``. ``revisit`` likewise for the Delaware's
    second entry (5.6.2.1): ``"none"``, the Delaware city entered once at most (the
    model loses its second node and the labels of ``_second_entry``: a smaller model),
    its optimum no proof on a board with the Delaware; ``"only"``, runs that enter it
    twice."""
    clock = clock or _Clock(deadline)
    try:
        out = _solve(arrays, trains, deadline, workers, progress, memory, clock, upper, paths_alone, first, hold,
                     commute, revisit)
    except _Late:
        out = [], False, None
    if out is None or first is None:
        return out
    chosen, proven, bound = out
    if chosen and sum(_value(arrays, trains, c) for c in chosen) >= first.revenue:
        return out
    # CP-SAT found nothing better: the first run, which is at least the model's best
    # where CP-SAT proved that best (a bound): held above the first run, it found no
    # run; or the model's best earns less (a first run that enters the Delaware twice
    # beside a model without the second entry)
    settled = bound is not None and bound != -1
    return ([(ti, st, ch, [True] * len(st), False, mask) for ti, st, ch, mask, _ in first.chosen],
            proven and settled, first.revenue if settled else None)


def _value(arrays, trains, chosen_route):
    """What one route of ``solve``'s answer earns (5.6.3; a commuter run: its visits'
    Stations, 5.6.7)."""
    ti, st, _, vis, is_commuter, mask = chosen_route
    if is_commuter:
        return sum(int(arrays.st_val[s]) for s, v in zip(st, vis) if v)
    return _best_choice(arrays, trains, ti, st, mask)[0]


def _best_choice(arrays, trains, ti, st, mask):
    """explain.best_choice for train ``ti`` on the path ``st`` that runs to the rights
    in ``mask``, with the Delaware's second entry as the options read it (5.6.2.1)."""
    from trainruns.titles.g1831.route.explain import best_choice

    south = arrays.south_of(st) if arrays.model.options.delaware_south == "run_to" else None
    return best_choice(arrays, st, parse_train_name(trains[ti].name), mask, south)


def _hint(model, arrays, trains, first, per_train, commuters, track):
    """CP-SAT's hint: the run ``first`` (first.py) in the model's literals, each train's
    path from its end with the lower node (the model's orientation), its tokens run to
    as explain.best_choice chooses them, and its chains among ``track``'s."""
    routes = {ti: (st, mask) for ti, st, _, mask, _ in first.chosen}
    for ti, (active, start, ids, arc_lit, ys, yy, vis, end) in enumerate(per_train):
        on = set()
        arcs, runs, ends = set(), set(), ()
        if ti in routes:
            st, mask = routes[ti]
            picked = _best_choice(arrays, trains, ti, st, mask)[1]
            keys, entered = [], set()
            for i, s in enumerate(st):
                # the Delaware city's second entry is its second node (5.6.2.1)
                second = (s, 1) in ids and s in entered and (i == 0 or st[i - 1] != s)
                keys.append((s, 1) if second else (s, 0))
                entered.add(s)
            if ids[keys[0]] > ids[keys[-1]]:
                keys, picked = keys[::-1], picked[::-1]
            on = set(keys)
            arcs = set(zip(keys, keys[1:]))
            runs = {(k, ty) for k, ty in zip(keys, picked) if ty}
            ends = (keys[0], keys[-1])
        model.add_hint(active, bool(on))
        for key, v in vis.items():
            model.add_hint(v, key in on)
        for key, lit in start.items():
            model.add_hint(lit, bool(ends) and key == ends[0])
        for key, lit in end.items():
            model.add_hint(lit, bool(ends) and key == ends[1])
        for key, lit in ys.items():
            model.add_hint(lit, (key, "station") in runs)
        for key, lit in yy.items():
            model.add_hint(lit, (key, "yard") in runs)
        for key, lit in arc_lit.items():
            model.add_hint(lit, key in arcs)
    track.hint(model, [c for _, _, ch, _, _ in first.chosen for c in ch])
    for _, c in commuters:
        model.add_hint(c[0], False)


def _solve(arrays, trains, deadline, workers, progress, memory, clock, upper=None, paths_alone=False, first=None,
           hold=False, commute="model", revisit="model"):
    comp = arrays.compiled
    sg = arrays.stop_group
    for g in np.flatnonzero(arrays.rev_a >= 0):
        if int((sg == g).sum()) != 1:
            return None
    # a commuter city walked round within itself (see _member_track_is_forest) is beyond
    # the commuter circuit: the model then runs paths alone. Its run is a legal run, but
    # not proven best (a commuter run might beat it): the caller's priced proof, which
    # prices commuter runs its own way, decides
    forest = _member_track_is_forest(arrays)
    if not forest and commute != "none" and (commute != "model" or not paths_alone):
        return None
    commuting = forest and commute != "none"
    clock.now()
    nodes = _reachable(arrays)
    node_set = set(nodes)
    # the Delaware's second visit: a node of its own (one per Delaware group)
    dela = {int(np.flatnonzero(sg == g)[0]): int(g) for g in np.flatnonzero(arrays.rev_a >= 0)}
    dela = {s: g for s, g in dela.items() if s in node_set}
    revisiting = bool(dela)   # a path could enter the Delaware city twice
    if revisit == "none":
        dela = {}
    ids = {}
    for s in nodes:
        ids[(s, 0)] = len(ids) + 1
    for s in dela:
        ids[(s, 1)] = len(ids) + 1
    # (a chain that leaves a city and comes back into it enters it again: no arc,
    # 5.2.3.10 and 5.6.2.1, StopArrays.chain_reenters)
    chains = [c for c in range(comp.n_chains)
              if comp.chain_from[c] in node_set and comp.chain_to[c] in node_set
              and comp.chain_from[c] != comp.chain_to[c] and not arrays.chain_reenters[c]]
    # the pairs of nodes a run may go between (to or from a Delaware city, for either
    # visit), and which track it takes (flow_track)
    def visits(s):
        return ((s, 0), (s, 1)) if s in dela else ((s, 0),)

    stop_pairs = [(int(comp.chain_from[c]), int(comp.chain_to[c])) for c in chains]
    node_pairs = [(ka, kb) for a, b in dict.fromkeys(stop_pairs) for ka in visits(a) for kb in visits(b)]
    track = Track(arrays, chains)
    types = [parse_train_name(t.name) for t in trains]
    # the model's size as a literal per run and chain between two nodes (the measure of
    # SETUP_SECONDS_PER_LITERAL); a commuter circuit has about as many as a train's path
    n_circuits = 0 if not commuting else 1 if isinstance(commute, int) else sum(
        len(starts) for *_, starts in _commuter_runs(arrays, types))
    literals = sum(len(visits(a)) * len(visits(b)) for a, b in stop_pairs) * (len(trains) + n_circuits)
    if memory is not None and BYTES_PER_CHAIN_LITERAL * literals > memory:
        return [], False, None
    if deadline is not None and deadline - time.perf_counter() <= max(0.01, _setup_seconds(literals)):
        return [], False, None  # CP-SAT's set-up of a model that big ignores its time limit
    from trainruns.route.cpsat import load_cp_model, run_solver, run_with_rival

    # a part of the model given PART_SECONDS or less: CP-SAT's core search (PART_WORKERS)
    whole = commute == "model" and revisit == "model"
    few = not whole and deadline is not None and deadline - time.perf_counter() <= PART_SECONDS
    held = hold and first is not None   # CP-SAT asked only whether a run earns more than first
    cp_model = load_cp_model()
    run_to = arrays.model.options.delaware_south == "run_to"
    model = cp_model.CpModel()
    bit_lits = {}      # track bit -> literals using it
    obj = []
    right_lits = {}    # right index -> literals running to it
    per_train = []
    runs_to = []       # per train, the tokens it runs to (a sum of literals)
    for ti, (t, tt) in enumerate(zip(trains, types)):
        max_s, max_y = arrays.type_caps(tt)
        max_s, max_y = min(max_s, tt.size), min(max_y, tt.size)
        active = model.new_bool_var(f"active{ti}")
        arcs = [(0, 0, ~active)]
        vis, start, end, ys, yy, ins, outs = {}, {}, {}, {}, {}, {}, {}
        for key, i in ids.items():
            clock.tick()
            s = key[0]
            v = model.new_bool_var("")
            vis[key] = v
            arcs.append((i, i, ~v))
            model.add_implication(v, active)
            ins[key], outs[key] = [], []
            if max_s and arrays.st_val[s] >= 0:
                ys[key] = model.new_bool_var("")
            if max_y and arrays.yd_val[s] >= 0:
                yy[key] = model.new_bool_var("")
            run = [ys[k] for k in (key,) if k in ys] + [yy[k] for k in (key,) if k in yy]
            if run:
                model.add(sum(run) <= v)
                start[key] = model.new_bool_var("")
                end[key] = model.new_bool_var("")
                arcs.append((0, i, start[key]))
                arcs.append((i, 0, end[key]))
                # 5.6.2.5: a path starts and ends at a token it runs to, two stops at least
                model.add(sum(run) >= 1).only_enforce_if(start[key])
                model.add(sum(run) >= 1).only_enforce_if(end[key])
                model.add(start[key] + end[key] <= 1)
        arc_lit = {}   # (from node, to node) -> the path goes between them (on a chain of ``track``'s)
        for ka, kb in node_pairs:
            clock.tick()
            # within one city group only between stops of the same visit
            if sg[ka[0]] == sg[kb[0]] and ka[1] != kb[1]:
                continue
            lit = arc_lit[(ka, kb)] = model.new_bool_var("")
            track.go(ka[0], kb[0], lit)
            arcs.append((ids[ka], ids[kb], lit))
            outs[ka].append(lit)
            ins[kb].append(lit)
        model.add_circuit(arcs)
        # a stop that does not let trains through only ends the path (5.6.2)
        for key in ids:
            if not arrays.stop_pass[key[0]]:
                _need(model, sum(ins[key]) + sum(outs[key]) <= 1)
        # a city group is entered once (Delaware: once per visit node); one token a visit
        groups = {}
        for key in ids:
            groups.setdefault((int(sg[key[0]]), key[1]), []).append(key)
        for members, keys in ((m, k) for m, k in groups.items()):
            clock.tick(len(keys))
            inside = set(keys)
            if len(keys) > 1:
                entries = [lit for (ka, kb), lit in arc_lit.items() if kb in inside and ka not in inside]
                entries += [start[k] for k in keys if k in start]
                _need(model, sum(entries) <= 1)
            run = [ys[k] for k in keys if k in ys] + [yy[k] for k in keys if k in yy]
            if len(run) > 1:
                _need(model, sum(run) <= 1)
            if arrays.strict and run:
                # pass_own_tokens false: a visit that passes a token it could run to runs to one
                for k in keys:
                    if k in ys or k in yy:
                        _need(model, sum(run) >= 1, vis[k])
        n_s = sum(ys.values())
        n_y = sum(yy.values())
        runs_to.append(n_s + n_y)
        _need(model, n_s <= max_s)
        _need(model, n_y <= max_y)
        _need(model, n_s + n_y <= tt.size)
        _need(model, n_s + n_y >= 2, active)
        if tt.type == MIXED:
            _need(model, n_s >= 1, active)
            _need(model, n_y >= 1, active)
        _one_way(model, [(ids[k], lit) for k, lit in start.items()], [(ids[k], lit) for k, lit in end.items()])
        for s, g in dela.items():
            _second_entry(model, arrays, ids, arc_lit, start, vis, ys, yy, s, g, run_to, clock)
        for key, lit in ys.items():
            obj.append(int(arrays.st_val[key[0]]) * lit)
            if arrays.st_right[key[0]] >= 0:
                right_lits.setdefault(int(arrays.st_right[key[0]]), []).append(lit)
        for key, lit in yy.items():
            obj.append(int(arrays.yd_val[key[0]]) * lit)
            if arrays.yd_right[key[0]] >= 0:
                right_lits.setdefault(int(arrays.yd_right[key[0]]), []).append(lit)
        per_train.append((active, start, ids, arc_lit, ys, yy, vis, end))
    # 5.6.7 commuter runs: a circuit of their own per Station train long enough, run
    # and starting city; the train runs it instead of a path
    commuters = []
    skipped = False  # a run left out of the model: a commuter run (commuting False), the Delaware's second entry
    number = -1   # the circuit's number (commuter_circuits)
    for ti, run, cycle, starts in _commuter_runs(arrays, types):
        if not commuting:
            skipped = True
            continue
        circuits = []
        for rot in starts:
            number += 1
            if isinstance(commute, int) and number != commute:
                continue
            seq = [cycle[(rot + i) % len(cycle)] for i in range(types[ti].size)]
            c = _commuter_circuit(model, arrays, seq, len(set(cycle)), node_set, track, right_lits, obj, clock)
            model.add_implication(c[0], ~per_train[ti][0])
            commuters.append((ti, c))
            circuits.append(c)
        if circuits and run.get("any_start") and _reverse_is_rotation(cycle):
            # a commuter run and its reverse, in the circuits of two rotations
            # (5.6.7: the same visits, Stations and track); one circuit alone keeps
            # the runs it holds one way round, its reverses are another circuit's
            _one_way(model, [(k[1], lit) for _, starts, _, _, _ in circuits for k, lit in starts.items()],
                     [(k[1], lit) for _, _, _, _, ends in circuits for k, lit in ends.items()])
    for ti in range(len(trains)):
        mine = [c[0] for t, c in commuters if t == ti]
        if len(mine) > 1:
            model.add(sum(mine) <= 1)
    # (not where the core search alone looks for the best run, which it proves slower
    # with the rule: on 7 exported first parts, mixedcounts-48hex-s27 unproven at 20 s
    # against 1.9 s without, 48hex-s2 5.1 against 3.9 s; a part held above a run,
    # which asks whether any run is better, is closed faster with it: the Delaware part
    # of nocommute-44hex-s5 5.7 against 6.7 s; benchmarks/README.md)
    searching = few and not held
    if not commuters and not searching:
        _larger_runs_more(model, types, [t[0] for t in per_train], runs_to)
    if commute == "only" or isinstance(commute, int):
        model.add_bool_or([c[0] for _, c in commuters])  # (none on the board: no run)
    elif commute == "several":
        _need(model, sum(c[0] for _, c in commuters) >= 2)
    if revisit == "only":
        model.add_bool_or([vis[(s, 1)] for *_, vis, _ in per_train for s in dela])
    # runs left out of the model: its optimum is the best of the others, no more
    skipped = skipped or revisit == "none" and revisiting
    # a stop has so many tracks out (distinct first hex paths of its chains): all trains
    # together enter and leave it by at most that many (implied by the track rows, but
    # spelt out it tightens CP-SAT's linear relaxation)
    exits = {}
    for c in chains:
        exits.setdefault(int(comp.chain_from[c]), set()).add(int(comp.chain_paths[comp.chain_path_ptr[c]]))
    touching = {}
    for _, _, _, arc_lit, _, _, _, _ in per_train:
        for (ka, kb), lit in arc_lit.items():
            touching.setdefault(ka[0], []).append(lit)
            touching.setdefault(kb[0], []).append(lit)
    for st, lits in touching.items():
        if len(lits) > len(exits.get(st, ())):
            model.add(sum(lits) <= len(exits.get(st, ())))
    _odd_passes(model, per_train, exits)
    track.close(model, bit_lits, _on_track, clock)
    for lits in bit_lits.values():
        clock.tick(len(lits))
        if len(lits) > 1:
            model.add(sum(lits) <= 1)
    # 5.6.5: every bought right is run to
    for i in range(len(arrays.facts.rights)):
        _need(model, sum(right_lits.get(i, [])) >= 1)
    model.maximize(sum(obj))
    if upper is not None:
        model.add(sum(obj) <= int(upper))
    if held:
        model.add(sum(obj) >= first.revenue + 1)
    elif first is not None:
        _hint(model, arrays, trains, first, per_train, commuters, track)
    clock.now()
    solver = cp_model.CpSolver()
    left = None if deadline is None else max(0.01, deadline - time.perf_counter())
    solver.parameters.num_workers = (PART_WORKERS if few else WORKERS) if workers is None else workers
    if few:
        solver.parameters.linearization_level = PART_LINEARIZATION
        solver.parameters.subsolvers.extend(PART_SUBSOLVERS)
    if left is not None:
        solver.parameters.max_time_in_seconds = left
    if few and workers is None:
        # beside the core search, CP-SAT's own search on the same linear relaxation,
        # its bound first (PART_BOUND_FIRST)
        rival = cp_model.CpSolver()
        rival.parameters.copy_from(solver.parameters)
        rival.parameters.subsolvers.clear()
        rival.parameters.use_objective_lb_search = PART_BOUND_FIRST
        status, solver = run_with_rival(solver, model, rival, progress, "1831 flow", memory)
    else:
        status = run_solver(solver, model, progress, "1831 flow", memory)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if status == cp_model.INFEASIBLE and held:
            # no run earns more than the first (of the paths alone, a commuter run left out)
            return [], not skipped, first.revenue
        if status == cp_model.INFEASIBLE and not skipped and commute in ("model", "none") and revisit != "only":
            return [], True, -1  # no run covers every bought right
        if status == cp_model.INFEASIBLE and skipped:
            return [], False, 0  # no run of those in the model does (one left out may)
        return [], False, None
    chosen = []
    way = track.ways(solver.value)   # a chain taken for each way between two stops
    for ti, (active, start, ids_, arc_lit, ys, yy, _, _) in enumerate(per_train):
        if not solver.value(active):
            continue
        key = next(k for k, lit in start.items() if solver.value(lit))
        out = {ka: kb for (ka, kb), lit in arc_lit.items() if solver.value(lit)}
        stops, chs, mask = [key[0]], [], 0
        while True:
            for y in (ys, yy):
                if key in y and solver.value(y[key]):
                    right = (arrays.st_right if y is ys else arrays.yd_right)[key[0]]
                    if right >= 0:
                        mask |= 1 << int(right)
            if key not in out:
                break
            chs.append(way(key[0], out[key][0]))
            key = out[key]
            stops.append(key[0])
        chosen.append((ti, stops, chs, [True] * len(stops), False, mask))
    for ti, (active, start, arc_lit, y, _) in commuters:
        if not solver.value(active):
            continue
        key = next(k for k, lit in start.items() if solver.value(lit))
        out = {ka: kb for (ka, kb), lit in arc_lit.items() if solver.value(lit)}
        stops, chs, visit, mask = [], [], [], 0
        while True:
            ran = key in y and bool(solver.value(y[key]))
            stops.append(key[1])
            visit.append(ran)
            if ran and arrays.st_right[key[1]] >= 0:
                mask |= 1 << int(arrays.st_right[key[1]])
            if key not in out:
                break
            chs.append(way(key[1], out[key][1]))
            key = out[key]
        chosen.append((ti, stops, chs, visit, True, mask))
    proven = status == cp_model.OPTIMAL and not skipped
    # (optimal with a commuter run left out: the best of the runs without one, no more)
    return chosen, proven, int(round(solver.objective_value)) if status == cp_model.OPTIMAL else None


def _second_entry(model, arrays, ids, arc_lit, start, vis, ys, yy, s, g, run_to, clock):
    """5.6.2.1: the path enters the Delaware city (stop ``s``, group ``g``; its second
    entry the node ``(s, 1)``) a second time only after its first, with a stop of each
    city south of it entered (``run_to``: run to) in between. Each stop of the path is
    labelled: before the first entry, between the two (from the first entry on) or
    after the second (from it on). A label holds along every arc the path takes but
    those into the two entries: into the first only from a stop before it, into the
    second only from one between; the path starts before (or at the first entry). Of
    each city south, some stop is on the path between.

    (Labels, not positions along the path: a position per stop and an equation per arc
    taken gave CP-SAT a linear relaxation that knows nothing of the order; labels are
    clauses it propagates.) ``clock``: the build's :class:`_Clock`, ticked an arc at a time."""
    sg = arrays.stop_group
    first, second = (s, 0), (s, 1)
    model.add_implication(vis[second], vis[first])
    mid, late = {}, {}
    for k in ids:
        if k == first:
            mid[k], late[k] = vis[k], None
        elif k == second:
            mid[k], late[k] = None, vis[k]
        else:
            mid[k], late[k] = model.new_bool_var(""), model.new_bool_var("")
            model.add(mid[k] + late[k] <= vis[k])
            if k in start:
                model.add_bool_or([~start[k], ~mid[k]])
                model.add_bool_or([~start[k], ~late[k]])

    def same(lit, a, b):
        # lit => a == b, a label being a literal or None (false)
        for x, y in ((a, b), (b, a)):
            if x is not None:
                model.add_bool_or([~lit, ~x] + ([y] if y is not None else []))

    for (ka, kb), lit in arc_lit.items():
        clock.tick()
        if kb == first:
            same(lit, mid[ka], None)
            same(lit, late[ka], None)
        elif kb == second:
            model.add_implication(lit, mid[ka])
        else:
            same(lit, mid[ka], mid[kb])
            same(lit, late[ka], late[kb])
    for south in (int(arrays.rev_a[g]), int(arrays.rev_b[g])):
        between = []
        for k in ids:
            if k[1] == 0 and sg[k[0]] == south:
                b = model.new_bool_var("")
                model.add_implication(b, mid[k])
                if run_to:
                    _need(model, sum(y[k] for y in (ys, yy) if k in y) >= 1, b)
                between.append(b)
        _need(model, sum(between) >= 1, vis[second])


def _odd_passes(model, per_train, exits):
    """5.6.2: no track twice. A path passing a stop (on it, neither starting nor ending
    there) leaves it by two of its tracks, and no two paths share a track, so at most
    ``n // 2`` paths pass a stop with ``n`` tracks out (``exits``; a Delaware city's two
    visits count together). For whole numbers the track rows imply it; CP-SAT's linear
    relaxation does not where ``n`` is odd (three paths each half on a stop of three
    tracks, passing it by a different two, use each track once), and this cut moves
    its core search onto the proof: the first parts of nocommute-50hex-s6,
    rights1-46hex-s7, rights1-48hex-s8 and nodelaware-44hex-s10, not proven in 60 s
    as parts without it (33-55 s with CP-SAT's 8 workers), are proven by the core search
    alone in 13-37 s (benchmarks/README.md, "a path passing a stop leaves it by two
    tracks"). Returns how many stops got the cut."""
    passes = {}
    for _, start, _, _, _, _, vis, end in per_train:
        for key, v in vis.items():
            passes.setdefault(key[0], []).append(v - start.get(key, 0) - end.get(key, 0))
    cut = 0
    for st, terms in passes.items():
        n = len(exits.get(st, ()))
        if n % 2 == 1 and len(terms) > n // 2:
            model.add(sum(terms) <= n // 2)
            cut += 1
    return cut


def _larger_runs_more(model, types, active, runs_to):
    """Symmetry between two trains of one type (5.6.2.3), one of which may run to all
    the other may: two of one name, or two Station (Rail Yard) trains of different
    sizes. Their paths swapped, each runs to the tokens the other did (the larger may
    run to as many as the smaller, and the smaller then runs to fewer), so the run
    earns the same and runs to the same rights (5.6.5). Of the runs that earn most,
    then, one has the smaller train run only if the larger does, and to no more
    tokens; CP-SAT is told so and searches the others no more. (Mixed trains of
    different sizes are left alone: their counts per type may differ, 5.6.2.3.)
    ``active`` and ``runs_to``: per train, its literal "runs a path" and the sum of
    its tokens run to."""
    for i, small in enumerate(types):
        for j, large in enumerate(types):
            # (two of one name: the first is the smaller)
            smaller = i < j if small.name == large.name else small.type != MIXED and small.size < large.size
            if small.type == large.type and smaller:
                model.add_implication(active[i], active[j])
                _need(model, runs_to[i] <= runs_to[j])


def _on_track(bit_lits: dict, bits, lit):
    """Note ``lit`` as taking every track bit set in ``bits`` (a chain's words): a bit
    is used by at most one chosen chain (runs share no track)."""
    for w in range(bits.shape[0]):
        word = int(bits[w])
        while word:
            low = word & -word
            bit_lits.setdefault(w * 64 + low.bit_length() - 1, []).append(lit)
            word ^= low

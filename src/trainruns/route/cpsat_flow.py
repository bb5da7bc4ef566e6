"""The flow engine: the whole run as one CP-SAT model over the compiled chain graph,
with no route enumeration (OR-Tools). For boards whose routes are too many to list.

Per train ``t`` an ``AddCircuit`` runs over the nodes {depot} + the stops a route can
reach (from a token city, passing only passable stops):

- ``x[t, c]``: train t runs chain c (directional: a chain and its reverse twin are two
  literals); the arc s -> u of the circuit is the sum of the chains from s to u
  (parallel chains exist), at most one of them;
- depot -> s: the route starts at s; s -> depot: it ends there; a self-loop on s: t does
  not visit s; the depot's self-loop: t is idle (then every stop loops too).

A circuit through the depot is one unbranched line of stops, each visited once. Then:

- visited stops <= visits, visited non-towns <= nontowns; a running train has at least
  one chain (a route never starts and ends at one stop);
- a stop that is not passable has at most one chain arc in or out (a route end);
- counted[t, s] <= visited[t, s], sum counted <= counts (only for N/M trains; others
  count every visited stop), at least one token city counted (visited);
- bonus[t, j] <= OR of visited over each stop group bonus j requires;
- every track bit: over all trains and all chains using it (both directions) at most
  one. That is both "a route uses no track twice" and "trains share no track";
- maximise the counted stop values plus the bonuses.

Symmetry: a route and its reverse are the same run (the start's stop id is below the
end's), and trains of one name are ordered by revenue.
"""

from __future__ import annotations

import time

import numpy as np

from trainruns.route.result import Route
from trainruns.route.value import compiled_bonuses, stop_value_bound
from trainruns.route.value import counted as counted_stops

# extra CP-SAT parameters (name: value), for experiments
SOLVER_PARAMS = {}
# CP-SAT spends about this long per chain literal (chains x trains) before it looks at its
# time limit (measured: 53,000 literals, 46 s with a 3.5 s limit, presolve on or off)
SECONDS_PER_CHAIN_LITERAL = 1e-3
# bytes per chain literal (its variables, arcs and track rows, in Python and in CP-SAT)
BYTES_PER_CHAIN_LITERAL = 4096


def _reachable(compiled):
    """Stops a route may touch: reachable from a token city, passing only passable stops."""
    own = np.flatnonzero(compiled.stop_own)
    seen = set(int(s) for s in own)
    stack = list(seen)
    while stack:
        s = stack.pop()
        if not compiled.stop_passable[s] and not compiled.stop_own[s]:
            continue
        for c in range(compiled.adj_ptr[s], compiled.adj_ptr[s + 1]):
            u = int(compiled.chain_to[c])
            if u not in seen:
                seen.add(u)
                stack.append(u)
    return sorted(seen)


def _chain_bit_lists(compiled, chains):
    """{bit: [chain ids]} over the given chains."""
    masks = compiled.chain_bits[np.asarray(chains, dtype=np.int64)]
    unpacked = np.unpackbits(masks.view(np.uint8), axis=1, bitorder="little")
    rows, bits = np.nonzero(unpacked)
    out = {}
    for r, b in zip(rows.tolist(), bits.tolist()):
        out.setdefault(b, []).append(chains[r])
    return out


def hint_chains(compiled, route: Route):
    """The chain ids of a route of the result type (its stops and ``track``), or None."""
    path_id = {p: i for i, p in enumerate(compiled.paths)}
    track = [path_id[tuple(p)] for p in route.track]
    stops = [compiled.stop_id(ref) for ref in route.stops]
    out, pos = [], 0
    for s, u in zip(stops, stops[1:]):
        for c in range(compiled.adj_ptr[s], compiled.adj_ptr[s + 1]):
            if compiled.chain_to[c] != u:
                continue
            ps = compiled.chain_paths[compiled.chain_path_ptr[c]:compiled.chain_path_ptr[c + 1]].tolist()
            if track[pos:pos + len(ps)] == ps:
                out.append(c)
                pos += len(ps)
                break
        else:
            return None
    return out


def route_of_chains(compiled, chains, train) -> Route:
    """A route given as chain ids in order, as the result type (stops, counted, track,
    bonuses, revenue by the plain rules)."""
    stops = [int(compiled.chain_from[chains[0]])] + [int(compiled.chain_to[c]) for c in chains]
    track = []
    for c in chains:
        ps = compiled.chain_paths[compiled.chain_path_ptr[c]:compiled.chain_path_ptr[c + 1]]
        track.extend(compiled.paths[p] for p in ps)
    values = [int(compiled.stop_value[s]) for s in stops]
    counted = counted_stops(values, [bool(compiled.stop_own[s]) for s in stops], train.counts)
    bonuses = compiled_bonuses(compiled, stops, train.name)
    revenue = sum(v for v, c in zip(values, counted) if c) + sum(a for _, a in bonuses)
    return Route(train=train.name, stops=[compiled.stop_refs[s] for s in stops], revenue=revenue,
                 counted=counted, track=track, bonuses=bonuses,
                 earned=[[(compiled.board.stop(compiled.stop_refs[s]).kind, v)] if c else []
                         for s, v, c in zip(stops, values, counted)])


def solve_flow(compiled, trains, lower=0, hint_run=None, deadline=None, workers=2, memory=None,
               progress=None):
    """Solve the model of the module docstring.

    ``trains``: the board's trains; ``lower``: a revenue already reached (``hint_run``,
    a :class:`trainruns.route.result.Run`, reaching it is given as the solution hint).
    Returns ``(routes, bound, proven)``: ``routes`` a list of ``(train, [chain ids])``
    (only running trains; None when the solver found no run, or for a board with its
    own route model), ``bound`` an upper bound on the best revenue, ``proven`` whether
    the routes are proven best. A model bigger than ``memory`` bytes is not built; on a
    board compiled only in part (``compiled.complete`` false) its runs are legal but its
    bound and proof say nothing, so only the trivial bound is returned."""
    board = compiled.board
    if board.route_model is not None:
        return None, None, False
    # each running train takes a track bit of its own at least: beyond that many, the
    # trains of a name idle in every run and are left out of the model
    kept, seen = [], {}
    for t in trains:
        seen[t.name] = seen.get(t.name, 0) + 1
        if seen[t.name] <= max(compiled.n_bits, 1):
            kept.append(t)
    trains = kept
    trivial = max(stop_value_bound(compiled), lower)
    nodes = _reachable(compiled)
    node_set = set(nodes)
    chains = [c for c in range(compiled.n_chains)
              if compiled.chain_from[c] in node_set and compiled.chain_to[c] in node_set]
    if not trains or not chains:
        return ([], lower, True) if lower == 0 else (None, trivial, False)
    if memory is not None and BYTES_PER_CHAIN_LITERAL * len(chains) * len(trains) > memory:
        return None, trivial, False
    if deadline is not None and deadline - time.perf_counter() <= max(
            0.01, SECONDS_PER_CHAIN_LITERAL * len(chains) * len(trains)):
        # CP-SAT's set-up of a big model ignores its time limit: keep the deadline
        return None, trivial, False
    # (OR-Tools loads in about a second: only once the model is sure to be built)
    from trainruns.route.cpsat import load_cp_model, run_solver

    cp_model = load_cp_model()

    idx = {s: i + 1 for i, s in enumerate(nodes)}  # circuit node of a stop; 0 is the depot
    by_pair = {}
    for c in chains:
        by_pair.setdefault((int(compiled.chain_from[c]), int(compiled.chain_to[c])), []).append(c)
    value = compiled.stop_value
    n_bonus = len(compiled.bonus_amount)

    model = cp_model.CpModel()
    x = []          # per train: {chain: literal}
    visited = []    # per train: {stop: literal}
    aux = []        # per train: (active, start, end, {stop pair: arc literal of parallel chains})
    objs = []       # per train: its revenue expression
    for t in trains:
        xt = {c: model.new_bool_var(f"x{c}") for c in chains}
        arcs = []
        active = model.new_bool_var("active")
        arcs.append((0, 0, ~active))
        vis, start, end = {}, {}, {}
        for s in nodes:
            v = model.new_bool_var(f"v{s}")
            vis[s] = v
            arcs.append((idx[s], idx[s], ~v))
            start[s] = model.new_bool_var(f"st{s}")
            end[s] = model.new_bool_var(f"en{s}")
            arcs.append((0, idx[s], start[s]))
            arcs.append((idx[s], 0, end[s]))
            # a route has two stops at least
            model.add(start[s] + end[s] <= 1)
            model.add_implication(v, active)
        ins = {s: [] for s in nodes}
        outs = {s: [] for s in nodes}
        pair_lit = {}
        for (s, u), cs in by_pair.items():
            if len(cs) == 1:
                lit = xt[cs[0]]
            else:
                lit = model.new_bool_var("")
                model.add(sum(xt[c] for c in cs) == lit)
                pair_lit[(s, u)] = lit
            arcs.append((idx[s], idx[u], lit))
            outs[s].append(lit)
            ins[u].append(lit)
        model.add_circuit(arcs)
        for s in nodes:
            if not compiled.stop_passable[s]:
                model.add(sum(ins[s]) + sum(outs[s]) <= 1)
        # the route's direction: the start's stop id below the end's
        model.add(sum(s * start[s] for s in nodes) < sum(s * end[s] for s in nodes)).only_enforce_if(active)
        if t.visits < len(nodes):
            model.add(sum(vis.values()) <= t.visits)
        nontown = [vis[s] for s in nodes if not compiled.stop_town[s]]
        if t.nontowns < len(nontown):
            model.add(sum(nontown) <= t.nontowns)
        own = [s for s in nodes if compiled.stop_own[s]]
        if t.counts < min(t.visits, len(nodes)):
            cnt = {s: model.new_bool_var(f"c{s}") for s in nodes}
            for s in nodes:
                model.add_implication(cnt[s], vis[s])
            model.add(sum(cnt.values()) <= t.counts)
            model.add_bool_or([cnt[s] for s in own]).only_enforce_if(active)
            obj = [(cnt[s], int(value[s])) for s in nodes if value[s] != 0]
        else:
            model.add_bool_or([vis[s] for s in own]).only_enforce_if(active)
            obj = [(vis[s], int(value[s])) for s in nodes if value[s] != 0]
        for j in range(n_bonus):
            names = compiled.bonus_trains[j]
            amount = int(compiled.bonus_amount[j])
            if (names and t.name not in names) or amount <= 0:
                continue
            req = int(compiled.bonus_required[j])
            groups = [g for g in range(64) if req >> g & 1]
            lits = []
            for g in groups:
                members = [vis[s] for s in nodes if int(compiled.stop_groups[s]) >> g & 1]
                lits.append(members)
            if any(not m for m in lits):
                continue
            y = model.new_bool_var(f"b{j}")
            for members in lits:
                model.add_bool_or(members).only_enforce_if(y)
            obj.append((y, amount))
        x.append(xt)
        visited.append(vis)
        aux.append((active, start, end, pair_lit))
        objs.append(cp_model.LinearExpr.weighted_sum([o[0] for o in obj], [o[1] for o in obj])
                    if obj else 0)
    # track: every bit at most once over all trains and chains
    for b, cs in _chain_bit_lists(compiled, chains).items():
        lits = [xt[c] for xt in x for c in cs]
        if len(lits) > 1:
            model.add_at_most_one(lits)
    # identical trains: ordered by revenue
    for i in range(1, len(trains)):
        if trains[i].name == trains[i - 1].name:
            model.add(objs[i - 1] >= objs[i])
    total = sum(objs)
    model.maximize(total)
    if lower > 0:
        model.add(total >= lower)
    if hint_run is not None:
        _add_hint(model, compiled, trains, hint_run, x, visited, chains, aux)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    for key, val in SOLVER_PARAMS.items():
        setattr(solver.parameters, key, val)
    if deadline is not None:
        solver.parameters.max_time_in_seconds = max(0.01, deadline - time.perf_counter())
    status = run_solver(solver, model, progress, "flow model", memory)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # no run: the solver's objective bound is not trusted then (stopped in presolve it
        # reports 0), and INFEASIBLE can only mean ``lower`` was not reached by a run
        return None, trivial, False
    routes = []
    for t, xt in zip(trains, x):
        used = [c for c in chains if solver.boolean_value(xt[c])]
        if used:
            routes.append((t, _order(compiled, used)))
    value_found = int(round(solver.objective_value))
    proven = status == cp_model.OPTIMAL
    bound = value_found if proven else int(np.floor(solver.best_objective_bound + 1e-6))
    bound = max(min(bound, trivial), value_found)
    if not compiled.complete:
        return routes, max(trivial, value_found), False
    return routes, bound, proven or bound == value_found


def _order(compiled, used):
    """The chains of one route in order, from the end with the lower stop id."""
    nxt = {int(compiled.chain_from[c]): c for c in used}
    targets = {int(compiled.chain_to[c]) for c in used}
    s = next(s for s in nxt if s not in targets)
    out = []
    while s in nxt:
        c = nxt[s]
        out.append(c)
        s = int(compiled.chain_to[c])
    return out


def _add_hint(model, compiled, trains, run, x, visited, chains, aux):
    """Hint a known run (its routes matched to trains by name): its chains, stops,
    ends and arcs, so the solver starts from a complete solution."""
    left = list(range(len(trains)))
    given = {}
    for r in sorted(run.routes, key=lambda r: -r.revenue):
        i = next((i for i in left if trains[i].name == r.train), None)
        cs = hint_chains(compiled, r)
        if i is None or cs is None:
            return
        left.remove(i)
        ids = [int(compiled.chain_from[cs[0]])] + [int(compiled.chain_to[c]) for c in cs]
        if ids[0] > ids[-1]:
            cs = [_twin(compiled, c) for c in reversed(cs)]
            if any(c is None for c in cs):
                return
        given[i] = cs
    for i, xt in enumerate(x):
        cs = given.get(i, [])
        chosen = set(cs)
        for c in chains:
            model.add_hint(xt[c], c in chosen)
        ids = ([int(compiled.chain_from[cs[0]])] + [int(compiled.chain_to[c]) for c in cs]) if cs else []
        on = set(ids)
        pairs = {(int(compiled.chain_from[c]), int(compiled.chain_to[c])) for c in cs}
        active, start, end, pair_lit = aux[i]
        model.add_hint(active, bool(cs))
        for s, v in visited[i].items():
            model.add_hint(v, s in on)
            model.add_hint(start[s], bool(ids) and s == ids[0])
            model.add_hint(end[s], bool(ids) and s == ids[-1])
        for pair, lit in pair_lit.items():
            model.add_hint(lit, pair in pairs)


def _twin(compiled, c):
    """The reverse twin of chain c (same bits, the other direction)."""
    s, u = int(compiled.chain_from[c]), int(compiled.chain_to[c])
    for d in range(compiled.adj_ptr[u], compiled.adj_ptr[u + 1]):
        if compiled.chain_to[d] == s and np.array_equal(compiled.chain_bits[d], compiled.chain_bits[c]):
            return d
    return None


def flow_run(compiled, routes, bound, proven, engine="flow"):
    """``solve_flow``'s answer as a :class:`trainruns.route.result.Run`."""
    from trainruns.route.result import Run

    board = compiled.board
    chosen = [route_of_chains(compiled, cs, t) for t, cs in routes]
    names = [t.name for t in board.trains]
    chosen.sort(key=lambda r: names.index(r.train))
    running = [r.train for r in chosen]
    idle = list(names)
    for n in running:
        idle.remove(n)
    revenue = sum(r.revenue for r in chosen)
    bound = max(bound, revenue)
    return Run(routes=chosen, revenue=revenue, optimal=proven and bound == revenue, bound=bound,
               idle=idle, engine=engine)


def improve(compiled, run, deadline=None, memory=None, progress=None):
    """Hand a run found on a cut route set to the flow model: its run if better, its
    bound if lower, and the proof when it finds one. ``run`` is updated and returned."""
    if compiled.board.route_model is not None:
        return run
    routes, bound, proven = solve_flow(compiled, compiled.board.trains, lower=run.revenue,
                                       hint_run=run, deadline=deadline, memory=memory, progress=progress)
    if bound is None:
        return run
    if routes is not None:
        found = flow_run(compiled, routes, bound, proven)
        if found.revenue > run.revenue or (proven and found.revenue >= run.revenue):
            found.candidates, found.nodes = run.candidates, run.nodes
            run = found
    run.bound = max(run.revenue, min(run.bound, bound))
    run.optimal = run.optimal or proven or run.bound == run.revenue
    if run.optimal:
        run.bound = run.revenue
    return run

"""The linear relaxation of the 1831 flow model, apart from CP-SAT (issue 33): how far it
is above the best run, and whether CP-SAT's own root bound is as tight as it can be.

    python benchmarks/flow_lp.py lp MODEL.txt [ROUNDS]
    python benchmarks/flow_lp.py paths BOARD.json [ITERATIONS]

``lp`` reads a model written by ``flow_cpsat.py export`` and solves its linear
relaxation with GLOP (each enforced linear constraint by its big-M form, each
``bool_and`` and ``bool_or`` as linear rows, each circuit by its degree rows), the cap at
the track prices' bound left out; then, round after round, it adds every subtour cut a
maximum flow finds violated (a train's path reaching a stop must leave every set of
stops holding it but not the depot: ``sum(arcs out of S) >= the stop is on the path``)
and prints the bound after each round.

``paths`` solves the relaxation over whole paths instead (column generation): a master
LP over the paths found so far, one row per track bit (5.6.2: no track twice), one per
train, one per stop of an odd number of tracks (``flow._odd_passes``); each train's
best path at the master's prices, found by the flow model of that train alone (CP-SAT,
exact), joins the master until none earns more than its train's price. It prints the
master's value (below the bound of paths, rising) and the Lagrangian bound at the
master's prices (above it): they meet at the bound. The paths are the first part's
(``revisit`` and ``commute`` "none", as ``Model1831._paths_first`` starts). Slow (a
CP-SAT solve per train and iteration): minutes. Not for boards with bought track rights.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

# prices in thousandths of a revenue unit, for CP-SAT's integer objective
PRICE_SCALE = 1000
# a max-flow capacity in millionths
FLOW_SCALE = 10**6


def _proto(path):
    from google.protobuf import text_format
    from ortools.sat import cp_model_pb2

    proto = cp_model_pb2.CpModelProto()
    with open(path) as f:
        text_format.Parse(f.read(), proto)
    return proto


class Relaxation:
    """The linear relaxation of a CP-SAT model of linear, ``bool_and``, ``bool_or`` and
    circuit constraints (the 1831 flow model's kinds), in math_opt with GLOP."""

    def __init__(self, proto):
        from ortools.math_opt.python import mathopt

        self.mathopt = mathopt
        m = self.model = mathopt.Model()
        self.x = [m.add_variable(lb=v.domain[0], ub=v.domain[-1]) for v in proto.variables]
        self.circuits = []
        objective = set(proto.objective.vars)
        for c in proto.constraints:
            kind = c.WhichOneof("constraint")
            enforced = [self.lit(e) for e in c.enforcement_literal]
            slack = mathopt.fast_sum(1 - e for e in enforced) if enforced else 0
            if kind == "linear":
                if set(c.linear.vars) == objective and not enforced:
                    continue  # the cap at the track prices' bound (and a hold above a run)
                terms = list(zip(c.linear.vars, c.linear.coeffs))
                expr = mathopt.fast_sum(a * self.x[v] for v, a in terms)
                low = sum(a * (self._lb(proto, v) if a > 0 else self._ub(proto, v)) for v, a in terms)
                high = sum(a * (self._ub(proto, v) if a > 0 else self._lb(proto, v)) for v, a in terms)
                lo, hi = c.linear.domain[0], c.linear.domain[-1]
                if hi < high:
                    m.add_linear_constraint(expr <= hi + (high - hi) * slack)
                if lo > low:
                    m.add_linear_constraint(expr >= lo - (lo - low) * slack)
            elif kind == "bool_and":
                for lit in c.bool_and.literals:
                    for e in enforced or [1]:
                        m.add_linear_constraint(self.lit(lit) >= e)
            elif kind == "bool_or":
                m.add_linear_constraint(mathopt.fast_sum(self.lit(lit) for lit in c.bool_or.literals) + slack >= 1)
            elif kind == "circuit":
                arcs = list(zip(c.circuit.tails, c.circuit.heads, c.circuit.literals))
                self.circuits.append(arcs)
                outs, ins = {}, {}
                for tail, head, lit in arcs:
                    outs.setdefault(tail, []).append(self.lit(lit))
                    ins.setdefault(head, []).append(self.lit(lit))
                for node in outs:
                    m.add_linear_constraint(mathopt.fast_sum(outs[node]) == 1)
                    m.add_linear_constraint(mathopt.fast_sum(ins[node]) == 1)
            elif kind is not None:
                raise SystemExit(f"a {kind} constraint: not in the 1831 flow model")
        o = proto.objective
        sign = -1 if o.scaling_factor < 0 else 1   # CP-SAT keeps a maximisation negated
        m.maximize(mathopt.fast_sum(sign * a * self.x[v] for v, a in zip(o.vars, o.coeffs)))
        self.solver = mathopt.IncrementalSolver(m, mathopt.SolverType.GLOP)

    @staticmethod
    def _lb(proto, v):
        return proto.variables[v].domain[0]

    @staticmethod
    def _ub(proto, v):
        return proto.variables[v].domain[-1]

    def lit(self, ref):
        return self.x[ref] if ref >= 0 else 1 - self.x[-ref - 1]

    def subtour_cuts(self, values):
        """Adds every violated subtour cut at ``values``: per circuit and stop on it, the
        least flow from the stop to the depot (node 0) below the stop's share of the
        path cuts the set of nodes on the stop's side. Returns how many."""
        from ortools.graph.python import max_flow

        value = (lambda ref: values[self.x[ref]] if ref >= 0 else 1 - values[self.x[-ref - 1]])
        added = 0
        for arcs in self.circuits:
            loop = {tail: lit for tail, head, lit in arcs if tail == head}
            flow = max_flow.SimpleMaxFlow()
            for tail, head, lit in arcs:
                if tail != head and value(lit) > 1e-6:
                    flow.add_arc_with_capacity(tail, head, int(value(lit) * FLOW_SCALE))
            for node, lit in loop.items():
                on = 1 - value(lit)
                if node == 0 or on < 1e-3 or flow.solve(node, 0) != flow.OPTIMAL:
                    continue
                if flow.optimal_flow() / FLOW_SCALE < on - 1e-3:
                    side = set(flow.get_source_side_min_cut())
                    out = [self.lit(a) for tail, head, a in arcs if tail in side and head not in side]
                    self.model.add_linear_constraint(self.mathopt.fast_sum(out) >= 1 - self.lit(lit))
                    added += 1
        return added


def lp(path, rounds="60"):
    t0 = time.perf_counter()
    relaxation = Relaxation(_proto(path))
    print(f"built in {time.perf_counter() - t0:.2f} s")
    for r in range(int(rounds)):
        result = relaxation.solver.solve()
        added = relaxation.subtour_cuts(result.variable_values())
        print(f"round {r}: bound {result.objective_value():.1f}, {added} subtour cuts added, "
              f"{time.perf_counter() - t0:.1f} s", flush=True)
        if not added:
            break


def paths(board, iterations="400"):
    from ortools.math_opt.python import mathopt

    from trainruns.route import cpsat
    from trainruns.route.compile import compile_board
    from trainruns.titles.g1831.route import flow, flow_track
    from trainruns.titles.load import load_position

    with open(board) as f:
        position = load_position(json.load(f))
    arrays = position.route_model._arrays(compile_board(position))
    if arrays.facts.rights:
        # (one train's model would have to run to every right alone: 5.6.5 couples the trains)
        sys.exit("paths: a board with bought track rights is not priced here")
    trains = list(position.trains)
    seen = {}
    prices = {"bit": {}, "pass": {}}
    odd_passes, run_solver, close = flow._odd_passes, cpsat.run_solver, flow_track.Track.close

    def noting(model, per_train, exits):
        seen["per_train"], seen["exits"] = per_train, exits
        return odd_passes(model, per_train, exits)

    def closing(track, *args):
        seen["track"] = track
        return close(track, *args)

    def cost(u):
        return sum(prices["bit"].get(b, 0) for b in _bits(seen["track"].bits[u]))

    def priced(solver, model, *args, **kwargs):
        # the train's objective less its track's and its passes' prices: a chain's on
        # its literal, or, the one chain between two stops, on the path's way there
        o = model.proto.objective
        terms = [(v, -a * PRICE_SCALE) for v, a in zip(o.vars, o.coeffs)]
        for pair, lits in seen["track"].going.items():
            chains = seen["track"].between[pair]
            taken = [(lit, cost(chains[0])) for lit in lits] if len(chains) == 1 else [
                (seen["track"].taken[u], cost(u)) for u in chains]
            terms += [(lit.index, -c) for lit, c in taken if c]
        for _, start, _, _, _, _, vis, end in seen["per_train"]:
            for key, v in vis.items():
                p = prices["pass"].get(key[0], 0)
                if p:
                    terms += [(v.index, -p)] + [(x[key].index, p) for x in (start, end) if key in x]
        model.maximize(sum(a * model.get_bool_var_from_proto_index(v) for v, a in terms))
        return run_solver(solver, model, *args, **kwargs)

    flow._odd_passes, cpsat.run_solver, flow_track.Track.close = noting, priced, closing
    columns = []   # (train, value, track bits, stops passed)
    t0 = time.perf_counter()
    for it in range(int(iterations)):
        master = mathopt.Model()
        lam = [master.add_variable(lb=0) for _ in columns]
        rows = {"bit": {}, "train": {}, "pass": {}}
        for j, (ti, _, bits, passed) in enumerate(columns):
            rows["train"].setdefault(ti, []).append(lam[j])
            for b in bits:
                rows["bit"].setdefault(b, []).append(lam[j])
            for s in passed:
                rows["pass"].setdefault(s, []).append(lam[j])
        limit = {"bit": lambda b: 1, "train": lambda t: 1,
                 "pass": lambda s: len(seen["exits"].get(s, ())) // 2}
        cons = {kind: {key: (master.add_linear_constraint(mathopt.fast_sum(v) <= limit[kind](key)), limit[kind](key))
                       for key, v in rows[kind].items()
                       if kind != "pass" or len(seen["exits"].get(key, ())) % 2 == 1}
                for kind in rows}
        master.maximize(mathopt.fast_sum(value * lam[j] for j, (_, value, _, _) in enumerate(columns)))
        result = mathopt.solve(master, mathopt.SolverType.GLOP)
        duals = result.dual_values() if columns else {}
        for kind in ("bit", "pass"):
            prices[kind] = {key: int(round(duals[c] * PRICE_SCALE)) for key, (c, _) in cons[kind].items()
                            if duals[c] > 1e-9}
        lagrangian = sum(p * cons[k][key][1] for k in ("bit", "pass") for key, p in prices[k].items()) / PRICE_SCALE
        added = 0
        for ti in range(len(trains)):
            chosen, _, _ = flow.solve(arrays, [trains[ti]], commute="none", revisit="none")
            if not chosen:
                continue
            _, stops, chains, *_ = chosen[0]
            value = flow._value(arrays, [trains[ti]], (0,) + tuple(chosen[0][1:]))
            bits = _bits(arrays.track_bits(chains))
            passed = stops[1:-1]
            reduced = (value * PRICE_SCALE - sum(prices["bit"].get(b, 0) for b in bits)
                       - sum(prices["pass"].get(s, 0) for s in passed)) / PRICE_SCALE
            lagrangian += max(0.0, reduced)
            mu = duals[cons["train"][ti][0]] if ti in cons["train"] else 0.0
            if reduced > mu + 1e-6:
                columns.append((ti, value, bits, passed))
                added += 1
        print(f"iteration {it}: master {result.objective_value() if columns else 0:.1f}, "
              f"Lagrangian bound {lagrangian:.1f}, {len(columns)} paths (+{added}), "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
        if not added:
            break


def _bits(words):
    """The bit numbers set in ``words`` (a bit set in uint64 words)."""
    return np.flatnonzero(np.unpackbits(np.asarray(words, np.uint64).view(np.uint8), bitorder="little")).tolist()


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] in ("lp", "paths"):
        (lp if sys.argv[1] == "lp" else paths)(*sys.argv[2:4])
    else:
        sys.exit(__doc__)

"""A bound over several trains at once: the linear relaxation of packing listed routes.

Given candidate routes (each of one train kind, with its value and its track bits), a
run takes at most ``cap[k]`` routes of kind ``k`` (its trains) and no bit twice. Its
linear relaxation, over ``0 <= x_r <= 1``,

    max sum_r v_r x_r   s.t.  sum_{r of kind k} x_r <= cap_k,  sum_{r uses b} x_r <= 1,

is solved by column generation (GLOP over a few routes at a time; a route joins when its
reduced cost ``v_r - sum_{b in r} pi_b - mu_k`` at the duals is positive). Unlike one
price per bit with each train at its best route (route/lagrange.py), the program sees
the trains together: routes that would share track get fractions of it, not both
their whole value.

Whatever duals ``pi, mu >= 0`` it stops at, the bound is exact for them (weak duality,
summed over every candidate, not only those in the program):

    revenue(S) = sum_{r in S} (rc_r + pi(r) + mu_k(r)) <= D0 + sum_{r in S} rc_r,
    D0 = sum_b pi_b + sum_k cap_k mu_k,

since the routes of a run ``S`` use each bit once and kind ``k`` at most ``cap_k``
times. So every run earns at most ``D = D0 + sum_r max(rc_r, 0)``, and a run that
contains route ``r`` at most ``D + min(rc_r, 0)``: a route whose reduced cost puts that
at or below a target is in no run above it (reduced-cost fixing), and can be dropped
from the search for one.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

# routes put into the program per kind at the start (best values) and per round (best
# reduced costs)
FIRST_COLUMNS = 50
ROUND_COLUMNS = 200
# rounds of column generation at most
ROUNDS = 60
# a reduced cost above this joins the program (GLOP's own tolerance is about 1e-7)
EPS = 1e-6
# the floating-point margin given to the bound: revenues are integers, so a bound below
# ``target + 1 - MARGIN`` rules out every run above ``target``
MARGIN = 1e-4


class Packing(NamedTuple):
    """:func:`packing_bound`'s answer."""

    bound: float       # no run of the candidates earns more
    keep: np.ndarray   # per candidate: may be in a run above the target


_BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.float64)


def _prices(byte_rows, pi):
    """Each route's price at bit prices ``pi``: the sum over its bytes of a 256-entry
    table per byte position (no route-by-bit matrix is built)."""
    out = np.zeros(byte_rows.shape[0], np.float64)
    for j in range(byte_rows.shape[1]):
        table = _BYTE_BITS @ pi[8 * j: 8 * j + 8]
        if table.any():
            out += table[byte_rows[:, j]]
    return out


def packing_bound(values, kinds, caps, bits, target=None, deadline=None):
    """The relaxation's bound (module docstring) over candidates ``r``: ``values[r]``,
    ``kinds[r]`` (an index into ``caps``, the trains of each kind) and ``bits[r]``
    (uint64 words of track). Returns a :class:`Packing`: no run earns more than
    ``bound`` (a float; exact for the duals reached, by weak duality, also when the
    column generation stops early at ``deadline`` or ``ROUNDS``); ``keep``, with
    ``target``, the candidates that may be in a run earning more than it (reduced-cost
    fixing: one the duals of any round rule out is dropped; every candidate without a
    target). The work stops once the bound rules the target out (no candidate is kept
    then)."""
    values = np.asarray(values, np.int64)
    kinds = np.asarray(kinds, np.int64)
    n = len(values)
    if n == 0:
        return Packing(0.0, np.zeros(0, np.bool_))
    byte_rows = np.ascontiguousarray(bits).view(np.uint8).reshape(n, -1)
    keep = np.ones(n, np.bool_)
    best = None
    # twice: with x_r <= 1 left to its bits' rows, then as bounds of their own. The
    # optimal duals are degenerate, and the two programs reach different ones: each
    # fixes routes the other keeps (40hex-s0's second target: 39,997 and 24,109 kept)
    for bounded in (False, True):
        found = _generate(values, kinds, caps, byte_rows, target, deadline, bounded, keep)
        if found is not None and (best is None or found < best):
            best = found
        if _rules_out(best, target):
            break
    if best is None:
        return Packing(float("inf"), np.ones(n, np.bool_))
    return Packing(best, keep)


def _rules_out(bound, target) -> bool:
    """Whether ``bound`` (None: none yet) leaves no run above ``target``."""
    return bound is not None and target is not None and bound < target + 1 - MARGIN


def _generate(values, kinds, caps, byte_rows, target, deadline, bounded, keep):
    """One column generation (:func:`packing_bound`): the least bound reached (None if
    GLOP solved nothing; stopped once it rules the target out), ``keep`` cut down
    by every round's duals when there is a ``target``. With ``bounded``, each x_r <= 1
    is a bound of its own (its dual then shows in the reduced cost, never below 0 in
    the bound); else routes with track have none (their bits' rows imply it)."""
    from ortools.linear_solver import pywraplp

    n = len(values)
    n_bits = 8 * byte_rows.shape[1]
    solver = pywraplp.Solver.CreateSolver("GLOP")
    objective = solver.Objective()
    objective.SetMaximization()
    kind_rows = [solver.Constraint(-solver.infinity(), float(c)) for c in caps]
    bit_rows = {}
    in_lp = np.zeros(n, np.bool_)

    def add(rs):
        for r in rs:
            used = np.flatnonzero(np.unpackbits(byte_rows[r], bitorder="little"))
            x = solver.NumVar(0.0, 1.0 if bounded or len(used) == 0 else solver.infinity(), "")
            kind_rows[kinds[r]].SetCoefficient(x, 1.0)
            for b in used:
                row = bit_rows.get(b)
                if row is None:
                    row = bit_rows[b] = solver.Constraint(-solver.infinity(), 1.0)
                row.SetCoefficient(x, 1.0)
            objective.SetCoefficient(x, float(values[r]))
            in_lp[r] = True

    by_kind = [np.flatnonzero(kinds == k) for k in range(len(caps))]
    add([int(r) for rs in by_kind for r in rs[np.argsort(-values[rs], kind="stable")[:FIRST_COLUMNS]]])
    best = None
    for _ in range(ROUNDS):
        if solver.Solve() not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            break
        pi = np.zeros(n_bits, np.float64)
        for b, row in bit_rows.items():
            pi[b] = max(0.0, row.dual_value())
        mu = np.array([max(0.0, row.dual_value()) for row in kind_rows], np.float64)
        rc = values - _prices(byte_rows, pi) - mu[kinds]
        base = float(pi.sum() + np.dot(np.asarray(caps, np.float64), mu))
        bound = base + float(np.maximum(rc, 0.0).sum())
        if best is None or bound < best:
            best = bound
        if target is not None:
            # every round's duals are valid: a route any of them rules out is in no run
            # above the target
            keep &= bound + np.minimum(rc, 0.0) >= target + 1 - MARGIN
            if _rules_out(best, target):
                break
        new = []
        for rs in by_kind:
            rs = rs[(rc[rs] > EPS) & ~in_lp[rs]]
            new += [int(r) for r in rs[np.argsort(-rc[rs], kind="stable")[:ROUND_COLUMNS]]]
        if not new or (deadline is not None and time.perf_counter() > deadline):
            break
        add(new)
    return best

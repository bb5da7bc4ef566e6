"""The two 1833NE route rules that Board data cannot say, as a route model.

The core enumerates and values the plain routes (board.route_model is set aside while it
does); this model then

- revalues the routes that reach A12 (P6 Delaware & Hudson): A12 is a location worth its
  value only when the route "goes to or through Montreal", else $0 (so for an N/M train it
  competes for the N counted places only then);
- adds *extended* routes for interconnection bonuses: "a route may extend beyond what the
  train allows, along track not used by any of the corporation's other routes and even
  through blocked cities, to collect an interconnection bonus". An extended route is a
  legal route for the train (its *core*: limits, token, passing rules all as usual) with
  extra track at one or both ends that may pass cities full of other tokens (not
  off-boards); the extension's stops earn nothing, but the bonus counts places on the
  whole line. Its track is the whole line, so other trains may not use the extension.

Direct bonuses and ferries stay core :class:`~trainruns.route.board.Bonus` entries and pay on
the core only.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from trainruns.route.board import CITY, RouteModel, Train
from trainruns.route.routeset import RouteSet
from trainruns.route.value import counted, earned_bonuses, may_run


@dataclass(frozen=True)
class ConditionalStop:
    """A stop worth ``value`` only on a route that also visits one of ``needs``."""

    ref: tuple
    value: int
    needs: frozenset


@dataclass(frozen=True)
class ExtendedBonus:
    """An interconnection bonus: ``amount`` when the line touches both groups."""

    name: str
    amount: int
    a: frozenset
    b: frozenset


@dataclass
class LineRouteSet(RouteSet):
    """Routes valued by this model: it says which stops earn and which bonuses pay
    (an extended line's extension earns nothing; A12 counts only with Montreal)."""

    context: object = None
    n_plain: int = 0

    def _detail(self, r, train_name):
        ctx = self.context
        kind = ctx.kinds[self.kinds.index(train_name)]
        line = list(map(int, self.stops[self.ptr[r]:self.ptr[r + 1]]))
        i, j, whole = 0, len(line) - 1, None
        if r >= self.n_plain:
            where = ctx.best_core(line, kind)
            if where is None:
                return None
            (i, j), whole = where, line
        detail = ctx.core_detail(line[i:j + 1], kind, whole)
        if detail is None:
            return None
        _, counted, earned, vals = detail
        return ([i <= p <= j and (p - i) in counted for p in range(len(line))], earned,
                [vals[p - i] if i <= p <= j and (p - i) in counted else None for p in range(len(line))])

    def counted_for(self, r, train_name):
        detail = self._detail(r, train_name)
        return detail[0] if detail else super().counted_for(r, train_name)

    def bonuses_for(self, r, train_name):
        detail = self._detail(r, train_name)
        return detail[1] if detail else super().bonuses_for(r, train_name)

    def earned_for(self, r, train_name):
        """What each stop earns: A12 its value only with Montreal on the route."""
        detail = self._detail(r, train_name)
        if not detail:
            return super().earned_for(r, train_name)
        comp = self.compiled
        line = self.stops[self.ptr[r]:self.ptr[r + 1]]
        return [[(comp.board.stop(comp.stop_refs[s]).kind, v)] if v is not None else []
                for s, v in zip(line, detail[2])]


@dataclass
class RouteModel1833NE(RouteModel):
    """``routes(compiled, kinds, deadline, progress)`` for the search (Board.route_model)."""

    conditional: list = field(default_factory=list)
    extended: list = field(default_factory=list)

    def upper_bound(self, compiled):
        """No run earns more than each train counting its best stops at their full
        value (A12 included), plus every bonus, interconnection bonuses too: the bound of
        a search stopped early."""
        values = [int(v) for v in compiled.stop_value]
        ids = {ref: i for i, ref in enumerate(compiled.stop_refs)}
        for c in self.conditional:
            if c.ref in ids:
                values[ids[c.ref]] = max(values[ids[c.ref]], c.value)
        values = sorted((v for v in values if v > 0), reverse=True)
        bonus = sum(max(0, b.amount) for b in compiled.board.bonuses)
        bonus += sum(max(0, e.amount) for e in self.extended)
        return sum(sum(values[: t.counts]) + bonus for t in compiled.board.trains)

    def routes(self, compiled, kinds, deadline, progress, limits=None):
        from trainruns.route.enumeration import enumerate_all

        # the core's plain enumeration, on a view of the board without this model (the
        # shared board is never changed: the model keeps no state between calls)
        bare = dataclasses.replace(compiled, board=dataclasses.replace(compiled.board, route_model=None))
        plain = enumerate_all(bare, deadline=deadline, progress=progress, limits=limits)
        plain.compiled = compiled
        ctx = _Context(compiled, kinds, self)
        if self.conditional:
            self._revalue_conditional(ctx, plain)
        extra, lines_complete = None, True
        if self.extended:
            extra, lines_complete = self._extended_routes(ctx, deadline)
        if extra is None:
            return LineRouteSet(**_fields(plain), context=ctx, n_plain=len(plain),
                                complete=plain.complete and lines_complete)
        ptr, stops, chains, split, bits, values = extra
        n0 = len(plain)
        return LineRouteSet(
            plain.compiled,
            np.concatenate([plain.ptr, ptr[1:] + plain.ptr[-1]]),
            np.concatenate([plain.stops, stops]),
            np.concatenate([plain.chains, chains]),
            np.concatenate([plain.split, split]),
            np.concatenate([plain.bits, bits]) if n0 else bits,
            plain.kinds,
            np.concatenate([plain.values, values]) if n0 else values,
            plain.complete and lines_complete,
            context=ctx,
            n_plain=n0,
        )

    # --- A12 ------------------------------------------------------------------------

    def _revalue_conditional(self, ctx, rs):
        """Routes through a conditional stop whose condition holds: value them again
        with the stop worth its value (the core valued it at 0)."""
        # only the routes through a conditional stop (found with numpy: sets can be large)
        hit = np.isin(rs.stops, np.array(sorted(ctx.cond_ids), dtype=np.int64))
        owner = np.repeat(np.arange(len(rs)), np.diff(rs.ptr))
        for r in np.unique(owner[hit]):
            stops = rs.stops[rs.ptr[r]:rs.ptr[r + 1]]
            for k, kind in enumerate(ctx.kinds):
                if rs.values[r, k] >= 0:
                    rs.values[r, k] = ctx.core_value(list(map(int, stops)), kind, None)

    # --- interconnection ------------------------------------------------------------

    def _extended_routes(self, ctx, deadline):
        """Enumerate lines that may pass blocked cities and run past the limit, keep the
        ones where an interconnection bonus needs the extension, value them. Returns
        (the lines or None, whether their enumeration was complete)."""
        from trainruns.route.enumeration import enumerate_all

        comp = ctx.compiled
        board = comp.board
        passable = comp.stop_passable.copy()
        for s, ref in enumerate(comp.stop_refs):
            stop = board.stop(ref)
            if stop.kind == CITY and stop.enterable and stop.passable is None:
                passable[s] = True  # "even through blocked cities"
        # The core's own enumeration (public API only) on a copy of the board whose one
        # train reaches every stop, with blocked cities passable.
        n = comp.n_stops
        wide = dataclasses.replace(board, trains=[Train("line", n, n, n)], route_model=None)
        loose = dataclasses.replace(comp, board=wide, stop_passable=passable)
        lines = enumerate_all(loose, deadline=deadline)
        complete = lines.complete  # if not, the search reports no proof of optimality
        ptr, stops, chains, split, bits = lines.ptr, lines.stops, lines.chains, lines.split, lines.bits
        keep, values = [], []
        for r in range(len(ptr) - 1):
            line = list(map(int, stops[ptr[r]:ptr[r + 1]]))
            row = ctx.extended_values(line)
            if row is not None:
                keep.append(r)
                values.append(row)
        if not keep:
            return None, complete
        sel_ptr, sel_stops, sel_chains = [0], [], []
        for r in keep:
            a, b = ptr[r], ptr[r + 1]
            sel_stops.append(stops[a:b])
            sel_chains.append(chains[a:b])
            sel_ptr.append(sel_ptr[-1] + (b - a))
        return (np.array(sel_ptr, dtype=np.int64), np.concatenate(sel_stops), np.concatenate(sel_chains),
                split[keep], bits[keep], np.array(values, dtype=np.int64).reshape(len(keep), len(ctx.kinds))), complete


class _Context:
    """Per-stop facts and route valuation in plain Python (the rules in words)."""

    def __init__(self, compiled, kinds, model):
        self.compiled = compiled
        self.kinds = kinds
        board = compiled.board
        ids = {ref: i for i, ref in enumerate(compiled.stop_refs)}
        self.value = [int(v) for v in compiled.stop_value]
        self.town = [bool(t) for t in compiled.stop_town]
        self.own = [bool(o) for o in compiled.stop_own]
        self.passable = [bool(p) for p in compiled.stop_passable]
        self.cond = {ids[c.ref]: (c.value, {ids[x] for x in c.needs if x in ids}) for c in model.conditional
                     if c.ref in ids}
        self.cond_ids = set(self.cond)
        self.bonuses = [(b.name, b.amount, [{ids[x] for x in g if x in ids} for g in b.groups], b.trains)
                        for b in board.bonuses]
        self.extended = [(e.name, e.amount, {ids[x] for x in e.a if x in ids}, {ids[x] for x in e.b if x in ids})
                         for e in model.extended]
        self.board = board

    def core_value(self, stops, kind, line):
        """What ``kind`` earns on core ``stops`` (None: it may not run them): the
        ``counts`` best places including a token city, every core bonus it reaches, and
        (with ``line``, the whole extended line) the interconnection bonuses."""
        detail = self.core_detail(stops, kind, line)
        return None if detail is None else detail[0]

    def core_detail(self, stops, kind, line):
        """``core_value`` with its reasons: (total, positions of the counted stops in
        ``stops``, bonuses earned as (name, amount), each stop's value on this route);
        None when ``kind`` may not run it."""
        n = len(stops)
        if n < 2 or not may_run(n, sum(self.town[s] for s in stops), kind):
            return None
        if not any(self.own[s] for s in stops):
            return None
        if any(not self.passable[s] for s in stops[1:-1]):
            return None
        on = set(stops)
        vals = []
        for s in stops:
            v = self.value[s]
            if s in self.cond:
                v, needs = self.cond[s]
                v = v if on & needs else 0
            vals.append(v)
        # the plain rule (trainruns.route.value): the counts best with a token city, the bonuses
        flags = counted(vals, [self.own[s] for s in stops], kind.counts)
        counted_at = [i for i in range(n) if flags[i]]
        total = sum(vals[i] for i in counted_at)
        earned = earned_bonuses(stops, self.bonuses, kind.name)
        if line is not None:
            whole = set(line)
            for name, amount, a, b in self.extended:
                # the core already paid those it reaches by itself (they are core Bonuses)
                if whole & a and whole & b and not (on & a and on & b):
                    earned.append((name, amount))
        return total + sum(a for _, a in earned), set(counted_at), earned, vals

    def best_core(self, line, kind):
        """The core ``(i, j)`` of an extended ``line`` that earns ``kind`` the most (the
        one ``extended_values`` valued the line by), or None."""
        whole = set(line)
        best, where = -1, None
        n = len(line)
        for i in range(n):
            for j in range(i + 1, n):
                if i == 0 and j == n - 1:
                    continue
                core = line[i:j + 1]
                on = set(core)
                if not any(whole & a and whole & b and not (on & a and on & b) for _, _, a, b in self.extended):
                    continue
                v = self.core_value(core, kind, line)
                if v is not None and v > best:
                    best, where = v, (i, j)
        return where

    def extended_values(self, line):
        """Best value per kind of ``line`` over cores that leave a non-empty extension
        which some interconnection bonus needs; None when no kind gains from it."""
        whole = set(line)
        if not self.kinds or not any(whole & a and whole & b for _, _, a, b in self.extended):
            return None  # no train to run it (the B&L before P2 is bought), or no bonus
        n = len(line)
        row = [-1] * len(self.kinds)
        for i in range(n):
            for j in range(i + 1, n):
                if i == 0 and j == n - 1:
                    continue  # no extension: a plain route, already enumerated
                core = line[i:j + 1]
                on = set(core)
                if not any(whole & a and whole & b and not (on & a and on & b) for _, _, a, b in self.extended):
                    continue  # the extension earns nothing: not a legal use of it
                for k, kind in enumerate(self.kinds):
                    v = self.core_value(core, kind, line)
                    if v is not None and v > row[k]:
                        row[k] = v
        return row if max(row) > 0 else None


def _fields(rs):
    """The plain RouteSet's fields, to re-wrap it as a LineRouteSet."""
    return {f.name: getattr(rs, f.name) for f in dataclasses.fields(RouteSet) if f.name != "complete"}

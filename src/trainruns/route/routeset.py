"""The enumerated routes of a corporation (:class:`RouteSet`): what the enumeration
(:mod:`trainruns.route.enumeration`, or a title's route model) hands the assignment engines
(:mod:`trainruns.route.assignment`, :mod:`trainruns.route.cpsat`) and the route description
(:mod:`trainruns.route.describe`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from trainruns.route.board import Board
from trainruns.route.compile import CompiledBoard
from trainruns.route.value import compiled_bonuses  # the rule: value.py
from trainruns.route.value import counted as counted_stops


@dataclass
class RouteSet:
    """Every legal route of the corporation, and what each train kind earns on it."""

    compiled: CompiledBoard
    ptr: np.ndarray      # int64 [n + 1]: stops of route r are stops[ptr[r]:ptr[r+1]]
    stops: np.ndarray    # int64 stop ids
    chains: np.ndarray   # int64 chain ids, aligned with stops (one fewer per route)
    split: np.ndarray    # int64: the first split[r] chains of route r run backwards
    bits: np.ndarray     # uint64 [n, words]
    kinds: list          # train kind names (distinct train names)
    values: np.ndarray   # int64 [n, len(kinds)], -1 where the kind may not run it
    complete: bool = True
    # no run of these routes earns more (a bound a title's route model proved, as 1831's
    # track prices), or None: a search reaching it is done, and one stopped early
    # reports no higher bound
    upper: int | None = None

    def __len__(self):
        return len(self.ptr) - 1

    # A title's route model may return a subclass that overrides the methods below
    # (1831 runs to some stops and passes others; 1833NE lines extend past their core).

    def counted_for(self, r: int, train_name: str) -> list:
        """Which stops of route ``r`` (in stored order) earn for that train: the plain
        rules' ``counts`` best, including a token city."""
        train = next(t for t in self.compiled.board.trains if t.name == train_name)
        ids = self.stops[self.ptr[r]:self.ptr[r + 1]]
        return counted_stops([int(self.compiled.stop_value[s]) for s in ids],
                             [bool(self.compiled.stop_own[s]) for s in ids], train.counts)

    def earned_for(self, r: int, train_name: str) -> list:
        """Per stop of route ``r`` (stored order), the parts of what it earns for that
        train, ``[(name, amount)]``: its value, named by its kind, where it is counted."""
        comp = self.compiled
        ids = self.stops[self.ptr[r]:self.ptr[r + 1]]
        return [[(comp.board.stop(comp.stop_refs[s]).kind, int(comp.stop_value[s]))] if c else []
                for s, c in zip(ids, self.counted_for(r, train_name))]

    def bonuses_for(self, r: int, train_name: str) -> list:
        """The bonuses ``(name, amount)`` route ``r`` earns for that train: those whose
        stop groups it all touches."""
        return compiled_bonuses(self.compiled, self.stops[self.ptr[r]:self.ptr[r + 1]], train_name)


def train_kinds(board: Board):
    """Distinct train names in first-seen order, with their (visits, counts, nontowns)."""
    kinds = {}
    for t in board.trains:
        kinds.setdefault(t.name, t)
    return list(kinds.values())

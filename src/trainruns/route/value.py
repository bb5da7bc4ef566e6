"""What a route earns: the one revenue rule of the plain rules (docs/custom-map.md), in Python.

A train of kind (visits, counts, nontowns) may run a route of at most ``visits`` stops
with at most ``nontowns`` stops that are not towns ("2+2": two cities and two towns).
It earns its counted stops, the ``counts`` best, one of which must be a city with the
corporation's token (if none of the best is, the best token city takes the place of
the weakest counted stop), plus every bonus whose stop groups the route touches, for
the trains the bonus names (all trains when it names none).

This module is the rule; :func:`trainruns.route.kernels.values.route_values` is its numba
mirror for whole route sets (tests/route/test_value_rule.py checks that the two agree on
every route of many boards). Describing a route, the audit and the titles' own route
models ask this module. :func:`stop_value_bound` is the rule's bound without routes.
"""

from __future__ import annotations

import numpy as np


def may_run(length: int, towns: int, train) -> bool:
    """Whether a train of kind ``train`` (visits, nontowns) may run a route of
    ``length`` stops, ``towns`` of them towns."""
    return length <= train.visits and length - towns <= train.nontowns


def counted(values, own, counts) -> list:
    """Which stops earn: the ``counts`` best by value, including at least one token city
    (the best one replaces the weakest counted stop when none is among them). Ties keep
    the route's order. A route with no token city is no route: ValueError."""
    n = len(values)
    if counts >= n:
        return [True] * n
    order = sorted(range(n), key=lambda i: -values[i])
    chosen = set(order[:counts])
    if not any(own[i] for i in chosen):
        best_own = max((i for i in range(n) if own[i]), key=lambda i: values[i])
        chosen.discard(order[counts - 1])
        chosen.add(best_own)
    return [i in chosen for i in range(n)]


def stops_value(values, own, counts) -> int:
    """The sum of the counted stops' values (:func:`counted`)."""
    return sum(v for v, c in zip(values, counted(values, own, counts)) if c)


def earned_bonuses(stops, bonuses, train_name) -> list:
    """The bonuses a route through ``stops`` earns for a train: ``bonuses`` is [(name,
    amount, groups, trains)], each group a set of stops; a bonus is earned when the
    route has a stop in every group and its ``trains`` are empty or name the train.
    Returns [(name, amount)]."""
    on = set(stops)
    return [(name, amount) for name, amount, groups, trains in bonuses
            if all(on & set(g) for g in groups) and (not trains or train_name in trains)]


def compiled_bonuses(compiled, stop_ids, train_name) -> list:
    """:func:`earned_bonuses` on a compiled board, whose groups are bits (route/compile.py:
    ``stop_groups`` per stop, ``bonus_required`` per bonus): [(name, amount)]."""
    reached = 0
    for s in stop_ids:
        reached |= int(compiled.stop_groups[s])
    return [(name, int(amount)) for name, amount, required, trains in
            zip(compiled.bonus_names, compiled.bonus_amount, compiled.bonus_required, compiled.bonus_trains)
            if reached & int(required) == int(required) and (not trains or train_name in trains)]


def route_revenue(stops, values, own, towns, train, bonuses):
    """What ``train`` earns on the route ``stops`` whose stops have ``values``, ``own``
    (token city) and ``towns`` flags; None when it may not run it."""
    if not may_run(len(values), sum(1 for t in towns if t), train):
        return None
    return stops_value(values, own, train.counts) + sum(a for _, a in earned_bonuses(stops, bonuses, train.name))


def stop_value_bound(compiled) -> int:
    """An upper bound that needs no routes: each train earns at most its ``counts`` best
    stops plus every bonus (only stops joined to a token by track, when the board was
    compiled for its routes alone). A title's route model that values routes its own way
    gives its own (``upper_bound(compiled)``)."""
    model = compiled.board.route_model
    if model is not None:
        model_bound = model.upper_bound(compiled)
        if model_bound is not None:
            return int(model_bound)
    values = compiled.stop_value if compiled.stop_reach is None else compiled.stop_value[compiled.stop_reach]
    values = np.sort(values[values > 0])[::-1]
    bonus = int(compiled.bonus_amount[compiled.bonus_amount > 0].sum())
    each = sorted((int(values[: min(t.counts, len(values))].sum()) + bonus for t in compiled.board.trains),
                  reverse=True)
    # every running train takes a track bit of its own: at most that many run
    return sum(each[: max(compiled.n_bits, 1)])

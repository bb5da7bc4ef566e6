"""A declared 1831 run as one run (the audit's title hook, :meth:`Title1831.audit_run`):
which bought track rights each declared route runs to, and what it earns then.

5.6.5: "Any tokens purchased as track rights in Phase 5 count just as if the purchasing
corporation owned them. The corporation must use each token purchased in Phase 5 in a
train run." A right is used when a train runs to it, not when it passes
(docs/rules-1831.md, choice 6). So where a route could run to the company's own token
or to the rented one (a city with its own Rail Yard and a rented Station, say), the run
as a whole decides: if no other train runs to the rented token, this one must, and earns
what that token earns. :func:`settle` makes that choice the way ``solve`` does
(model.py's ``_assign_with_rights``): of the choices of tokens that run to every right,
the one that earns the most. What a route earns running to a given set of rights is the
route model's own answer (``explain.best_per_rights``, the rules of
``kernels.best_counts``; a commuter run's Stations, ``Model1831.chosen``), not worked out
again here.
"""

from __future__ import annotations

import dataclasses

from trainruns.route.describe import describe_route
from trainruns.titles.g1831.route.explain import best_per_rights
from trainruns.titles.g1831.route.trains import parse_train_name


def settle(board, rs, routes, picks):
    """``(described, problems)`` for the declared ``routes`` (the audit's
    DeclaredRoute objects) whose routes in the model's set ``rs`` are ``picks``
    (declared index -> route index; the routes left out have a problem already).

    ``described``: index -> :class:`~trainruns.route.result.Route`, valued with the rights it
    runs to; ``problems``: ``[(train, "track-right-unused", message)]``, one per right
    no declared train can run to, or one for the run when the trains can run to each
    but not to all of them at once (5.6.5). A route with a problem already is given the
    benefit of the doubt: the rights in its cities count as run to (one reason is
    enough)."""
    model = board.route_model
    rights = list(model.facts.rights)
    every = (1 << len(rights)) - 1
    doubt = 0
    for i, r in enumerate(routes):
        if i not in picks:
            doubt |= _rights_at(rights, r.refs)
    options = {i: _choices(model, rs, k, routes[i].train_spec) for i, k in picks.items()}
    for i in [i for i, opts in options.items() if not opts]:
        # (no legal choice of tokens: not a route the model lists, never expected here)
        doubt |= _rights_at(rights, routes[i].refs)
        del options[i]
    masks = _cover(options, doubt, every)
    problems = []
    if masks is None:
        # the run breaks 5.6.5; each route is valued at its best as declared
        masks = {i: max(opts, key=lambda m: opts[m]) for i, opts in options.items() if opts}
        problems = _unused(board, rights, routes, options, doubt)
    described = {}
    if not picks:
        return described, problems
    forced = dataclasses.replace(rs, forced_mask={picks[i]: m for i, m in masks.items()})
    for i, k in picks.items():
        route = describe_route(forced, k, routes[i].train_spec)
        if i in masks:
            route = dataclasses.replace(route, revenue=options[i][masks[i]])
        described[i] = route
    return described, problems


def _choices(model, rs, k, train):
    """{rights mask run to: the most the train earns on route ``k`` so} (the model's
    own valuation; a commuter run has one choice: its Stations, 5.6.7)."""
    if rs.is_commuter[k]:
        refs = [rs.compiled.stop_refs[s] for s in rs.stops[rs.ptr[k]:rs.ptr[k + 1]]]
        chosen = model.chosen(rs, k, train.name)
        mask = 0
        for ref, ty in zip(refs, chosen):
            for site in model.facts.sites.get(ref, []) if ty else ():
                if site.type == ty and site.right >= 0:
                    mask |= 1 << site.right
        return {mask: int(rs.values[k, rs.kinds.index(train.name)])}
    path = [int(s) for s in rs.stops[rs.ptr[k]:rs.ptr[k + 1]]]
    # the Delaware read as "runs to both cities south" is part of the valuation (model.chosen)
    south = rs.arrays.south_of(path) if model.options.delaware_south == "run_to" else None
    return {m: v for m, (v, _) in best_per_rights(rs.arrays, path, parse_train_name(train.name), south).items()}


def _cover(options, doubt, every):
    """One rights mask per route (a key of its options) so that together with ``doubt``
    they run to every right, earning the most; None when no choice does. Exact: a
    dynamic programme over the rights run to so far (at most 2^16 states, model.py's
    MAX_RIGHTS)."""
    states = {doubt: (0, {})}
    for i, opts in options.items():
        nxt = {}
        for have, (total, chosen) in states.items():
            for m, v in opts.items():
                key, value = have | m, total + v
                if key not in nxt or nxt[key][0] < value:
                    nxt[key] = (value, {**chosen, i: m})
        states = nxt
    done = [s for have, s in states.items() if have & every == every]
    return max(done, key=lambda s: s[0])[1] if done else None


def _rights_at(rights, refs):
    """The rights in the cities of ``refs`` (stops a declared route names)."""
    at = {tuple(ref) for ref in refs if ref is not None}
    return sum(1 << j for j, (hex_id, k, _) in enumerate(rights) if (hex_id, k) in at)


def _unused(board, rights, routes, options, doubt):
    """The problems of a run that does not run to every right: each right no declared
    train can run to, else (each could be, not all together) the run's."""
    reach = doubt
    for opts in options.values():
        for m in opts:
            reach |= m
    train = routes[-1].train if routes else (board.trains[0].name if board.trains else "")
    missing = [j for j in range(len(rights)) if not reach >> j & 1]
    if missing:
        return [(train, "track-right-unused",
                 f"the track right bought on {_where(rights[j])} is run to by no train (passing its city "
                 "does not use it); every right bought must be run to this round") for j in missing]
    names = ", ".join(_where(rights[j]) for j in range(len(rights)) if not doubt >> j & 1)
    return [(train, "track-right-unused",
             f"the declared trains cannot run to all the track rights bought ({names}) at once; "
             "every right bought must be run to this round")]


def _where(right):
    hex_id, k, slot = right
    return f"{hex_id}.{k} (slot {slot})"

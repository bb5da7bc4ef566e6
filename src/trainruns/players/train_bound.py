"""A bound on every plan on from a state of an operating turn whose board is fixed before
its run, where only trains are still to be decided (1831: 5.3 trains and 5.5 track
rights after 5.2 track and tokens, before 5.6 the run).

From such a state the plans differ only in the trains the company buys (and gives to the
pool over its limit) before it runs. Each plan's run this operating round, and at horizon
2 the next round's run with the trains it then holds, is made on this board, with at most
the train limit of the phase then current running, every train drawn from:

- the trains the company holds now;
- the trains it may still buy at a set price: the bank's trains the search can reach
  this turn (:func:`_reachable`) whose price its treasury pays (a purchase the company
  may decline is paid from its cash alone, 1831 5.3.4, or with a system's president's
  cash, 1831 5.3.11: the title's ``train_budget``, and its cash only falls until the
  run: no purchase is left after it; a forced purchase, 5.3.1, may be the bank's
  cheapest train whatever the treasury holds, and leaves the treasury no richer), and
  the trains of the pool and of the other companies (the pool gains theirs when a new
  phase lowers the limit, 5.3.5), each at most the limit many times.

The best run of all these trains at once, in each phase the purchases could start, is an
upper bound on each of those runs: a run of some of the trains is a run of all of them
with the others left idle, so more trains never earn less. The route core's bounded search
answers with an upper bound on that best run (its proof, :func:`route_adapter.bounded_run`)
whether or not it finds it. The trains a later state of the turn may still run are among
those of the state the bound was made at (cash and the bank's trains only fall), so the
bound made at a board's first state of its trains holds for every state on from it. Two cuts follow:

- a plan scores at most ``horizon`` such runs, so a board whose bound is below the top
  N's worst score holds no plan of the top N;
- once the trains the company holds run for the bound itself (the title's own run of the
  position now), passing scores the most any plan on from there scores, and each
  purchase only spends cash: what a run leaves in the treasury is at most its revenue
  when withheld, and no more for less revenue when paid out; a purchase leaves the
  company at least one train, so a plan that buys withholds only when the plan that
  passes holds none, and then both earn nothing. A plan that buys ranks below passing
  (so it is cut when the top is one plan: the advisor's players)."""

from __future__ import annotations

import re
from collections import Counter

from trainruns.game import route_adapter
from trainruns.game.steps.buy_train import BuyTrainStep
from trainruns.game.steps.routes import RoutesStep
from trainruns.game.steps.token import TokenStep
from trainruns.game.steps.track import TrackStep
from trainruns.route.limits import Work

# the bound's solve: its answer is a proven upper bound however small the budget; a larger
# budget makes it tighter and dearer
WORK = Work(nodes=2_000, covering_nodes=2_000, path_steps=20_000)


def board_fixed(node) -> bool:
    """Whether the turn is before its run, with no step left before it that lays track or
    places a token (the shared track and token steps) and none after it that buys a
    train: only trains and passes are left to decide before the run."""
    queue = getattr(node.round, "queue", None) or ()
    for i, step in enumerate(queue):
        if isinstance(step, RoutesStep):
            return not any(isinstance(s, BuyTrainStep) for s in queue[i + 1:])
        if isinstance(step, (TrackStep, TokenStep)):
            return False
    return False


def run_bound(node, cid: str, forced: bool = False) -> int | None:
    """An upper bound on the run, this operating round and the next, of every plan on
    from ``node``, a state at which :func:`board_fixed` holds (``forced``: the company
    must buy a train before it may pass; see the module); None when the title gives no phases
    or the bank's trains without names, or the company is in receivership (its retired
    trains run and count against no limit)."""
    rules, state = node.rules, node.state
    phases = getattr(rules, "phases", None)
    pos = node.position(cid)
    if phases is None or pos.get("receivership"):
        return None
    corp = state.corp[cid]
    cash = rules.train_budget(corp)
    if forced:
        cash = max(cash, min((row.price for row in state.depot if row.left != 0), default=0))
    reach = _reachable(state.depot, rules.train_limit(corp))
    may_buy: Counter = Counter()
    for i, row in enumerate(state.depot):
        name, left, price = row.train, row.left, row.price
        if left != 0 and price <= cash and i in reach:
            may_buy[name] += left if isinstance(left, int) else 1 << 20
    for t in state.market_trains:
        may_buy[t.name] += 1
    for other in state.corporations:
        if other is not corp:
            may_buy.update(t.name for t in other.trains)
    now = phases.index(state.phase)
    last = max((i for i, row in enumerate(phases.rows) if i > now and any(_starts(row, n) for n in may_buy)),
               default=now)
    names = phases.names[now:last + 1]
    limit = rules.train_limit(corp)
    # a phase's limit, and what the company holds over its phase's limit (a system's)
    most = max(limit, max(phases.limit(p) for p in names) + limit - phases.limit(state.phase))
    trains = [_name(t) for t in pos.get("trains", [])]
    trains += [n for n, k in sorted(may_buy.items()) for _ in range(min(k, most))]
    best = 0
    for phase in names:
        run = route_adapter.bounded_run_or_none(dict(pos, trains=trains, phase=phase), WORK)
        if run is not None:   # None: no run the board's rules allow with every train, nor with fewer
            best = max(best, run[0], run[2]["bound"])
    return best


def _reachable(depot: list, limit: int) -> set:
    """The rows of the bank's trains the search may reach this turn: where the rows give
    sizes and the bank sells its lowest size first (1831 5.3.8), a larger size only after
    every train of the smaller ones it still has; and the search buys at most ``limit``
    trains a turn before a new phase (over the limit a purchase gives the pool a train
    the company held before the turn, never one of a name it bought this turn:
    :func:`trainruns.players.advise._no_round_trip`, so what it holds less what it held
    stays within the limit). Every row when the rows give no sizes."""
    if not all(row.size is not None for row in depot):
        return set(range(len(depot)))
    open_ = [row for row in depot if row.left != 0]
    if not open_:
        return set()
    lowest = min(row.size for row in open_)
    before = sum(row.left if row.left is not None else limit + 1 for row in open_ if row.size == lowest)
    # the next size needs every train of the lowest bought first, and one more
    return {i for i, row in enumerate(depot) if row.left != 0 and (row.size == lowest or before + 1 <= limit)}


def _name(train) -> str:
    """A train's name in a position (docs/position-format.md): its name, or 1831's
    record of it."""
    return train["name"] if isinstance(train, dict) else train


def _starts(row: dict, name: str) -> bool:
    """Whether buying ``name`` may start the phase of ``row`` (its ``on``: a train's name,
    or its size, as 1831's "3" for its 3S, 3MX and 3YD)."""
    on = str(row.get("on"))
    size = re.match(r"\d*", name).group()
    return on == name or on == size

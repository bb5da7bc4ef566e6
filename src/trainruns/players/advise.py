"""The operating-turn advisor: every plan of the operating company's turn, ranked by the
proven best run it allows.

A plan is the turn's decisions in the order the game asks for them (1832: [6] track,
[7.2] token, [8] the run, [9] the dividend, [10] trains; 1833NE likewise; 1831: 5.2
track, 5.5 trains before 5.6 the run): each legal tile lay or upgrade (none included),
each token (none included), each train purchase the company can pay for. Legality is
the game engine's alone: a plan is made by applying the listed actions to a copy of the
game (:meth:`Game.act` checks each one as it checks a player's), so no rule is written
twice, and plans that reach the same state are merged.

Scores ("horizon"):

- 1: the proven best run this operating round (the engine's own ``run_routes "best"``);
- 2: that plus the best run of the next operating round on the board the plan leaves,
  with the trains the company then holds and in the phase then current (trains rusted
  and the phase changed by its purchases are in the game state the plan leaves).

Ties go to the plan that leaves the company more cash. Bounds prune what cannot enter
the top N, and stay admissible, so the ranking is exact whenever every run searched is
proven:

- trains bought after the run do not change it, so a turn's run and its cash after the
  dividend bound every plan that continues from it (horizon 1);
- a run of several trains shares no track, so it earns at most the sum of each train's
  best run alone on the same board (horizon 2: the next round's run);
- where the trains come before the run (1831 5.3 before 5.6), no run of a board earns
  more than every train the company could still run, all at once
  (:mod:`trainruns.players.train_bound`): a board below the top is cut before its
  purchases, and once the trains held earn that much, so are the purchases (top 1).

The dividend follows :func:`dividend_rule` (a stated rule, not searched).
"""

from __future__ import annotations

import gc
import itertools
import json
import threading
import time
from dataclasses import dataclass, field

from trainruns.errors import InputError
from trainruns.game import route_adapter
from trainruns.game.errors import Refusal
from trainruns.game.game_rules import GameRules
from trainruns.game.log import without_proof
from trainruns.game.steps.routes import RoutesStep
from trainruns.game.train import names
from trainruns.game.turn import Turn
from trainruns.players import train_bound
from trainruns.route import limits

# the decisions a plan branches on; anything else the turn offers (a private to buy,
# track rights, a loan) the advisor declines when it may
BRANCHING = ("lay_tile", "place_token", "buy_train", "discard_train")
TRAINS = ("buy_train", "discard_train")


@dataclass
class Plan:
    """One plan of the turn: its decisions, the run it allows, what it costs."""

    actions: list
    revenue: int = 0
    routes: list = field(default_factory=list)
    proven: bool = True
    cost: int = 0
    cash_left: int = 0
    next_revenue: int | None = None
    next_routes: list | None = None
    next_proven: bool | None = None
    note: str = ""
    kept: int = 0   # what the run left in the treasury (a dividend withheld)
    run_position: dict | None = None   # the company's position the run was made on (to draw it)
    order: tuple = ()   # how plans of equal score and cash rank (:func:`_rank`)

    @property
    def score(self) -> int:
        return self.revenue + (self.next_revenue or 0)

    def to_json(self) -> dict:
        out = {"actions": self.actions, "score": self.score, "revenue": self.revenue, "routes": self.routes,
               "proven": self.proven, "cost": self.cost, "cash_left": self.cash_left}
        if self.next_revenue is not None:
            out.update(next_revenue=self.next_revenue, next_routes=self.next_routes, next_proven=self.next_proven)
        if self.note:
            out["note"] = self.note
        return out


@dataclass
class Advice:
    corporation: str
    horizon: int
    top: int
    cash: int
    plans: list = field(default_factory=list)
    considered: int = 0   # plans scored
    pruned: int = 0       # partial or whole plans a bound ruled out of the top N
    merged: int = 0       # plans reaching a state another plan reached
    exact: bool = True
    complete: bool = True  # every plan searched (False: the deadline, the budget or the memory came first)
    stopped: str | None = None  # what stopped an incomplete search: "time_limit", "budget" or "memory"
    seconds: float = 0.0
    progress: object = field(default=None, repr=False)   # told how far the search is
    deadline: float | None = field(default=None, repr=False)   # time.monotonic() to stop at
    budget: int | None = field(default=None, repr=False)   # states of the search to stop after
    memory: int = field(default=limits.DEFAULT_MEMORY, repr=False)   # bytes the search may add
    states: int = 0       # states of the search visited
    held: int | None = field(default=None, repr=False)   # bytes the process held at the start

    def to_json(self) -> dict:
        return {"corporation": self.corporation, "horizon": self.horizon, "top": self.top, "cash": self.cash,
                "considered": self.considered, "pruned": self.pruned, "merged": self.merged,
                "exact": self.exact, "complete": self.complete, "stopped": self.stopped,
                "seconds": round(self.seconds, 3),
                "plans": [p.to_json() for p in self.plans]}

    def tick(self):
        """Between two states of the search: the progress told (a caller's progress may
        stop the search by raising), the deadline, the budget and (every
        ``MEMORY_CHECK_STATES`` states) the memory checked."""
        self.states += 1
        if self.budget is not None and self.states > self.budget:
            raise _OutOfTime("budget")
        if self.held is not None and self.states % MEMORY_CHECK_STATES == 0:
            now = limits.resident()
            if now is not None and now - self.held > self.memory:
                raise _OutOfTime("memory")
        if self.progress is not None:
            self.progress.update("advise", considered=self.considered, pruned=self.pruned, merged=self.merged)
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _OutOfTime("time_limit")


# states between two looks at the process's memory (a look reads /proc: cheap, but not
# free beside a state's few milliseconds)
MEMORY_CHECK_STATES = 64


class _OutOfTime(Exception):
    """The search's deadline passed, its budget is spent or its memory taken (the
    argument says which): the plans scored so far are the answer."""


def dividend_rule(state: dict, corporation: str, kinds: list[str], payout: str = GameRules.payout_kind,
                  withhold: str = GameRules.withhold_kind) -> str:
    """The advisor's dividend (a stated rule, not a search): pay out in full, unless the
    company holds at most one train and its treasury cannot pay for the next train the
    bank sells; then withhold, to buy it. Among the kinds a title lists, its ``payout``
    and ``withhold`` in its own words (the title's ``payout_kind`` and
    ``withhold_kind``: 1832 [9] and 1833NE "payout" and "withhold", 1831 5.7.2.4 PAY
    ALL and 5.7.2.1 HOLD), or the one it pays by rule."""
    corp = next(c for c in state["corporations"] if c["id"] == corporation)
    on_sale = [t["price"] for t in state.get("depot", []) if t.get("left") != 0 and isinstance(t.get("price"), int)]
    short = on_sale and len(corp.get("trains", [])) <= 1 and (corp.get("cash") or 0) < on_sale[0]
    for kind in ((withhold, payout) if short else (payout, withhold)):
        if kind in kinds:
            return kind
    return kinds[0]


# --- the game, copied ------------------------------------------------------------------

def _clone(game):
    """A copy of the game to act on (its state copied: :meth:`Game.copy`)."""
    return game.copy()


def _cash(game, cid: str) -> int:
    """The company's treasury now."""
    return game.state.corp[cid].cash or 0


def _corp(state: dict, cid: str) -> dict:
    return next(c for c in state["corporations"] if c["id"] == cid)


def _key(game) -> str:
    """Equal for equal game states (what the players see), whatever the order of the
    decisions that made them: a company's trains and the pool's are a collection, not a
    sequence (1832 [10], 1831 5.3: a train is told by its name and state alone), and so
    are the tiles on the map, so two trains bought or two tiles laid in either order
    reach one state."""
    s = game.to_json()
    s.pop("events", None)
    s.pop("actions_applied", None)
    # the steps of the turn still to come and what the turn has done, which the state
    # does not show: passing a step leaves the board and the treasuries as they were,
    # yet the company may no longer do what that step allowed
    queue = getattr(game.round, "queue", None) if not game.finished else None
    if queue:
        s["steps"] = [type(x).__name__ for x in queue]
        turn = getattr(queue[0], "turn", None)
        if isinstance(turn, Turn):
            s["turn"] = {k: sorted(v, key=_sort_key) if isinstance(v, list) else v for k, v in turn.record().items()}
    for c in s.get("corporations", ()):
        trains = c.get("trains")
        if isinstance(trains, list) and len(trains) > 1:
            status = c.get("train_status")
            if isinstance(status, list) and len(status) == len(trains):
                pairs = sorted(zip(trains, status), key=_sort_key)
                c["trains"], c["train_status"] = [t for t, _ in pairs], [x for _, x in pairs]
            else:
                c["trains"] = sorted(trains, key=_sort_key)
    if isinstance(s.get("market_trains"), list):
        s["market_trains"] = sorted(s["market_trains"], key=_sort_key)
    tiles = s.get("tiles")
    if isinstance(tiles, list) and len({t.get("hex") for t in tiles}) == len(tiles):
        # one tile a hex: the map, whatever the order of the lays (a title that keeps
        # the tiles a hex had before keeps their order)
        s["tiles"] = sorted(tiles, key=lambda t: str(t.get("hex")))
    return json.dumps(s, sort_keys=True, default=str, check_circular=False)   # a tree: never circular


def _sort_key(x) -> str:
    return json.dumps(x, sort_keys=True, default=str)


def _next(game, cid: str):
    """What the turn asks of ``cid`` now: ("over", None), ("run", action),
    ("dividend", kinds), ("branch", actions), ("pass", action), ("stuck", types)."""
    active = None if game.finished else game.active()
    if not active or active.get("corporation") != cid:
        return "over", None
    step = game.round.step()
    if isinstance(step, RoutesStep):
        # the run is listed first: what else the step lists (a pass when no train has a
        # route, 5.6.6) costs a search of the run, which the run itself repeats
        return "run", step.run_action()
    listed = game.actions()
    runs = [a for a in listed if a["type"] == "run_routes"]
    if runs:
        return "run", runs[0]
    kinds = [a["kind"] for a in listed if a["type"] == "dividend"]
    if kinds:
        return "dividend", kinds
    cash = _cash(game, cid)
    passes = [a for a in listed if a["type"] == "pass"]
    branch = [a for a in listed if a["type"] in BRANCHING and _affordable(a, cash, forced=not passes)]
    if branch:
        return "branch", branch + passes[:1]
    if passes:
        return "pass", passes[0]
    return "stuck", sorted({a["type"] for a in listed})


def _affordable(a: dict, cash: int, forced: bool) -> bool:
    """A train purchase at a set price the treasury pays (the president's contribution
    only when the purchase is forced: 1832 [10] Train Purchase Funds); a price the
    buyer names (a train from another company) is not searched."""
    if a["type"] != "buy_train":
        return True
    price = a.get("price")
    return isinstance(price, int) and (forced or price <= cash)


# --- the search -------------------------------------------------------------------------

def operating(game) -> str:
    """The company whose operating turn it is, or bad input."""
    active = None if game.finished else game.active()
    if not active or not active.get("corporation"):
        who = "the game is over" if game.finished else f"{(active or {}).get('player', 'nobody')} acts in a stock or other round"
        raise InputError(f"advice is for a company's operating turn: {who}", "game")
    kind, _ = _next(game, active["corporation"])
    if kind == "over":
        raise InputError(f"{active['corporation']} acts, but not in its operating turn", "game")
    return active["corporation"]


def advise(game, top: int = 5, horizon: int = 1, progress=None, deadline: float | None = None,
           budget: int | None = None, memory: int | None = None) -> Advice:
    """The top ``top`` plans of the operating company's turn (see the module).

    ``progress``: an object whose ``update(stage, **counts)`` is called between states
    of the search (it may stop it by raising); ``deadline``: a ``time.monotonic()``
    time after which the plans scored so far are the answer, neither ``complete`` nor
    ``exact``; ``budget``: the same after that many states of the search, counted, so
    that a bounded answer is the same at any load (seeded self-play); ``memory``: the
    same once the process holds more than that many bytes beyond what it held when the
    search began (default ``limits.DEFAULT_MEMORY``, a solve's budget too), so that no
    search, bounded by neither a deadline nor a budget, grows without end (1831's at
    horizon 2 passes 10 GB)."""
    if top < 1:
        raise InputError("--top must be at least 1", "top")
    if horizon not in (1, 2):
        raise InputError("--horizon is 1 or 2", "horizon")
    t0 = time.perf_counter()
    cid = operating(game)
    cash = _cash(game, cid)
    if budget is not None and budget < 1:
        raise InputError("the advice's budget is at least 1 state", "budget")
    if memory is not None and memory < 1:
        raise InputError("the advice's memory is at least 1 byte", "memory")
    advice = Advice(cid, horizon, top, cash, progress=progress, deadline=deadline, budget=budget,
                    memory=limits.DEFAULT_MEMORY if memory is None else memory, held=limits.resident())
    seen: set = set()
    found: list[Plan] = []
    try:
        with _few_collections():
            _search(game, cid, cash, advice, seen, found)
    except _OutOfTime as out:
        advice.complete, advice.stopped = False, out.args[0]
    advice.plans = found[:top]
    advice.exact = advice.complete and advice.exact and all(p.proven and p.next_proven is not False for p in found)
    advice.seconds = time.perf_counter() - t0
    return advice


class _few_collections:
    """The search with the cyclic garbage collector kept off what lived before it (the
    game, the route core's caches: :func:`gc.freeze`) and run less often: a turn's
    search makes and drops hundreds of game copies and boards, and each collection of
    the oldest generation walked the whole long-lived heap again. Nothing the search
    answers depends on when memory is collected. Searches at once (a server's threads)
    share one setting: the first in sets it, the last out restores it."""

    THRESHOLD = 20_000   # allocations between collections of the youngest generation
    _lock = threading.Lock()
    _inside = 0
    _kept = None

    def __enter__(self):
        cls = type(self)
        with cls._lock:
            if cls._inside == 0:
                cls._kept = gc.get_threshold()
                gc.freeze()
                gc.set_threshold(max(cls._kept[0], self.THRESHOLD), *cls._kept[1:])
            cls._inside += 1

    def __exit__(self, *exc):
        cls = type(self)
        with cls._lock:
            cls._inside -= 1
            if cls._inside == 0:
                gc.set_threshold(*cls._kept)
                gc.unfreeze()
        return False


def _search(game, cid, cash, advice, seen, found):
    """Every plan of the turn scored into ``found`` (best first), but those a bound
    rules out. Depth first: a state at the run is scored (the run made, the turn walked
    to its ends) as soon as the walk reaches it, so the first whole plan comes after a
    few states even when the decisions before the run (1831's trains, 5.3 before 5.6)
    have many combinations. Plans rank by :func:`_rank`, whose last terms make the
    ranking the same whatever order the plans are scored in."""
    horizon, top = advice.horizon, advice.top
    runs = itertools.count()

    def end(node, acts, kind, what, plan, order, post):
        done = Plan(actions=acts, revenue=plan.revenue, routes=plan.routes, proven=plan.proven, kept=plan.kept,
                    run_position=plan.run_position)
        done.cash_left = _cash(node, cid)
        # spent on track, tokens and trains: the cash at the start plus what the run
        # kept, less the cash left
        done.cost = cash + plan.kept - done.cash_left
        done.note = plan.note or _note(kind, what)
        done.order = order + (-next(post),)
        if horizon == 2 and not _next_run(node, cid, done, advice, found):
            advice.pruned += 1
            return
        advice.considered += 1
        _insert(found, done)

    def at_run(node, actions, kind, what):
        node, actions, plan, cash_now, finished = _ran(node, cid, actions, kind, what)
        # the state's place in the order the plans of equal score and cash rank by:
        # more revenue this round, then more cash after it, then the first reached
        order = (plan.revenue, cash_now, -next(runs))
        advice.tick()
        post = itertools.count()
        # horizon 1: every plan on from here scores this run and leaves at most this cash
        if horizon == 1 and len(found) >= top and (plan.revenue, cash_now) + order + (0,) < _rank(found[top - 1]):
            advice.pruned += 1
            return
        if finished:
            end(node, actions, finished, None, plan, order, post)
            return
        _walk(node, cid, actions, advice, seen, lambda n, a, k, w: end(n, a, k, w, plan, order, post),
              stop_at_run=False)

    boards: dict = {}   # the run bound of each board of the turn (train_bound), by the decisions before it

    def cut(node, acts, may_pass):
        """Before the run, with only trains left to decide (train_bound's two cuts):
        "all" when no plan on from ``node`` can enter the top N, "buys" when the top is
        one plan and none that buys ranks above passing now, else None."""
        if not train_bound.board_fixed(node):
            return None
        # the bound made at the first state of this board's trains, found by the plan's
        # decisions
        first = next((i for i, a in enumerate(acts) if a["type"] in TRAINS), len(acts))
        made = next((k for k in (_sort_key(acts[:j]) for j in range(len(acts), first - 1, -1)) if k in boards), None)
        if made is None:
            made = _sort_key(acts)
            boards[made] = train_bound.run_bound(node, cid, forced=not may_pass)
        bound = boards[made]
        if bound is None:
            return None
        if len(found) >= top and horizon * bound < found[top - 1].score:
            return "all"
        # a plan that buys ranks below passing, which the top 1 alone is sure to leave
        # out (a top N may hold both)
        if top == 1 and may_pass and _run_now(node, cid, route_adapter.Position(node.position(cid)))[0] >= bound:
            return "buys"
        return None

    _walk(_clone(game), cid, [], advice, seen, at_run, stop_at_run=True, cut=cut)


def _note(kind, what) -> str:
    if kind == "stuck":
        return f"the turn waits for a decision the advisor does not make: {', '.join(what)}"
    return ""


def _rank(p: Plan):
    """Better plans rank higher: score, then cash left, then (:attr:`Plan.order`) more
    revenue this round, more cash after the run, the state at the run reached first
    and the plan reached first from it."""
    return (p.score, p.cash_left) + p.order


def _last_step(node) -> bool:
    """Whether the game is at the last step of an operating turn (its pass ends the
    turn: what follows is the next company's)."""
    steps = getattr(node.rules, "operating_steps", ())
    return bool(steps) and isinstance(node.round.step(), steps[-1])


def _walk(root, cid, actions, advice, seen, on_end, stop_at_run, cut=None):
    """Every way on from ``root`` through the turn's decisions (:data:`BRANCHING`, the
    run, the dividend by rule, passes for the rest): ``on_end(game, actions, kind,
    what)`` at each end, the turn over ("over", "end", "stuck") or, with
    ``stop_at_run``, at the run ("run"). The pass that ends the turn is not made: it
    changes nothing of the company's, and the game would go on to list the next
    company's moves. ``cut(game, actions, may_pass)``, asked at a state whose decisions are all
    trains, answers "all" when no plan on from it can enter the top N, "buys" when no
    purchase can (each is counted pruned)."""
    stack = [(root, actions)]
    while stack:
        advice.tick()
        node, acts = stack.pop()
        while True:
            kind, what = _next(node, cid)
            if kind == "dividend":
                acts = _settle(node, cid, acts)
                continue
            if kind == "pass" and not _last_step(node):
                node.act(what)
                acts = acts + [what]
                continue
            if kind == "pass":
                on_end(node, acts + [what], "end", None)
                break
            if kind != "branch":
                on_end(node, acts, kind, what)
                break
            passes = [a for a in what if a["type"] == "pass"]
            moves = [a for a in what if a["type"] != "pass"]
            verdict = cut(node, acts, bool(passes)) if cut is not None and all(
                a["type"] in TRAINS for a in moves) else None
            if verdict == "all":
                advice.pruned += 1
                break
            if verdict == "buys":
                advice.pruned += len(moves)
                moves = []
            moves = _no_round_trip(node, moves, acts, cid, bool(passes))
            if passes and _last_step(node):
                on_end(node, acts + passes, "end", None)   # before the node changes
            else:
                moves += passes
            for i, a in enumerate(moves):
                child = node if i == len(moves) - 1 else _clone(node)
                child.act(a)
                k = _key(child)
                if k in seen:
                    advice.merged += 1
                    continue
                seen.add(k)
                stack.append((child, acts + [a]))
            break


def _no_round_trip(node, moves: list, acts: list, cid: str, may_pass: bool) -> list:
    """The moves less a train round trip within the turn: buying a train of a name the
    company gave the pool this turn; giving the pool a train of a name it bought this
    turn; buying a train over its train limit when every train it holds is of a name
    bought this turn (1831 5.3.7: a purchase over the limit gives the pool one of the
    company's other trains, so one of this turn's purchases would go back). Each leaves
    the company trains it could hold without the pair, for less cash; what it changes
    besides is the bank's supply (a phase sooner), a decision the advisor does not
    make. When the turn may not go on without one of them (a discard the game requires
    after a phase lowers the limit), the moves as listed."""
    bought = {a.get("train") for a in acts if a.get("type") == "buy_train" and a.get("corporation") == cid}
    given = {a.get("train") for a in acts if a.get("type") == "discard_train" and a.get("corporation") == cid}
    if not bought and not given:
        return moves
    corp = node.state.corp[cid]
    held = names(corp.trains)
    full = bool(held) and len(held) >= node.rules.train_limit(corp) and set(held) <= bought

    def round_trip(a) -> bool:
        if a.get("corporation") != cid:
            return False
        if a["type"] == "buy_train":
            return a.get("train") in given or full
        return a["type"] == "discard_train" and a.get("train") in bought

    kept = [a for a in moves if not round_trip(a)]
    return kept if kept or may_pass else moves


def _ran(node, cid, actions, kind, what):
    """A state of the turn at its run, the run made and the dividend paid, or at its
    end when it has no run: ``(game, actions, plan so far, cash, how it ended or
    None)``."""
    plan = Plan(actions=actions, note=_note(kind, what))
    if kind != "run":
        node = _clone(node)   # the walk goes on with this game
        return node, actions, plan, _cash(node, cid), kind
    before = node.position(cid)
    c0 = _cash(node, cid)
    node.act(what)
    rec = node.applied[-1]
    plan.revenue = rec.get("revenue") or 0
    plan.routes = rec.get("routes") if isinstance(rec.get("routes"), list) else []
    plan.proven = _proven(node, before, rec)
    plan.run_position = before
    # the plan shows the run as `play act` and the table page take it (game/log.py)
    actions = _settle(node, cid, actions + [without_proof(rec)])
    c1 = _cash(node, cid)
    plan.kept = c1 - c0
    return node, actions, plan, c1, None


def _proven(node, before: dict, rec: dict) -> bool:
    """The run just made is proven best: its own proof when the title records one (1831
    5.6.6: the log's record of a ``"best"`` run keeps what the bounded search proved),
    else the route core's search of the same position."""
    if "proven" in rec:
        return bool(rec["proven"])
    for e in node.state.events:
        if e.get("type") == "run" and "proven" in e:
            return bool(e["proven"])
    return route_adapter.best_run_proof(before)["proven"]


def _settle(node, cid, actions):
    """The dividend by :func:`dividend_rule` and the passes the turn asks for before
    its next decision: the actions taken."""
    while True:
        kind, what = _next(node, cid)
        if kind == "dividend":
            a = {"type": "dividend", "corporation": cid, "kind": _dividend(node, cid, what)}
        elif kind == "pass" and not _last_step(node):
            a = what
        else:
            return actions
        node.act(a)
        actions = actions + [a]


def _dividend(node, cid: str, kinds: list[str]) -> str:
    """:func:`dividend_rule` for the company now, in its title's words."""
    rules = node.rules
    return dividend_rule(_dividend_view(node, cid), cid, kinds, rules.payout_kind, rules.withhold_kind)


def _dividend_view(node, cid: str) -> dict:
    """The parts of the state JSON :func:`dividend_rule` reads (the company and the
    bank's trains), made as the state JSON makes them, not the whole state (every
    player's value and certificates) at each dividend of the search."""
    rules = node.rules
    return {"corporations": [rules.corporation_json(node.state.corp[cid])], "depot": rules.depot_json()}


def _insert(found: list, plan: Plan):
    i = len(found)
    while i > 0 and _rank(found[i - 1]) < _rank(plan):
        i -= 1
    found.insert(i, plan)


def _next_run(node, cid, plan: Plan, advice, found) -> bool:
    """Score ``plan`` at horizon 2: the best run of the next operating round on the
    board the plan leaves, with its trains and phase. False when the sum of each
    train's best run alone (an upper bound: trains share no track) cannot bring the
    plan into the top N."""
    pos = route_adapter.Position(node.position(cid))   # its key made once for every run asked of it
    trains = list(pos.data.get("trains", []))
    if len(found) >= advice.top and len(trains) > 1 and not _may_enter(plan, pos, trains, found[advice.top - 1]):
        return False
    plan.next_revenue, plan.next_routes, plan.next_proven = _run_now(node, cid, pos) if trains else (0, [], True)
    return True


def _may_enter(plan: Plan, pos: route_adapter.Position, trains: list, last: Plan) -> bool:
    """Whether the bound of :func:`_next_run` (the sum of each train's best run alone on
    ``pos``) lets ``plan`` rank above ``last``. Each train's run adds to the sum (none
    is negative), so the sum is made a train kind at a time, the newest trains first,
    and stops once it lets the plan in: the whole sum would too."""
    kept = _rank(last)
    bound = 0
    kinds = []   # each distinct train once, newest first (1831's trains are dicts)
    for train in reversed(trains):
        if train not in kinds:
            kinds.append(train)
    for train in kinds:
        bound += trains.count(train) * route_adapter.best_run(pos.with_trains([train]))[0]
        if (plan.revenue + bound, plan.cash_left) + plan.order >= kept:
            return True
    return False


def _run_now(node, cid: str, pos: route_adapter.Position):
    """The company's best run on its position now (``pos``, the position as the route
    adapter keys it), as the title's run hook searches it
    (1831 5.6.6: within the game's node budget), on a copy of the game (the hook keeps
    what a run changes): (revenue, routes, proven). A title whose run hooks are the
    engine's own (:meth:`GameRules.run`: the route core's proven best run of the
    position, nothing kept) is answered from the position alone, without the copy."""
    if _plain_run(node.rules):
        revenue, routes = route_adapter.best_run(pos)
        return revenue, routes, route_adapter.best_run_proof(pos)["proven"]
    game = _clone(node)
    try:
        made = game.rules.run(game.state.corp[cid], "best")
    except Refusal:
        return 0, [], True   # no run its rules allow
    routes, revenue = made
    proof = game.rules.run_fields(game.state.corp[cid]) or None
    proven = proof["proven"] if proof else route_adapter.best_run_proof(pos)["proven"]
    return revenue, routes, proven


def _plain_run(rules) -> bool:
    """Whether the title runs a company by the engine's own hooks: the best run is
    :func:`route_adapter.best_run` of its position (the one :meth:`Game.position`
    gives) and a run records nothing else."""
    kind = type(rules)
    return kind.run is GameRules.run and kind.run_fields is GameRules.run_fields

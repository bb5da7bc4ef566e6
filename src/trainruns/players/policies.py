"""Players for self-play (``trainruns play selfplay --policy random|advisor``).

The advisor policy:

- an operating turn is played as the advisor's best plan at horizon 2
  (:func:`trainruns.players.advise.advise`: track, token, trains; the dividend by its
  stated rule), planned at the turn's first decision and replanned if the game refuses
  a step of it; the search stops after ``BUDGET`` of its states (counted, so a seeded
  game is the same at any load), its best plan so far then played, or at random when it
  scored none;
- a stock turn follows a simple valuation, in this order: sell the shares of a company
  that cannot run (no train, or no route: its price falls at its turn) before it
  crashes; buy a share of a company the player presides over that has not yet floated;
  start a company when the player's cash is at least five times its par (the highest
  such par), so he can also buy the shares that float it; buy the listed share with the
  best expected dividend per share for its price (the company's proven best run now,
  over its shares); else pass;
- the seed decides what the valuation leaves equal, as it would between real players:
  wherever a rule above finds several choices equal (companies that cannot run, the
  companies to start at the same highest par, shares of equal expected dividend per
  price), one of them is drawn with the game's rng, each equally likely; a rule that
  finds one choice draws nothing. This one rule holds for every title (what differs is
  only what the title lists);
- any other decision (a private's auction, a merger offer, a discard of another
  company's train) is the random policy's, but for one: while no player's cash pays
  for the cheapest private still for sale, a bid drawn becomes a pass (the bid would
  only set more money aside; a pass lets the privates' income reach that price: 1832
  [5.7] and 1833NE's sale have no other way out, and players who bid every dollar
  would pass for ever).

Each game's summary adds the mean revenue of an operating round (every company's runs
of the round, summed) beside the checks of :mod:`trainruns.game.selfplay`.
"""

from __future__ import annotations

import json

from trainruns.errors import InputError
from trainruns.game import route_adapter
from trainruns.game.errors import Refusal
from trainruns.game.selfplay import fill, play, positions_load, random_choice, summary
from trainruns.players.advise import advise

SELL_FIRST = 5   # par at most a fifth of the cash: the president's certificate and more
# states of one turn's search: most turns need far fewer; a turn with many train purchases
# open can need hundreds of thousands (1831's first turns, some 1833NE turns)
BUDGET = 3000


class Advisor:
    """The advisor policy for every player of one game (see the module)."""

    def __init__(self, horizon: int = 2, budget: int = BUDGET):
        self.horizon = horizon
        self.budget = budget
        self.plan: list = []   # what is left of the turn's plan
        self.turn = None       # whose turn, in which round, it is for

    def __call__(self, game, listed, rng) -> dict:
        active = game.active() or {}
        cid = active.get("corporation")
        if cid and any(a["type"] in ("lay_tile", "place_token", "buy_train", "run_routes", "dividend")
                       or a.get("corporation") == cid for a in listed):
            planned = self._planned(game, cid, listed)
            if planned is not None:
                return planned
        if any(a["type"] in ("par", "buy_shares", "sell_shares") for a in listed) and active.get("player"):
            return stock_choice(game, active["player"], listed, rng)
        choice = random_choice(listed, rng)
        passes = [a for a in listed if a["type"] == "pass"]
        if choice["type"] == "bid" and passes and _nobody_pays_the_cheapest(game.to_json()):
            return passes[0]
        return choice

    def _planned(self, game, cid, listed):
        key = (cid, json.dumps(game.to_json().get("round"), sort_keys=True))
        if self.turn != key or not self.plan:
            try:
                advice = advise(game, top=1, horizon=self.horizon, budget=self.budget)
            except (InputError, Refusal):
                return None
            if not advice.plans:
                return None
            self.turn, self.plan = key, list(advice.plans[0].actions)
        if not self.plan:   # a plan of no decisions (the turn ends by rule): play on at random
            return None
        a = self.plan.pop(0)
        if a["type"] == "run_routes":   # the plan holds the run made; the game lists "best"
            a = next((x for x in listed if x["type"] == "run_routes"), a)
        if a not in listed:
            self.plan = []
            return None
        return a


def _nobody_pays_the_cheapest(state: dict) -> bool:
    """Whether privates are for sale and no player's cash (what his bids have not set
    aside) pays for the cheapest of them (the module's auction rule)."""
    prices = [x["price"] for x in state.get("privates", ()) if x.get("owner") is None and x.get("open")
              and isinstance(x.get("price"), int)]
    return bool(prices) and max(p["cash"] for p in state["players"]) < min(prices)


def _expected(game, cid: str, cache: dict) -> float:
    """The dividend per share a company's proven best run now would pay (0 without a
    train or a route)."""
    if cid not in cache:
        state = game.to_json()
        corp = next(c for c in state["corporations"] if c["id"] == cid)
        if not corp["trains"] or corp["closed"]:
            cache[cid] = 0.0
        else:
            try:
                revenue = route_adapter.best_run(game.position(cid))[0]
            except InputError:
                revenue = 0
            cache[cid] = revenue / max(1, corp["shares"]["total"])
    return cache[cid]


def stock_choice(game, player: str, listed: list, rng) -> dict:
    """A stock turn by the valuation of the module's docstring."""
    state = game.to_json()
    corps = {c["id"]: c for c in state["corporations"]}
    me = next(p for p in state["players"] if p["name"] == player)
    cache: dict = {}
    sells = [a for a in listed if a["type"] == "sell_shares" and (c := corps.get(a.get("corporation")))
             and c["operated"] and _expected(game, c["id"], cache) == 0]
    if sells:
        return _most(_one_of(sells, rng))
    floats = [a for a in listed if a["type"] == "buy_shares" and (c := corps.get(a.get("corporation")))
              and c["president"] == player and not c["floated"]]
    if floats:
        return fill(_one_of(floats, rng), rng)
    pars = [a for a in listed if a["type"] == "par" and isinstance(a.get("price"), int)
            and SELL_FIRST * a["price"] <= me["cash"]]
    if pars:
        highest = max(a["price"] for a in pars)
        return _one_of([a for a in pars if a["price"] == highest], rng)
    buys = []
    for a in listed:
        c = corps.get(a.get("corporation"))
        if a["type"] == "buy_shares" and c:
            price = c.get("price") or c.get("par") or 1
            value = _expected(game, c["id"], cache) / max(1, price)
            if value > 0:
                buys.append((value, a))
    if buys:
        best = max(value for value, _ in buys)
        return fill(_one_of([a for value, a in buys if value == best], rng), rng)
    passes = [a for a in listed if a["type"] == "pass"]
    return passes[0] if passes else random_choice(listed, rng)


def _one_of(equal: list, rng) -> dict:
    """One of the choices a rule of the valuation leaves equal, drawn with the game's
    rng (the module's rule); a single choice draws nothing."""
    return equal[0] if len(equal) == 1 else rng.choice(equal)


def _most(a: dict) -> dict:
    """A sale of as many shares as the action allows."""
    return {k: (v["max"] if isinstance(v, dict) and "max" in v else v) for k, v in a.items()}


def play_one(job: dict, policy=None) -> dict:
    """One self-play game of a sweep by ``job["policy"]`` ("random" or "advisor"):
    :func:`trainruns.game.selfplay.play_one`'s summary plus ``revenue_per_or``, the
    mean of every company's runs in an operating round. ``policy``, a chooser, plays
    instead of the job's own (one that watches the game and then chooses as the job's
    policy would, as the corpus's keeper does)."""
    rounds: dict = {}
    positions = positions_load(job.get("positions", 0))

    def count(game, s):
        r = s.get("round") or {}
        if r.get("kind") == "operating":
            key = (r.get("number"), r.get("or"))
            rounds.setdefault(key, 0)
            last = game.applied[-1] if game.applied else {}
            if last.get("type") == "run_routes":
                rounds[key] += last.get("revenue") or 0
        return positions(game, s)

    if policy is None:
        policy = Advisor() if job.get("policy") == "advisor" else None
    game, problems, n = play(job["title"], job["players"], job["seed"], job.get("max_actions", 3000),
                             on_state=count, variants=job.get("variants", ()), config=job.get("config"),
                             policy=policy)
    out = summary(job, game, problems, n)
    out["operating_rounds"] = len(rounds)
    out["revenue_per_or"] = round(sum(rounds.values()) / len(rounds), 1) if rounds else 0.0
    return out

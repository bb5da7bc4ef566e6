"""What the table page shows beside each decision and about the game (docs/serve.md
"What a decision costs and does", "The game's facts").

Every amount comes from the game engine itself, never from a second copy of a rule:

- what an action costs and does is a *dry run*: the action taken on a copy of the
  game, then the copy's state compared with the game's (the actor's cash, the share
  price of the corporation it concerns); a dividend's payments are the title's own
  ``dividend`` hook on the revenue the dry run reports;
- the game's facts are the title's hooks and data: ``reserved_homes``,
  ``private_ability``, ``market_legend`` and the market's ``par_cell``.

A dry run never touches the game: the copy is made under the game mode's lock, so no
action lands while it is copied.
"""

from __future__ import annotations

import copy
import threading
import weakref

from trainruns.errors import InputError
from trainruns.game.errors import Refusal

#: the decisions whose cost and effect the page shows beside them
PRICED = ("buy_shares", "sell_shares", "place_token", "dividend", "protect", "buy_train", "buy_private",
          "redeem", "reissue", "trade_private", "buy_token", "issue_shares", "redeem_shares", "exchange")
MAX_DRY_RUNS = 80      # per version: a stock round lists a few dozen priced actions
MAX_VALUES = 12        # a free amount (a range) is dry-run for each value up to this many

_cache: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()   # mode -> (version, facts)
_cache_lock = threading.Lock()


def facts_of(mode, version):
    """The facts of ``mode`` (a :class:`~.game_mode.GameMode`) at ``version``, worked out
    once per version; another version is bad input (the page asks again)."""
    with _cache_lock:
        hit = _cache.get(mode)
        if hit and hit[0] == version:
            return hit[1]
    lock = getattr(mode, "_lock", None) or threading.Lock()
    with lock:
        if mode.version != version:
            raise InputError(f"version {version} is not the current one ({mode.version})", "facts")
        game = copy.deepcopy(mode.game)
    out = {"version": version, "actions": action_facts(game), "game": game_facts(game)}
    with _cache_lock:
        _cache[mode] = (version, out)
    return out


# --- what a decision costs and does ----------------------------------------------------


def _free(action):
    """The field of ``action`` that is a free amount (``{"min", "max"}``), or None."""
    return next((k for k, v in action.items() if isinstance(v, dict) and "min" in v), None)


def _values(rng):
    step = rng.get("step") or 1
    values = list(range(rng["min"], rng["max"] + 1, step))
    return values if len(values) <= MAX_VALUES else None


def _cash(st):
    out = {("player", p["name"]): p["cash"] for p in st["players"]}
    out.update({("corporation", c["id"]): c["cash"] for c in st["corporations"]})
    return out


def _prices(st, cid):
    c = next((c for c in st["corporations"] if c["id"] == cid), None)
    if c is None:
        return None
    out = {"price": c.get("price")}
    if "preferred_price" in c:   # 1831 4.3: a square of two prices
        out["preferred"] = c["preferred_price"]
    return out


def action_facts(game) -> list:
    """For each listed action (in the engine's order), what it costs and does, or None
    for an action the page does not price: ``{"index", "facts"}`` where facts is one
    dry run's answer, or for a free amount ``{"by": field, "values": {value: answer}}``."""
    before = game.to_json()
    out, runs = [], 0
    for i, a in enumerate(game.actions()):
        if a["type"] not in PRICED:
            continue
        free = _free(a)
        if free is None:
            if runs >= MAX_DRY_RUNS:
                break
            runs += 1
            answer = dry_run(game, before, a)
            if answer is not None:
                out.append({"index": i, "facts": answer})
            continue
        values = _values(a[free])
        if values is None or runs + len(values) > MAX_DRY_RUNS:
            continue
        runs += len(values)
        answers = {str(v): dry_run(game, before, dict(a, **{free: v})) for v in values}
        out.append({"index": i, "facts": {"by": free, "values": {k: v for k, v in answers.items() if v}}})
    return out


def dry_run(game, before, action):
    """What ``action`` does, taken on a copy of ``game``: the actor's cash change
    (``pays``: negative when it receives), the corporation's cash change when it is not
    the actor, its share price before and after, and for a dividend the title's own
    split of it. None when the engine refuses it."""
    trial = copy.deepcopy(game)
    try:
        trial.act(action)
    except (Refusal, InputError):
        return None
    after = trial.to_json()
    c0, c1 = _cash(before), _cash(after)
    actor = ("player", action["player"]) if "player" in action else ("corporation", action.get("corporation"))
    out = {"actor": actor[1]}
    if actor in c0 and actor in c1:
        out["pays"] = c0[actor] - c1[actor]
    cid = action.get("corporation")
    if cid is not None:
        corp = ("corporation", cid)
        if corp != actor and corp in c0 and corp in c1 and c1[corp] != c0[corp]:
            out["corporation_gets"] = c1[corp] - c0[corp]
        p0, p1 = _prices(before, cid), _prices(after, cid)
        if p0 and p1:
            out["price"] = {k: [p0[k], p1.get(k)] for k in p0}
    if action["type"] == "dividend":
        split = dividend_split(game, trial, action)
        if split:
            out["dividend"] = split
    return out


def _holder(key):
    kind, _, name = str(key).partition(":")
    return name or kind


def dividend_split(game, trial, action):
    """The title's ``dividend`` hook on the revenue the dry run paid: each holder's
    part, what the company keeps, and the amount per share (``dividend_per_share``;
    None where shares get different amounts, as 1831's preferred and common)."""
    ev = next((e for e in trial.state.events if e.get("event") == "dividend"
               and e.get("corporation") == action["corporation"]), None)
    corp = game.state.corp.get(action["corporation"])
    if ev is None or corp is None or ev.get("revenue") is None:
        return None
    d = game.rules.dividend(corp, ev["revenue"], action["kind"])
    holders = {}
    for holder, amount in d.payments:
        if amount:
            name = _holder(holder)
            holders[name] = holders.get(name, 0) + amount
    per = game.rules.dividend_per_share(corp, ev["revenue"], action["kind"])
    return {"revenue": ev["revenue"], "kind": d.kind, "holders": holders, "kept": d.kept,
            "company_adds": d.company_adds, "per_share": per}


# --- the game's facts ------------------------------------------------------------------


def game_facts(game) -> dict:
    """The facts the page shows about the game: the home cities kept for corporations
    (``reserved_homes``), each private's name, ability and revenue, the market's par
    boxes of the prices offered now and its legend."""
    r = game.rules
    market = r.market
    pars = sorted({a["price"] for a in game.actions() if a["type"] == "par" and isinstance(a.get("price"), int)})
    par_cells = {}
    for price in pars:
        cell = market.par_cell(price)
        if cell is not None:
            par_cells[str(price)] = list(cell)
    return {"homes": r.reserved_homes(),
            "privates": [{"id": x.id, "name": x.name, "revenue": x.revenue, "cost": x.cost,
                          "ability": r.private_ability(x.id)} for x in game.state.privates],
            "par_cells": par_cells, "par_boxes": [list(c) for c in market.par_cells()],
            "legend": dict(r.market_legend)}

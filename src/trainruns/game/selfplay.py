"""Seeded random play of a whole game, checking docs/game-log.md's guarantees after
every action: money conserved (guarantee 1), shares placed once (2), presidents holding
the president's certificate (3; 4 shares in a System, and 1832's vice-president's
certificates each whole with its holder), no player over the certificate limit when his
stock turn ends (4), a company over its train limit only until it discards, every train
held sold by the bank and not rusted, the phase that of the trains sold (5), tokens
within supply and one per company per city (7), a finished game's result equal to the
players' values (10), and every listed action accepted; on request (``positions``),
every company's position loading in the route core (6). ``trainruns play selfplay``
plays many such games (on several processes or a Dask cluster:
:mod:`trainruns.services.sweep`); the tests use the same checks.
"""

from __future__ import annotations

import hashlib
import json
import random

from trainruns.game.game import Game


def fill(action, rng):
    """Concrete values for {"min", "max"} ranges: mostly low amounts, so money lasts."""
    out = {}
    for k, v in action.items():
        if isinstance(v, dict) and "min" in v and "max" in v:
            lo, hi, step = v["min"], v["max"], v.get("step", 1) or 1
            n = max(0, (hi - lo) // step)
            out[k] = lo + step * min(n, int(rng.expovariate(1 / max(1, n / 8 + 1))))
        else:
            out[k] = v
    return out


def money(s):
    total = s["bank"]["cash"] + s.get("escrow", 0)
    total += sum(p["cash"] + p.get("committed", 0) for p in s["players"])
    return total + sum(c.get("cash", 0) or 0 for c in s["corporations"])


def check_state(s, start, rules=None):
    """The contract's guarantees 1-3, 5, 7, 10 on one state; returns the problems."""
    problems = []
    if money(s) != start:
        problems.append(f"money {money(s)} != {start}")
    names = {p["name"] for p in s["players"]}
    for c in s["corporations"]:
        sh = c["shares"]
        placed = sh["ipo"] + sh["market"] + sh["treasury"] + sum(sh["players"].values()) + sum(
            sh["corporations"].values())
        if placed != sh["total"]:
            problems.append(f"{c['id']}: shares {placed} != {sh['total']}")
        for p in s["players"]:
            if p["shares"].get(c["id"], 0) != sh["players"].get(p["name"], 0):
                problems.append(f"{c['id']}: {p['name']} shares disagree")
        # a title with 20-share Systems describes each (1832 [11.6]; 1831 says only whether
        # a company is a system: its presidency follows its preferred stock)
        system = c.get("system") if isinstance(c.get("system"), dict) else None
        if c["par"] is not None and not c["closed"]:
            pres = c["president"]
            if pres not in names or sh["players"].get(pres, 0) < (4 if system else 2):
                problems.append(f"{c['id']}: president {pres} lacks the president's certificate")
            # a title whose presidency follows one kind of stock (1831: preferred, 4.7.9)
            # says so in "president_by"; otherwise all shares count
            # ("frozen": the title keeps the president whatever is held, 1831 5.4.12)
            by = c.get("president_by") or {}
            basis = by.get("preferred", sh["players"]) if by else sh["players"]
            for other in (names - {pres}) if not by.get("frozen") else ():
                if basis.get(other, 0) > basis.get(pres, 0):
                    problems.append(f"{c['id']}: {other} holds more than the president")
        if system and not c["closed"]:
            problems += _vice_presidents(c, system)
        supply = c.get("token_supply")   # a title with larger supplies states it (1831)
        if c["tokens_left"] < 0 or len(c["tokens"]) > (supply if supply is not None else {2: 2, 3: 3}.get(
                len(c["tokens"]) + c["tokens_left"], 3)):
            problems.append(f"{c['id']}: too many tokens")
        if c["closed"] and (c["trains"] or c["tokens"]):
            problems.append(f"{c['id']}: closed but holds trains or tokens")
    slots = {}
    for c in s["corporations"]:
        for t in c["tokens"]:
            slots.setdefault((t["hex"], t["stop"]), []).append((c["id"], t.get("slot"), t.get("type")))
    for where, held in slots.items():
        sites = [(cid, slot) for cid, slot, _ in held if slot is not None]
        if len(sites) != len(set(s[1] for s in sites)):
            problems.append(f"{where}: two tokens on one site")
        # one token of a company per city, or (1831, 5.2.7.6) one of each type
        if len(held) != len({(cid, kind) for cid, _, kind in held}):
            problems.append(f"{where}: two tokens of one company")
    if s["finished"]:
        res = s["result"] or {}
        if set(res) != names:
            problems.append("result does not cover every player")
        for p in s["players"]:
            if res.get(p["name"]) != p["value"]:
                problems.append(f"result of {p['name']} {res.get(p['name'])} != value {p['value']}")
    return problems


def certificates_within(s, player: str) -> list[str]:
    """Guarantee 4 at the end of ``player``'s stock turn, the round going on (the end of
    a round may lower the limit, to be met in the player's next turn: 1833NE when a
    corporation closes, 1832 when Systems form): he holds no more certificates than the
    limit, as the title counts them."""
    return [f"{p['name']} holds {p['certificates']} certificates after his stock turn, over the limit of "
            f"{s['cert_limit']}" for p in s["players"] if p["name"] == player and p["certificates"] > s["cert_limit"]]


def limits_settled(game) -> list[str]:
    """Guarantee 5's limit: a company holds more trains than its limit only until it
    discards (1832 [10.2.1]), so one over it has its discard listed now or waits behind
    another's."""
    if game.finished:
        return []
    over = [c.id for c in game.state.corporations if not c.closed and c.president and game.rules.surplus(c)[0] > 0]
    if over and not any(a["type"] == "discard_train" for a in game.actions()):
        return [f"{', '.join(over)} over the train limit with no discard listed"]
    return []


def bank_counts(game) -> dict:
    """The bank's trains as a game starts, by depot row (None: unlimited): what
    :func:`trains_in_place` counts the trains sold against."""
    return {row.train: row.left for row in game.state.depot}


def trains_in_place(game, start: dict) -> list[str]:
    """Guarantee 5's trains, by card (the two sides of a 1833NE card, the S, MX and YD
    of an 1831 size are one): no more held by the companies and the open market than
    the bank has sold since ``start`` (:func:`bank_counts`), so none is in two places;
    none held past the phase that rusts it (its ``rusts_on``; 1831 5.4.8: a company in
    receivership keeps a retired one, marked so); and the phase is the last one whose
    train has been sold (1832 [4.2], 1833NE "Number of phases", 1831 5.3.5)."""
    s, r = game.state, game.rules
    phases = r.phases
    sold, held, problems = {}, {}, []   # by card; sold None: an unlimited row, not counted
    for row in s.depot:
        k, first = r.trains[row.train].card, start.get(row.train)
        unlimited = first is None or row.left is None or (k in sold and sold[k] is None)
        sold[k] = None if unlimited else sold.get(k, 0) + first - row.left
    now = phases.index(s.phase)
    for owner, trains in [(c.id, c.trains) for c in s.corporations] + [("the open market", s.market_trains)]:
        for t in trains:
            held[t.card] = held.get(t.card, 0) + 1
            rust = phases.rusts.get(t.card)
            if rust in phases.by_name and now >= phases.index(rust) and t.status != "retired":
                problems.append(f"{owner} holds a {t.name}-train, rusted in phase {rust}; the phase is {s.phase}")
    for k, n in held.items():
        if sold.get(k) is not None and n > sold[k]:
            problems.append(f"{n} {k}-trains are held, {sold[k]} sold by the bank")
    started = max(i for i, row in enumerate(phases.rows)
                  if i == 0 or held.get(row["on"]) or (sold.get(row["on"]) or 0) > 0)
    if now != started:
        problems.append(f"the phase is {s.phase}, the last train sold starts phase {phases.rows[started]['name']}")
    return problems


def _vice_presidents(c, system) -> list[str]:
    """1832 [11.6]: each vice-president's certificate (2 shares, one certificate) whole
    with its holder, a player or the open market; a player both president and
    vice-president holds the shares of both certificates ([5.5]: a new president's
    vice-president's certificates are traded for the president's, so only one bought
    after he became president stays with him)."""
    problems = []
    sh, pres = c["shares"], c["president"]
    vps = system.get("vice_presidents", {})
    in_market = system.get("vice_presidents_in_market", [])
    if set(vps) & set(in_market) or not set(vps) | set(in_market) <= set(system.get("components", [])):
        problems.append(f"{c['id']}: vice-president's certificates {vps} / {in_market} are not its components'")
    need = {}
    for name in vps.values():
        need[name] = need.get(name, 0) + 2
    if pres in need:
        need[pres] += 4
    for name, n in need.items():
        if sh["players"].get(name, 0) < n:
            problems.append(f"{c['id']}: {name} holds {sh['players'].get(name, 0)} shares, less than the "
                            f"certificates listed for him ({n}): a vice-president's certificate split")
    if sh["market"] < 2 * len(in_market):
        problems.append(f"{c['id']}: the open market holds {sh['market']} shares, less than its "
                        f"{len(in_market)} vice-president's certificate(s)")
    return problems


def random_choice(listed: list, rng) -> dict:
    """The random policy: any listed action, a pass less likely than the others."""
    weights = [1.0 if x["type"] == "pass" else 3.0 for x in listed]
    return fill(rng.choices(listed, weights=weights)[0], rng)


def play(title, players, seed, max_actions=3000, check_undo_every=0, on_state=None, variants=(), config=None,
         policy=None):
    """One game of ``title``, random unless ``policy(game, listed, rng)`` chooses each
    action; returns (game, problems, actions taken)."""
    rng = random.Random(seed)
    game = Game(title, players, seed, variants, config)
    s = game.to_json()
    start = money(s)
    problems = check_state(s, start)
    bank = bank_counts(game)
    n = 0
    while not game.finished and n < max_actions and not problems:
        listed = game.actions()
        if not listed:
            problems.append(f"no action listed after {n}")
            break
        choice = policy(game, listed, rng) if policy else random_choice(listed, rng)
        before = json.dumps(s, sort_keys=True) if check_undo_every and n % check_undo_every == 0 else None
        actor = (s["active"] or {}).get("player") if s["round"]["kind"] == "stock" else None
        try:
            game.act(choice)
        except Exception as e:  # a listed action refused, or a crash
            problems.append(f"listed action {choice} failed at {n}: {type(e).__name__}: {e}")
            break
        n += 1
        s = game.to_json()
        problems += check_state(s, start)
        problems += limits_settled(game)
        problems += trains_in_place(game, bank)
        if actor and s["round"]["kind"] == "stock" and (s["active"] or {}).get("player") != actor:
            problems += certificates_within(s, actor)
        if on_state:
            problems += on_state(game, s)
        if before is not None and not problems:
            game.act({"type": "undo"})
            if json.dumps(game.to_json(), sort_keys=True) != before:
                problems.append(f"undo after action {n} does not give the state before it")
            game.act(choice)
            s = game.to_json()
    return game, problems, n


def positions_load(every: int):
    """Guarantee 6 (docs/game-log.md), an ``on_state`` check of :func:`play`: at every
    ``every``-th state (0: never) the position of each started, open company loads as
    `trainruns solve` reads it (the JSON Schema, then the title's rules)."""
    import warnings

    from trainruns.errors import InputError
    from trainruns.titles.load import load_position

    def check(game, s) -> list[str]:
        if every <= 0 or s["actions_applied"] % every or game.finished:
            return []
        out = []
        for c in s["corporations"]:
            if c["closed"] or c["president"] is None:
                continue
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")   # a company before its first token: a warning only
                    load_position(game.position(c["id"]))
            except InputError as e:
                out.append(f"the position of {c['id']} after action {s['actions_applied']} does not load: {e}")
        return out

    return check


def play_one(job: dict) -> dict:
    """One game of a sweep (``job``: title, players, seed, max_actions, variants,
    config, positions) as a plain summary: actions taken, finished and by which end
    (the title's ``end_reason``: a rule's end, or ``stalled``) or ``capped`` (stopped
    unfinished at ``max_actions``), the result, the problems, and a digest of the final
    state (equal digests: the same game). ``positions``: :func:`positions_load`'s
    interval."""
    game, problems, n = play(job["title"], job["players"], job["seed"], job.get("max_actions", 3000),
                             on_state=positions_load(job.get("positions", 0)),
                             variants=job.get("variants", ()), config=job.get("config"))
    return summary(job, game, problems, n)


def summary(job: dict, game, problems: list, n: int) -> dict:
    """A played game of a sweep as :func:`play_one` reports it."""
    state = game.to_json()
    digest = hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()[:16]
    # stopped by the action cap, not by the game: the summary names it (an unfinished
    # game is a finding, not an end)
    capped = not game.finished and not problems and n >= job.get("max_actions", 3000)
    return {"seed": job["seed"], "players": len(job["players"]), "actions": n, "finished": game.finished,
            "end_reason": game.end_reason, "capped": capped, "result": state.get("result"),
            "problems": problems, "state_digest": digest}


def warm(job: dict) -> None:
    """Load what the games of a sweep load at their start (the title's engine and data,
    the route core's kernels), here: local workers are forked from this process after
    it (trainruns.services.sweep) and start with them."""
    from trainruns.route.kernels import warm_up

    Game(job["title"], job["players"], job["seed"], job.get("variants", ()), job.get("config"))
    warm_up()

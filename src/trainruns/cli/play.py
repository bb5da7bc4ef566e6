"""``trainruns play new|actions|act|position|advise|repair|serve|selfplay``: keep a game (docs/game-log.md).

A game is its log (JSON, format ``trainruns-game/1``): ``new`` writes one, ``act``
checks one action and appends it, ``actions`` lists who acts and every legal action,
``position`` prints a corporation's position (docs/position-format.md), ``advise`` the
operating company's best turn plans (docs/advise.md), ``repair`` carries a log
recorded before a rules fix over (docs/game-log.md), ``serve`` speaks JSON lines,
``selfplay`` plays seeded random games checking the contract's guarantees (on several
processes with ``--workers``, or a Dask cluster with ``--scheduler``).
Exit status: 0, 1 for an illegal action (stdout ``{"index", "rule", "message"}``, the
log unchanged), 2 for bad input (the log unchanged too).

Every JSON read here (a log, a config, an action typed or in a file) goes through the
one strict reader (position.parse_json); a log is written by game/logfile.py: a unique
temporary file, fsync, rename, under a lock on the log (a link keeps its target).
"""

import json
import os
import time

from trainruns.cli import add_scale_out, add_time_limit, memory_size, whole


def register(sub):
    p = sub.add_parser("play", help="keep a game: new, actions, act, position, advise, repair, serve, selfplay")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", parser_class=type(p))
    n = verbs.add_parser("new", help="start a game and print its state")
    n.add_argument("title")
    n.add_argument("--players", required=True, help="names in seating order, comma separated")
    n.add_argument("--seed", type=whole, default=None)
    n.add_argument("--variant", action="append", default=[], metavar="V",
                   help="a variant of the title's rules, repeatable (1832: southern_bank, 400_finish, diesels, "
                        "historical_order, civil_war, no_mergers, key_west_inherited; 1831: extended, short, "
                        "idle_end; docs/game-<title>.md); an unknown name is refused with the known ones")
    n.add_argument("--config", metavar="FILE")
    n.add_argument("--out", metavar="LOG", help="write the log here (a new file, unless --force)")
    n.add_argument("--force", action="store_true", help="write over the file --out names")
    a = verbs.add_parser("actions", help="who acts now and every legal action")
    a.add_argument("log")
    c = verbs.add_parser("act", help="check one action and append it to the log")
    c.add_argument("log")
    c.add_argument("action", help="the action: JSON text or a file")
    c.add_argument("--out", metavar="LOG", help="write the new log here (default: the log itself; "
                                                "a new file, unless --force)")
    c.add_argument("--force", action="store_true", help="write over the file --out names")
    q = verbs.add_parser("position", help="the position (docs/position-format.md) of a corporation now")
    q.add_argument("log")
    q.add_argument("--corporation", metavar="ID")
    ad = verbs.add_parser("advise", help="the operating company's best turn plans, by the proven best run")
    ad.add_argument("log")
    ad.add_argument("--top", type=whole, default=5, metavar="N", help="plans to show (default 5)")
    ad.add_argument("--horizon", type=whole, default=1, choices=(1, 2),
                    help="1: this operating round's run; 2: plus the next round's with the trains then held")
    add_time_limit(ad, f"stop the search after this long (default {ADVISE_SECONDS:g} s): the plans scored "
                       "by then, the answer saying it is not complete")
    ad.add_argument("--memory", type=memory_size, metavar="SIZE", default=None,
                    help="memory the search may add (default 2G); past it the plans scored by then, the answer "
                         "saying it is not complete")
    rp = verbs.add_parser("repair", help="carry over a log recorded before a rules fix: the passes declining "
                                         "the choices the rules now offer, inserted (docs/game-log.md)")
    rp.add_argument("log")
    rp.add_argument("--write", action="store_true", help="write the repaired log over this one (default: only "
                                                         "say what would be inserted)")
    rp.add_argument("--out", metavar="LOG", help="write the repaired log here (a new file, unless --force)")
    rp.add_argument("--force", action="store_true", help="write over the file --out names")
    verbs.add_parser("serve", help="JSON lines on stdin/stdout")
    sp = verbs.add_parser("selfplay", help="seeded random games, every guarantee checked after each action")
    sp.add_argument("title")
    sp.add_argument("--players", type=whole, required=True, metavar="N", help="players per game")
    sp.add_argument("--games", type=whole, default=1, metavar="G", help="games to play (default 1)")
    sp.add_argument("--seed", type=whole, default=1, metavar="S", help="seed of the first game; game i has S+i")
    sp.add_argument("--max-actions", type=whole, default=3000, metavar="K", help="stop a game after K actions")
    sp.add_argument("--variant", action="append", default=[], metavar="V", help="as play new --variant")
    sp.add_argument("--config", metavar="FILE", help="the game's config (1831)")
    sp.add_argument("--positions", type=whole, default=0, metavar="K",
                    help="also load every company's position in the route core, as solve reads it, at every "
                         "K-th state (guarantee 6; default 0: never)")
    add_scale_out(sp)
    sp.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    sp.add_argument("--policy", choices=("random", "advisor"), default="random",
                    help="random (fuzzing) or advisor (operating turns by the advisor, stock rounds by "
                         "expected dividends: docs/advise.md)")
    for x in (p, n, a, c, q, rp, sp):
        x.add_argument("--json", action="store_true", help="JSON output (the default)")
    ad.add_argument("--json", action="store_true", help="JSON output (default: text)")
    p.set_defaults(func=run, verbs=list(verbs.choices))


# a search the command line starts answers within this many seconds unless told
ADVISE_SECONDS = 60.0
# seats named before the title checks its own range (no 18xx title seats more)
MOST_SEATS = 100
# the most games one selfplay command plays (each a job listed before any is played)
MOST_GAMES = 100_000


def _print(obj):
    print(json.dumps(obj))


def _read_log(path, what="game log"):
    from trainruns.position.reader import read_json

    return read_json(path, what)


def _write_new(path, log, force):
    from trainruns.game import logfile

    logfile.save(path, log, expect=logfile.ANY if force else None)


JSON_START = tuple('{["-0123456789') + ("true", "false", "null", "NaN", "Infinity")


def _action(text):
    """The action typed on the command line (JSON text) or in a file: read by the one
    strict JSON reader either way. Text that is JSON (an object, but also ``[1]``,
    ``"pass"``, ``42``, ``null``) is the action itself, and refused as one."""
    from trainruns.errors import InputError
    from trainruns.position.reader import parse_json, read_json

    stripped = text.strip()
    if stripped.startswith("{"):
        return parse_json(text, "action", "action")
    if os.path.lexists(text):
        return read_json(text, "action")
    if stripped.startswith(JSON_START):
        return parse_json(text, "action", "action")
    shown = text if len(text) <= 40 else text[:37] + "..."
    raise InputError(f"neither JSON text nor an action file: {shown!r}", "action")


def run(args):
    from trainruns.errors import InputError
    from trainruns.game.game import Game

    verb = getattr(args, "verb", None)
    if verb is None:
        raise InputError(f"play needs a verb: {', '.join(args.verbs[:-1])} or {args.verbs[-1]}")
    for option in ("out", "config", "log"):
        if getattr(args, option, None) == "":   # not "none given": a file name left empty
            raise InputError("needs a file name, not an empty one", "--" + option if option != "log" else "log")
    if verb == "serve":
        from trainruns.game.protocol import serve

        return serve()
    if verb == "selfplay":
        return selfplay(args)
    if verb == "advise":
        return advise(args)
    if verb == "repair":
        return repair(args)
    if verb == "new":
        players = [x.strip() for x in args.players.split(",")]
        if not all(players) or len(set(players)) != len(players):
            raise InputError("--players needs distinct, non-empty names separated by commas")
        config = _read_log(args.config, "config") if args.config else None
        game = Game(args.title, players, args.seed, args.variant, config, where="play new")
        if args.out:
            _write_new(args.out, game.log(), args.force)
        _print(game.to_json())
        return 0
    if verb != "act":
        game = Game.replay(_read_log(args.log), where=args.log)
        if verb == "actions":
            _print({"active": game.active(), "actions": game.actions()})
            return 0
        _print(game.position(args.corporation))
        return 0
    # act: the action is read before the log is locked (a file, or JSON text)
    action = _action(args.action)
    if args.out and not _same_file(args.out, args.log):
        game = Game.replay(_read_log(args.log), where=args.log)
        if _act(game, action):
            return 1
        _write_new(args.out, game.log(), args.force)
        _print(game.to_json())
        return 0
    from trainruns.game import logfile

    # the log read, checked and written under its lock: a second `play act` waits and
    # then acts on this one's log; nothing changes the file meanwhile unnoticed
    with logfile.locked(args.log) as change:
        game = Game.replay(change.data, where=args.log)
        if _act(game, action):
            return 1
        change.write(game.log())
    _print(game.to_json())
    return 0


def repair(args):
    """``play repair``: the passes an older log lacks (:func:`trainruns.game.repair.repair`),
    printed, and written with ``--write`` (the log itself, under its lock) or ``--out``.
    A log that needs none is not written."""
    from trainruns.errors import InputError
    from trainruns.game import logfile
    from trainruns.game.game import Game
    from trainruns.game.log import effective

    if args.write and args.out:
        raise InputError("play repair writes the log itself (--write) or a new one (--out), not both")

    def report(game, inserted, data, written):
        dropped = len(data["actions"]) - len(effective(data["actions"]))
        _print({"inserted": inserted, "actions": len(game.entries), "undone_dropped": dropped if inserted else 0,
                "written": written})

    if args.write:
        with logfile.locked(args.log) as change:
            game, inserted = Game.repaired(change.data, where=args.log)
            if inserted:
                change.write(game.log())
        report(game, inserted, change.data, args.log if inserted else None)
        return 0
    data = _read_log(args.log)
    game, inserted = Game.repaired(data, where=args.log)
    if args.out and inserted:
        _write_new(args.out, game.log(), args.force)
    report(game, inserted, data, args.out if args.out and inserted else None)
    return 0


def _act(game, action) -> bool:
    """Take the action; True when refused (the refusal printed, nothing to write)."""
    from trainruns.game.errors import Refusal

    index = len(game.entries)
    try:
        game.act(action)
    except Refusal as r:
        _print({"index": index, "rule": r.rule, "message": r.message})
        return True
    return False


def _same_file(a, b) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def selfplay(args):
    """``play selfplay``: one JSON line per game, in seed order (the same on any number
    of workers), then a summary line; exit 1 when a game broke a guarantee."""
    from trainruns.cli.progressbar import ProgressBar
    from trainruns.cli.scale import run_jobs
    from trainruns.errors import InputError
    from trainruns.game.game import rules_class
    from trainruns.game.selfplay import play_one, warm
    from trainruns.players import policies as players

    rules_class(args.title, "title")  # an unknown title is bad input before any game starts
    if args.players < 1 or args.games < 1 or args.max_actions < 1:
        raise InputError("--players, --games and --max-actions must be at least 1")
    if args.positions < 0:
        raise InputError(f"--positions is an interval of states, at least 0 (never), not {args.positions}")
    # bounds checked before anything is built: the seats' names and the list of games
    if args.players > MOST_SEATS:
        raise InputError(f"at most {MOST_SEATS} players a game, not {args.players}", "--players")
    if args.games > MOST_GAMES:
        raise InputError(f"at most {MOST_GAMES:,} games a command, not {args.games}", "--games")
    config = _read_log(args.config, "config") if args.config else None
    names = [f"P{i + 1}" for i in range(args.players)]
    jobs = [{"title": args.title, "players": names, "seed": args.seed + i, "max_actions": args.max_actions,
             "variants": list(args.variant), "config": config, "policy": args.policy,
             "positions": args.positions} for i in range(args.games)]
    bar = None if args.quiet else ProgressBar(len(jobs), "selfplay")
    one = players.play_one if args.policy == "advisor" else play_one
    games = run_jobs(one, jobs, args, bar, warm=lambda: warm(jobs[0]))
    for g in games:
        _print(g)
    broken = sum(bool(g["problems"]) for g in games)
    ended = {}
    for g in games:
        if g["finished"]:
            ended[g["end_reason"]] = ended.get(g["end_reason"], 0) + 1
    _print({"games": len(games), "finished": sum(g["finished"] for g in games), "ended": ended,
            "capped": sum(g["capped"] for g in games), "actions": sum(g["actions"] for g in games),
            "broken": broken, **_revenue(games)})
    return 1 if broken else 0


def advise(args):
    """``play advise``: the top plans of the operating company's turn
    (trainruns.players.advise); text by default, the JSON with ``--json``."""
    from trainruns.game.game import Game
    from trainruns.players.advise import advise as advise_turn

    started = time.monotonic()
    game = Game.replay(_read_log(args.log), where=args.log)
    limit = ADVISE_SECONDS if args.time_limit is None else args.time_limit
    advice = advise_turn(game, top=args.top, horizon=args.horizon, deadline=started + limit, memory=args.memory)
    if args.json:
        _print(advice.to_json())
        return 0
    for line in describe(advice):
        print(line)
    return 0


# the text's words for what stopped an incomplete search (Advice.stopped)
STOPPED = {"time_limit": "the time limit came first", "budget": "the budget of states came first",
           "memory": "the memory budget came first"}


def describe(advice) -> list[str]:
    """The advice as text: one block per plan."""
    a = advice
    why = f"{STOPPED.get(a.stopped, 'the search stopped')}: not every plan scored" if not a.complete \
        else "a run unproven"
    lines = [f"{a.corporation} (cash {a.cash}): {len(a.plans)} best of {a.considered} plans scored, "
             f"{a.pruned} pruned by a bound, {a.merged} merged; ranking "
             f"{'exact' if a.exact else f'NOT exact ({why})'}; horizon {a.horizon}; {a.seconds:.2f} s"]
    for i, p in enumerate(a.plans, 1):
        moves = [_move(x) for x in p.actions]
        moves = [m for m in moves if m] or ["no track, token or train"]
        nxt = f" + next round {p.next_revenue}" if p.next_revenue is not None else ""
        lines.append(f"{i}. score {p.score}: run {p.revenue}{nxt}, cost {p.cost}, cash left {p.cash_left}"
                     f"{'' if p.proven else ' (run not proven)'}")
        lines.append("   " + "; ".join(moves))
        for r in p.routes:
            lines.append(f"   train {r['train']}: {' - '.join(r['stops'])}")
        for r in p.next_routes or []:
            lines.append(f"   next round, train {r['train']}: {' - '.join(r['stops'])}")
        if p.note:
            lines.append(f"   {p.note}")
    return lines


def _move(a) -> str:
    t = a["type"]
    if t == "lay_tile":
        return f"tile {a['tile']} on {a['hex']} rotation {a['rotation']}"
    if t == "place_token":
        return f"token on {a['hex']}.{a.get('stop', 0)}"
    if t == "buy_train":
        return f"buy a {a['train']} for {a['price']}"
    if t == "discard_train":
        return f"discard a {a['train']}"
    if t == "dividend":
        return f"dividend: {a['kind']}"
    return ""


def _revenue(games) -> dict:
    """The mean revenue of an operating round over the games that report it (the
    advisor policy's)."""
    rated = [g["revenue_per_or"] for g in games if "revenue_per_or" in g]
    return {"revenue_per_or": round(sum(rated) / len(rated), 1)} if rated else {}

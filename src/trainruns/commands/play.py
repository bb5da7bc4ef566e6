"""``trainruns play new|actions|act|position|serve``: keep a game (GAME-CONTRACT.md).

A game is its log (JSON, format ``trainruns-game/1``): ``new`` writes one, ``act``
checks one action and appends it, ``actions`` lists who acts and every legal action,
``position`` prints a corporation's CONTRACT.md position, ``serve`` speaks JSON lines.
Exit status: 0, 1 for an illegal action (stdout ``{"index", "rule", "message"}``, the
log unchanged), 2 for bad input.
"""

import json
import os


def register(sub):
    p = sub.add_parser("play", help="keep a game: new, actions, act, position, serve")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", parser_class=type(p))
    n = verbs.add_parser("new", help="start a game and print its state")
    n.add_argument("title")
    n.add_argument("--players", required=True, help="names in seating order, comma separated")
    n.add_argument("--seed", type=int, default=None)
    n.add_argument("--variant", action="append", default=[], metavar="V")
    n.add_argument("--config", metavar="FILE")
    n.add_argument("--out", metavar="LOG", help="write the log here")
    a = verbs.add_parser("actions", help="who acts now and every legal action")
    a.add_argument("log")
    c = verbs.add_parser("act", help="check one action and append it to the log")
    c.add_argument("log")
    c.add_argument("action", help="the action: JSON text or a file")
    c.add_argument("--out", metavar="LOG", help="write the new log here (default: the log itself)")
    q = verbs.add_parser("position", help="the CONTRACT.md position of a corporation now")
    q.add_argument("log")
    q.add_argument("--corporation", metavar="ID")
    verbs.add_parser("serve", help="JSON lines on stdin/stdout")
    for x in (p, n, a, c, q):
        x.add_argument("--json", action="store_true", help="JSON output (the default)")
    p.set_defaults(func=run)


def _print(obj):
    print(json.dumps(obj))


def _read_log(path):
    from ..position import read_json

    return read_json(path, "game log")


def _write(path, log):
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(log, fh, indent=1)
        fh.write("\n")
    os.replace(tmp, path)


def _action(text):
    from ..errors import InputError
    from ..position import read_json

    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            return json.loads(stripped)
        except json.JSONDecodeError as e:
            raise InputError(f"malformed JSON at column {e.colno}: {e.msg}", "action") from None
    return read_json(text, "action")


def run(args):
    from ..errors import InputError
    from ..game.errors import Refusal
    from ..game.game import Game

    verb = getattr(args, "verb", None)
    if verb is None:
        raise InputError("play needs a verb: new, actions, act, position or serve")
    if verb == "serve":
        from ..game.serve import serve

        return serve()
    if verb == "new":
        players = [x.strip() for x in args.players.split(",")]
        if not all(players) or len(set(players)) != len(players):
            raise InputError("--players needs distinct, non-empty names separated by commas")
        config = _read_log(args.config) if args.config else None
        game = Game(args.title, players, args.seed, args.variant, config)
        if args.out:
            _write(args.out, game.log())
        _print(game.to_json())
        return 0
    log = _read_log(args.log)
    game = Game.replay(log, where=args.log)
    if verb == "actions":
        _print({"active": game.active(), "actions": game.actions()})
        return 0
    if verb == "position":
        _print(game.position(args.corporation))
        return 0
    # act
    action = _action(args.action)
    index = len(game.entries)
    try:
        game.act(action)
    except Refusal as r:
        _print({"index": index, "rule": r.rule, "message": r.message})
        return 1
    _write(args.out or args.log, game.log())
    _print(game.to_json())
    return 0

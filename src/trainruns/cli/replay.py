"""``trainruns replay LOG [--upto K]``: the state after the whole log or its first K
actions (docs/game-log.md)."""

import json

from trainruns.cli import whole


def register(sub):
    p = sub.add_parser("replay", help="replay a game log and print the state")
    p.add_argument("log")
    p.add_argument("--upto", type=whole, metavar="K", help="replay only the first K actions")
    p.add_argument("--json", action="store_true", help="JSON output (the default)")
    p.set_defaults(func=run)


def run(args):
    from trainruns.errors import InputError
    from trainruns.game.game import Game
    from trainruns.position.reader import read_json

    if args.upto is not None and args.upto < 0:
        raise InputError(f"--upto must be at least 0, not {args.upto}")
    game = Game.replay(read_json(args.log, "game log"), upto=args.upto, where=args.log)
    print(json.dumps(game.to_json()))
    return 0

"""``trainruns whatif POSITION --tiles|--tokens|--trains``: what each move is worth.

Ranks every legal move of one kind for the operating company by the proven best run of
the position after it (see :mod:`trainruns.services.whatif` for the legality rules), and prints
the top ``--top N`` with revenue and gain over the current best; ``--json`` prints them
all as JSON. A progress bar runs on stderr when it is a terminal.
"""

import json

from trainruns.cli import add_time_limit, whole
from trainruns.cli.progressbar import ProgressBar
from trainruns.cli.solve import compile_notice
from trainruns.errors import InputError


def register(sub):
    p = sub.add_parser("whatif", help="rank every legal tile lay, token or train by the best run it allows")
    p.add_argument("position", help="position file (JSON)")
    kind = p.add_mutually_exclusive_group(required=True)
    kind.add_argument("--tiles", action="store_true", help="every legal tile lay or upgrade")
    kind.add_argument("--tokens", action="store_true", help="every legal token placement")
    kind.add_argument("--trains", action="store_true", help="each train the company could buy next")
    p.add_argument("--train", action="append", metavar="NAME",
                   help="with --trains: a candidate train (repeat; needed for a custom map)")
    p.add_argument("--top", type=whole, default=10, metavar="N", help="moves to print (default 10)")
    add_time_limit(p, "bound each variant's search")
    p.add_argument("--json", action="store_true", help="print the ranking as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    p.set_defaults(func=run)


class _Bar:
    """Adapts :class:`ProgressBar` to the ranking's start/advance calls."""

    def __init__(self, label):
        self.label, self.bar = label, None

    def start(self, total):
        self.bar = ProgressBar(total, self.label)

    def advance(self):
        self.bar.advance()

    def close(self):
        if self.bar:
            self.bar.close()


def run(args):
    # imported here, not at the top: the rankings' reach may need networkx, and
    # building the parser (`trainruns --help`) must stay light
    from trainruns.services.whatif import _as_dict, rank_tiles_full, rank_tokens_full, rank_trains_full

    if args.top < 1:
        raise InputError(f"--top must be at least 1, not {args.top}")
    if args.train and not args.trains:
        raise InputError("--train names candidates for --trains only")
    data = _as_dict(args.position)
    compile_notice(args.quiet or args.json)
    bar = None if args.quiet else _Bar("whatif")
    if args.tiles:
        ranking = rank_tiles_full(data, args.time_limit, bar)
    elif args.tokens:
        ranking = rank_tokens_full(data, args.time_limit, bar)
    else:
        ranking = rank_trains_full(data, args.train, args.time_limit, bar)
    if bar:
        bar.close()
    if args.json:
        print(json.dumps(ranking.to_json()))
    else:
        print(format_ranking(data, ranking, args.top))
    return 0


def format_ranking(data, ranking, top):
    what = {"tile": "tile lays", "token": "token placements", "train": "train purchases"}[ranking.kind]
    head = f"{data.get('corporation')}: best run now {ranking.base.revenue}"
    if not ranking.base.optimal:
        head += f" (not proven; bound {ranking.base.bound})"
    lines = [head, f"{ranking.considered} legal {what}, solved in {ranking.seconds:.2f} s"]
    if not ranking.reach_complete:
        lines.append("  (the company's reach was not traced to the end: some legal moves may be missing)")
    if not ranking.moves:
        lines.append("  (no legal move)")
    for i, m in enumerate(ranking.moves[:top], 1):
        proven = "" if m.optimal else "  (not proven)"
        lines.append(f"  {i:>3}. {m.revenue:>5}  {m.gain:>+5}  {m.label()}{proven}")
    if len(ranking.moves) > top:
        lines.append(f"  ... {len(ranking.moves) - top} more (--top N, or --json for all)")
    return "\n".join(lines)

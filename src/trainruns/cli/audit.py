"""``trainruns audit POSITION DECLARED``: is a declared run legal, and what is the best?

Prints every problem (train, rule id, sentence), what the declaration earns by the
rules, the proven best run and the difference; ``--json`` prints the verdict of docs/position-format.md
(``legal``, ``declared_revenue``, ``best_revenue``, ``problems``) with ``difference``,
``routes`` and ``best`` (solve's JSON) added. Exit 1 when the declaration is illegal,
0 when legal (also when a better run exists), 2 on bad input.
"""

import json

from trainruns.cli import add_memory, add_time_limit
from trainruns.cli.solve import format_run, stop_name


def register(sub):
    p = sub.add_parser("audit", help="check a declared run: legal or not, every reason, and the best run")
    p.add_argument("position", help="position file (JSON)")
    p.add_argument("declared", help='declared routes (JSON): {"routes": [{"train": "3", "stops": ["B2.0", ...]}]}')
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    add_time_limit(p, "bound the search for the best run (it may then be unproven)")
    add_memory(p)
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run)


def run(args):
    from trainruns.cli.progress import TerminalProgress
    from trainruns.services.audit import audit, read_declaration
    from trainruns.titles.load import load_position

    board = load_position(args.position)

    read_declaration(args.declared)  # bad input fails before the (possibly long) search
    progress = None if args.quiet or args.json else TerminalProgress()
    from trainruns.route.limits import Limits
    from trainruns.route.search import solve

    limits = Limits(args.time_limit, args.memory, start=getattr(args, "started", None))
    best = solve(board, progress=progress, limits=limits)
    if progress:
        progress.close()
    result = audit(board, args.declared, best=best)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(format_audit(result))
    return 0 if result.legal else 1


def format_audit(result):
    """The verdict for a player: the declared routes with their values, the problems,
    then the best run and the difference."""
    board = result.board
    lines = [f"Declared run of {board.corporation}" + (f" in phase {board.phase}" if board.phase else "")]
    width = max([len(r.train) for r in result.routes] + [5])
    for r in result.routes:
        valued = iter(zip(r.values, r.counted))  # values and counted skip unknown stops
        parts = []
        for label, ref in zip(r.labels, r.refs):
            if ref is None:
                parts.append(f"{label} (no such stop)")
                continue
            v, c = next(valued)
            parts.append(f"{stop_name(board, ref)} ({v})" if c else f"{stop_name(board, ref)} (not counted)")
        extra = "".join(f" + {name} {amount}" for name, amount in r.bonuses)
        lines.append(f"  {r.train:<{width}}  {r.revenue:>5}  " + " - ".join(parts) + extra)
    lines.append(f"  {'total':<{width}}  {result.declared_revenue:>5}")
    if result.problems:
        lines.append("Problems:")
        for p in result.problems:
            lines.append(f"  {p.train}: [{p.rule}] {p.message}")
    lines.append("Best run:")
    lines.extend("  " + line for line in format_run(board, result.best).splitlines()[1:])
    lines.append(result.verdict()[0].upper() + result.verdict()[1:] + ".")
    return "\n".join(lines)

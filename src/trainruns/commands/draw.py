"""``trainruns draw POSITION --out FILE``: a picture of the board and a run (.svg, .png, .pdf).

``--routes best`` (the default) draws the proven best run; ``--routes none`` the board
alone; ``--routes DECLARED.json`` a declared run, with the audit's findings marked (an
illegal route dashed, its problems in the audit's words under the map). The exit status
is 0 whenever the picture is drawn, legal or not; ``trainruns audit`` gives the verdict.
"""

import os

from ..draw import FORMATS, save
from ..errors import InputError
from ..position import load_position, read_json
from ..result import Run


def register(sub):
    p = sub.add_parser("draw", help="draw the board with the best (or a declared) run")
    p.add_argument("position", help="position file (JSON)")
    p.add_argument("--out", required=True, metavar="FILE",
                   help="picture to write: " + ", ".join(FORMATS))
    p.add_argument("--routes", default="best", metavar="best|none|DECLARED",
                   help="'best' (default): the proven best run; 'none': the board alone; "
                        "or a declared-routes JSON file")
    p.add_argument("--time-limit", type=float, metavar="SECONDS",
                   help="bound the search for the best run")
    p.add_argument("--title", help="heading over the map (default: corporation and phase)")
    p.set_defaults(func=run)


def run(args):
    ext = os.path.splitext(args.out)[1].lower()
    if ext not in FORMATS:
        # Checked first: a typo in --out should not cost a solve.
        raise InputError(f"cannot draw to a '{ext or 'extension-less'}' file; use "
                         + ", ".join(FORMATS), f"--out {args.out}")
    if args.time_limit is not None and not args.time_limit > 0:
        raise InputError(f"--time-limit must be a positive number of seconds, not {args.time_limit}")
    board = load_position(args.position)
    options = {"title": args.title}
    if args.routes == "none":
        result = None
    elif args.routes == "best":
        from ..search import solve

        result = solve(board, time_limit=args.time_limit)
    else:
        result, extra = declared(board, args.routes)
        options.update(extra)
    save(board, result, args.out, **options)
    print(args.out)
    return 0


def declared(board, routes_path):
    """The declared run to draw, and the drawing options that carry the audit's verdict.

    The audit (:mod:`trainruns.audit`) picks the track of each legal route; a route it
    finds no legal track for is drawn along the shortest track joining its stops (or, if
    there is none, straight dashed lines), and its problems are listed under the map.
    """
    from ..audit import audit
    from ..declared import find_track

    data = read_json(routes_path, "declared routes")
    verdict = audit(board, data)
    routes, used = [], set()
    for declared_route in verdict.routes:
        route = declared_route.as_route()
        if not route.track and len(route.stops) > 1:
            route.track = find_track(board, route.stops, used) or []
        used.update(route.track)
        routes.append(route)
    result = Run(routes=routes, revenue=verdict.declared_revenue, optimal=False,
                 bound=verdict.declared_revenue, engine="declared")
    caption = "declared, legal" if verdict.legal else "declared, NOT legal"
    caption += f"; best is {verdict.best_revenue}"
    problems = [p.to_json() for p in verdict.problems]
    return result, {"caption": caption, "problems": problems}

"""``trainruns draw POSITION --out FILE``: a picture of the board and a run (.svg, .png, .pdf).

``--routes best`` (the default) draws the proven best run; ``--routes none`` the board
alone; ``--focus C7,D6`` zooms onto those hexes; ``--routes DECLARED.json`` a declared run, with the audit's findings marked (an
illegal route dashed, its problems in the audit's words under the map). The exit status
is 0 whenever the picture is drawn, legal or not; ``trainruns audit`` gives the verdict.
"""

import os

from trainruns.cli import add_time_limit
from trainruns.errors import InputError

# what --help lists; the drawing module (matplotlib, imported only to draw) is the
# authority on the formats, and a test keeps the two the same
FORMATS_HELP = (".svg", ".png", ".pdf")


def register(sub):
    p = sub.add_parser("draw", help="draw the board with the best (or a declared) run")
    p.add_argument("position", help="position file (JSON)")
    p.add_argument("--out", required=True, metavar="FILE",
                   help="picture to write: " + ", ".join(FORMATS_HELP))
    p.add_argument("--routes", default="best", metavar="best|none|DECLARED",
                   help="'best' (default): the proven best run; 'none': the board alone; "
                        "or a declared-routes JSON file")
    add_time_limit(p, "bound the search for the best run")
    p.add_argument("--title", help="heading over the map (default: corporation and phase)")
    p.add_argument("--focus", metavar="HEXES",
                   help="zoom onto these hexes, comma-separated (e.g. G20,G22,H21)")
    p.set_defaults(func=run)


def run(args):
    from trainruns.services.draw import FORMATS, extent, save
    from trainruns.titles.load import load_position

    ext = os.path.splitext(args.out)[1].lower()
    if ext not in FORMATS:
        # Checked first: a typo in --out should not cost a solve.
        raise InputError(f"cannot draw to a '{ext or 'extension-less'}' file; use "
                         + ", ".join(FORMATS), f"--out {args.out}")
    board = load_position(args.position)
    options = {"title": args.title}
    if args.focus is not None:
        options["focus"] = [h.strip() for h in args.focus.split(",") if h.strip()]
        if not options["focus"]:
            raise InputError("--focus needs hex ids, comma-separated", f"--focus {args.focus}")
    extent(board, options.get("focus"))  # too large a picture is refused before any solve
    if args.routes == "none":
        result = None
    elif args.routes == "best":
        from trainruns.route.search import solve

        result = solve(board, time_limit=args.time_limit)
    else:
        result, extra = declared(board, args.routes)
        options.update(extra)
    save(board, result, args.out, **options)
    print(args.out)
    return 0


def declared(board, routes_path):
    """The declared run to draw, and the drawing options that carry the audit's verdict
    (an illegal route dashed, the problems in the audit's words under the map)."""
    from trainruns.position.reader import read_json
    from trainruns.services.declared import audited_run, caption_for

    result, verdict = audited_run(board, read_json(routes_path, "declared routes"))
    return result, {"caption": caption_for(verdict),
                    "problems": [p.to_json() for p in verdict.problems]}

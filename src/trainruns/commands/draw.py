"""``trainruns draw POSITION --out FILE``: a picture of the board and a run (.svg, .png, .pdf).

``--routes best`` (the default) draws the proven best run; ``--routes none`` the board
alone; ``--routes DECLARED.json`` a declared run, with the audit's findings marked when
the audit module is available.
"""

import importlib
import os

from ..draw import FORMATS, save
from ..errors import InputError
from ..position import load_position, read_json


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
        result, extra = declared(board, args.position, args.routes)
        options.update(extra)
    save(board, result, args.out, **options)
    print(args.out)
    return 0


def declared(board, position_path, routes_path):
    """The declared run to draw and the drawing options that say what is wrong with it."""
    from ..declared import declared_run

    data = read_json(routes_path, "declared routes")
    result = declared_run(board, data, where=routes_path)
    verdict = _audit(board, data)
    if verdict is None:
        return result, {"caption": "declared; track drawn is the shortest that joins the stops"}
    problems = list(verdict.get("problems", []))
    if "declared_revenue" in verdict:
        result.revenue = verdict["declared_revenue"]
    caption = "declared, legal" if verdict.get("legal") else "declared, NOT legal"
    if "best_revenue" in verdict:
        caption += f"; best is {verdict['best_revenue']}"
    return result, {"caption": caption, "problems": problems}


def _audit(board, data):
    """The audit's verdict as CONTRACT.md's JSON dict, or None while there is no audit.

    The audit module is written separately; this asks it only for what the contract
    fixes (``legal``, ``declared_revenue``, ``best_revenue``, ``problems``).
    """
    try:
        module = importlib.import_module("trainruns.audit")
    except ModuleNotFoundError as e:
        if e.name in ("trainruns.audit",):
            return None
        raise
    fn = getattr(module, "audit", None)
    if fn is None:
        return None
    verdict = fn(board, data)
    if hasattr(verdict, "to_json"):
        verdict = verdict.to_json()
    return verdict if isinstance(verdict, dict) else None

"""The 1831 game's config: every number the rulebook lacks (DIGEST 4.6; decision 3).

The rulebook gives the procedure but not the market grid (C and P prices), the par
chart, the train prices and later counts, most of the company table (1.9) or the map and
tiles (Appendix A). A config supplies them (format: docs/game-1831.md); a game started
without one uses the shipped ``data/config.json``, which is INVENTED (it says so) and
exists for tests and examples.

A config is checked on load: first its shape with the JSON Schema
``trainruns/schema/game-1831-config.json`` (the ``jsonschema`` library, so the format is
written down once and checked the same way everywhere), then the facts a schema cannot
say (the par column holds every par value, homes are cities of the map, tiles' track is
well formed). A wrong or missing value is one line naming where (InputError, exit 2).
"""

from __future__ import annotations

import json
from pathlib import Path

from ...errors import InputError
from ...position import parse_paths
from ..tiled import load_data

PACKAGE = "trainruns.titles.g1831"


def _schema() -> dict:
    # trainruns/schema/ is package data beside the position schemas (not imported as a
    # package here, so this module does not depend on the schema package's code)
    path = Path(__file__).resolve().parents[2] / "schema" / "game-1831-config.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _where(err) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path)
    return f"config{path}"


def check_schema(data, where="config"):
    """The config's shape (JSON Schema draft 2020-12): the first error as one line."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(_schema())
    e = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if e is not None:
        # best_match descends into oneOf/anyOf to the error deepest in the data
        while e.context:
            e = max(e.context, key=lambda x: len(list(x.absolute_path)))
        raise InputError(e.message if len(e.message) < 200 else e.message[:200] + "...", _where(e))


def _file(ref, shipped: bool, what: str):
    """A map or tiles part: inline, a shipped data file, or a file path (relative to
    the working directory)."""
    if isinstance(ref, dict):
        return ref
    if shipped:
        return load_data(PACKAGE, ref)
    p = Path(ref)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise InputError(f"cannot read the {what} file {ref!r}: {e.strerror}", f"config.{what}") from None
    except json.JSONDecodeError as e:
        raise InputError(f"the {what} file {ref!r} is not JSON: {e.msg} (line {e.lineno})", f"config.{what}") from None


class Config:
    """The checked config: ``market``, ``par_chart``, ``trains``, ``companies``, ``map``,
    ``tiles`` and whether it is the shipped, invented one."""

    def __init__(self, data=None):
        self.shipped = data is None
        if data is None:
            data = load_data(PACKAGE, "config.json")
        if not isinstance(data, dict):
            raise InputError("the 1831 config must be a JSON object (docs/game-1831.md)", "config")
        check_schema(data)
        self.raw = data
        self.invented = bool(data.get("invented"))
        self.market = data["market"]
        self.par_chart = sorted(data["par_chart"])
        self.unselectable = set(data.get("par_unselectable", []))
        self.trains = sorted(data["trains"], key=lambda t: t["size"])
        self.companies = data["companies"]
        self.map = _file(data["map"], self.shipped, "map")
        self.tiles = _file(data["tiles"], self.shipped, "tiles")
        check_schema(dict(data, map=self.map, tiles=self.tiles))
        self._check()

    def _check(self):
        rows, col = self.market["rows"], self.market["par_column"]
        par_ps = set()
        for r, row in enumerate(rows):
            if col < len(row) and row[col] is not None:
                par_ps.add(row[col]["p"])
        for v in self.par_chart:
            if v not in self.unselectable and v not in par_ps:
                raise InputError(f"par value {v} has no square in the PAR column {col} whose P price is {v} "
                                 "(4.7.5)", "config.market")
        if not any(sq and sq.get("area") == "target" for row in rows for sq in row) and any(
                sq and sq.get("area") == "split" for row in rows for sq in row):
            raise InputError("a market with STOCK SPLIT squares needs a SPLIT TARGET square (4.3.4)",
                             "config.market.rows")
        sizes = [t["size"] for t in self.trains]
        if len(set(sizes)) != len(sizes):
            raise InputError("each train size is listed once", "config.trains")
        hexes = {h["id"]: h for h in self.map["hexes"]}
        ids = set()
        for i, c in enumerate(self.companies):
            w = f"config.companies[{i}]"
            if c["id"] in ids:
                raise InputError(f"company {c['id']} is listed twice", w)
            ids.add(c["id"])
            h = hexes.get(c["home"])
            if h is None or not h.get("stops"):
                raise InputError(f"home {c['home']} of {c['id']} is not a city of the map", w)
        for name, t in self.tiles["tiles"].items():
            w = f"config.tiles.tiles.{name}"
            try:
                parse_paths(t["paths"], len(t.get("stops", [])), 0, w, 0)
            except InputError as e:
                raise InputError(str(e).split(": ", 1)[-1] if ": " in str(e) else str(e), w) from None
            if t.get("stops") and "city" not in t:
                raise InputError("a city tile says its city size: \"city\": \"small\" or \"large\" (5.2.3.12)", w)

    def train_counts(self, n_players: int) -> list[dict]:
        """The bank's trains for ``n`` players (3.3): ``{"size", "type", "left", "price"}``
        rows, smallest size first."""
        out = []
        for t in self.trains:
            for kind in ("S", "MX", "YD"):
                k = t["counts"][str(n_players)][kind]
                if k:
                    out.append({"train": f"{t['size']}{kind}", "size": t["size"], "type": kind, "left": k,
                                "price": t["price"]})
        return out

    def price(self, size: int) -> int:
        return next(t["price"] for t in self.trains if t["size"] == size)

"""The 1831 game's config: every number the rulebook lacks (docs/gaps.md).

The rulebook gives the procedure but not the market grid (C and P prices), the par
chart, the train prices and later counts, most of the company table (1.9) or the map and
tiles (Appendix A). A config supplies them (format: docs/game-1831.md); a game started
without one uses the shipped ``data/config.json``, which is INVENTED (it says so) and
exists for tests and examples.

A config is checked on load: first its shape with the JSON Schema
``trainruns/position/schema/game-1831-config.json`` (the ``jsonschema`` library, so the format is
written down once and checked the same way everywhere), then the facts a schema cannot
say (rows rise, the par column holds every par value, every phase's train is listed,
homes are cities of the map, the map reads in the route core, tiles' track is well
formed and their sites keep the map's, 5.2.3.12; the schema says that a city and a city
tile give their size and their sites, and a city extension is red). A wrong, missing or unknown value is
one line naming where (InputError, exit 2); the readings are in docs/gaps.md.
"""

from __future__ import annotations

from trainruns.errors import InputError
from trainruns.game.config_file import load_config
from trainruns.game.train import DepotRow, Trains
from trainruns.position.reader import parse_paths
from trainruns.route.hexgrid import neighbour, parse_hex_id
from trainruns.titles.g1831.route.board_map import COLORS, POSITION_HEX_KEYS

PACKAGE = "trainruns.titles.g1831"


def _printed(map_data: dict) -> dict:
    """The printed map as a route-core map (the keys the game's position carries)."""
    out = {k: v for k, v in map_data.items() if k in ("layout", "axes", "commuter_runs")}
    out["hexes"] = [{k: v for k, v in h.items() if k in POSITION_HEX_KEYS} for h in map_data["hexes"]]
    return out


def _fits(tile: dict, hex_: dict) -> bool:
    """Whether a city tile may be laid on a hex: same city size (5.2.3.12), same name
    label (5.2.3.11), and its ``only_on`` hexes (5.2.6.9)."""
    if not hex_.get("stops") or "part_of" in hex_ or hex_.get("terrain") in ("gray", "red"):
        return False
    if tile.get("city") != hex_.get("city") or tile.get("label") != hex_.get("label"):
        return False
    return not tile.get("only_on") or hex_["id"] in tile["only_on"]


class Config:
    """The checked config: ``market``, ``par_chart``, ``trains``, ``companies``, ``map``,
    ``tiles`` and whether it is the shipped, invented one."""

    def __init__(self, data=None):
        data, parts, self.shipped = load_config(data, "1831", PACKAGE, "config.json", "game-1831-config.json",
                                                ("map", "tiles"))
        self.raw = data
        # the config as a log keeps it: the map and tiles read in, so the log replays
        # from any directory and on any machine (a log is the whole game)
        self.logged = None if self.shipped else dict(data, **parts)
        self.invented = bool(data.get("invented"))
        self.market = data["market"]
        self.par_chart = sorted(data["par_chart"])
        self.unselectable = set(data.get("par_unselectable", []))
        self.trains = sorted(data["trains"], key=lambda t: t["size"])
        self.companies = data["companies"]
        self.map = parts.get("map", data["map"])
        self.tiles = parts.get("tiles", data["tiles"])
        self._check()

    def _check(self):
        """The facts a schema cannot say (each a rule, or a reading listed in docs/gaps.md)."""
        self._check_market()
        self._check_trains()
        self._check_map()
        self._check_tiles()
        hexes = {h["id"]: h for h in self.map["hexes"]}
        ids = set()
        for i, c in enumerate(self.companies):
            w = f"config.companies[{i}]"
            if c["id"] in ids:
                raise InputError(f"company {c['id']} is listed twice", w)
            ids.add(c["id"])
            h = hexes.get(c["home"])
            if h is None or not h.get("stops") or "part_of" in h:
                raise InputError(f"home {c['home']} of {c['id']} is not a city of the map", f"{w}.home")

    def _check_market(self):
        """4.3-4.4: the Stock Marker moves right to a higher price and up to a higher one
        (5.8.1, 4.7.10), so each row's P prices rise left to right and its C prices
        do not fall (closed-out squares aside; reading, docs/gaps.md); every selectable par value has a PAR column square
        with that P price (4.7.5); split squares need a target (4.3.4)."""
        rows, col = self.market["rows"], self.market["par_column"]
        for r, row in enumerate(rows):
            last = None
            for k, sq in enumerate(row):
                if sq is None or sq.get("area") == "closed":
                    continue
                if last is not None and not (sq["c"] >= last[1]["c"] and sq["p"] > last[1]["p"]):
                    raise InputError(f"square {k} (C {sq['c']}, P {sq['p']}) is not above square {last[0]} "
                                     f"(C {last[1]['c']}, P {last[1]['p']}) to its left: a row's P prices rise "
                                     "left to right and its C prices do not fall (4.3, 5.8.1)", f"config.market.rows[{r}][{k}]")
                last = (k, sq)
        if not any(col < len(row) and row[col] is not None and row[col].get("area") != "closed" for row in rows):
            raise InputError(f"the PAR column {col} has no square (4.3.1)", "config.market.par_column")
        par_ps = {row[col]["p"] for row in rows if col < len(row) and row[col] is not None}
        for v in self.unselectable:
            if v not in self.par_chart:
                raise InputError(f"par value {v} is not on the par chart", "config.par_unselectable")
        for v in self.par_chart:
            if v not in self.unselectable and v not in par_ps:
                raise InputError(f"par value {v} has no square in the PAR column {col} whose P price is {v} "
                                 "(4.7.5)", "config.par_chart")
        for r, row in enumerate(rows):
            sq = row[col] if col < len(row) else None
            if sq and sq["p"] in self.par_chart and sq["p"] not in self.unselectable and sq.get("area") in (
                    "closed", "split"):
                raise InputError(f"par value {sq['p']} starts its Stock Marker on a {sq['area']} square, which "
                                 "would close it out or split it at once (4.3.2, 4.3.4)",
                                 f"config.market.rows[{r}][{col}]")
        if len([v for v in self.par_chart if v not in self.unselectable]) < 1:
            raise InputError("the par chart has no value a president may choose (4.7.5)", "config.par_chart")
        areas = [sq.get("area") for row in rows for sq in row if sq]
        if "split" in areas and "target" not in areas:
            raise InputError("a market with STOCK SPLIT squares needs a SPLIT TARGET square (4.3.4)",
                             "config.market.rows")
        if areas.count("target") > 1:
            raise InputError("the market has more than one SPLIT TARGET square (4.3.4: \"the area marked "
                             "SPLIT TARGET\")", "config.market.rows")

    def _check_trains(self):
        """5.3.5: the phases start with the first train of each size it names, so every
        such size is listed; 5.3.8: the bank sells the lowest size first, so the first
        size (2) has at least one train for every player count (reading, docs/gaps.md)."""
        sizes = [t["size"] for t in self.trains]
        if len(set(sizes)) != len(sizes):
            raise InputError("each train size is listed once", "config.trains")
        from trainruns.titles.g1831.route.trains import phase_table

        for p in phase_table():
            if int(p["on"]) not in sizes:
                raise InputError(f"no {p['on']}-train: the rulebook's phase {p['name']} starts with the first "
                                 f"{p['on']}-train (5.3.5)", "config.trains")
        first = min(self.trains, key=lambda t: t["size"])
        i = self.raw["trains"].index(first)
        for n, kinds in first["counts"].items():
            if not sum(kinds.values()):
                raise InputError(f"no {first['size']}-train for {n} players: the game starts by buying them "
                                 "(5.3.5, 5.3.8)", f"config.trains[{i}].counts.{n}")

    def _check_map(self):
        """The map as the route core reads it (docs/rules-1831.md): every hex on the grid
        of its layout, red extensions, double track, typed sites, commuter runs; and a
        ``part_of`` hex is red (5.2.3.10)."""
        from trainruns.titles.g1831.route.mapformat import read_map

        try:
            read_map({"title": "1831", "phase": "2", "corporation": self.companies[0]["id"],
                      "map": _printed(self.map)}, "config")
        except InputError as e:
            # the route core names "config: map.hexes[i] (ID)..." or, for the grid as a
            # whole, "config"
            where = (e.where or "config").replace("config: map", "config.map", 1)
            where = "config.map.hexes" if where == "config" else where
            raise InputError(e.what, where) from None
        for i, h in enumerate(self.map["hexes"]):
            w = f"config.map.hexes[{i}]"
            if h.get("stops") and "part_of" not in h and h["terrain"] not in ("gray", "red"):
                if "city" not in h:
                    raise InputError(f"{h['id']} is a city: say its size, \"city\": \"small\" or \"large\" "
                                     "(5.2.3.9, 5.2.3.12)", w)
                n = len(h["stops"][0].get("slot_types", []))
                if n != {"small": 2, "large": 3}[h["city"]]:
                    raise InputError(f"{h['id']} is a {h['city']} city with {n} site(s): a small city has two "
                                     "Stations or Rail Yards, a large one three, black ones counted (5.2.3.9)",
                                     f"{w}.stops[0].slot_types")

    def _check_tiles(self):
        """The manifest: each tile's track well formed, ``only_on`` hexes on the map, and
        5.2.3.12: a city tile's sites keep the types of the sites of every city it can be
        laid on, site by site (a black site may become a Station or a Rail Yard, 5.2.7.2),
        so tokens stay on their sites through every upgrade."""
        from trainruns.titles.g1831.route.mapformat import PAST_A_CITY, track_past_city

        hexes = {h["id"]: h for h in self.map["hexes"]}
        for name, t in self.tiles["tiles"].items():
            w = f"config.tiles.tiles.{name}"
            try:
                paths = parse_paths(t["paths"], len(t.get("stops", [])), 0, w, 0)
            except InputError as e:
                raise InputError(e.what, e.where or w) from None
            past = track_past_city(paths) if t.get("stops") else None
            if past:
                raise InputError(f"the tile's track from side {past[0][1]} to side {past[1][1]} {PAST_A_CITY}",
                                 f"{w}.paths")
            for k, p in enumerate(t.get("double_track", [])):
                if not any(q == p or q == p[::-1] for q in t["paths"]):
                    raise InputError(f"double track {p} is not one of the tile's paths", f"{w}.double_track[{k}]")
            for k, h in enumerate(t.get("only_on", [])):
                if h not in hexes:
                    raise InputError(f"hex {h} is not on the map", f"{w}.only_on[{k}]")
            if "connects" in t:
                if not t.get("only_on"):
                    raise InputError("a tile that connects two hexes is laid only between them: give its "
                                     "\"only_on\" hexes (5.2.6.9)", f"{w}.connects")
                for h in t["only_on"]:
                    x, y = parse_hex_id(h, self.map.get("axes"))
                    near = {neighbour(x, y, e, self.map["layout"]) for e in range(6)}
                    for k, c in enumerate(t["connects"]):
                        if c not in hexes or parse_hex_id(c, self.map.get("axes")) not in near:
                            raise InputError(f"{c} is not a hex next to {h}, where the tile goes (5.2.6.9)",
                                             f"{w}.connects[{k}]")
            if not t.get("stops"):
                continue
            sites = t["stops"][0].get("slot_types", [])
            for hid, h in hexes.items():
                if not _fits(t, h):
                    continue
                printed = (h["stops"][0].get("slot_types") or []) if h.get("stops") else []
                if len(sites) < len(printed) or any(p != "black" and p != s for p, s in zip(printed, sites)):
                    raise InputError(f"its sites {sites} do not keep {hid}'s printed sites {printed} site by site "
                                     "(5.2.3.12: the token types on the tile match the map; list them in the "
                                     "same order)", f"{w}.stops[0].slot_types")
        by_hex = {}
        for name, t in self.tiles["tiles"].items():
            if t.get("stops"):
                for hid, h in hexes.items():
                    if _fits(t, h):
                        by_hex.setdefault(hid, []).append((name, t))
        for hid, tiles in by_hex.items():
            for name, t in tiles:
                nxt = COLORS[COLORS.index(t["color"]) + 1] if t["color"] != COLORS[-1] else None
                for name2, t2 in tiles:
                    if t2["color"] != nxt:
                        continue
                    a, b = t["stops"][0]["slot_types"], t2["stops"][0]["slot_types"]
                    if len(b) < len(a) or any(x != "black" and x != y for x, y in zip(a, b)):
                        raise InputError(f"its sites {b} do not keep the sites {a} of tile {name}, which it "
                                         f"upgrades on {hid}, site by site (5.2.6.5: tokens stay on the new tile)",
                                         f"config.tiles.tiles.{name2}.stops[0].slot_types")

    def train_counts(self, n_players: int) -> list[DepotRow]:
        """The bank's trains for ``n`` players (3.3): a row for each size and type S, MX
        and YD it has, smallest size first."""
        out = []
        for t in self.trains:
            for kind in ("S", "MX", "YD"):
                k = t["counts"][str(n_players)][kind]
                if k:
                    out.append(DepotRow(f"{t['size']}{kind}", k, t["price"], size=t["size"]))
        return out

    def price(self, size: int) -> int:
        return next(t["price"] for t in self.trains if t["size"] == size)

    def train_cards(self) -> Trains:
        """The game's trains as the engine keeps them: each size a card (its name the
        size, which 5.3.5's phases are named by) bought as one of its types S, MX and YD
        (3.3, data/trains.json's variants), at the config's price."""
        return Trains([{"name": str(t["size"]), "distance": t["size"], "price": t["price"],
                        "variants": [{"name": f"{t['size']}{k}", "distance": t["size"], "price": t["price"]}
                                     for k in ("S", "MX", "YD")]} for t in self.trains])

"""1832: The South (1832 rulebook), complete for running trains.

Layout of this package, so that a game-state machine can move in later beside it:

- ``data/``: the title's facts as JSON (map, tiles, manifest and upgrade chart, trains,
  phases, companies), written by tools/convert_1832.py from the reference and rulebook;
- ``__init__.py`` (this file): reads a position into a core Board: the tiled map
  (titles/tiled.py), the phase, the running corporation, its trains and the tokens;
- ``rules.py``: the route-rule hooks of "Operate Trains" and "Miami";
- ``moves.py``: what a company may do next (home spots, train purchases) for whatif;
- later: ``state.py`` / ``rounds.py`` for stock and operating rounds (tile lays with
  terrain costs, token purchases, train buying and rusting, mergers). They should reuse
  ``FACTS`` and produce positions in the same format rather than Boards directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainruns.errors import InputError
from trainruns.position.reader import over_limit, parse_phase, place_tokens, read_bool
from trainruns.route.board import Board, Train
from trainruns.titles.g1832.route import hooks as rules
from trainruns.titles.g1832.route import moves
from trainruns.titles.tiled import TiledTitle, load_data, read_tiled

PACKAGE = __name__


class Facts:
    """The 1832 data files, read once."""

    def __init__(self):
        self.tiled = read_tiled(PACKAGE)
        base = self.tiled.base
        self.coal_fields, self.miami, self.atlanta = base["coal_fields"], base["miami"], base["atlanta"]
        self.port_hexes = base["port_hexes"]
        phases = load_data(PACKAGE, "phases.json")["phases"]
        self.phase_names = [p["name"] for p in phases]
        assert self.phase_names == self.tiled.phases
        self.phase_table = {p["name"]: p for p in phases}
        self.trains = {t["name"]: t for t in load_data(PACKAGE, "trains.json")["trains"]}
        # [17.2] 1830 Diesels: the trains and phases it removes, the scrapping it changes
        self.diesel_rules = load_data(PACKAGE, "game.json")["diesels"]
        companies = load_data(PACKAGE, "companies.json")
        self.corporations = {c["id"]: c for c in companies["corporations"] + companies["systems"]}
        self._ids = {}
        for c in self.corporations.values():
            for name in [c["id"], *c.get("aliases", [])]:
                self._ids[name.lower()] = c["id"]
        privates = {p["id"]: p for p in companies["privates"]}
        self.cotton_bonus = privates["P2"]["bonus_owner"]
        self.port_bonus_owner = privates["P3"]["bonus_owner"]
        self.port_bonus_other = privates["P3"]["bonus_others"]
        self.key_west_owner = next(c["id"] for c in companies["corporations"] if c.get("key_west"))
        self.key_west_bonus = 50  # [7.5] "adds $50 the value of Miami for the FEC only"

    def corporation_id(self, name, where, what="corporation"):
        """A company id of the reference (SALR) or the rulebook's abbreviation (SAL)."""
        if not isinstance(name, str) or name.lower() not in self._ids:
            known = ", ".join(sorted(self.corporations))
            raise InputError(f"unknown {what} {name!r} (1832 companies: {known}; the rulebook's "
                             "abbreviations SAL, CoG, FEC, GM&O, Sou are accepted too)", where)
        return self._ids[name.lower()]

    def phases_of(self, diesels: bool) -> list:
        """Table 1's phases; [17.2] "Phases eight and ten are deleted" with 1830 Diesels."""
        removed = self.diesel_rules["removed"] if diesels else ()
        return [p for p in self.phase_names if p not in removed]

    def rusts_on(self, name: str, diesels: bool) -> str | None:
        """The phase that scraps the ``name``-trains (Table 1); [17.2] with 1830 Diesels
        the 4-trains go with the first diesel and "5-trains are permanent"."""
        changed = self.diesel_rules["rusts_on"] if diesels else {}
        return changed[name] if name in changed else self.trains[name]["rusts_on"]

    def train(self, name, phase, where, diesels: bool = False) -> Train:
        """[10], Table 1: a train of the game that exists in ``phase`` (bought from the
        bank at the earliest in its own phase, scrapped at the phase Table 1 names, or
        [17.2] as 1830 Diesels changes it; the diesel keeps the 12-train's card)."""
        if isinstance(name, int) and not isinstance(name, bool):
            name = str(name)
        if name not in self.trains:
            hint = (" (with 1830 Diesels the diesel is the 12-train, [17.2])"
                    if str(name).upper() in ("D", "DIESEL") else "")
            raise InputError(f"unknown train {name!r}: 1832 has {', '.join(self.trains)}-trains{hint}", where)
        if diesels and name in self.diesel_rules["removed"]:
            raise InputError(f"1830 Diesels discards the {name}-trains [17.2]", where)
        phases = self.phases_of(diesels)
        idx = phases.index(phase)
        if idx < phases.index(name):
            raise InputError(f"no {name}-train exists in phase {phase}: the first one starts phase {name}", where)
        gone = self.rusts_on(name, diesels)
        if gone and idx >= phases.index(gone):
            raise InputError(f"the {name}-trains were scrapped at the start of phase {gone}; "
                             f"it is phase {phase}", where)
        n = self.trains[name]["distance"]
        return Train(name, n, n, n)


@dataclass(frozen=True)
class Position1832:
    """An 1832 position after every check (the typed snapshot :meth:`Title1832.build`
    makes Boards of): the phase, the running company (its canonical id), its trains,
    the tiles laid (``(hex, tile, rotation)``), the station tokens (``(hex, stop,
    company)``, canonical ids) and the route rules' fields."""

    phase: str
    corporation: str
    trains: tuple
    laid: tuple
    tokens: tuple
    fields: rules.RouteFields


class Title1832(TiledTitle):
    """``build_board(position, where)`` for ``"title": "1832"``."""

    name = "1832"
    schema = "1832"
    facts_class = Facts
    # a station token only makes its city a root and unblocks it: no 1832 rule reads it
    # otherwise (what-if rankings may flip a compiled flag instead of rebuilding)
    tokens_are_plain = True

    # what the audit cites (rule id -> rulebook section) and says in 1832's words
    audit_sections = {
        "unknown-train": "1832 rulebook, Operate Trains",
        "train-declared-twice": "1832 rulebook, Operate Trains (each train runs once)",
        "no-token": "1832 rulebook, Operate Trains, Routes [8.1 a]",
        "stops-not-connected": "1832 rulebook, Operate Trains, Routes [8.1 a]",
        "passes-offboard": "1832 rulebook, Operate Trains, Routes [8.1 b]",
        "stop-not-enterable": "1832 rulebook, Operate Trains, Routes [8.1 c] and the WVCF [16.2 P5]",
        "stop-repeated": "1832 rulebook, Operate Trains, Routes [8.1 d]",
        "track-reused": "1832 rulebook, Operate Trains, Routes [8.1 e]",
        "hexes-not-followed": "1832 rulebook, Operate Trains, Routes [8.1 e]",
        "passes-blocked-city": "1832 rulebook, Operate Trains, Routes [8.1 f] and Tokens [7]",
        "track-shared": "1832 rulebook, Operate Trains, Routes (more than one train)",
        "too-few-stops": "1832 rulebook, Operate Trains, Route Length",
        "too-many-stops": "1832 rulebook, Operate Trains, Route Length",
    }
    audit_messages = {
        "stop-not-enterable": "{stop}: only a company holding a WVCF token may run to or "
                              "through the West Virginia Coal Fields, and {corporation} has none.",
    }

    def build_board(self, data: dict, where: str) -> Board:
        position, board = self._read(data, where)
        rules.apply_all(board, self.facts, position.fields)
        return board

    def read_position(self, data: dict, where: str) -> Position1832:
        return self._read(data, where)[0]

    def build(self, position: Position1832) -> Board:
        """The Board of a checked position (pure: a fresh Board each call)."""
        laid = {h: (tile, rot) for h, tile, rot in position.laid}
        board = self.board_of(laid, position.phase, position.corporation, list(position.trains), "position")
        place_tokens(board, [{"hex": h, "stop": k, "corporation": c} for h, k, c in position.tokens], "position")
        rules.apply_all(board, self.facts, position.fields)
        return board

    def read_trains(self, data: dict, where: str = "position") -> list:
        """[10] the company's trains, each existing in the phase (Table 1), at most the
        phase's train limit: nothing else of a Board reads them (the route rules of
        [6.5], [16] and [7.5] are the map's, the tokens' and the fields')."""
        f = self.facts
        phase, diesels = self._phase(data, where)
        return self._trains(data, f.corporation_id(data.get("corporation"), where), phase, where, diesels)

    def _read(self, data, where):
        """The checked position, and the Board of its map and tokens (the route rules
        not yet applied) that the checks needed."""
        f = self.facts
        phase, diesels = self._phase(data, where)
        corp = f.corporation_id(data.get("corporation"), where)
        trains = self._trains(data, corp, phase, where, diesels)
        laid = self.lay_tiles(data, phase, where)
        self.removed_tiles(data, where)
        board = self.board_of(laid, phase, corp, trains, where)
        tokens = self._tokens(data, where)
        place_tokens(board, tokens, where)
        fields = rules.read_fields(board, f, data, where)
        position = Position1832(phase, corp, tuple(trains), tuple((h, t, r) for h, (t, r) in laid.items()),
                                tuple((t["hex"], t.get("stop", 0), t["corporation"]) for t in tokens), fields)
        return position, board

    # --- moves (trainruns whatif) ------------------------------------------------------

    def removed_tiles(self, data, where) -> frozenset:
        """[17.5] The Civil War: the yellow tiles the coin removed from the supply (the
        position's ``removed_tiles``; none before the war, or without the variant)."""
        raw = data.get("removed_tiles", [])
        if not isinstance(raw, list):
            raise InputError("field 'removed_tiles' must be a list of tile names", where)
        tiles = self.facts.tiled.tiles
        for i, t in enumerate(raw):
            if tiles.get(str(t), {}).get("color") != "yellow":
                raise InputError(f"{t!r} is not a yellow tile of 1832: the Civil War removes yellow tiles "
                                 "from the supply [17.5]", f"{where}: removed_tiles[{i}]")
        return frozenset(str(t) for t in raw)

    def tile_moves(self, data, board, reached):
        """Every legal tile lay or upgrade of the shared tiled rules, less the tiles the
        Civil War removed from the supply ([17.5]: "remove all even/odd numbered yellow
        tiles")."""
        removed = self.removed_tiles(data, "position")
        return (m for m in super().tile_moves(data, board, reached) if str(m["tile"]) not in removed)

    def token_refusal(self, data, board, ref):
        return moves.home_refusal(self.facts, data, board, ref)

    def moved_stops(self, data, hex_id, mapping):
        return moves.moved_cotton(data, hex_id, mapping)

    def train_purchases(self, data):
        return moves.train_purchases(self.facts, data)

    def _phase(self, data, where) -> tuple[str, bool]:
        """The phase, of Table 1's or, in a game with the 1830 Diesels variant
        (``diesels``, [17.2]), of its phases; and whether it is such a game."""
        diesels = read_bool(data, "diesels", where)
        return parse_phase(data, self.facts.phases_of(diesels), where), diesels

    def _trains(self, data, corp, phase, where, diesels):
        raw = data.get("trains", [])
        if not isinstance(raw, list):
            raise InputError("field 'trains' must be a list of train names", where)
        trains = [self.facts.train(t, phase, f"{where}: trains[{i}]", diesels) for i, t in enumerate(raw)]
        # [10.2] train limit by phase (Table 1); a System has two shells, so twice as many.
        limit = self.facts.phase_table[phase]["train_limit"] * self.facts.corporations[corp].get("shells", 1)
        over_limit(data, len(trains), limit, f"{corp} has {len(trains)} trains but the limit in phase {phase} is "
                   f"{limit}", "[10.2.1]", where)
        return trains

    def _tokens(self, data, where):
        """Tokens with company ids made canonical (so SAL and SALR are one company).
        Home slots of unstarted companies are not tokens: [8.1 f] they do not block."""
        tokens = data.get("tokens", [])
        if not isinstance(tokens, list):
            raise InputError("field 'tokens' must be a list", where)
        out = []
        for i, t in enumerate(tokens):
            if isinstance(t, dict) and "corporation" in t:
                t = dict(t, corporation=self.facts.corporation_id(t["corporation"], f"{where}: tokens[{i}]"))
            out.append(t)
        return out


TITLE = Title1832()

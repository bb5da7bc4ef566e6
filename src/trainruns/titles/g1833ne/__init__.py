"""1833NE: Railroading in New England (1833NE rules summary), for
running trains.

A position names ``"title": "1833NE"`` and lays ``tiles`` over the printed map
(data/map.json, from the reference facts). Its fields:

- ``phase``: ``"I"`` .. ``"V"``.
- ``corporation``: CV, FRR, StL&A, A&StL, B&L, RR, HR, B&P, BW (``B&W`` is accepted).
  A Takeover-game Variable Start corporation (not in the sources) is accepted by any
  name when ``takeover_game`` is true.
- ``trains``: the side of each train card that was bought: ``"2"`` or ``"2+1"``,
  ``"3/5"`` or ``"2+2"``, ``"4/7"`` or ``"3+3"``, ``"6/9"`` or ``"5+3"``, ``"7+3"``.
  A card must have come out (its phase reached) and not be removed ("Train list and
  prices"): phase I cards are removed in IV, phase II cards in V. A phased-out train
  (phase I cards in III, II in IV, III in V) still runs this once and does not count
  against the train limit (3 in I-III, 2 in IV-V; Takeover game: by phase, plus
  ``takeovers``).
- ``tokens``: [{hex, stop, corporation}]; each corporation has 2 stations. The joint
  StL&A / A&StL token in Sherbrooke (F5) is placed by itself once F5 holds a tile.
- ``privates``: ids of the private companies the running corporation owns (P1-P6);
  P1-P2 are gone from phase III, P3-P5 from phase IV. P4 (Ogdensburg) acts as a token
  in A6 and doubles the A6-Boston bonuses in phases I-III; P6 (Delaware & Hudson) acts
  as a token in A12, which only its owner may enter and which is worth its value only
  on a route to or through Montreal; P5 (Luxury Ferry) doubles the ferry marked
  ``"luxury": true``.
- ``bonuses``: connection bonuses the sources do not give (docs/gaps.md "## 1833NE"):
  [{"name", "between": [A, B], "amount": N or {phase: N}, "interconnection": bool}],
  A and B a hex id, a list of hex ids or ``"HEX.K"`` stops. An entry with the name of a
  shipped bonus (data/bonuses.json: Boston-Montreal) replaces it.
- ``ferries``: the running corporation's ferries, phases I-III only: [{"hex", "value",
  "new": bool, "new_bonus": N, "last": bool, "last_bonus": N, "luxury": bool}].
- ``lowell_merchants_bought``: whether a corporation has bought P2 (the B&L runs
  nothing in phase I, nor later while Boston is unupgraded, until then).
- ``privates_bought``: ids of the privates some corporation has bought (the running
  corporation's ``privates`` and P2 with ``lowell_merchants_bought`` count too). In
  phases I-II a private still held by a player blocks its hexes: no tile on H23 (P1),
  G20 (P2), C4 or C6 (P3).
- Reserved spots (phases I-III): a Worcester (E22) token of another corporation may not
  fill the B&W's spot, nor, once Boston is green, a Boston token the B&P's.
- ``takeover_game`` (bool) and ``takeovers`` (int): Takeover-game train limits.

The rules themselves are in :mod:`.rules` and :mod:`.routes`; docs/rules-1833NE.md
says which section of the summary each implements.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainruns.errors import InputError
from trainruns.position.reader import over_limit, parse_phase, place_tokens
from trainruns.route.board import Board
from trainruns.route.trains import parse_train
from trainruns.titles.g1833ne.route import hooks as rules
from trainruns.titles.g1833ne.route import moves
from trainruns.titles.moves import track_key
from trainruns.titles.tiled import TiledTitle, load_data, read_tiled

PACKAGE = __name__


class Facts:
    """The 1833NE data files, read once."""

    def __init__(self):
        self.tiled = read_tiled(PACKAGE)
        base = self.tiled.base
        self.base = base
        # every candidate lay of a move listing is checked against them
        self.impassable_sides = rules.impassable_sides(self.tiled, base)
        phases = load_data(PACKAGE, "phases.json")["phases"]
        self.phase_names = [p["name"] for p in phases]
        assert self.phase_names == self.tiled.phases
        self.phase_table = {p["name"]: p for p in phases}
        self.cards = load_data(PACKAGE, "trains.json")["trains"]
        self.sides = {s["name"]: c for c in self.cards for s in c["variants"]}
        companies = load_data(PACKAGE, "companies.json")
        self.corporations = {c["id"]: c for c in companies["corporations"]}
        self.privates = {p["id"]: p for p in companies["privates"]}
        self.private_ids = list(self.privates)
        self.player_privates_removed_in = companies["player_privates_removed_in"]
        self.joint_token = companies["sherbrooke_joint_token"]
        self._ids = {}
        for c in self.corporations.values():
            for name in [c["id"], *c.get("aliases", [])]:
                self._ids[name.lower()] = c["id"]
        self.bonuses = load_data(PACKAGE, "bonuses.json")["bonuses"]

    def phase_index(self, phase):
        return self.phase_names.index(phase)

    def corporation_id(self, name, where, takeover_game=False):
        """A corporation of the Standard game (reference ids; B&W for BW); any name in
        the Takeover game, whose Variable Start corporations the sources do not list."""
        if isinstance(name, str) and name.lower() in self._ids:
            return self._ids[name.lower()]
        if takeover_game and isinstance(name, str) and name:
            return name
        known = ", ".join(sorted(self.corporations))
        raise InputError(f"unknown corporation {name!r} (1833NE corporations: {known}; a Takeover-game "
                         "Variable Start corporation needs \"takeover_game\": true)", where)

    def train(self, name, phase, where):
        """"Train list and prices": a side of a card that exists in ``phase``. Returns
        the core Train and whether the card is phased out (runs once more, off-limit)."""
        if isinstance(name, int) and not isinstance(name, bool):
            name = str(name)
        if not isinstance(name, str) or name not in self.sides:
            sides = ", ".join(" or ".join(s["name"] for s in c["variants"]) for c in self.cards)
            raise InputError(f"unknown train {name!r}: 1833NE train cards are {sides}", where)
        card = self.sides[name]
        idx = self.phase_index(phase)
        if idx < self.phase_index(card["available_on"]):
            raise InputError(f"no {name}-train exists in phase {phase}: its card comes out in phase "
                             f"{card['available_on']}", where)
        if card["rusts_on"] and idx >= self.phase_index(card["rusts_on"]):
            raise InputError(f"the {name}-train (a phase {card['available_on']} card) was removed at the start of "
                             f"phase {card['rusts_on']}; it is phase {phase}", where)
        phased_out = bool(card["obsolete_on"]) and idx >= self.phase_index(card["obsolete_on"])
        return parse_train(name, where), phased_out


@dataclass(frozen=True)
class Position1833NE:
    """An 1833NE position after every check (the typed snapshot
    :meth:`Title1833NE.build` makes Boards of): the phase, whether it is a takeover
    game, the running corporation (canonical id), its trains, the tiles laid (``(hex,
    tile, rotation)``), the station tokens (``(hex, stop, corporation)``) and the route
    rules' fields."""

    phase: str
    takeover: bool
    corporation: str
    trains: tuple
    laid: tuple
    tokens: tuple
    fields: rules.RouteFields


class Title1833NE(TiledTitle):
    """``build_board(position, where)`` for ``"title": "1833NE"``."""

    name = "1833NE"
    schema = "1833NE"
    facts_class = Facts

    def build_board(self, data: dict, where: str) -> Board:
        """Lay the tiles, place the tokens, then apply every route rule of the summary
        (checked as they are applied: one pass, one Board)."""
        return self._read(data, where)[1]

    def read_position(self, data: dict, where: str) -> Position1833NE:
        return self._read(data, where)[0]

    def build(self, position: Position1833NE) -> Board:
        """The Board of a checked position (pure: a fresh Board each call)."""
        laid = {h: (tile, rot) for h, tile, rot in position.laid}
        board = self.board_of(laid, position.phase, position.corporation, list(position.trains), "position")
        place_tokens(board, [{"hex": h, "stop": k, "corporation": c} for h, k, c in position.tokens], "position")
        rules.apply_all(board, self.facts, laid, position.fields)
        return board

    def _read(self, data, where):
        """The checked position, and its Board with every rule applied."""
        f = self.facts
        phase = parse_phase(data, f.phase_names, where)
        takeover = rules.read_bool(data, "takeover_game", where)
        corp = f.corporation_id(data.get("corporation"), f"{where}: corporation", takeover)
        trains = self._trains(data, phase, takeover, where)
        laid = self.lay_tiles(data, phase, where)
        board = self.board_of(laid, phase, corp, trains, where)
        tokens = self._tokens(data, takeover, where)
        place_tokens(board, tokens, where)
        fields = rules.read_all(board, f, data, laid, tokens, where)
        position = Position1833NE(phase, takeover, corp, tuple(trains),
                                  tuple((h, t, r) for h, (t, r) in laid.items()),
                                  tuple((t["hex"], t.get("stop", 0), t["corporation"]) for t in tokens), fields)
        return position, board

    def check_map(self, data, laid, phase, where):
        """Impassable borders carry no track; a player's private blocks its hexes."""
        rules.check_borders(self.facts, laid, where)
        rules.check_blocked_hexes(self.facts, laid, data, phase, where)

    # --- moves (trainruns whatif) ------------------------------------------------------

    def tile_moves(self, data, board, reached):
        """The lays a corporation's runs reach, then P3's free lays in C4 and C6."""
        if self.may_lay(data, board) is not None:
            return
        tiles = self.facts.tiled.tiles

        def key(m):  # rotations giving identical track are one move
            return m["hex"], m["tile"], track_key(tiles[m["tile"]], m["rotation"])

        have = set()
        for m in super().tile_moves(data, board, reached):
            have.add(key(m))
            yield m
        for m in moves.p3_lays(self, data, board):
            if key(m) not in have:
                have.add(key(m))
                yield m

    def may_lay(self, data, board):
        """P2: "Until a corporation buys it, the Boston & Lowell can't lay track in phase I"."""
        return moves.lowell_lay_refusal(self.facts, data, board)

    def token_refusal(self, data, board, ref):
        return moves.token_refusal(self.facts, data, board, ref)

    def moved_stops(self, data, hex_id, mapping):
        return moves.moved_bonus_stops(data, hex_id, mapping)

    def train_purchases(self, data):
        return moves.train_purchases(self.facts, data)

    def _trains(self, data, phase, takeover, where):
        raw = data.get("trains", [])
        if not isinstance(raw, list):
            raise InputError("field 'trains' must be a list of train names such as \"3/5\" or \"2+2\"", where)
        trains, live = [], 0
        for i, t in enumerate(raw):
            train, phased_out = self.facts.train(t, phase, f"{where}: trains[{i}]")
            trains.append(train)
            live += not phased_out
        row = self.facts.phase_table[phase]
        if takeover:
            takeovers = data.get("takeovers", 0)
            if isinstance(takeovers, bool) or not isinstance(takeovers, int) or takeovers < 0:
                raise InputError(f"field 'takeovers' must be a whole number, not {takeovers!r}", where)
            limit = row["train_limit_takeover_game"] + takeovers
        else:
            limit = row["train_limit"]
        over_limit(data, live, limit, f"{live} trains count against the limit, which is {limit} in phase {phase} "
                   "(phased-out trains do not count)", '("Train limits"; docs/gaps.md)', where)
        return trains

    def _tokens(self, data, takeover, where):
        tokens = data.get("tokens", [])
        if not isinstance(tokens, list):
            raise InputError("field 'tokens' must be a list", where)
        out, per_corp = [], {}
        for i, t in enumerate(tokens):
            w = f"{where}: tokens[{i}]"
            if isinstance(t, dict) and "corporation" in t:
                t = dict(t, corporation=self.facts.corporation_id(t["corporation"], w, takeover))
                per_corp[t["corporation"]] = per_corp.get(t["corporation"], 0) + 1
                if per_corp[t["corporation"]] > 2:
                    raise InputError(f"{t['corporation']} has more than 2 stations (its home and one more)", w)
            out.append(t)
        return out


TITLE = Title1833NE()

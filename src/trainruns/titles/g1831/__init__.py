"""1831 (the 1831 rulebook), for running trains: typed token sites,
typed trains, token-to-token runs, track rights and commuter runs.

The printed map is not in any public source (docs/gaps.md), so an 1831 position brings
its own ``map`` in the custom-map format with 1831 extensions (docs/rules-1831.md).

- ``trains.py``: train names, phases, token values, retirement (3.3, 5.2.7.5, 5.3.5);
- ``mapformat.py``: the map extensions, tokens on typed sites, track rights (5.2.3, 5.5);
- ``model.py``: the Board's ``route_model`` (5.6); ``kernels.py`` its kernels (numba_kernels.py,
  compiled ahead of time with the core's);
- ``commuter.py``: commuter runs (5.6.7); ``explain.py``: which stops a train runs to;
- ``flow.py``: the run as one CP-SAT model, no paths listed; ``bound.py``: the track
  prices' bound on a run (5.6.2), which the flow model is held to;
- ``options.py``: the readings a position chooses (``rules``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from trainruns.errors import InputError
from trainruns.route.board import Board
from trainruns.route.kernels import ready_at_once
from trainruns.route.reach import loose_reach
from trainruns.titles.base import Title
from trainruns.titles.g1831.route import declared_run, kernels, moves
from trainruns.titles.g1831.route.mapformat import (
    MapFacts1831,
    mark_blocks,
    place_tokens,
    read_home_sites,
    read_map,
    read_rights,
    settle_right,
    settle_token,
)
from trainruns.titles.g1831.route.model import Model1831
from trainruns.titles.g1831.route.options import Options1831, read_options
from trainruns.titles.g1831.route.trains import parse_trains, phase_number
from trainruns.titles.moves import tile_moves
from trainruns.titles.typed_map import freeze, thaw


@dataclass(frozen=True)
class Position1831:
    """An 1831 position after every check (the typed snapshot :meth:`Title1831.build`
    makes Boards of): its map (layout, axes as ``(("x", word), ("y", word))``, phases,
    frozen hexes, the 1831 map facts), the phase, the running corporation, the trains
    that run (3.3, 5.3.5), the tokens ``(hex, stop, slot, corporation, type)`` on their
    sites (5.2.7), the track rights ``(hex, stop, slot)`` (5.5), the readings the
    position chooses (``rules``) and the sites kept for home tokens ``(hex, stop, type,
    corporation)`` (5.2.5)."""

    layout: str
    axes: tuple
    phases: tuple
    hexes: tuple
    map: MapFacts1831
    phase: str
    corporation: str
    trains: tuple
    tokens: tuple
    rights: tuple
    options: Options1831
    home_sites: tuple = ()


class Title1831(Title):
    """``"title": "1831"``: a Board whose ``route_model`` runs 1831's rules (model.py)."""

    name = "1831"
    schema = "1831"
    audit_sections = {"track-right-unused": "1831 rules 5.5 and 5.6.5 (track rights)",
                      "no-train-run": "1831 rules 5.6.6",
                      "tokens-run-to": "1831 rules 5.6.2.3 and 5.6.2.5",
                      "passes-blocked-city": "1831 rules 5.6.2.2",
                      "passes-offboard": "1831 rules 5.6.2 and 5.6.2.5",
                      "city-used-twice": "1831 rules 5.6.2.1 and 5.6.7",
                      "delaware-south": "1831 rules 5.6.2.1",
                      "commuter-run": "1831 rules 5.6.7"}
    audit_messages = {"tokens-run-to": "{train} cannot run {stops}: a route begins and ends on tokens of "
                                       "{corporation} it runs to, 2 up to the train's size of them, each of "
                                       "the train's type (an S train runs to Stations, a YD train to Rail "
                                       "Yards, an MX train to at least one of each), and these stops hold no "
                                       "such choice.",
                      "passes-blocked-city": "{train} runs through {stop}, but {stop} is full of other "
                                             "companies' tokens, and a train passes through a city only by a "
                                             "vacancy.",
                      "passes-offboard": "{train} runs through the off-board {stop}, where a route runs from "
                                         "token to token.",
                      "city-used-twice": "{train} cannot run {stops}: it enters {stop} a second time; a "
                                         "train uses a city hex once, but for the Delaware after both "
                                         "cities south of it and a commuter run of a 5 or larger S train "
                                         "in its own cities.",
                      "delaware-south": "{train} cannot run {stops}: it enters the Delaware at {stop} again "
                                        "before it has run to both cities south of it, as a second "
                                        "entry must.",
                      "commuter-run": "{train} cannot run {stops}: it enters {stop} again, which only a "
                                      "commuter run may, by an S train of size 5 or more, with a Station "
                                      "of {corporation} in each of the run's cities, started where the run "
                                      "starts and round its cities in order, on different track each pass."}
    audit_must_run = True   # 5.6.6 "it must run at least one train if it has an unused train"

    def audit_why_not(self, rs, stops, train):
        """Why the model has no route for the declared ``stops``, where the rules name
        it (a city full of other companies' tokens or an off-board passed is the audit's
        generic check, ``passes-blocked-city`` and ``passes-offboard``, by the board's
        marks, 5.6.2.2): a city entered a second time (5.6.2.1 with its exceptions:
        ``city-used-twice``; a city of a commuter run, whose terms 5.6.7 sets:
        ``commuter-run``), or the Delaware entered again before both cities south of it
        (5.6.2.1, ``delaware-south``; with ``rules.delaware_south: "run_to"``, before a
        token run to in each); then stops holding no legal choice of the company's
        tokens for the train, beginning and ending on one (5.6.2.3 / 5.6.2.5, the route
        core's own valuation, explain.best_choice: ``tokens-run-to``). Anything else
        (track the train may not use) is left to the audit's ``not-a-title-route``."""
        from trainruns.titles.g1831.route.explain import best_choice
        from trainruns.titles.g1831.route.trains import parse_train_name

        a = rs.arrays
        groups = [int(a.stop_group[s]) for s in stops]
        commuter_cities = [{a.group_id.get(g) for g in run["cycle"]} for run in a.model.facts.commuter]
        entered = {}   # group -> the indices of its entries
        for i, g in enumerate(groups):
            if i and groups[i - 1] == g:
                continue   # still in the city (its red extension, 5.2.3.10)
            entered.setdefault(g, []).append(i)
            if len(entered[g]) == 1:
                continue
            if any(g in cycle for cycle in commuter_cities):
                return "commuter-run", {"stop": stops[i]}
            if a.rev_a[g] < 0 or len(entered[g]) > 2:
                return "city-used-twice", {"stop": stops[i]}
            between = set(groups[entered[g][0]:i]) - {g}
            if not {int(a.rev_a[g]), int(a.rev_b[g])} <= between:
                return "delaware-south", {"stop": stops[i]}
        train_ = parse_train_name(train)
        run_to = a.model.options.delaware_south == "run_to"
        south = a.south_of(stops) if run_to else None
        if best_choice(a, stops, train_, south=south)[0] >= 0:
            return None
        if south is not None and best_choice(a, stops, train_)[0] >= 0:
            return "delaware-south", {"stop": stops[entered[south[0]][1]]}
        return "tokens-run-to"

    def audit_run(self, board, rs, routes, picks):
        """5.6.5 in an audit: the declared routes valued with the bought rights they run
        to, and every right no choice of the declared trains runs to (declared_run.py)."""
        return declared_run.settle(board, rs, routes, picks)

    def read_position(self, data: dict, where: str) -> Position1831:
        """Every check of an 1831 position, in the order its messages come: the map
        (docs/rules-1831.md), phase, trains (3.3, 5.3.5), tokens on typed sites
        (5.2.7), track rights (5.5), the readings it chooses (``rules``), the sites kept
        for home tokens (5.2.5)."""
        if "map" not in data:
            raise InputError("an 1831 position needs its own 'map' (the printed map is not shipped; "
                             "see docs/rules-1831.md)", where)
        board, facts = read_map(data, where)
        hexes, map_facts = freeze(board.hexes), MapFacts1831.of(facts)
        phase = phase_number(board.phase, where)
        trains = parse_trains(data, phase, where)
        tokens = place_tokens(board, facts, phase, data, where)
        rights = read_rights(board, facts, data, where)
        options = read_options(data, where)
        home_sites = read_home_sites(board, facts, data, where)
        return Position1831(board.layout, tuple(board.axes.items()), tuple(board.phases), hexes, map_facts,
                            board.phase, board.corporation, tuple(trains), tokens, rights, options, home_sites)

    def read_apart(self, data: dict, where: str) -> Position1831:
        """The reading of :meth:`read_position` with no trains: nothing else of it reads
        them (the route model is built from the trains in :meth:`build`)."""
        return self.read_position(dict(data, trains=[]), where)

    def with_trains(self, reading: Position1831, data: dict, where: str) -> Position1831:
        """``reading`` with the trains of ``data`` that run (3.3, 5.3.5, 5.3.6)."""
        return replace(reading, trains=tuple(parse_trains(data, phase_number(reading.phase, where), where)))

    def build(self, position: Position1831) -> Board:
        """The Board of a checked 1831 position (pure: a fresh Board and route model
        each call): tokens settled on their sites, blocked cities marked (5.2.4.1)."""
        board = Board(layout=position.layout, hexes=thaw(position.hexes), phase=position.phase,
                      corporation=position.corporation, trains=list(position.trains),
                      phases=list(position.phases), title="1831", axes=dict(position.axes))
        facts = position.map.facts()
        for token in position.tokens:
            settle_token(board, facts, token)
        for right in position.rights:
            settle_right(facts, right)
        facts.kept = position.home_sites
        mark_blocks(board, facts)
        board.route_model = Model1831(board, facts, phase_number(position.phase, "position"), position.options)
        if ready_at_once():
            kernels.warm_up()  # (a millisecond; a first compilation is left to the solve, within its deadline)
        for hx in board.hexes.values():
            # the drawing's hint: Stations round, Rail Yards square (5.2.3.9), black sites
            hx.extra["sites"] = {k: [{"shape": "square" if s.type == "yard" else "circle",
                                      "black": s.black, "holder": s.holder}
                                     for s in facts.sites.get((hx.id, k), [])]
                                 for k in range(len(hx.stops))}
        return board

    # --- moves (trainruns whatif) ------------------------------------------------------

    def tile_rules(self, data, board):
        """1831's tile rules (:func:`.route.moves.tile_rules`) on the tile set the position
        names (``tile_set``); without one, bad input: an 1831 map brings no tile manifest
        of its own."""
        if "tile_set" not in data:
            raise InputError("an 1831 position names its tile set for tile lays ('tile_set': 'shipped', the tile "
                             "set of the shipped config; docs/position-format.md)", "position.tile_set")
        return moves.tile_rules(data, board)

    def tile_moves(self, data, board, reached):
        """The shared generator's lays with 5.2.4.1's reach: a lay needs "a direct path
        from one of its Rail Yards or Station tokens to the hex", track connected and not
        blocked (:func:`~trainruns.route.reach.loose_reach`), not one legal run's reach;
        and 5.2.4.1's full city: "only the corporations with tokens in the city may
        upgrade it further" when the upgrade opens no vacancy."""
        rules = self.tile_rules(data, board)
        facts, corp = board.route_model.facts, board.corporation
        for m in tile_moves(rules, board, loose_reach(board)):
            if "replaces" in m and moves.stays_full_of_others(rules, facts, corp, m):
                continue
            yield m

    def token_places(self, data, board, reached):
        facts = board.route_model.facts
        return moves.token_places(data, board, reached, facts.sites, facts.group, facts.kept)

    def train_purchases(self, data):
        return moves.train_purchases(data)


TITLE = Title1831()

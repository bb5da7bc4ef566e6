"""1833NE's route rules, applied to the board the tiled map produced.

Each hook names the section of the 1833NE rules summary it implements. Most only change Board
data (stop values, stop access, tokens, :class:`~trainruns.route.board.Bonus` entries); the
two rules a stop value or a bonus cannot say (A12's value that depends on Montreal, and
interconnection bonuses that let a route run past its train's limit) are handed to the
search through ``board.route_model`` (:mod:`.routes`).
"""

from __future__ import annotations

from dataclasses import dataclass

from trainruns.errors import InputError
from trainruns.position.reader import phase_value, read_bool
from trainruns.route.board import CITY, Board, Bonus
from trainruns.route.hexgrid import opposite
from trainruns.titles.g1833ne.route.routes import ConditionalStop, ExtendedBonus, RouteModel1833NE

BOSTON, MONTREAL, SHERBROOKE = "G22", "B3", "F5"
OGDENSBURG, DELAWARE_HUDSON = "A6", "A12"
JOINT = ("StL&A", "A&StL")


@dataclass(frozen=True)
class RouteFields:
    """The position fields 1833NE's route rules read, checked: the running
    corporation's ``privates``; ``lowell_idle``: the B&L may not run (P2); ``bonuses``:
    ``(name, amount, stops, stops, interconnection)`` at the phase's amount (P4's
    doubling applied); ``ferries``: ``(name, value, stops)`` (New/Last bonus and P5's
    doubling applied)."""

    privates: frozenset = frozenset()
    lowell_idle: bool = False
    bonuses: tuple = ()
    ferries: tuple = ()


def read_amount(value, facts, phase, where):
    """A bonus amount: a number, or {phase: number} where a phase without an entry pays
    nothing ("These bonuses appear and disappear by phase")."""
    if isinstance(value, dict):
        if phase not in value:
            for key in value:
                if key not in facts.phase_names:
                    raise InputError(f"amount names phase {key!r}, which is not one of {facts.phase_names}", where)
            return 0
        value = value[phase]
    return phase_value(value, facts.phase_names, phase, where)


# --- map checks -----------------------------------------------------------------------


def impassable_sides(tiled, base) -> frozenset:
    """Map: the ``(hex, side)`` pairs of the reference's impassable borders, both hexes'
    sides (read once with the title's data: :class:`trainruns.titles.g1833ne.Facts`)."""
    found = set()
    for pair in base["impassable_borders"]:
        a, b = pair["hexes"]
        for side in range(6):
            if tiled.neighbour_of(a, side) == b:
                found.add((a, side))
                found.add((b, opposite(side)))
    return frozenset(found)


def check_borders(facts, laid, where):
    """Map: impassable borders (the reference's) carry no track; a tile whose track
    runs across one cannot be laid there."""
    tiled = facts.tiled
    blocked = facts.impassable_sides
    for hex_id, (tile, rot) in laid.items():
        for side in sorted(tiled.track_sides(tiled.tiles[tile], rot)):
            if (hex_id, side) in blocked:
                raise InputError(f"tile {tile} at rotation {rot} on {hex_id} runs track across the impassable "
                                 f"border at side {side}", f"{where}: tiles")


# --- companies ------------------------------------------------------------------------


def bought_privates(facts, data, where):
    """The privates some corporation has bought: the position's ``privates_bought``,
    the running corporation's own ``privates``, and P2 when ``lowell_merchants_bought``."""
    raw = data.get("privates_bought", [])
    if not isinstance(raw, list):
        raise InputError("field 'privates_bought' must be a list of private ids such as \"P1\"", where)
    for i, p in enumerate(raw):
        if p not in facts.private_ids:
            raise InputError(f"unknown private {p!r} (1833NE privates: {', '.join(facts.private_ids)})",
                             f"{where}: privates_bought[{i}]")
    own = data.get("privates", [])
    out = set(raw) | (set(p for p in own if isinstance(p, str)) if isinstance(own, list) else set())
    if read_bool(data, "lowell_merchants_bought", where):
        out.add("P2")
    return out


def check_blocked_hexes(facts, laid, data, phase, where):
    """"List of private companies": P1 "blocks H23 until bought by a corporation", P2
    blocks Lowell (G20), P3 blocks C4 and C6. A private a player holds blocks its hexes
    (no tile there) until a corporation buys it; from phase III no player holds one
    ("privates held by players ... are removed")."""
    if facts.phase_index(phase) >= facts.phase_index(facts.player_privates_removed_in):
        return
    bought = bought_privates(facts, data, where)
    for private in facts.privates.values():
        if private["id"] in bought:
            continue
        for hex_id in private.get("blocks", []):
            if hex_id in laid:
                name = facts.tiled.hexes[hex_id].get("name")
                at = f"{hex_id} ({name})" if name else hex_id
                raise InputError(f"no tile may be laid on {at}: {private['id']} {private['name']} blocks it "
                                 "until a corporation buys it (list the buyer's privates in 'privates', or "
                                 f"\"privates_bought\": [\"{private['id']}\"])", f"{where}: tiles")


def reservation_filled(facts, board: Board, hex_id, placing=None):
    """"List of corporations": the B&W "has a reserved spot in Worcester until phase
    IV" and the B&P "has a reserved spot in Boston (once its green tile is laid) until
    phase IV" ("Phase IV: ... city spot reservations end"). Until then the other
    corporations' tokens in the hex leave one spot free for it. Returns (corporation,
    its reservation) when the tokens there, and one more of ``placing`` if given, would
    fill that spot; else None."""
    for corp, c in facts.corporations.items():
        r = c.get("reserved")
        if r is None or r["hex"] != hex_id or corp == placing:
            continue
        if facts.phase_index(board.phase) >= facts.phase_index(r["until_phase"]):
            continue
        if "from_color" in r and board.hexes[hex_id].extra.get("color") != r["from_color"]:
            continue
        stops = board.hexes[hex_id].stops
        if any(corp in s.tokens for s in stops):
            continue
        taken = sum(len(s.tokens) for s in stops) + (placing is not None)
        if taken >= sum(s.slots for s in stops if s.kind == CITY):
            return (c.get("aliases") or [corp])[0], r
    return None


def check_reservations(board: Board, facts, tokens, where):
    """Tokens in a reserved spot (:func:`reservation_filled`) are refused."""
    for hex_id in sorted({c["reserved"]["hex"] for c in facts.corporations.values() if c.get("reserved")}):
        filled = reservation_filled(facts, board, hex_id)
        if filled is None:
            continue
        name, r = filled
        last = max((i for i, t in enumerate(tokens) if isinstance(t, dict) and t.get("hex") == hex_id),
                   default=None)
        w = f"{where}: tokens[{last}]" if last is not None else f"{where}: tokens"
        others = [t for s in board.hexes[hex_id].stops for t in s.tokens]
        raise InputError(f"the {name} {r['rule']}: {', '.join(others)} fill every spot of {hex_id} "
                         f"({r['name']}) in phase {board.phase}", w)


def read_privates(board: Board, facts, data, where):
    """"List of private companies": the privates the running corporation owns, with
    those the phase has removed (P1-P2 from III, P3-P5 from IV) refused."""
    raw = data.get("privates", [])
    if not isinstance(raw, list):
        raise InputError("field 'privates' must be a list of private ids such as \"P4\"", where)
    removed = facts.phase_table[board.phase]["privates_removed"]
    out = set()
    for i, p in enumerate(raw):
        w = f"{where}: privates[{i}]"
        if p not in facts.private_ids:
            raise InputError(f"unknown private {p!r} (1833NE privates: {', '.join(facts.private_ids)})", w)
        if p in removed:
            raise InputError(f"private {p} was removed by phase {board.phase}", w)
        if p in out:
            raise InputError(f"private {p} is listed twice", w)
        out.add(p)
    return out


def apply_joint_token(board: Board, facts, laid, where):
    """"List of corporations": the StL&A and the A&StL share a joint token placed free in
    Sherbrooke once its yellow tile is laid; it is a token of both."""
    if SHERBROOKE not in laid:
        return
    stop = board.hexes[SHERBROOKE].stops[0]
    others = [t for t in stop.tokens if t not in JOINT]
    if others:
        raise InputError(f"Sherbrooke's token space holds the StL&A / A&StL joint token, not {others[0]}'s",
                         f"{where}: tokens")
    stop.tokens[:] = list(JOINT)
    stop.slots = max(stop.slots, len(stop.tokens))  # one space, two owners


def lowell_idle(board: Board, facts, data, laid, where) -> bool:
    """P2 Lowell Merchants: until a corporation buys it, the B&L can't run routes in
    phase I, nor afterwards while Boston has not been upgraded."""
    if board.corporation != "B&L" or "P2" in bought_privates(facts, data, where):
        return False
    return board.phase == "I" or BOSTON not in laid


def apply_private_tokens(board: Board, facts, privates, model):
    """P4 and P6: their corporation runs routes from A6 / A12 "as if it had a token
    there". P6: only its owner may run to A12, worth its value only on a route that goes
    to or through Montreal (else $0)."""
    for private, hex_id in (("P4", OGDENSBURG), ("P6", DELAWARE_HUDSON)):
        stop = board.hexes[hex_id].stops[0]
        if private in privates:
            # A token stop for the core: an own-token "city" that may only end a route.
            stop.kind, stop.slots, stop.tokens, stop.passable = CITY, 1, [board.corporation], False
    a12 = board.hexes[DELAWARE_HUDSON].stops[0]
    if "P6" not in privates:
        a12.enterable = False
        a12.passable = False
    else:
        model.conditional.append(ConditionalStop((DELAWARE_HUDSON, 0), a12.value,
                                                 frozenset(city_refs(board, MONTREAL))))
        a12.value = 0


# --- bonuses and ferries --------------------------------------------------------------


def city_refs(board: Board, hex_id):
    """The stops a hex stands for in a bonus: its cities, or all its stops if none."""
    hx = board.hexes[hex_id]
    cities = [(hex_id, k) for k, s in enumerate(hx.stops) if s.kind == CITY]
    return cities or [(hex_id, k) for k in range(len(hx.stops))]


def read_place(board: Board, spec, where):
    """One end of a bonus: a hex id, "HEX.K", or a list of those."""
    items = spec if isinstance(spec, list) else [spec]
    refs = []
    for item in items:
        if not isinstance(item, str):
            raise InputError(f"a bonus end must be a hex id or \"HEX.K\", not {item!r}", where)
        hex_id, _, k = item.partition(".")
        if hex_id not in board.hexes:
            raise InputError(f"unknown hex {hex_id!r} in a bonus", where)
        if k:
            if not k.isdigit() or int(k) >= len(board.hexes[hex_id].stops):
                raise InputError(f"{hex_id} has no stop {k!r} (it has {len(board.hexes[hex_id].stops)})", where)
            refs.append((hex_id, int(k)))
        else:
            refs.extend(city_refs(board, hex_id))
    if not refs:
        raise InputError(f"bonus end {spec!r} has no stop on the map as it stands", where)
    return frozenset(refs)


def bonus_entries(facts, data, where):
    """The shipped bonus table (data/bonuses.json) with the position's entries added;
    a position entry with a shipped name replaces it."""
    entries = {b["name"]: (b, "data/bonuses.json") for b in facts.bonuses}
    raw = data.get("bonuses", [])
    if not isinstance(raw, list):
        raise InputError("field 'bonuses' must be a list of {name, between, amount}", where)
    for i, b in enumerate(raw):
        w = f"{where}: bonuses[{i}]"
        if not isinstance(b, dict) or not isinstance(b.get("name"), str):
            raise InputError("a bonus must be an object with 'name', 'between' and 'amount'", w)
        if not isinstance(b.get("between"), list) or len(b["between"]) != 2:
            raise InputError("'between' must list the two places the bonus connects", w)
        if "amount" not in b:
            raise InputError("bonus has no 'amount'", w)
        entries[b["name"]] = (b, w)
    return list(entries.values())


def read_bonuses(board: Board, facts, data, privates, where) -> tuple:
    """"Direct connection and interconnection bonuses between Boston, Montreal, Portland
    and the off-board areas", by phase. A direct bonus needs the route itself to reach
    both places; an interconnection bonus may be reached past the train's limit
    (:mod:`.routes`). P4 doubles the bonuses between A6 and Boston in phases I-III.
    Places are read on the map as the private tokens make it (A6 a token city with P4)."""
    ogdensburg_doubles = "P4" in privates and facts.phase_index(board.phase) <= facts.phase_index("III")
    a6, boston = frozenset(city_refs(board, OGDENSBURG)), frozenset(city_refs(board, BOSTON))
    out = []
    for b, w in bonus_entries(facts, data, where):
        amount = read_amount(b["amount"], facts, board.phase, w)
        if amount == 0:
            continue
        ga, gb = (read_place(board, side, w) for side in b["between"])
        if ogdensburg_doubles and {ga, gb} == {a6, boston}:
            amount *= 2
        inter = b.get("interconnection", False)
        if not isinstance(inter, bool):
            raise InputError(f"'interconnection' must be true or false, not {inter!r}", w)
        out.append((b["name"], amount, ga, gb, inter))
    return tuple(out)


def read_ferries(board: Board, facts, data, privates, where) -> tuple:
    """Ferries: +value for a route reaching the ferry's city, the "New" (and "Last")
    ferry bonus on the ferry that carries it; none from phase IV. P5 Luxury Ferry
    Service doubles one ferry, including its New/Last bonus."""
    raw = data.get("ferries", [])
    if not isinstance(raw, list):
        raise InputError("field 'ferries' must be a list of {hex, value, ...}", where)
    if raw and not facts.phase_table[board.phase]["ferries"]:
        raise InputError(f"all ferries were removed at the start of phase IV; it is phase {board.phase}",
                         f"{where}: ferries")
    luxury, out = 0, []
    for i, fe in enumerate(raw):
        w = f"{where}: ferries[{i}]"
        if not isinstance(fe, dict):
            raise InputError("a ferry must be an object {hex, value, ...}", w)
        hex_id = fe.get("hex")
        place = read_place(board, hex_id, w)
        value = _whole(fe, "value", w, required=True)
        for flag, amount in (("new", "new_bonus"), ("last", "last_bonus")):
            if read_bool(fe, flag, w):
                value += _whole(fe, amount, w, required=True)
            elif amount in fe:
                raise InputError(f"'{amount}' is given but the ferry is not marked '{flag}'", w)
        if read_bool(fe, "luxury", w):
            if "P5" not in privates:
                raise InputError("a ferry marked 'luxury' needs P5 Luxury Ferry Service among 'privates'", w)
            luxury += 1
            value *= 2
        out.append((f"ferry {hex_id}", value, place))
    if luxury > 1:
        raise InputError("P5 Luxury Ferry Service doubles only one ferry", f"{where}: ferries")
    return tuple(out)


def _whole(obj, key, where, required=False):
    if key not in obj:
        if required:
            raise InputError(f"missing field '{key}'", where)
        return 0
    v = obj[key]
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise InputError(f"field '{key}' must be a whole number of dollars, not {v!r}", where)
    return v


def read_all(board: Board, facts, data, laid, tokens, where) -> RouteFields:
    """Check every field the route rules read, applying the rules to ``board`` (the
    laid map with its tokens) as they come: what :func:`apply_all` does from the
    fields, with each check where the rule is (the bonuses' places are read on the map
    as the rules before them make it)."""
    privates = frozenset(read_privates(board, facts, data, where))
    apply_joint_token(board, facts, laid, where)
    check_reservations(board, facts, tokens, where)
    idle = lowell_idle(board, facts, data, laid, where)
    model = _apply_before_bonuses(board, facts, idle, privates)
    fields = RouteFields(privates, idle, read_bonuses(board, facts, data, privates, where),
                         read_ferries(board, facts, data, privates, where))
    _apply_bonuses(board, model, fields)
    return fields


def apply_all(board: Board, facts, laid, fields: RouteFields, where="position"):
    """Every 1833NE route rule, in the order of the summary, from checked fields."""
    apply_joint_token(board, facts, laid, where)
    _apply_before_bonuses(board, facts, fields.lowell_idle, fields.privates)
    _apply_bonuses(board, board.route_model, fields)


def _apply_before_bonuses(board, facts, lowell_idle, privates):
    """The B&L's wait for P2, and P4's and P6's token stops; the route model is set
    on the board (kept only if some rule needs it)."""
    if lowell_idle:
        board.trains = []
    model = board.route_model = RouteModel1833NE()
    apply_private_tokens(board, facts, privates, model)
    return model


def _apply_bonuses(board, model, fields):
    """The bonuses and ferries as Board bonuses; interconnection bonuses to the model."""
    for name, amount, ga, gb, inter in fields.bonuses:
        board.bonuses.append(Bonus(name, amount, (ga, gb)))
        if inter:
            model.extended.append(ExtendedBonus(name, amount, ga, gb))
    for name, value, place in fields.ferries:
        board.bonuses.append(Bonus(name, value, (place,)))
    if not (model.conditional or model.extended):
        board.route_model = None

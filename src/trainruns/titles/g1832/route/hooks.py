"""1832's route rules: "Operate Trains" [8], "Miami" [8.5], and the tokens of [7]/[16.2].

Each hook takes the board the tiled map produced (values already those of the phase, by
Table 1's first / second / last value) and applies one rule for the running corporation.
They only change stop values and stop access, so the core search needs no 1832 knowledge.

Position fields (all optional):

- ``coal_token`` (bool): the corporation holds a West Virginia Coal Fields token.
- ``cotton`` ({"hex", "stop"} or null) and ``cotton_owner``: the Cotton Warehouse token.
- ``port`` ({"hex"} or null) and ``port_owner``: the Atlantic Shipping Port token.
- ``key_west`` (bool): the FEC's Key West token lies in Miami.
- ``key_west_owner`` (a company id, optional): the company the Key West token counts
  for, the FEC unless named (the game's ``key_west_inherited`` variant gives it to the
  System or company that merged the FEC, [11]; docs/gaps.md).
- ``miami_run`` (bool): some company has already run to Miami.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainruns.errors import InputError
from trainruns.position.reader import read_bool
from trainruns.route.board import CITY, Board


@dataclass(frozen=True)
class RouteFields:
    """The position fields 1832's route rules read (module docstring), checked:
    ``cotton`` is ``(hex, stop, owner)`` and ``port`` ``(hex, owner)``, or None."""

    coal_token: bool = False
    miami_run: bool = False
    key_west: bool = False
    cotton: tuple | None = None
    port: tuple | None = None
    key_west_owner: str | None = None


def phase_index(facts, phase):
    return facts.phase_names.index(phase)


def phase_rule(facts, phase, key):
    """Whether Table 1 switches rule ``key`` on in ``phase`` (a word of the phase's status)."""
    return key in facts.phase_table[phase]["status"]


def apply_coal_fields(board: Board, facts, has_token: bool):
    """[8.1 c], [6.5.2]: only a company with a WVCF token may run to or through the Coal
    Fields; without one the stop may not be entered at all (so not passed either)."""
    stop = board.hexes[facts.coal_fields].stops[0]
    stop.enterable = has_token
    stop.passable = True if has_token else False


def read_key_west(facts, data, phase, where):
    """[7.5] The Key West token may lie in Miami from phase 3 until phase 8."""
    key_west = read_bool(data, "key_west", where)
    if key_west and not phase_rule(facts, phase, "key_west"):
        when = "placed before phase 3" if phase_index(facts, phase) < phase_index(facts, "3") \
            else "in play from phase 8 (removed at the start of phase eight)"
        raise InputError(f"the Key West token cannot be {when}; it is phase {phase}", f"{where}: key_west")
    return key_west


def apply_miami(board: Board, facts, miami_run: bool, key_west: bool, key_west_owner: str | None = None):
    """[8.5] Miami: before phase five it is worth $0 until some company has run there
    (``miami_run``); after that, and from phase five, its printed value by phase. The
    FEC's Key West token adds $50 for the FEC only ([7.5]; removed at phase eight), or
    for ``key_west_owner`` when the position names one."""
    stop = board.hexes[facts.miami].stops[0]
    if phase_rule(facts, board.phase, "miami_first_run_zero") and not miami_run:
        stop.value = 0
    if key_west and board.corporation == (key_west_owner or facts.key_west_owner):
        stop.value += facts.key_west_bonus


def read_cotton(board: Board, facts, data, where):
    """[16.2 P2] Cotton Warehouse: one non-coastal city, placed from phase 3 (a public
    company must own P2), removed at phase six; ``(hex, stop, owner)`` or None."""
    cotton = data.get("cotton")
    if cotton is None:
        return None
    w = f"{where}: cotton"
    hex_id = _token_hex(board, facts, cotton, "Cotton", '{"hex": ..., "stop": ...}', w)
    if hex_id in facts.port_hexes:
        raise InputError(f"{hex_id} is a coastal city (anchor); the Cotton token goes on a non-coastal city", w)
    hx = board.hexes[hex_id]
    k = cotton.get("stop", 0)
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(hx.stops) or hx.stops[k].kind != CITY:
        raise InputError(f"{hex_id} has no city {k!r} for the Cotton token (its stops: "
                         f"{', '.join(s.kind for s in hx.stops) or 'none'})", w)
    owner = facts.corporation_id(data.get("cotton_owner"), f"{where}: cotton_owner", "the Cotton token's owner")
    return (hex_id, k, owner)


def apply_cotton(board: Board, facts, cotton):
    """[16.2 P2] Cotton Warehouse: +$10 to its city, for the token's owner only."""
    if cotton is not None and cotton[2] == board.corporation:
        board.hexes[cotton[0]].stops[cotton[1]].value += facts.cotton_bonus


def read_port(board: Board, facts, data, where):
    """[16.2 P3] Port token on a coastal (anchor) city, placed from phase 3, removed at
    phase six; ``(hex, owner)`` or None."""
    port = data.get("port")
    if port is None:
        return None
    w = f"{where}: port"
    hex_id = _token_hex(board, facts, port, "Port", '{"hex": ...}', w)
    if hex_id not in facts.port_hexes:
        raise InputError(f"{hex_id} has no anchor; the Port token goes on one of {', '.join(facts.port_hexes)}", w)
    hx = board.hexes[hex_id]
    if not hx.stops:
        raise InputError(f"{hex_id} has no stop for the Port token", w)
    owner = facts.corporation_id(data.get("port_owner"), f"{where}: port_owner", "the Port token's owner")
    return (hex_id, owner)


def apply_port(board: Board, facts, port):
    """[16.2 P3] Port token: +$20 for its owner, +$10 for every other company."""
    if port is not None:
        board.hexes[port[0]].stops[0].value += (facts.port_bonus_owner if port[1] == board.corporation
                                                else facts.port_bonus_other)


def _token_hex(board, facts, spec, name, shape, w):
    """The hex of a private company's token field (Cotton, Port): in play in this phase,
    an object, on a hex of the map."""
    _check_private_phase(facts, board.phase, name, w)
    field = name.lower()
    if not isinstance(spec, dict):
        raise InputError(f"field '{field}' must be {shape} or null", w)
    hex_id = spec.get("hex")
    if hex_id not in board.hexes:
        raise InputError(f"unknown hex {hex_id!r}", w)
    return hex_id


def _check_private_phase(facts, phase, name, w):
    if phase_rule(facts, phase, "cotton_port"):
        return
    if phase_index(facts, phase) < phase_index(facts, "3"):
        raise InputError(f"the {name} token cannot be on the map in phase {phase}: only a public company "
                         "may place it, and it may buy the private company from phase 3", w)
    raise InputError(f"the {name} token was removed at the start of phase six; it is phase {phase}", w)


def read_fields(board: Board, facts, data, where) -> RouteFields:
    """Check the fields of the route rules (``board``: the laid map with its tokens,
    which the private tokens' places are checked against; it is not changed)."""
    coal_token = read_bool(data, "coal_token", where)
    miami_run = read_bool(data, "miami_run", where)
    key_west = read_key_west(facts, data, board.phase, where)
    owner = data.get("key_west_owner")
    if owner is not None:
        owner = facts.corporation_id(owner, f"{where}: key_west_owner", "the Key West token's owner")
    return RouteFields(coal_token, miami_run, key_west, read_cotton(board, facts, data, where),
                       read_port(board, facts, data, where), owner)


def apply_all(board: Board, facts, fields: RouteFields):
    """Every 1832 route-rule hook, in the order the rulebook states them."""
    apply_coal_fields(board, facts, fields.coal_token)
    apply_miami(board, facts, fields.miami_run, fields.key_west, fields.key_west_owner)
    apply_cotton(board, facts, fields.cotton)
    apply_port(board, facts, fields.port)

"""Actions are plain records: dicts with a ``type`` and the fields that type needs.

Each title declares the action types it accepts (``GameRules.action_types``): the shared
steps' types from :data:`ACTIONS`, chosen by name with :func:`declare`, plus its own.
Nothing adds to a global table, so a game accepts the same actions whichever titles were
loaded before it.

:func:`validate` checks a record on entry (docs/game-log.md "The action log"): a type the
title does not declare, a missing field or a field of the wrong JSON type is bad input
(:class:`~trainruns.errors.InputError`, exit 2). Whether the ids exist and the action is
legal now is the game's business.
"""

from __future__ import annotations

from ..errors import InputError

STR, INT, LIST, BOOL, ANY = "a string", "an integer", "a list", "true or false", "anything"

# the shared steps' action types: type -> {field: (kind, required)}
ACTIONS = {
    "pass": {"player": (STR, False), "corporation": (STR, False)},
    "undo": {},
    "buy_private": {"player": (STR, False), "corporation": (STR, False), "private": (STR, True),
                    "price": (INT, False), "from": (STR, False)},
    "bid": {"player": (STR, True), "private": (STR, True), "price": (INT, True)},
    "par": {"player": (STR, True), "corporation": (STR, True), "price": (INT, True)},
    "buy_shares": {"player": (STR, True), "corporation": (STR, True), "from": (STR, True),
                   "count": (INT, False)},
    "sell_shares": {"player": (STR, True), "corporation": (STR, True), "count": (INT, True)},
    "protect": {"player": (STR, True), "corporation": (STR, True)},
    "lay_tile": {"corporation": (STR, True), "hex": (STR, True), "tile": (STR, True),
                 "rotation": (INT, True)},
    "place_token": {"corporation": (STR, True), "hex": (STR, True), "stop": (INT, False),
                    "kind": (STR, False)},
    # a logged run may say what the search proved when it was made (log.py: recorded_proof)
    "run_routes": {"corporation": (STR, True), "routes": (ANY, True), "proven": (BOOL, False),
                   "bound": (INT, False)},
    "dividend": {"corporation": (STR, True), "kind": (STR, True)},
    "buy_train": {"corporation": (STR, True), "from": (STR, True), "train": (STR, True),
                  "price": (INT, False), "trade_in": (STR, False)},
    "discard_train": {"corporation": (STR, True), "train": (STR, True)},
    # a merger of ``corporation`` with ``with`` (1832 [11]: the proposing player, the
    # kind system/takeover and the System's letter; 1831 5.9: the operating company A and
    # its partner B, the type following from the two); what a title needs, it checks
    "merge": {"player": (STR, False), "corporation": (STR, True), "with": (STR, True), "kind": (STR, False),
              "system": (STR, False)},
    # the answer of the other party to a deal (game/steps/consent.py)
    "accept": {"player": (STR, True)},
}


def declare(*shared: str, **own: dict) -> dict:
    """A title's action types: the shared types named (``undo`` always) and its own
    ``type={field: (kind, required)}``."""
    unknown = [t for t in shared if t not in ACTIONS]
    if unknown:
        raise ValueError(f"no shared action type {unknown}")
    clash = [t for t in own if t in ACTIONS]
    if clash:
        raise ValueError(f"{clash} are shared action types: name them, do not redefine them")
    return {"undo": ACTIONS["undo"], **{t: ACTIONS[t] for t in shared}, **own}


def _is(value, kind):
    if kind is STR:
        return isinstance(value, str)
    if kind is INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is LIST:
        return isinstance(value, list)
    if kind is BOOL:
        return isinstance(value, bool)
    return True


def validate(action, types: dict, where="action") -> dict:
    """A copy of ``action`` with its fields checked (types only) against the title's
    declared ``types``."""
    if not isinstance(action, dict):
        raise InputError("an action must be a JSON object", where)
    kind = action.get("type")
    if not isinstance(kind, str):
        raise InputError("an action needs a string field 'type'", where)
    if kind not in types:
        raise InputError(f"unknown action type {kind!r} (known: {', '.join(types)})", where)
    action = dict(action)
    for field in ("train", "trade_in"):
        if isinstance(action.get(field), int) and not isinstance(action.get(field), bool):
            action[field] = str(action[field])  # train names: "2" or 2
    for name, (what, required) in types[kind].items():
        if name not in action:
            if required:
                raise InputError(f"a {kind} action needs the field {name!r}", where)
            continue
        value = action[name]
        if not _is(value, what):
            raise InputError(f"field {name!r} of a {kind} action must be {what}, not {value!r}", where)
    if kind == "run_routes":
        routes = action["routes"]
        if routes != "best" and not isinstance(routes, list):
            raise InputError("field 'routes' must be \"best\" or a list of routes", where)
    return action


# --- free amounts (docs/game-log.md "The action log": a free amount is listed once) --------

def free_amount(low: int, high: int):
    """An amount a player chooses between ``low`` and ``high`` as ``play actions`` lists
    it: the number itself when there is one choice, else ``{"min", "max"}``."""
    return low if low == high else {"min": low, "max": high}


def within(listed, value) -> bool:
    """Whether ``value`` is an amount the listed one (a number or ``{"min", "max"}``) allows."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    if isinstance(listed, dict):
        return listed["min"] <= value <= listed["max"]
    return value == listed

"""Actions are plain records: dicts with a ``type`` and the fields that type needs.

Each title declares the action types it accepts (``GameRules.action_types``): the shared
steps' types from :data:`ACTIONS`, chosen by name with :func:`declare`, plus its own.
Nothing adds to a global table, so a game accepts the same actions whichever titles were
loaded before it.

:func:`validate` checks a record on entry (docs/game-log.md "The action log"): a type the
title does not declare, a missing field or a field of the wrong JSON type is bad input
(:class:`~trainruns.errors.InputError`, exit 2). So is a field the action type does not
declare (the project's format rule: a misspelled ``"pirce"`` is refused, not dropped, and
nothing undeclared reaches the log), and a whole number of 2^63 or more in size, as in
every JSON file read (position.py). Whether the ids exist and the action is legal now is
the game's business.
"""

from __future__ import annotations

from trainruns.errors import InputError

STR, INT, LIST, BOOL, ANY = "a string", "an integer", "a list", "true or false", "anything"

def unread(fields: dict) -> dict:
    """Optional fields a title may leave unread: logs of the same format once wrote them,
    so a log that holds one still replays (a title that reads one declares it again in
    its ``more_fields``)."""
    return {name: (kind, False) for name, kind in fields.items()}


# the shared steps' action types: type -> {field: (kind, required)}
ACTIONS = {
    "pass": {"player": (STR, False), "corporation": (STR, False)},
    "undo": {},
    "buy_private": {"player": (STR, False), "corporation": (STR, False), "private": (STR, True),
                    "price": (INT, False), **unread({"from": STR})},
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
    # a logged run records its revenue (a run declaring one it does not earn is refused),
    # and may say what the search proved when it was made (log.py: recorded_proof)
    "run_routes": {"corporation": (STR, True), "routes": (ANY, True), "revenue": (INT, False),
                   "proven": (BOOL, False), "bound": (INT, False)},
    "dividend": {"corporation": (STR, True), "kind": (STR, True)},
    "buy_train": {"corporation": (STR, True), "from": (STR, True), "train": (STR, True),
                  "price": (INT, False), **unread({"trade_in": STR})},
    "discard_train": {"corporation": (STR, True), "train": (STR, True)},
    # a merger of ``corporation`` with ``with`` (1831 5.9: the operating company A and its
    # partner B, the type following from the two); a title adds what else it needs (1832
    # [11]: the proposing player, the kind and the System's letter)
    "merge": {"corporation": (STR, True), "with": (STR, True),
              **unread({"player": STR, "kind": STR, "system": STR})},
    # the other party's answer to a deal (game/steps/consent.py): ``play actions`` lists
    # it with the offer's terms; an accept may repeat them or leave them out
    "accept": {"player": (STR, True), "offer": (STR, False), "corporation": (STR, False),
               "private": (STR, False), "from": (STR, False), "train": (STR, False), "price": (INT, False)},
}


def declare(*shared: str, more_fields: dict | None = None, **own: dict) -> dict:
    """A title's action types: the shared types named (``undo`` always), with the fields
    ``more_fields`` adds to some of them (type -> {field: (kind, required)}), and its own
    ``type={field: (kind, required)}``."""
    unknown = [t for t in shared if t not in ACTIONS]
    if unknown:
        raise ValueError(f"no shared action type {unknown}")
    clash = [t for t in own if t in ACTIONS]
    if clash:
        raise ValueError(f"{clash} are shared action types: name them, do not redefine them")
    more = more_fields or {}
    return {"undo": ACTIONS["undo"], **{t: {**ACTIONS[t], **more.get(t, {})} for t in shared}, **own}


MAXINT = 2 ** 63   # as position.MAXINT: what the strict JSON reader lets through


def _is(value, kind):
    # by equality: a title may spell the kinds in its own module ("a string")
    if kind == STR:
        return isinstance(value, str)
    if kind == INT:
        return isinstance(value, int) and not isinstance(value, bool) and -MAXINT < value < MAXINT
    if kind == LIST:
        return isinstance(value, list)
    if kind == BOOL:
        return isinstance(value, bool)
    return True


def show(value, limit=40) -> str:
    """A value as a message quotes it: short, on one line (repr escapes control
    characters), safe for a number too long to print."""
    if isinstance(value, int) and not isinstance(value, bool) and not -MAXINT < value < MAXINT:
        return f"a number of {len(str(abs(value))) if abs(value) < 10 ** 4000 else 'over 4,000'} digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _closest(name, known):
    import difflib

    close = difflib.get_close_matches(name, known, n=1) if isinstance(name, str) else []
    return f" (did you mean {close[0]!r}?)" if close else ""


def validate(action, schema: dict, where="action") -> dict:
    """A copy of ``action`` with its fields checked against the title's declared types
    ``schema`` (type -> {field: (kind, required)}): types only, and no field the type
    does not declare."""
    from trainruns.position.reader import check_depth

    if not isinstance(action, dict):
        raise InputError("an action must be a JSON object", where)
    check_depth(action, where)   # as the JSON reader: 64 levels (a Python caller's too)
    kind = action.get("type")
    if not isinstance(kind, str):
        raise InputError("an action needs a string field 'type'", where)
    if kind not in schema:
        raise InputError(f"unknown action type {show(kind)}{_closest(kind, list(schema))} "
                         f"(known: {', '.join(schema)})", where)
    fields = schema[kind]
    for name in action:
        if name != "type" and name not in fields:
            listed = ", ".join(fields) or "none but 'type'"
            raise InputError(f"unknown field {show(name)} in a {kind} action{_closest(name, list(fields))} "
                             f"(its fields: {listed})", where)
    action = dict(action)
    for field in ("train", "trade_in"):
        if _is(action.get(field), INT):
            action[field] = str(action[field])  # train names: "2" or 2
    for name, (what, required) in fields.items():
        if name not in action:
            if required:
                raise InputError(f"a {kind} action needs the field {name!r}", where)
            continue
        value = action[name]
        if not _is(value, what):
            bound = " below 2^63 in size" if what == INT and isinstance(value, int) else ""
            raise InputError(f"field {name!r} of a {kind} action must be {what}{bound}, not {show(value)}", where)
    if kind == "run_routes":
        routes = action["routes"]
        if routes != "best" and not isinstance(routes, list):
            raise InputError("field 'routes' must be \"best\" or a list of routes", where)
    return action


# --- free amounts (docs/game-log.md "play actions": a free amount is listed once) --------

def free_amount(low: int, high: int):
    """An amount a player chooses between ``low`` and ``high`` as ``play actions`` lists
    it: the number itself when there is one choice, else ``{"min", "max"}``."""
    return low if low == high else {"min": low, "max": high}


def bounds(listed) -> tuple[int, int]:
    """The least and the most a listed amount (a number or ``{"min", "max"}``) allows."""
    return (listed["min"], listed["max"]) if isinstance(listed, dict) else (listed, listed)


def within(listed, value) -> bool:
    """Whether ``value`` is an amount the listed one (a number or ``{"min", "max"}``,
    with its ``"step"`` where it has one) allows."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    if isinstance(listed, dict):
        return listed["min"] <= value <= listed["max"] and (value - listed["min"]) % listed.get("step", 1) == 0
    return value == listed

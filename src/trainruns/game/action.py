"""Actions are plain records: dicts with a ``type`` and the fields that type needs.

:func:`validate` checks a record on entry (GAME-CONTRACT.md "The action log"): an
unknown type, a missing field or a field of the wrong JSON type is bad input
(:class:`~trainruns.errors.InputError`, exit 2). So is a field the action type does not
declare (issue 29: this project's format rule, stricter than GAME-CONTRACT.md, which
lets them be ignored): a misspelled ``"pirce"`` is refused, not dropped, and nothing
undeclared reaches the log. A whole number must lie below 2^63 in size, as in every
JSON file read (position.py). Whether the ids exist and the action is legal now is the
game's business.
"""

from __future__ import annotations

from ..errors import InputError

_STR, _INT, _LIST, _BOOL, _ANY = "a string", "an integer", "a list", "true or false", "anything"

# type -> {field: (kind, required)}
SCHEMA = {
    "pass": {"player": (_STR, False), "corporation": (_STR, False)},
    "undo": {},
    "buy_private": {"player": (_STR, False), "corporation": (_STR, False), "private": (_STR, True),
                    "price": (_INT, False), "from": (_STR, False)},
    "bid": {"player": (_STR, True), "private": (_STR, True), "price": (_INT, True)},
    "par": {"player": (_STR, True), "corporation": (_STR, True), "price": (_INT, True)},
    # kind: 1831's preferred or common stock (docs/game-1831.md)
    "buy_shares": {"player": (_STR, True), "corporation": (_STR, True), "from": (_STR, True),
                   "count": (_INT, False), "kind": (_STR, False)},
    "sell_shares": {"player": (_STR, True), "corporation": (_STR, True), "count": (_INT, True),
                    "kind": (_STR, False)},
    "protect": {"player": (_STR, True), "corporation": (_STR, True)},
    "redeem": {"player": (_STR, False), "corporation": (_STR, True), "from": (_STR, False)},
    "reissue": {"player": (_STR, False), "corporation": (_STR, True)},
    "exchange": {"player": (_STR, True), "private": (_STR, True), "corporation": (_STR, True)},
    "lay_tile": {"corporation": (_STR, True), "hex": (_STR, True), "tile": (_STR, True),
                 "rotation": (_INT, True)},
    "place_token": {"corporation": (_STR, True), "hex": (_STR, True), "stop": (_INT, False),
                    "kind": (_STR, False)},
    # a logged run records its revenue (a run declaring one it does not earn is refused),
    # and may say what the search proved when it was made (log.py: recorded_proof)
    "run_routes": {"corporation": (_STR, True), "routes": (_ANY, True), "revenue": (_INT, False),
                   "proven": (_BOOL, False), "bound": (_INT, False)},
    "dividend": {"corporation": (_STR, True), "kind": (_STR, True)},
    "buy_train": {"corporation": (_STR, True), "from": (_STR, True), "train": (_STR, True),
                  "price": (_INT, False), "trade_in": (_STR, False)},
    "discard_train": {"corporation": (_STR, True), "train": (_STR, True)},
    "trade_private": {"player": (_STR, True), "private": (_STR, True), "from": (_STR, True),
                      "price": (_INT, True)},
    "buy_token": {"corporation": (_STR, True), "kind": (_STR, True)},
    # a merger of ``corporation`` with ``with`` (1832 [11]: the proposing player, the
    # kind system/takeover and the System's letter; 1831 5.9: the operating company A and
    # its partner B, the type following from the two); what a title needs, it checks
    "merge": {"player": (_STR, False), "corporation": (_STR, True), "with": (_STR, True), "kind": (_STR, False),
              "system": (_STR, False)},
    "consent": {"player": (_STR, True), "corporation": (_STR, True), "with": (_STR, False), "kind": (_STR, False)},
    # 1831 (docs/game-1831.md): the GI drawer's seat swap, a company buying back its own
    # stock sold to the pool, track rights, mergers and takeovers
    "swap_seats": {"player": (_STR, True), "with": (_STR, True)},
    "company_buy": {"player": (_STR, True), "corporation": (_STR, True), "kind": (_STR, True),
                    "count": (_INT, True)},
    "track_right": {"corporation": (_STR, True), "hex": (_STR, True), "slot": (_INT, True)},
    # 1832's Southern Bank variant ([17.3])
    "mortgage": {"corporation": (_STR, True), "player": (_STR, False), "asset": (_STR, True),
                 "amount": (_INT, True)},
    "repay_mortgage": {"corporation": (_STR, True), "player": (_STR, False), "amount": (_INT, True)},
}


MAX_INT = 2 ** 63   # as position.MAX_INT: what the strict JSON reader lets through


def _is(value, kind):
    # by equality: a title may spell the kinds in its own module ("a string")
    if kind == _STR:
        return isinstance(value, str)
    if kind == _INT:
        return isinstance(value, int) and not isinstance(value, bool) and -MAX_INT < value < MAX_INT
    if kind == _LIST:
        return isinstance(value, list)
    if kind == _BOOL:
        return isinstance(value, bool)
    return True


def show(value, limit=40) -> str:
    """A value as a message quotes it: short, on one line (repr escapes control
    characters), safe for a number too long to print."""
    if isinstance(value, int) and not isinstance(value, bool) and not -MAX_INT < value < MAX_INT:
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


def validate(action, where="action", schema=None) -> dict:
    """A copy of ``action`` with its fields checked against ``schema`` (type ->
    {field: (kind, required)}; default: :data:`SCHEMA`): types only, and no field the
    type does not declare."""
    from ..position import check_depth

    schema = SCHEMA if schema is None else schema
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
        if _is(action.get(field), _INT):
            action[field] = str(action[field])  # train names: "2" or 2
    for name, (what, required) in fields.items():
        if name not in action:
            if required:
                raise InputError(f"a {kind} action needs the field {name!r}", where)
            continue
        value = action[name]
        if not _is(value, what):
            bound = " below 2^63 in size" if what == _INT and isinstance(value, int) else ""
            raise InputError(f"field {name!r} of a {kind} action must be {what}{bound}, not {show(value)}", where)
    if kind == "run_routes":
        routes = action["routes"]
        if routes != "best" and not isinstance(routes, list):
            raise InputError("field 'routes' must be \"best\" or a list of routes", where)
    return action


# --- free amounts (GAME-CONTRACT.md "play actions": a free amount is listed once) --------

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

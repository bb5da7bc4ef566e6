"""The JSON Schemas of trainruns' input files, and the one check that applies them.

Every object of a position, of its map and of a declared run has a schema here
(``position-custom.json``, ``position-1831.json``, ``position-1832.json``,
``position-1833NE.json``, ``declared.json``; shared pieces in ``common.json``). They
are shipped as package data and copied to docs/schema/ for editors. A position's
top-level fields stay free (docs/position-format.md, "Position file": fields the project
does not use are ignored); inside every object an unknown key is bad input, so a typo
(``"rotaton"``) can no longer change an answer in silence.

The schemas also hold the caps that no real game comes near (docs/custom-map.md,
"Limits"): 5,000 hexes, 100 trains, $100,000 a value, ASCII digits only.

The validator is the ``jsonschema`` library (draft 2020-12); this module only turns its
first error into one line saying what, where and, for a misspelled key, what was meant.
Data that ``jsonschema_rs`` (the same draft, compiled) accepts is not walked again by
``jsonschema``, whose import alone is a fifth of a whole in-process solve.
The semantic checks (does the hex exist, is the tile an upgrade) stay with the readers.
"""

from __future__ import annotations

import difflib
import json
from functools import lru_cache
from importlib import resources

from trainruns.errors import InputError

COMMON = "common.json"
SCHEMAS = {
    "custom": "position-custom.json",
    "1831": "position-1831.json",
    "1832": "position-1832.json",
    "1833NE": "position-1833NE.json",
    "declared": "declared.json",
}


@lru_cache(maxsize=None)
def schema_files() -> dict[str, dict]:
    """File name -> parsed schema, for every schema shipped in this package."""
    out = {}
    for entry in resources.files(__package__).iterdir():
        if entry.name.endswith(".json"):
            out[entry.name] = json.loads(entry.read_text(encoding="utf-8"))
    return out


def bundled(name: str, base: str | None = None) -> dict:
    """Schema file ``name`` with every ``$ref`` replaced by what it points to (the
    schemas have no cycles). The checker validates this self-contained copy: the same
    rules, without a reference lookup per hex, so a 5,000-hex map is checked quickly."""
    return _inline(schema_files()[name], name, {})


def _inline(node, base, memo):
    if isinstance(node, list):
        return [_inline(x, base, memo) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: _inline(v, base, memo) for k, v in node.items() if k not in ("$ref", "$defs")}
    ref = node.get("$ref")
    if ref is None:
        return out
    target_file, _, pointer = ref.partition("#")
    target_file = target_file or base
    key = (target_file, pointer)
    if key not in memo:
        memo[key] = _inline(_pointer(schema_files()[target_file], pointer), target_file, memo)
    # {"$ref": X, more...} means "X and more" (draft 2020-12), which is an allOf
    return {**out, "allOf": [memo[key]]} if out else memo[key]


@lru_cache(maxsize=None)
def _validator(kind):
    from jsonschema import Draft202012Validator

    return Draft202012Validator(bundled(SCHEMAS[kind]))


@lru_cache(maxsize=None)
def _acceptor(kind):
    """A second implementation of draft 2020-12 (``jsonschema_rs``, compiled: it loads
    in a third of the time ``jsonschema`` takes, 20 ms against 52, and checks a
    position in 0.1 ms) that only says whether data fits; None when it is not installed."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    return jsonschema_rs.validator_for(bundled(SCHEMAS[kind]))


def accepts(data, kind: str) -> bool:
    """Whether the fast acceptor passes ``data`` (False when it is not installed, or
    cannot read the data: a number beyond 64 bits)."""
    fast = _acceptor(kind)
    if fast is None:
        return False
    try:
        return fast.is_valid(data)
    except Exception:  # noqa: BLE001 (whatever it cannot read, jsonschema judges)
        return False


def check(data, kind: str, where: str) -> None:
    """Raise :class:`InputError` (one line) unless ``data`` fits schema ``kind``
    (``custom``, ``1831``, ``1832``, ``1833NE`` or ``declared``).

    Data the fast acceptor (:func:`_acceptor`) passes is done with; anything else goes
    to ``jsonschema``, which has the last word and words the error. Both implement the
    same draft on the same schemas (tests/position/test_schema_acceptor.py: they agree on every
    shipped position and every bad input of the mutation tests)."""
    if accepts(data, kind):
        return
    from jsonschema.exceptions import best_match, by_relevance

    # of two errors on one object, the unknown key (a typo, with its hint) comes first
    error = best_match(_validator(kind).iter_errors(data), key=by_relevance(strong={"additionalProperties"}))
    if error is not None:
        raise InputError(*_explain(error, where))


# --- one line from a jsonschema error ---------------------------------------------------


def _explain(error, where):
    """(what, where) for the error: the field's path in the file, and a sentence."""
    path = _path(error.absolute_path)
    place = f"{where}: {path}" if path else where
    instance, validator = error.instance, error.validator
    if validator == "additionalProperties":
        known = _known_keys(error.schema)
        unknown = sorted(k for k in instance if k not in known)
        if unknown:
            name = unknown[0]
            hint = _did_you_mean(name, [k for k in known if k not in instance])
            return f"unknown field '{name}'{hint} (known: {', '.join(sorted(known))})", place
    if validator == "required":
        missing = next(k for k in error.validator_value if k not in instance)
        known = _known_keys(error.schema)
        typo = difflib.get_close_matches(missing, [k for k in instance if k not in known], 1, 0.6)
        hint = f" (is '{typo[0]}' a typo of it?)" if typo else ""
        what = known[missing].get("description") if isinstance(known.get(missing), dict) else None
        return f"missing field '{missing}'" + (f": {what}" if what else "") + hint, place
    what = _description(error)
    if validator in ("maxItems", "maxProperties"):
        return f"lists {len(instance):,} entries, more than the {error.validator_value:,} allowed ({what})", place
    if validator == "maximum":
        return f"{_show(instance)} is more than {error.validator_value:,}: must be {what}", place
    if what:
        return f"must be {what}, not {_show(instance)}", place
    return error.message[:200], place


def _path(parts):
    text = ""
    for p in parts:
        text += f"[{p}]" if isinstance(p, int) else (f".{p}" if text else str(p))
    return text


def _description(error):
    """The nearest description of the failing schema (a branch of an anyOf has none of
    its own: its parent says what the field is)."""
    e = error
    while e is not None:
        if isinstance(e.schema, dict) and "description" in e.schema:
            return e.schema["description"]
        e = e.parent
    return ""


def _show(value):
    if isinstance(value, list):
        return f"a list of {len(value)}" if len(value) > 3 else json.dumps(value)[:40]
    if isinstance(value, dict):
        return "an object"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _did_you_mean(name, candidates):
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _known_keys(schema) -> dict:
    """Property name -> its schema, for the properties an object schema allows (its own
    and those of the schemas it extends through ``allOf``)."""
    keys, todo = {}, [schema]
    while todo:
        s = todo.pop()
        if isinstance(s, dict):
            for name, sub in s.get("properties", {}).items():
                keys.setdefault(name, sub)
            todo.extend(s.get("allOf", []))
    return keys


def _pointer(doc, pointer):
    """The node a JSON pointer such as ``/$defs/hex`` names in ``doc`` (None: none)."""
    node = doc
    for part in [p for p in pointer.split("/") if p]:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node

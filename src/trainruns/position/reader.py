"""Read a position file, and the field readers the titles check a position with.

A position either names a shipped ``title`` (its base map, tiles and rules apply) or
carries its own ``map`` (plain rules: the custom title, :mod:`trainruns.titles.custom`).
The format is docs/position-format.md; these readers check it field by field so that bad
input fails with one line saying what and where.
"""

from __future__ import annotations

import functools
import json
import math
import re

from trainruns.errors import InputError
from trainruns.route.board import CITY, OFFBOARD, STOP_KINDS, Board, Hex, Stop
from trainruns.route.hexgrid import parse_hex_id

_END = re.compile(r"^([sj])([0-9]+)$")  # ASCII digits only


# Limits of the JSON reader (docs/custom-map.md, "Limits"): no real position comes near
# them, and each one refused says so in one line instead of exhausting memory or stack.
MAX_FILE_BYTES = 8 * 1024 * 1024   # a 5,000-hex map is about 1 MB
MAX_DEPTH = 64                     # a position nests about 6 levels deep
MAX_INT = 2 ** 63                  # whole numbers fit in 64 bits (values are capped lower)


def read_json(path, what="position"):
    """Load a JSON file; malformed JSON names the file, line and column.

    Refused as bad input: a file over ``MAX_FILE_BYTES`` (read no further, so
    ``/dev/zero`` stops at once), and whatever :func:`parse_json` refuses."""
    where = str(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"no such {what} file", where) from None
    except IsADirectoryError:
        raise InputError(f"is a folder, not a {what} file", where) from None
    except OSError as e:
        raise InputError(f"cannot read the {what} file ({e.strerror})", where) from None
    return parse_json(raw, where, what)


def parse_json(raw, where, what="position"):
    """The one strict JSON reader: positions, declared routes, game logs, actions typed
    on the command line, ``play serve`` lines and the web page's request bodies all come
    through here (``raw``: bytes or text).

    Refused as bad input: more than ``MAX_FILE_BYTES``, text that is not UTF-8 (or
    holds lone surrogates), nesting deeper than ``MAX_DEPTH``, a whole number of 2^63 or
    more (also one of more than 4,300 digits), a number too large for a float, NaN /
    Infinity, and a key written twice in one object (JSON leaves its meaning to the
    reader: the last one would win unseen, a log's title or an action's player)."""
    if isinstance(raw, str):
        try:
            raw = raw.encode("utf-8")
        except UnicodeEncodeError as e:   # a lone surrogate: bytes that were not UTF-8
            raise InputError(f"not UTF-8 text ({e.reason})", where) from None
    if len(raw) > MAX_FILE_BYTES:
        raise InputError(f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB, the limit for a {what}", where)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text ({e.reason})", where) from None
    # a whole number below 2^63 has at most 19 digits, and one of 18 or fewer is always
    # below it: with no run of 19 digits anywhere (none in a real position), the C
    # parser's own int() reads every number the check would let through
    whole = (lambda s: _whole(s, where)) if _NINETEEN_DIGITS in raw.translate(_DIGITS_AS_ZERO) else None
    try:
        data = json.loads(text, parse_int=whole, parse_float=lambda s: _real(s, where),
                          parse_constant=lambda s: _constant(s, where),
                          object_pairs_hook=lambda pairs: _object(pairs, where))
    except json.JSONDecodeError as e:
        raise InputError(f"malformed JSON at line {e.lineno}, column {e.colno}: {e.msg}", where) from None
    except RecursionError:
        raise InputError(f"JSON nested more than {MAX_DEPTH} levels deep", where) from None
    if _text_nesting(raw) > MAX_DEPTH:
        # every key read once, the text nests exactly as deep as what was read
        raise InputError(f"JSON nested more than {MAX_DEPTH} levels deep", where)
    return data


def _object(pairs: list, where: str) -> dict:
    """A JSON object, each key once (:func:`parse_json`)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise InputError(f"the key {twice!r} is written twice in one object", where)
    return out


_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_NINETEEN_DIGITS = b"0" * 19
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_BRACKETS = bytes.maketrans(b"[{]}", b"(())")
_NOT_BRACKET = bytes(c for c in range(256) if c not in b"[]{}")


def _text_nesting(raw):
    """How deep the arrays and objects of JSON text ``raw`` (bytes, read without error)
    nest (as deep as what was read: no key is read twice), counted past ``MAX_DEPTH``
    to one more only. The strings dropped, then the brackets only, each pass dropping the innermost
    pairs: a few passes in C, where walking what was read costs a call for each value."""
    if b"\\" in raw:
        outside = _STRING.sub(b"", raw)
    else:  # (no escaped quote: the quotes alternate, strings at the odd places)
        outside = b"".join(raw.split(b'"')[::2])
    brackets = outside.translate(_BRACKETS, _NOT_BRACKET)
    depth = 0
    while brackets and depth <= MAX_DEPTH:
        brackets = brackets.replace(b"()", b"")
        depth += 1
    return depth


def _whole(text, where):
    digits = text.lstrip("-")
    if len(digits) > 19 or not -MAX_INT < int(text) < MAX_INT:
        shown = text if len(text) <= 24 else f"{text[:20]}... ({len(digits):,} digits)"
        raise InputError(f"number {shown} is too large (whole numbers must be below 2^63)", where)
    return int(text)


def _real(text, where):
    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"number {text[:24]} is too large", where)
    return value


def _constant(text, where):
    raise InputError(f"{text} is not a JSON number", where)


def check_depth(data, where):
    """Refuse nesting deeper than ``MAX_DEPTH`` (walked without recursion)."""
    todo = [(data, 1)]
    while todo:
        node, depth = todo.pop()
        if isinstance(node, (dict, list)):
            if depth > MAX_DEPTH:
                raise InputError(f"JSON nested more than {MAX_DEPTH} levels deep", where)
            todo.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))


# --- field readers shared with the titles -------------------------------------------


def require(obj, key, kind, where):
    if not isinstance(obj, dict) or key not in obj:
        raise InputError(f"missing field '{key}'", where)
    value = obj[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise InputError(f"field '{key}' must be {_article(names)}, not {json.dumps(value)[:40]}", where)
    return value


def _article(name):
    return {"dict": "an object", "list": "a list", "str": "a string", "int": "a whole number"}.get(name, name)


def read_bool(data, key, where):
    """An optional true/false field (absent or null: false)."""
    value = data.get(key, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise InputError(f"field '{key}' must be true or false, not {value!r}", where)
    return value


def parse_layout(m, where):
    layout = m.get("layout", "flat")
    if layout not in ("flat", "pointy"):
        raise InputError(f"layout must be 'flat' or 'pointy', not {layout!r}", f"{where}: map")
    return layout


def parse_axes(m, where):
    axes = m.get("axes", {"x": "letter", "y": "number"})  # its keys and words: the schema's
    if sorted(axes.values()) != ["letter", "number"]:
        raise InputError("axes must be {'x': 'letter', 'y': 'number'} or {'x': 'number', 'y': 'letter'}",
                         f"{where}: map")
    return dict(axes)


def parse_phases(phases, where):
    if phases is None:
        return []
    if not isinstance(phases, list) or not all(isinstance(p, (str, int)) for p in phases):
        raise InputError("phases must be a list of phase names", f"{where}: map")
    names = [str(p) for p in phases]
    if len(set(names)) != len(names):
        raise InputError("a phase is listed twice", f"{where}: map.phases")
    return names


def parse_phase(data, phases, where):
    if "phase" not in data:
        if phases:
            raise InputError("missing field 'phase'", where)
        return ""
    phase = data["phase"]
    if not isinstance(phase, (str, int)) or isinstance(phase, bool):
        raise InputError(f"phase must be a phase name, not {phase!r}", where)
    phase = str(phase)
    if phases and phase not in phases:
        raise InputError(f"phase {phase!r} is not one of the map's phases {phases}", where)
    return phase


def parse_corporation(data, where):
    corp = data.get("corporation")
    if not isinstance(corp, str) or not corp:
        raise InputError("missing field 'corporation' (the company that runs)", where)
    return corp


def parse_trains(data, where, parse_one):
    trains = data.get("trains", [])
    if not isinstance(trains, list):
        raise InputError("field 'trains' must be a list of train names", where)
    return [parse_one(t, f"{where}: trains[{i}]") for i, t in enumerate(trains)]


def over_limit(data, counted: int, limit: int, message: str, rule: str, where: str) -> None:
    """The train limit of a title's position: ``counted`` trains against ``limit``. A
    company over it is bad input unless the position says ``must_discard`` (a game's
    position before the president has discarded the excess, ``rule``); saying so of a
    company within its limit is bad input too."""
    if read_bool(data, "must_discard", where):
        if counted <= limit:
            raise InputError(f"field 'must_discard': {counted} trains are within the limit of {limit}, so there "
                             f"is nothing to discard {rule}", where)
    elif counted > limit:
        raise InputError(f"{message} (a game's position before the discard says \"must_discard\": true {rule})",
                         f"{where}: trains")


def phase_value(value, phases, phase, where):
    """A number, or a map phase -> number where a missing phase takes the entry of the
    latest earlier phase (docs/position-format.md)."""
    if isinstance(value, bool):
        raise InputError(f"value must be a number, not {value!r}", where)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if not isinstance(value, dict):
        raise InputError(f"value must be a number or a map phase -> number, not {json.dumps(value)[:40]}", where)
    if not phases:
        raise InputError("value depends on the phase but the map lists no 'phases'", where)
    for key, v in value.items():
        if key not in phases:
            raise InputError(f"value names phase {key!r}, which is not one of {phases}", where)
        if isinstance(v, bool) or not isinstance(v, int):
            raise InputError(f"value for phase {key!r} must be a whole number, not {v!r}", where)
    for p in reversed(phases[: phases.index(phase) + 1]):
        if p in value:
            return value[p]
    raise InputError(f"value has no entry for phase {phase!r} or any earlier phase", where)


def parse_stop(s, phases, phase, where) -> Stop:
    if not isinstance(s, dict):
        raise InputError("a stop must be an object with 'kind' and 'value'", where)
    kind = s.get("kind")
    if kind not in STOP_KINDS:
        raise InputError(f"stop kind must be one of {', '.join(STOP_KINDS)}, not {kind!r}", where)
    if "value" not in s:
        raise InputError("stop has no 'value'", where)
    value = phase_value(s["value"], phases, phase, where)
    slots = s.get("slots", 1 if kind == CITY else 0)
    if isinstance(slots, bool) or not isinstance(slots, int) or slots < 0:
        raise InputError(f"slots must be a whole number of token spaces, not {slots!r}", where)
    if kind != CITY and slots:
        raise InputError(f"only a city has token slots, not a {kind}", where)
    return Stop(kind=kind, value=value, slots=slots, name=s.get("name"))


def parse_end(end, n_stops, n_junctions, where):
    if isinstance(end, int) and not isinstance(end, bool):
        if not 0 <= end <= 5:
            raise InputError(f"path end {end} is not a hex side (0-5)", where)
        return ("side", end)
    if isinstance(end, str) and (m := _END.match(end)):
        k = int(m.group(2))
        if m.group(1) == "s":
            if k >= n_stops:
                raise InputError(f"path end {end!r} names stop {k}, but the hex has {n_stops} stop(s)", where)
            return ("stop", k)
        if k >= n_junctions:
            raise InputError(f"path end {end!r} names junction {k}, but the hex has {n_junctions}", where)
        return ("junction", k)
    raise InputError(f"path end {end!r} is neither a hex side 0-5 nor a stop 'sK'", where)


def parse_paths(paths, n_stops, n_junctions, where, rotation=0):
    if not isinstance(paths, list):
        raise InputError("paths must be a list of [end, end] pairs", where)
    out, seen = [], set()
    for j, p in enumerate(paths):
        if not isinstance(p, list) or len(p) != 2:
            raise InputError(f"a path joins exactly two ends, not {json.dumps(p)[:40]}", f"{where}.paths[{j}]")
        try:
            a, b = _end(p[0], n_stops, n_junctions), _end(p[1], n_stops, n_junctions)
        except InputError:  # (read again, to say where it was refused)
            a, b = (parse_end(e, n_stops, n_junctions, f"{where}.paths[{j}]") for e in p)
        if rotation:
            a, b = (_rotate(a, rotation), _rotate(b, rotation))
        if a == b:
            raise InputError(f"a path cannot join {p[0]!r} to itself", f"{where}.paths[{j}]")
        key = frozenset((a, b))
        if key in seen:
            continue  # the same track written twice (engine exports do this) is one track
        seen.add(key)
        out.append((a, b))
    return out


def _end(end, n_stops, n_junctions):
    """:func:`parse_end` of ``end``, kept per distinct end (a map writes a few dozen:
    sides 0-5, a hex's first stops and junctions)."""
    kind = type(end)
    if kind is int or kind is str:
        return _kept_end(kind, end, n_stops, n_junctions)
    return parse_end(end, n_stops, n_junctions, None)


@functools.lru_cache(maxsize=1024)
def _kept_end(kind, end, n_stops, n_junctions):
    # the type is part of the key, as True == 1 and 1.0 == 1 are not hex sides; a
    # refusal is not kept (lru_cache keeps results only)
    return parse_end(end, n_stops, n_junctions, None)


def _rotate(end, rotation):
    return ("side", (end[1] + rotation) % 6) if end[0] == "side" else end


def parse_hex(h, layout, axes, phases, phase, where) -> Hex:
    if not isinstance(h, dict):
        raise InputError("a hex must be an object with 'id', 'stops' and 'paths'", where)
    hex_id = h.get("id")
    x, y = parse_hex_id(hex_id, axes, where)
    where = f"{where} ({hex_id})"
    stops_raw = h.get("stops", [])
    if not isinstance(stops_raw, list):
        raise InputError("stops must be a list", where)
    stops = [parse_stop(s, phases, phase, f"{where}.stops[{k}]") for k, s in enumerate(stops_raw)]
    junctions = h.get("junctions", 0)
    if isinstance(junctions, bool) or not isinstance(junctions, int) or junctions < 0:
        raise InputError("junctions must be a whole number", where)
    paths = parse_paths(h.get("paths", []), len(stops), junctions, where)
    return Hex(id=hex_id, x=x, y=y, stops=stops, paths=paths, junctions=junctions, name=h.get("name"))


def check_coordinates_unique(hexes, where):
    """Two ids may not name one place, and in doubled coordinates every hex of a map
    has the same parity of x + y (else an id is off the grid)."""
    seen, parity = {}, None
    for hx in hexes.values():
        if parity is None:
            parity, first = (hx.x + hx.y) % 2, hx.id
        elif (hx.x + hx.y) % 2 != parity:
            raise InputError(f"hex {hx.id} is off the map's grid (hexes {first} and {hx.id} cannot both "
                             "exist in doubled coordinates: check the map's axes)", where)
        key = (hx.x, hx.y)
        if key in seen:
            raise InputError(f"hexes {seen[key]} and {hx.id} are the same place on the map", where)
        seen[key] = hx.id


def place_tokens(board: Board, tokens, where):
    """Put station tokens on cities; a token needs a city with a free slot."""
    if not isinstance(tokens, list):
        raise InputError("field 'tokens' must be a list", where)
    for i, t in enumerate(tokens):
        w = f"{where}: tokens[{i}]"
        if not isinstance(t, dict):
            raise InputError("a token must be an object with 'hex', 'stop' and 'corporation'", w)
        hex_id = t.get("hex")
        if hex_id not in board.hexes:
            raise InputError(f"unknown hex {hex_id!r}", w)
        hx = board.hexes[hex_id]
        k = t.get("stop", 0)
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(hx.stops):
            raise InputError(f"hex {hex_id} has no stop {k!r} (it has {len(hx.stops)})", w)
        stop = hx.stops[k]
        if stop.kind != CITY:
            raise InputError(f"{hex_id}.{k} is a {stop.kind}; tokens go on cities", w)
        corp = t.get("corporation")
        if not isinstance(corp, str) or not corp:
            raise InputError("token has no 'corporation'", w)
        if corp in stop.tokens:
            raise InputError(f"{corp} already has a token on {hex_id}.{k}", w)
        if len(stop.tokens) >= stop.slots:
            raise InputError(f"{hex_id}.{k} has {stop.slots} slot(s), all taken ({', '.join(stop.tokens)})", w)
        stop.tokens.append(corp)


__all__ = ["read_json", "parse_json", "InputError", "OFFBOARD"]

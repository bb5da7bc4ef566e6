"""A title's config file, checked as it loads (docs/game-1831.md: what the rulebook lacks
comes from a config): its shape against a JSON Schema of ``position/schema/``, and the
files it names read in, each failure one line naming where (InputError, exit 2)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from trainruns.errors import InputError
from trainruns.titles.tiled import load_data


@lru_cache(maxsize=None)
def _validator(schema: str):
    # trainruns/position/schema/ is package data beside the position schemas (not imported as a
    # package here, so this module does not depend on the schema package's code); built
    # once per process: a game loads its config at every replay
    import jsonschema

    path = Path(__file__).resolve().parents[1] / "position" / "schema" / schema
    return jsonschema.Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


def _all(errors):
    """The errors and those under their anyOf branches."""
    for e in errors:
        yield e
        yield from _all(e.context or ())


def check_schema(data, schema: str, where: str = "config"):
    """The config's shape (JSON Schema draft 2020-12, the file ``schema``): the first
    error as one line, where ``where`` followed by the path in the config."""
    import jsonschema

    errors = list(_validator(schema).iter_errors(data))
    e = jsonschema.exceptions.best_match(errors)
    if e is not None:
        # best_match descends into oneOf/anyOf to the error deepest in the data
        while e.context:
            e = max(e.context, key=lambda x: len(list(x.absolute_path)))
        message = e.message
        if e.validator == "required":
            # a misspelt key is both missing and unexpected: say both
            extra = [x for x in _all(errors) if x.validator == "additionalProperties"
                     and list(x.absolute_path) == list(e.absolute_path)]
            if extra:
                message += f" ({extra[0].message}: a misspelling?)"
        message = " ".join(message.split())   # one line, whatever the value holds
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e.absolute_path)
        raise InputError(message if len(message) < 200 else message[:200] + "...", where + path)


def read_part(ref, package: str | None, what: str):
    """A part of the config (its map, its tiles): inline, a data file of the title's
    ``package`` (the shipped config), or a file path (relative to the working directory)."""
    if isinstance(ref, dict):
        return ref
    if package is not None:
        return load_data(package, ref)
    p = Path(ref)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        where = "" if p.is_absolute() else f" (a relative name is read from the working directory, {Path.cwd()})"
        raise InputError(f"cannot read the {what} file {ref!r}: {e.strerror}{where}", f"config.{what}") from None
    except json.JSONDecodeError as e:
        raise InputError(f"the {what} file {ref!r} is not JSON: {e.msg} (line {e.lineno})", f"config.{what}") from None
    except UnicodeDecodeError:
        raise InputError(f"the {what} file {ref!r} is not UTF-8 text", f"config.{what}") from None


def load_config(config, title: str, package: str, shipped: str, schema: str, parts=()):
    """A game's config (docs/game-1831.md, docs/game-1833NE.md: what the rulebook
    lacks): ``config`` as given, or, when None, the title's shipped one (the data file
    ``shipped`` of ``package``); a JSON object of the shape of ``schema``. The files its
    ``parts`` name (1831's map and tiles) are read in first (:func:`read_part`), so one
    pass of the schema checks them with the rest (their errors named config.map...); a
    file that cannot be read is reported after the config's own shape. Returns the
    config, the parts read in and whether it is the shipped one."""
    is_shipped = config is None
    data = load_data(package, shipped) if is_shipped else config
    if not isinstance(data, dict):
        raise InputError(f"the {title} config must be a JSON object (docs/game-{title}.md)", "config")
    read, unread = {}, None
    for k in parts:
        if isinstance(data.get(k), str) and data[k]:
            try:
                read[k] = read_part(data[k], package if is_shipped else None, k)
            except InputError as e:
                unread = unread or e
    check_schema(dict(data, **read), schema)
    if unread:
        raise unread
    return data, read, is_shipped

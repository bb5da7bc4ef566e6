"""The 1831 readings a position chooses, ``"rules": {...}`` (docs/rules-1831.md, "Choices
where the rulebook is unclear"; each is listed in docs/gaps.md).

- ``pass_own_tokens`` (default true): may a train pass one of its own tokens it could run
  to without running to it (5.6.2.3, 5.6.2.5)?
- ``delaware_south`` (default ``"enter"``): 5.6.2.1 lets the Delaware large city "be run
  to twice by the same train, as long as the train runs to both cities south of the large
  city before returning". ``"enter"``: the train enters both cities between its visits;
  ``"run_to"``: it runs to a token in each of them.
- ``mixed_counts`` (default none): 5.6.2.3 "Mixed trains may only run to the correct
  number of each type of token for that train". The counts printed on a mixed train are
  in no source; ``{"4MX": {"station": 2, "yard": 2}}`` gives them as the most Stations and
  Rail Yards that train runs to. Without it a mixed train runs to at least one of each
  type and any mix up to its size.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trainruns.errors import InputError
from trainruns.titles.g1831.route.trains import MIXED, parse_train_name

DELAWARE = ("enter", "run_to")


@dataclass(frozen=True)
class Options1831:
    strict: bool = False           # pass_own_tokens: false
    delaware_south: str = "enter"
    mixed_counts: dict = field(default_factory=dict)   # "4MX" -> {"station": 2, "yard": 2}


def read_options(data, where) -> Options1831:
    """The position's ``rules`` object, checked."""
    rules = data.get("rules", {})
    w = f"{where}: rules"
    if not isinstance(rules, dict):
        raise InputError("field 'rules' must be an object", where)
    # an unknown option is refused by the schema (schema/position-1831.json), with a hint
    value = rules.get("pass_own_tokens", True)
    if not isinstance(value, bool):
        raise InputError("rules.pass_own_tokens must be true or false", w)
    south = rules.get("delaware_south", "enter")
    if south not in DELAWARE:
        raise InputError(f"rules.delaware_south must be 'enter' or 'run_to', not {south!r}", w)
    return Options1831(strict=not value, delaware_south=south,
                       mixed_counts=_mixed_counts(rules.get("mixed_counts", {}), w))


def _mixed_counts(raw, where):
    if not isinstance(raw, dict):
        raise InputError("rules.mixed_counts must be an object such as {\"4MX\": {\"station\": 2, \"yard\": 2}}",
                         where)
    out = {}
    for name, counts in raw.items():
        w = f"{where}.mixed_counts.{name}"
        tt = parse_train_name(name, w)
        if tt.type != MIXED:
            raise InputError(f"{name} is not a mixed train; mixed_counts is for MX trains (5.6.2.3)", w)
        if not isinstance(counts, dict) or set(counts) != {"station", "yard"}:
            raise InputError("give the train's counts as {\"station\": n, \"yard\": m}", w)
        for k, n in counts.items():
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= tt.size:
                raise InputError(f"{k} count must be a whole number from 1 to {tt.size}, not {n!r}", w)
        out[tt.name] = dict(counts)
    return out

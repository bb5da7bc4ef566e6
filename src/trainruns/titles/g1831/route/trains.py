"""1831 trains and phases: typed trains (S, MX, YD), token values, retirement.

Rule sections (1831 rulebook):

- 3.3: "S" trains run to Stations only, "MX" to mixed-type tokens, "YD" to Rail Yards
  only; a train is named by its size and type: "3S", "4MX", "2YD".
- 5.2.7.5: a Station adds $10 to a city, $20 from the first 5-train, $30 from the first
  9-train; a Rail Yard adds $20 / $30 / $50 (data/phases.json, each phase's ``tokens``).
- 5.3.5, 5.3.6: 2-trains retire with the first 5-train, 3s with the first 6, 4s with the
  first 7, 5s with the first 9, 6s with the first 15 (7-trains and up never retire,
  5.3.10; data/trains.json, ``rusts_on``); a corporation in receivership keeps running
  its obsolete trains.
- 5.1, 5.6.1: USED trains do not run; RESTORED trains run normally.

The phase of a position is the number of the largest train bought so far ("5" once the
first 5-train has been bought), as the rule changes of 5.3.5 are keyed to it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from trainruns.errors import InputError
from trainruns.route.board import Train
from trainruns.titles.tiled import load_data

STATION, YARD, MIXED = "S", "YD", "MX"
TYPES = (STATION, MIXED, YARD)
_NAME = re.compile(r"^\s*(\d+)\s*(S|MX|YD)\s*$", re.IGNORECASE)



@cache
def train_table() -> tuple:
    """data/trains.json's trains (18xx.games shape: name, distance, price, num,
    rusts_on, obsolete_on; ``variants`` the types sold, 3.3)."""
    return tuple(load_data("trainruns.titles.g1831", "trains.json")["trains"])


@cache
def phase_table() -> tuple:
    """data/phases.json's phases (18xx.games shape: name, on, train_limit, tiles,
    operating_rounds, status; ``tokens`` their costs and values, 5.2.7.4-5), the one
    table of 1831's phases: the route rules and the game read it."""
    return tuple(load_data("trainruns.titles.g1831", "phases.json")["phases"])


def phase_row(phase: int) -> dict:
    """The phase in force when ``phase`` is the largest train bought (a position may say
    "8": 5.3.5 changes the rules only with the trains the table names)."""
    return [p for p in phase_table() if int(p["name"]) <= phase][-1]


def retires_at() -> dict:
    """Train size -> the size of the first train that retires it (5.3.5)."""
    return {t["distance"]: int(t["rusts_on"]) for t in train_table() if t["rusts_on"] is not None}


@dataclass(frozen=True)
class TrainType:
    """What an 1831 train may run to: ``size`` tokens at most, of ``type``."""

    size: int
    type: str

    @property
    def name(self):
        return f"{self.size}{self.type}"


# 5.6.7: the smallest Station train that may run a commuter run
COMMUTER_MIN_SIZE = 5


def may_commute(train) -> bool:
    """5.6.7: whether ``train`` (anything with a ``type`` and a ``size``: a TrainType, a
    priced kind) may run a commuter run: a Station train of COMMUTER_MIN_SIZE or more."""
    return train.type == STATION and train.size >= COMMUTER_MIN_SIZE


def parse_train_name(name, where=None) -> TrainType:
    """3.3: "<size><S|MX|YD>", for example "3S", "4MX", "2YD" (any case)."""
    if isinstance(name, int) and not isinstance(name, bool):
        raise InputError(f"unknown train kind {name!r}: an 1831 train names its token type, "
                         f"such as '{name}S', '{name}MX' or '{name}YD'", where)
    m = _NAME.match(name) if isinstance(name, str) else None
    if not m:
        raise InputError(f"unknown train kind {name!r} (1831 trains are '<size>S' for Stations, "
                         "'<size>MX' for mixed, '<size>YD' for Rail Yards, such as '3S', '4MX', '2YD')", where)
    size = int(m.group(1))
    if size < 2:
        raise InputError(f"train {name!r}: an 1831 train runs to at least two tokens (5.6.2.5)", where)
    return TrainType(size, m.group(2).upper())


def phase_number(phase: str, where) -> int:
    """The position's phase as the size of the largest train bought so far."""
    try:
        n = int(phase)
    except (TypeError, ValueError):
        n = 0
    if n < 2:
        raise InputError(f"an 1831 phase is the size of the largest train bought so far "
                         f"('2', '3', ..., '15'), not {phase!r}", where)
    return n


def token_values(phase: int) -> dict:
    """5.2.7.5: what a Station / Rail Yard adds to its city for its owner."""
    return {kind: t["value"] for kind, t in phase_row(phase)["tokens"].items()}


def is_retired(size: int, phase: int) -> bool:
    """5.3.5: the size's trains were retired by the first train of their ``rusts_on``."""
    retires = retires_at()
    return size in retires and phase >= retires[size]


def game_phases() -> list:
    """The phases in the words of the game engine (the shared :class:`~trainruns.game.phase.Phases`
    rows, whose ``on`` and ``status`` they keep), each from the one table: ``colors`` (the tiles), ``tokens_per_city`` (5.2.7.6: a Station and a Rail Yard
    from the first 3-train), ``block`` (5.2.4.3: blocks of 2, then 4), ``station`` and
    ``yard`` as [cost, value] (5.2.7.4-5). The trains it retires (5.3.5) are the
    shared Phases' ``scrapped_at``, read from data/trains.json's ``rusts_on``."""
    out = []
    for p in phase_table():
        status = set(p["status"])
        out.append({"name": p["name"], "on": p["on"], "status": list(p["status"]),
                    "train_limit": p["train_limit"], "colors": list(p["tiles"]),
                    "operating_rounds": p["operating_rounds"],
                    "tokens_per_city": 2 if "station_and_yard_in_a_city" in status else 1,
                    "block": 4 if "blocks_of_4" in status else 2 if "blocks_of_2" in status else 1,
                    **{kind: [t["cost"], t["value"]] for kind, t in p["tokens"].items()}})
    return out


def parse_trains(data, phase: int, where):
    """The trains that run this round (5.1, 5.3.6, 5.6.1).

    An entry is a name ("3S") or an object ``{"name": "3S", "status": S}`` with S one of
    "new", "restored" (they run), "used" (bought from the pool or another corporation
    this round: it does not run) or "retired" (gone). A train whose size is retired in
    the phase is gone too, unless the position says ``"receivership": true`` (5.3.6).
    """
    raw = data.get("trains", [])
    if not isinstance(raw, list):
        raise InputError("field 'trains' must be a list of train names", where)
    receivership = data.get("receivership", False)
    if not isinstance(receivership, bool):
        raise InputError("field 'receivership' must be true or false", where)
    trains = []
    for i, t in enumerate(raw):
        w = f"{where}: trains[{i}]"
        status = "new"
        if isinstance(t, dict):
            status = t.get("status", "new")
            if status not in ("new", "restored", "used", "retired"):
                raise InputError(f"train status must be 'new', 'restored', 'used' or 'retired', "
                                 f"not {status!r}", w)
            if "name" not in t:
                raise InputError("a train object needs a 'name'", w)
            t = t["name"]
        tt = parse_train_name(t, w)
        if status in ("used", "retired"):
            continue
        if is_retired(tt.size, phase) and not receivership:
            continue
        trains.append(Train(tt.name, tt.size, tt.size, tt.size))
    return trains

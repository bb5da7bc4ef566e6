"""A position's own map as read, frozen: the typed snapshot of a title whose position
carries its ``map`` (the custom map of docs/custom-map.md, 1831's map in that format).

Reading checks the map field by field (:mod:`trainruns.position.reader`) into core
:class:`~trainruns.route.board.Hex` objects; :func:`freeze` keeps them as frozen
:class:`MapHex` values (no tokens yet: a snapshot places its tokens when it builds),
and :func:`thaw` gives fresh Hex objects for each Board built, so building never
changes the snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainruns.errors import InputError
from trainruns.position.reader import check_coordinates_unique, parse_hex, require
from trainruns.route.board import Hex, Stop


@dataclass(frozen=True)
class MapStop:
    """A stop as the map prints it: kind, value in the position's phase, token slots."""

    kind: str
    value: int
    slots: int
    name: str | None


@dataclass(frozen=True)
class MapHex:
    """A hex as the map prints it: stops, track paths (ends as in route/board.py), junctions,
    and the tile laid there when the map names one (drawn, and checked by a title)."""

    id: str
    x: int
    y: int
    stops: tuple
    paths: tuple
    junctions: int
    name: str | None
    tile: str | None


def freeze(hexes: dict) -> tuple:
    """The hexes (id -> Hex, read from the map, no tokens placed) as MapHex values, in
    the map's order."""
    out = []
    for hx in hexes.values():
        assert not any(s.tokens for s in hx.stops) and not hx.extra, "freeze the map before tokens"
        out.append(MapHex(hx.id, hx.x, hx.y, tuple(MapStop(s.kind, s.value, s.slots, s.name) for s in hx.stops),
                          tuple(hx.paths), hx.junctions, hx.name, hx.tile))
    return tuple(out)


def thaw(hexes: tuple) -> dict:
    """Fresh core Hex objects (id -> Hex) of frozen MapHex values."""
    return {h.id: Hex(id=h.id, x=h.x, y=h.y, stops=[Stop(kind=s.kind, value=s.value, slots=s.slots, name=s.name)
                                                   for s in h.stops],
                      paths=list(h.paths), junctions=h.junctions, name=h.name, tile=h.tile)
            for h in hexes}


def read_hexes(m: dict, layout, axes, phases, phase, where, prepare=None):
    """The map's hexes checked (id -> Hex, no two at one place) and the raw hexes as
    parsed: ``prepare(raw, where)`` first turns a hex of a title's map format into
    the custom map's (1831: red extensions, double track, typed sites)."""
    hexes, parsed = {}, []
    for i, h in enumerate(require(m, "hexes", list, f"{where}: map")):
        w = f"{where}: map.hexes[{i}]"
        h = prepare(h, w) if prepare else h
        hx = parse_hex(h, layout, axes, phases, phase, w)
        if hx.id in hexes:
            raise InputError(f"hex {hx.id} is listed twice", w)
        hexes[hx.id] = hx
        parsed.append(h)
    check_coordinates_unique(hexes, where)
    return hexes, parsed

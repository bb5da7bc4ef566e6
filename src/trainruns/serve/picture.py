"""The map as ``trainruns draw`` draws it, as SVG text for the page.

It is :func:`trainruns.services.draw.save` itself (no second renderer): the board's hexes keep
their ``hex-ID`` ids in the SVG, which is how the page knows which hex was clicked.
matplotlib is not safe to drive from two threads at once, so drawings take turns.

The game page draws the board once and lays tokens and runs over it: :func:`stops`
and :func:`run_lines` give where they go, in the drawing's data coordinates (a hex has
circumradius 1; the page maps them onto the SVG by the hexes' outlines).
"""

from __future__ import annotations

import os
import tempfile
import threading

from trainruns.services.draw import save

_LOCK = threading.Lock()


def _xy(p):
    return [round(float(p[0]), 4), round(float(p[1]), 4)]


def stops(board):
    """Each hex's centre and stops: kind, value, slots, tokens, name, where it lies, its
    radius, and (a city) where each token slot is, as :mod:`trainruns.draw` places them."""
    from trainruns.services import geometry as geo
    from trainruns.services.draw import _slot_centers

    out = {}
    for hid, hx in board.hexes.items():
        out[hid] = []
        for k, s in enumerate(hx.stops):
            at = geo.stop_position(board, hid, k)
            stop = {"kind": s.kind, "value": s.value, "slots": s.slots, "tokens": list(s.tokens),
                    "name": s.name or hx.name, "at": _xy(at), "r": round(float(geo.stop_radius(s)), 4)}
            if s.kind == "city":
                stop["slots_at"] = [_xy(at + d) for d in _slot_centers(max(1, s.slots), geo.SLOT_RADIUS)]
            out[hid].append(stop)
    return out


def centres(board):
    """Each hex's centre in the drawing's data coordinates."""
    from trainruns.services import geometry as geo

    return {hid: _xy(geo.hex_center(board, hid)) for hid in board.hexes}


def run_lines(board, run):
    """Each route of ``run``: the line :mod:`trainruns.draw` draws along its track
    (trains sharing a stop set a little apart), in data coordinates, and its stops."""
    from trainruns.services import geometry as geo
    from trainruns.services.draw import _shared_stop_offsets

    offsets = _shared_stop_offsets(run.routes)
    return [{"points": [_xy(p) for p in geo.offset_polyline(geo.route_geometry(board, r), offsets[i])],
             "stops": [f"{h}.{k}" for h, k in r.stops]}
            for i, r in enumerate(run.routes)]


def hex_alone(board, hex_id):
    """SVG of ``hex_id`` alone, as the whole board draws it (a tile laid: the page lays
    it over its drawing of the board). Drawn from a copy of the board holding that hex
    only, so a drawing costs one hex, not the map."""
    import copy

    one = copy.copy(board)   # shallow: the board itself, shared with a solve, is not touched
    one.hexes = {hex_id: board.hexes[hex_id]}
    return svg(one, None, focus=[hex_id], title="", show_ids=True)


def neighbourhood(board, hex_id):
    """SVG of ``hex_id`` and the hexes around it (a tile lay's preview)."""
    from trainruns.route.hexgrid import neighbour

    hx = board.hexes[hex_id]
    at = {(h.x, h.y): hid for hid, h in board.hexes.items()}
    around = [hex_id] + [at[n] for n in (neighbour(hx.x, hx.y, e, board.layout) for e in range(6)) if n in at]
    return svg(board, None, focus=around, title="", show_ids=True)


def svg(board, run=None, **options):
    """SVG text of ``board`` with ``run``'s routes (None: the board alone); ``options``
    as :func:`trainruns.services.draw.draw_board` takes them (caption, problems, title)."""
    with _LOCK, tempfile.TemporaryDirectory(prefix="trainruns-serve-") as folder:
        path = os.path.join(folder, "map.svg")
        save(board, run, path, **options)
        with open(path, encoding="utf-8") as fh:
            return fh.read()

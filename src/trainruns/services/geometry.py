"""Where things are on the drawn map, in data coordinates (a hex has circumradius 1).

Map coordinates grow east (x) and south (y), like the doubled coordinates of
docs/position-format.md; the drawing flips the y axis so that north is up. Everything the
picture shows (hex outlines, side midpoints, stop positions, the curve of each track
path, a route's line) is computed here, apart from matplotlib, so tests can check it.
"""

from __future__ import annotations

import math

import numpy as np

from trainruns.route.hexgrid import NEIGHBOUR_OFFSETS

SQRT3 = math.sqrt(3.0)
APOTHEM = SQRT3 / 2  # centre to side midpoint, for circumradius 1
_SAMPLES = 25  # points per drawn path: smooth at any zoom; odd, so a straight one has its centre


def _scale(layout):
    """Data units per doubled-coordinate step along x and y."""
    return (1.5, APOTHEM) if layout == "flat" else (APOTHEM, 1.5)


def hex_center(board, hex_id):
    """Centre of a hex in data coordinates."""
    hx = board.hexes[hex_id]
    sx, sy = _scale(board.layout)
    return np.array([hx.x * sx, hx.y * sy])


def grid_center(layout, x, y):
    """Centre of the cell at doubled coordinates (x, y), whether or not it is a hex."""
    sx, sy = _scale(layout)
    return np.array([x * sx, y * sy])


def side_direction(layout, side):
    """Unit vector from a hex's centre towards the midpoint of ``side``."""
    dx, dy = NEIGHBOUR_OFFSETS[layout][side]
    sx, sy = _scale(layout)
    v = np.array([dx * sx, dy * sy])
    return v / np.linalg.norm(v)


def side_midpoint(board, hex_id, side):
    """Midpoint of a hex side: where track crosses into the neighbour."""
    return hex_center(board, hex_id) + APOTHEM * side_direction(board.layout, side)


def corners(layout, center):
    """The six corners of a hex (flat: a corner due east; pointy: a corner due north)."""
    start = 0.0 if layout == "flat" else 30.0
    angles = np.radians(start + 60.0 * np.arange(6))
    return np.asarray(center) + np.column_stack([np.cos(angles), np.sin(angles)])


def _sides_of(hx, kind, k):
    """The sides a stop or junction is joined to directly by a path."""
    sides = []
    for a, b in hx.paths:
        for end, other in ((a, b), (b, a)):
            if end == (kind, k) and other[0] == "side":
                sides.append(other[1])
    return sides


def stop_offsets(layout, hx):
    """Position of each stop relative to its hex centre, laid out like tile art.

    One stop sits in the centre. With several, each moves halfway towards the sides its
    track leaves by (an OO tile's two cities, Atlanta's three); stops with no track, or
    that would land on each other, are spread evenly around the centre.
    """
    n = len(hx.stops)
    if n == 0:
        return []
    if n == 1:
        return [np.zeros(2)]
    spread = [0.5 * np.array([math.cos(t), math.sin(t)])
              for t in (-math.pi / 2 + 2 * math.pi * i / n for i in range(n))]
    out = []
    for k in range(n):
        sides = _sides_of(hx, "stop", k)
        v = sum((side_direction(layout, s) for s in sides), np.zeros(2))
        norm = np.linalg.norm(v)
        out.append(0.5 * v / norm if norm > 1e-6 else None)
    taken = [p for p in out if p is not None]
    crowded = any(np.linalg.norm(p - q) < 0.45 for i, p in enumerate(taken) for q in taken[i + 1:])
    if crowded:
        return spread
    free = iter(p for p in spread if all(np.linalg.norm(p - q) >= 0.45 for q in taken))
    return [p if p is not None else next(free, np.zeros(2)) for p in out]


def stop_position(board, hex_id, k):
    """Where stop ``k`` of a hex is drawn."""
    hx = board.hexes[hex_id]
    return hex_center(board, hex_id) + stop_offsets(board.layout, hx)[k]


def junction_position(board, hex_id, k):
    """Junctions (track meeting points that are not stops) sit at the centre."""
    return hex_center(board, hex_id)


def end_point(board, hex_id, end):
    """The point and inward direction (None for stops/junctions) of a path end."""
    kind, k = end
    if kind == "side":
        return side_midpoint(board, hex_id, k), -side_direction(board.layout, k)
    if kind == "stop":
        return stop_position(board, hex_id, k), None
    return junction_position(board, hex_id, k), None


def _arc(p, dp, q, dq):
    """Tile-art curve from side midpoint p to q, leaving each perpendicular to its side.

    The circle tangent to both directions has its centre where the lines through p and
    q along their sides meet; opposite sides (parallel directions) give a straight line.
    """
    cross = dp[0] * dq[1] - dp[1] * dq[0]
    if abs(cross) < 1e-9:
        return np.linspace(p, q, _SAMPLES)
    tp, tq = np.array([-dp[1], dp[0]]), np.array([-dq[1], dq[0]])
    # p + s*tp == q + u*tq
    s, _ = np.linalg.solve(np.column_stack([tp, -tq]), q - p)
    c = p + s * tp
    r = np.linalg.norm(p - c)
    a0 = math.atan2(*(p - c)[::-1])
    a1 = math.atan2(*(q - c)[::-1])
    delta = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi  # the short way round
    t = a0 + delta * np.linspace(0, 1, _SAMPLES)
    return c + r * np.column_stack([np.cos(t), np.sin(t)])


def _bezier(p, ctrl, q):
    t = np.linspace(0, 1, _SAMPLES)[:, None]
    return (1 - t) ** 2 * p + 2 * (1 - t) * t * ctrl + t ** 2 * q


def path_points(board, hex_id, j):
    """The drawn curve of path ``j`` of a hex, from its first end to its second. A path
    that does not end at a stop of its hex bends round it rather than run through it
    (a track past a town must not read as one more of the town's exits)."""
    hx = board.hexes[hex_id]
    a, b = hx.paths[j]
    p, dp = end_point(board, hex_id, a)
    q, dq = end_point(board, hex_id, b)
    if dp is not None and dq is not None:
        pts = _arc(p, dp, q, dq)
    elif dp is None and dq is None:
        pts = np.linspace(p, q, _SAMPLES)
    # Side to stop: leave the side straight in, then bend to the stop.
    elif dp is None:
        pts = _bezier(q, q + dq * 0.5 * np.linalg.norm(p - q), p)[::-1]
    else:
        pts = _bezier(p, p + dp * 0.5 * np.linalg.norm(q - p), q)
    for k, stop in enumerate(hx.stops):
        if ("stop", k) not in (a, b):
            pts = _around(pts, stop_position(board, hex_id, k), stop_radius(stop) + STOP_MARGIN)
    return pts


def _around(pts, centre, clearance):
    """``pts`` bent sideways, smoothly and with its ends kept, so that it keeps
    ``clearance`` from ``centre``."""
    dist = np.linalg.norm(pts - centre, axis=1)
    i = int(np.argmin(dist))
    if dist[i] >= clearance:
        return pts
    c = pts[i]
    if dist[i] > 1e-6:
        n = (c - centre) / dist[i]
    else:  # straight through the centre: go round on the left of the path
        t = pts[min(i + 1, len(pts) - 1)] - pts[max(i - 1, 0)]
        n = np.array([-t[1], t[0]]) / (np.linalg.norm(t) or 1.0)
    # denser, so the bend is smooth
    fine = np.concatenate([np.linspace(u, v, 6, endpoint=False) for u, v in zip(pts[:-1], pts[1:])] + [pts[-1:]])
    along = np.linalg.norm(fine - c, axis=1)
    width = min(2.4 * clearance, 0.95 * min(np.linalg.norm(c - pts[0]), np.linalg.norm(c - pts[-1])))
    w = 0.5 * (1 + np.cos(np.pi * np.minimum(1.0, along / max(width, 1e-6))))
    out = fine + np.outer(w * (clearance - dist[i]), n)
    # where the bump alone falls short (a narrow bend), push out to the clearance
    d = np.linalg.norm(out - centre, axis=1)
    near = (d < clearance) & (d > 1e-9)
    out[near] = centre + (out[near] - centre) * (clearance / d[near])[:, None]
    return out


# How far a stop's drawing reaches from its position, in hex units (services/draw.py draws to
# these sizes; path_points keeps passing track clear of them).
SLOT_RADIUS = 0.2
TOWN_RADIUS = 0.14
STOP_MARGIN = 0.09  # track half-width and a little air


def city_radius(stop):
    """How far a city's drawing reaches from its position (for rings and value bubbles)."""
    n = max(1, stop.slots)
    if n == 1:
        return SLOT_RADIUS
    if n == 2:
        return 2 * SLOT_RADIUS
    return SLOT_RADIUS / math.sin(math.pi / n) + SLOT_RADIUS


def stop_radius(stop):
    if stop.kind == "city":
        return city_radius(stop)
    if stop.kind == "town":
        return TOWN_RADIUS
    return 0.22


def route_geometry(board, route):
    """The line a route is drawn along: one (N, 2) array in data coordinates.

    Follows ``route.track`` path by path, turning each path so that it starts where the
    previous one ended (consecutive paths meet at a shared side midpoint, stop or
    junction). Where the track has a gap (a declared leg no track was found for), the
    line jumps straight to the next stop; without any track it joins the stops straight.
    """
    stops = [stop_position(board, h, k) for h, k in route.stops]
    if not route.track:
        return np.array(stops).reshape(-1, 2)
    pieces = [path_points(board, h, j) for h, j in route.track]

    def at_stop(p):
        return any(np.linalg.norm(p - q) < 1e-6 for q in stops)

    first = pieces[0]
    if stops and np.linalg.norm(first[-1] - stops[0]) < 1e-6:
        first = first[::-1]  # run it from the route's first stop
    elif len(pieces) > 1 and not (stops and np.linalg.norm(first[0] - stops[0]) < 1e-6):
        nxt = pieces[1]
        gap_end = min(np.linalg.norm(first[-1] - nxt[0]), np.linalg.norm(first[-1] - nxt[-1]))
        gap_start = min(np.linalg.norm(first[0] - nxt[0]), np.linalg.norm(first[0] - nxt[-1]))
        if gap_start < gap_end:
            first = first[::-1]
    out = [first]
    for piece in pieces[1:]:
        end = out[-1][-1]
        d_start, d_end = np.linalg.norm(piece[0] - end), np.linalg.norm(piece[-1] - end)
        if min(d_start, d_end) > 1e-6:
            # A gap: the next found leg starts at a stop, so start the piece there.
            flip = at_stop(piece[-1]) and not at_stop(piece[0])
        else:
            flip = d_end < d_start
        out.append(piece[::-1] if flip else piece)
    line = np.concatenate([out[0]] + [p if np.linalg.norm(p[0] - q[-1]) > 1e-6 else p[1:]
                                      for q, p in zip(out, out[1:])])
    # The first or last leg may be the missing one: reach the end stops straight.
    if stops and np.linalg.norm(line[0] - stops[0]) > 1e-6:
        line = np.vstack([stops[0], line])
    if stops and np.linalg.norm(line[-1] - stops[-1]) > 1e-6:
        line = np.vstack([line, stops[-1]])
    return line


def offset_polyline(points, distance):
    """The polyline moved sideways by ``distance`` (to show trains sharing a stop)."""
    if distance == 0 or len(points) < 2:
        return points
    tangent = np.gradient(points, axis=0)
    norms = np.linalg.norm(tangent, axis=1, keepdims=True)
    norms[norms == 0] = 1
    normal = np.column_stack([-tangent[:, 1], tangent[:, 0]]) / norms
    return points + distance * normal

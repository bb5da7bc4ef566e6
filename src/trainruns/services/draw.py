"""Draw a board and a run with matplotlib: the map as players know it, each train's route.

``draw_board(board, run)`` draws onto matplotlib axes (a notebook shows them inline);
``save(board, run, path)`` writes an .svg or .png. Positions come from
:mod:`trainruns.services.geometry`; this module only decides how things look.

Sizes are given in hex units (a hex has circumradius 1) and turned into points from the
axes' scale, so a small map and a large one look alike.
"""

from __future__ import annotations

import math
import os

import numpy as np
from matplotlib import patheffects
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Polygon, Rectangle

from trainruns.errors import InputError
from trainruns.route.board import CITY, OFFBOARD, TOWN
from trainruns.services import geometry as geo
from trainruns.services.colors import EMPTY_CELL, corporation_color, text_color_on, tile_color, train_color
from trainruns.services.geometry import SLOT_RADIUS, city_radius, stop_radius

INCHES_PER_UNIT = 0.42   # a hex about 0.73 in across: ids and values stay legible
DPI = 150
# The largest picture drawn: real maps are at most some 40 hexes across (about 60 hex
# units, 4,000 pixels); a map spanning more is a typo (a far-away hex id) or a map to
# draw in parts with ``focus``.
MAX_SPAN_UNITS = 200
FORMATS = (".svg", ".png", ".pdf")

# Drawing order, bottom to top.
Z_HEX, Z_LABEL, Z_TRACK, Z_ROUTE, Z_STOP, Z_TOKEN, Z_MARK, Z_VALUE = range(1, 9)


class _Style:
    """Converts hex units into points for the axes being drawn on."""

    def __init__(self, points_per_unit):
        self.u = points_per_unit

    def pt(self, units):
        return units * self.u

    def font(self, units, minimum=3.5):
        return max(minimum, units * self.u)


# --- the board ----------------------------------------------------------------------


def extent(board, focus=None):
    """Data bounds of the hexes shown: all of them, or only those named in ``focus``;
    bad input (exit 2) when they span more than ``MAX_SPAN_UNITS``, or ``focus`` names
    a hex the board does not have."""
    shown = [h for h in (focus or board.hexes) if h in board.hexes]
    if focus and len(shown) < len(set(focus)):
        missing = sorted(set(focus) - set(board.hexes))
        raise InputError(f"cannot focus on hexes the board does not have: {', '.join(missing)}", "--focus")
    pts = np.array([geo.hex_center(board, h) for h in shown]) if shown else np.zeros((1, 2))
    lo, hi = pts.min(axis=0) - 1.15, pts.max(axis=0) + 1.15
    span = hi - lo
    if span.max() > MAX_SPAN_UNITS:
        ends = [min(shown, key=lambda h: (geo.hex_center(board, h) @ d)) for d in ((1, 0), (0, 1))] + \
               [max(shown, key=lambda h: (geo.hex_center(board, h) @ d)) for d in ((1, 0), (0, 1))]
        far = max(((a, b) for a in ends for b in ends),
                  key=lambda ab: np.abs(geo.hex_center(board, ab[0]) - geo.hex_center(board, ab[1])).max())
        raise InputError(f"the map spans {span[0]:.0f} x {span[1]:.0f} hex units (from {far[0]} to {far[1]}), "
                         f"more than the {MAX_SPAN_UNITS} a picture may: check those hex ids, or draw part "
                         "of the map with --focus")
    return lo, hi


def _points_per_unit(ax, lo, hi):
    """Points per data unit once the axes show [lo, hi] at equal aspect."""
    fig = ax.figure
    box = ax.get_position()
    w_in, h_in = box.width * fig.get_figwidth(), box.height * fig.get_figheight()
    span = hi - lo
    return 72.0 * min(w_in / span[0], h_in / span[1])


def _hex_color(hx):
    color = hx.extra.get("color") or hx.extra.get("colour")
    if color is None and any(s.kind == OFFBOARD for s in hx.stops):
        color = "red"  # off-boards are red on every printed map
    return tile_color(color)


def _draw_hexes(ax, board, st, show_ids, fill_grid, lo, hi):
    layout = board.layout
    occupied = {(hx.x, hx.y) for hx in board.hexes.values()}
    if fill_grid and board.hexes:
        # Faint empty cells between the listed hexes keep the map's shape readable when a
        # position lists only the hexes that have something on them; only those in the
        # picture (its extent is capped, so they are few).
        xs = [x for x, _ in occupied]
        ys = [y for _, y in occupied]
        parity = (xs[0] + ys[0]) % 2
        sx, sy = geo.grid_center(layout, 1, 1)
        x0, x1 = max(min(xs), math.floor(lo[0] / sx) - 1), min(max(xs), math.ceil(hi[0] / sx) + 1)
        y0, y1 = max(min(ys), math.floor(lo[1] / sy) - 1), min(max(ys), math.ceil(hi[1] / sy) + 1)
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                if (x + y) % 2 == parity and (x, y) not in occupied:
                    c = geo.grid_center(layout, x, y)
                    ax.add_patch(Polygon(geo.corners(layout, c), closed=True, facecolor=EMPTY_CELL,
                                         edgecolor="#d8d2c0", linewidth=st.pt(0.02), zorder=Z_HEX))
    for hex_id, hx in board.hexes.items():
        c = geo.hex_center(board, hex_id)
        ax.add_patch(Polygon(geo.corners(layout, c), closed=True, facecolor=_hex_color(hx),
                             edgecolor="#555555", linewidth=st.pt(0.03), zorder=Z_HEX,
                             gid=f"hex-{hex_id}"))


# Ids and names go towards corners, where no track reaches a side midpoint; each label
# takes the free spot nearest its usual one (see _free_spot).
_ID_SPOT = {"flat": np.array([-0.36, -0.6]), "pointy": np.array([0.0, -0.7])}
_NAME_SPOT = {"flat": np.array([0.0, 0.62]), "pointy": np.array([0.0, 0.68])}
_TILE_SPOT = {"flat": np.array([0.36, -0.6]), "pointy": np.array([0.45, -0.45])}
_TERRAIN_SPOT = np.array([-0.52, -0.3])
_TAG_SPOT = np.array([0.52, -0.3])


def _backing():
    """A faint white box that keeps small text legible where it crosses track. (Not a
    stroke path effect: that turns SVG text into outlines nobody can search.)"""
    return dict(boxstyle="round,pad=0.08", facecolor="white", alpha=0.6, edgecolor="none")


def _terrain_text(extra):
    """'▲60' / '≈40' from the forms titles keep terrain in (a cost, a dict, a list)."""
    t = extra.get("terrain")
    if t is None:
        t = extra.get("terrain_cost")
    if not t:
        return None
    items = t if isinstance(t, list) else [t]
    parts = []
    for item in items:
        if isinstance(item, (int, float)):
            parts.append(f"▲{item:g}")
            continue
        if isinstance(item, str):
            parts.append(item)
            continue
        if isinstance(item, dict):
            kinds = item.get("terrains") or [item.get("type") or item.get("kind") or "mountain"]
            kinds = [kinds] if isinstance(kinds, str) else kinds
            symbol = "≈" if any(k in ("water", "river", "lake", "swamp") for k in kinds) else "▲"
            parts.append(f"{symbol}{item.get('cost', '')}")
    return " ".join(parts) or None


def _label_spots(layout, c):
    """Where labels may go in a hex: towards its corners and its side midpoints."""
    corner = [c + 0.62 * (q - c) for q in geo.corners(layout, c)]
    sides = [c + 0.6 * geo.side_direction(layout, e) for e in range(6)]
    return corner + sides + [c + _ID_SPOT[layout], c + _NAME_SPOT[layout], c + _TILE_SPOT[layout],
                             c + _TERRAIN_SPOT, c + _TAG_SPOT]


def _clearance(q, hw, hh, taken):
    """How far a label of half sizes ``hw`` x ``hh`` at ``q`` keeps from what is
    ``taken`` (boxes ``(centre, hw, hh)``: stops, value bubbles, track, labels)."""
    return min((max(abs(q[0] - p[0]) - hw - w, abs(q[1] - p[1]) - hh - h) for p, w, h in taken), default=1.0)


def _free_spot(spots, want, hw, hh, taken):
    """The spot for a label of half sizes ``hw`` x ``hh``: clear of what is ``taken``,
    near ``want``."""
    return max(spots, key=lambda q: min(_clearance(q, hw, hh, taken), 0.05) * 20 - np.linalg.norm(q - want))


def _draw_hex_labels(ax, board, hex_id, st, show_ids, taken):
    """The hex's id, name, tile number, terrain and tags, each in a free spot."""
    hx = board.hexes[hex_id]
    layout = board.layout
    c = geo.hex_center(board, hex_id)
    spots = _label_spots(layout, c)

    def put(text, want, size, gid=None, **style):
        lines = text.split("\n")
        for shrink in (1.0, 0.8, 0.65):  # smaller where no spot is clear at full size
            s = size * shrink
            hw, hh = 0.3 * s * max(len(x) for x in lines) + 0.02, 0.55 * s * len(lines) + 0.02
            spot = _free_spot(spots, want, hw, hh, taken)
            if _clearance(spot, hw, hh, taken) >= 0:
                break
        size = s
        taken.append((spot, hw, hh))
        ax.text(spot[0], spot[1], text, ha="center", va="center", clip_on=True, fontsize=st.font(size),
                zorder=Z_VALUE, gid=gid, linespacing=0.95, **style)

    name = hx.name or next((s.name for s in hx.stops if s.name), None)
    if name:
        text, size = _fit_name(name)
        put(text, c + _NAME_SPOT[layout], size, gid=f"name-{hex_id}", color="#222222", style="italic",
            bbox=_backing())
    if show_ids:
        put(hex_id, c + _ID_SPOT[layout], 0.19, gid=f"id-{hex_id}", color="#333333", bbox=_backing())
    if hx.tile:
        put(f"#{hx.tile}", c + _TILE_SPOT[layout], 0.15, gid=f"tile-{hex_id}", color="#555555",
            bbox=_backing())
    terrain = _terrain_text(hx.extra)
    if terrain:
        put(terrain, c + _TERRAIN_SPOT, 0.17, color="#5b3a1a", fontweight="bold")
    labels = [str(label) for label in hx.extra.get("labels", []) or []]
    icons = [str(i) for i in hx.extra.get("icons", []) or [] if len(str(i)) <= 8]
    if hx.extra.get("port"):
        icons.append("⚓")
    if "coal" in str(hx.extra.get("kind", "")):
        icons.append("coal")
    tag = " ".join(labels + icons)
    if tag:
        put(tag, c + _TAG_SPOT, 0.16, color="#1a3a6b", fontweight="bold")


def _fit_name(name):
    """A name as it fits a hex: whole, on two lines when long, smaller when longer still
    (names are never cut off). Returns (text, font size in hex units)."""
    cuts = [i for i, ch in enumerate(name) if ch in " /-"]
    if len(name) > 14 and cuts:
        cut = min(cuts, key=lambda i: abs(i - len(name) / 2))
        keep = name[cut] if name[cut] != " " else ""  # a slash or hyphen stays on the first line
        name = name[:cut] + keep + "\n" + name[cut + 1:]
    longest = max(len(x) for x in name.split("\n"))
    return name, min(0.16, 2.4 / max(longest, 1))


def _shorten(text, n):
    return text if len(text) <= n else text[: n - 1] + "…"


def _draw_track(ax, board, st):
    for hex_id, hx in board.hexes.items():
        for j in range(len(hx.paths)):
            pts = geo.path_points(board, hex_id, j)
            ax.plot(pts[:, 0], pts[:, 1], color="black", linewidth=st.pt(0.11),
                    solid_capstyle="butt", zorder=Z_TRACK)


# --- stops --------------------------------------------------------------------------


def _slot_centers(n, r):
    """Token slot centres relative to the city's position: in a row for 1-2, a ring above."""
    if n <= 1:
        return [np.zeros(2)]
    if n == 2:
        return [np.array([-r, 0.0]), np.array([r, 0.0])]
    ring = r / math.sin(math.pi / n)
    return [ring * np.array([math.cos(a), math.sin(a)])
            for a in (-math.pi / 2 + 2 * math.pi * i / n for i in range(n))]


def _draw_city(ax, stop, p, st, sites=None):
    """A city's token slots with their tokens. ``sites`` (a title's drawing hint, hex
    ``extra["sites"][k]``): per slot ``{"shape": "circle" | "square", "black": bool,
    "holder": corporation or None}`` - 1831's Stations are circles, its Rail Yards
    squares (5.2.3.9), black-filled sites black (5.2.7.2), each token on its own site."""
    n = max(1, stop.slots)
    centers = [p + d for d in _slot_centers(n, SLOT_RADIUS)]
    if n == 2:
        ax.add_patch(Rectangle(p - [SLOT_RADIUS, SLOT_RADIUS], 2 * SLOT_RADIUS, 2 * SLOT_RADIUS,
                               facecolor="white", edgecolor="none", zorder=Z_STOP))
    elif n > 2:
        ax.add_patch(Circle(p, city_radius(stop) - 0.02, facecolor="white", edgecolor="black",
                            linewidth=st.pt(0.025), zorder=Z_STOP))
    for i, c in enumerate(centers):
        site = sites[i] if sites and i < len(sites) else {}
        corp = site.get("holder") if sites else (stop.tokens[i] if i < len(stop.tokens) else None)
        fill = corporation_color(corp) if corp else ("black" if site.get("black") else "white")
        if site.get("shape") == "square":
            r = SLOT_RADIUS * 0.9
            ax.add_patch(Rectangle(c - [r, r], 2 * r, 2 * r, facecolor=fill, edgecolor="black",
                                   linewidth=st.pt(0.03), zorder=Z_TOKEN))
        else:
            ax.add_patch(Circle(c, SLOT_RADIUS, facecolor=fill, edgecolor="black",
                                linewidth=st.pt(0.03), zorder=Z_TOKEN))
        if corp:
            ax.text(c[0], c[1], _shorten(corp, 4), ha="center", va="center", clip_on=True,
                    fontsize=st.font(0.32 / max(2.2, len(corp[:4]))), color=text_color_on(fill),
                    fontweight="bold", zorder=Z_TOKEN + 0.1)


def _draw_town(ax, board, hex_id, k, p, st):
    hx = board.hexes[hex_id]
    sides = geo._sides_of(hx, "stop", k)
    if len(sides) == 2:
        # A bar across the track, like the printed tiles.
        d = geo.side_direction(board.layout, sides[0]) - geo.side_direction(board.layout, sides[1])
        along = d / np.linalg.norm(d) if np.linalg.norm(d) > 1e-6 else np.array([1.0, 0.0])
        across = np.array([-along[1], along[0]])
        a, b = p - 0.17 * across, p + 0.17 * across
        ax.plot([a[0], b[0]], [a[1], b[1]], color="black", linewidth=st.pt(0.13),
                solid_capstyle="butt", zorder=Z_STOP)
    else:
        ax.add_patch(Circle(p, 0.1, facecolor="black", edgecolor="none", zorder=Z_STOP))


def _value_spot(board, hex_id, k, p, radius, placed):
    """Where a stop's value bubble goes: beside the stop, away from its track, inside
    the hex, clear of the hex's other stops and of bubbles already ``placed``."""
    hx = board.hexes[hex_id]
    away = [geo.side_direction(board.layout, s) for s in geo._sides_of(hx, "stop", k)]
    centre = geo.hex_center(board, hex_id)
    sides = [geo.side_direction(board.layout, e) for e in range(6)]
    others = [(geo.stop_position(board, hex_id, i), stop_radius(s))
              for i, s in enumerate(hx.stops) if i != k] + [(q, 0.14) for q in placed]
    best, best_score = None, -1e9
    for a in np.radians(15.0 * np.arange(24)):
        d = np.array([math.cos(a), math.sin(a)])
        spot = p + (radius + 0.16) * d
        clearance = min((1 - float(d @ s) for s in away), default=2.0)
        outside = max(0.0, max(float((spot - centre) @ s) for s in sides) - (geo.APOTHEM - 0.16))
        crowding = sum(max(0.0, r + 0.16 - np.linalg.norm(spot - q)) for q, r in others)
        # A bubble must read as this stop's: nearer to it than to any other stop.
        mine = np.linalg.norm(spot - p) - radius
        crowding += sum(max(0.0, mine + 0.15 - (np.linalg.norm(spot - q) - r))
                        for q, r in others[: len(hx.stops) - 1])
        # Small tie-break towards the upper right, where 18xx tiles usually print values.
        score = clearance - 10 * outside - 10 * crowding + 0.05 * (d[0] - d[1])
        if score > best_score:
            best, best_score = spot, score
    return best


def _shared_value_spot(board, hex_id):
    """One spot for the value all of a hex's stops share (an OO tile, Atlanta): the hex
    corner farthest from its stops, as the printed tiles show a single value."""
    hx = board.hexes[hex_id]
    centre = geo.hex_center(board, hex_id)
    stops = [(geo.stop_position(board, hex_id, k), stop_radius(s)) for k, s in enumerate(hx.stops)]
    spots = [centre] + [centre + 0.62 * (c - centre) for c in geo.corners(board.layout, centre)]
    return max(spots, key=lambda q: min(np.linalg.norm(q - p) - r for p, r in stops))


def _draw_stops(ax, board, st):
    """Stops and their values; returns per hex what now takes room there (points with a
    radius), for the labels to keep clear of."""
    taken = {}
    for hex_id, hx in board.hexes.items():
        placed = []
        cities = [s for s in hx.stops if s.kind != OFFBOARD]
        values = {(s.kind, s.value) for s in cities}
        # one value for the cities of a hex that all share it (an OO tile, Boston)
        shared = len(cities) > 1 and len(values) == 1
        if shared and cities[0].value:
            spot = _shared_value_spot(board, hex_id)
            placed.append(spot)
            ax.text(spot[0], spot[1], str(cities[0].value), ha="center", va="center", clip_on=True,
                    fontsize=st.font(0.2), zorder=Z_VALUE, gid=f"value-{hex_id}",
                    bbox=dict(boxstyle="circle,pad=0.15", facecolor="white", edgecolor="black",
                              linewidth=st.pt(0.02)))
        for k, stop in enumerate(hx.stops):
            p = geo.stop_position(board, hex_id, k)
            if stop.kind == CITY:
                _draw_city(ax, stop, p, st, (hx.extra.get("sites") or {}).get(k))
            elif stop.kind == TOWN:
                _draw_town(ax, board, hex_id, k, p, st)
            if stop.kind == OFFBOARD:
                small = len(cities) > 0  # a node beside cities (Boston's $0 one): keep it small
                ax.text(p[0], p[1], str(stop.value), ha="center", va="center", clip_on=True,
                        fontsize=st.font(0.17 if small else 0.26), fontweight="bold", zorder=Z_VALUE,
                        bbox=dict(boxstyle="round,pad=0.2" if small else "round,pad=0.25", facecolor="white",
                                  edgecolor="black", linewidth=st.pt(0.03)), gid=f"value-{hex_id}.{k}")
            elif stop.value and not shared:  # 0: an unbuilt city or town site
                spot = _value_spot(board, hex_id, k, p, stop_radius(stop), placed)
                placed.append(spot)
                ax.text(spot[0], spot[1], str(stop.value), ha="center", va="center", clip_on=True,
                        fontsize=st.font(0.2), zorder=Z_VALUE, gid=f"value-{hex_id}.{k}",
                        bbox=dict(boxstyle="circle,pad=0.15", facecolor="white", edgecolor="black",
                                  linewidth=st.pt(0.02)))
        ring = 0.14  # room for the rings a run draws round its stops
        taken[hex_id] = ([(geo.stop_position(board, hex_id, k), stop_radius(s) + ring, stop_radius(s) + ring)
                          for k, s in enumerate(hx.stops)]
                         + [(q, 0.14, 0.14) for q in placed]
                         + [(q, 0.06, 0.06) for j in range(len(hx.paths))
                            for q in geo.path_points(board, hex_id, j)[::3]])
    return taken


# --- the run ------------------------------------------------------------------------


def _shared_stop_offsets(routes):
    """Sideways offsets (hex units) for trains that share a stop, so both lines show."""
    owners = {}
    for i, r in enumerate(routes):
        for ref in r.stops:
            owners.setdefault(tuple(ref), []).append(i)
    offsets = [0.0] * len(routes)
    for group in owners.values():
        if len(group) > 1:
            for rank, i in enumerate(group):
                if offsets[i] == 0.0:
                    offsets[i] = 0.07 * (rank - (len(group) - 1) / 2) or 0.05
    return offsets


def _draw_routes(ax, board, routes, st, problem_trains):
    offsets = _shared_stop_offsets(routes)
    handles = []
    for i, route in enumerate(routes):
        color = train_color(i)
        pts = geo.offset_polyline(geo.route_geometry(board, route), offsets[i])
        dashed = not route.track or route.train in problem_trains
        ax.plot(pts[:, 0], pts[:, 1], color=color, linewidth=st.pt(0.16), zorder=Z_ROUTE,
                linestyle=(0, (2, 1)) if dashed else "-", solid_capstyle="round",
                solid_joinstyle="round", gid=f"route-{i}",
                path_effects=[patheffects.withStroke(linewidth=st.pt(0.22), foreground="white")])
        counted = route.counted or [True] * len(route.stops)
        for rank, (ref, earns) in enumerate(zip(route.stops, counted)):
            hex_id, k = ref
            stop = board.hexes[hex_id].stops[k]
            p = geo.stop_position(board, hex_id, k)
            ring = stop_radius(stop) + 0.07 + 0.07 * _ring_index(routes, i, ref)
            ax.add_patch(Circle(p, ring, facecolor="none", edgecolor=color, zorder=Z_MARK,
                                linewidth=st.pt(0.07), linestyle="-" if earns else (0, (1, 1))))
        label = _route_label(route) + (" — NOT legal" if route.train in problem_trains else "")
        handles.append(Line2D([], [], color=color, linewidth=3,
                              linestyle="--" if dashed else "-", label=label))
    return handles


def _ring_index(routes, i, ref):
    """Rings of several trains at one stop nest instead of overlapping."""
    return sum(1 for r in routes[:i] if tuple(ref) in {tuple(s) for s in r.stops})


def _route_label(route, width=52):
    """The legend line of a route: its revenue and every part of it, so the picture adds
    up like the table ("360 = E1 20+20 + E3 50+20 + ..."; a bonus by its name)."""
    label = f"{route.train}-train: {route.revenue}"
    if route.counted and not all(route.counted):
        label += f" ({sum(route.counted)} of {len(route.stops)} stops earn)"
    parts = [f"{hex_id} " + "+".join(str(a) for _, a in earned)
             for (hex_id, _), earned in zip(route.stops, route.earned) if earned]
    parts += [f"{n} {a}" for n, a in route.bonuses]
    if not parts:
        return label
    lines, line = [], f"{label} ="
    for part in parts:
        piece = (" " if line.endswith("=") else " + ") + part
        if len(line) + len(piece) > width:
            lines.append(line)
            line = "    " + piece.strip()
        else:
            line += piece
    return "\n".join(lines + [line])


def total_label(run, caption=None):
    """The legend's last line: the run's total and how sure it is."""
    if caption is not None:
        return f"Total: {run.revenue} ({caption})" if caption else f"Total: {run.revenue}"
    if run.optimal:
        return f"Total: {run.revenue} (proven optimal)"
    return f"Total: {run.revenue} (best found; at most {run.bound})"


# --- entry points -------------------------------------------------------------------


def draw_board(board, run=None, ax=None, *, title=None, show_ids=True, fill_grid=None,
               legend=True, caption=None, problems=None, focus=None):
    """Draw ``board`` (and ``run``'s routes, if given) onto matplotlib axes.

    ``ax``: the axes to draw on; None makes a figure sized to the map (in a notebook it
    shows inline). ``fill_grid``: draw faint empty cells between the hexes (default: for
    custom maps, which often list only the hexes with something on them). ``caption`` replaces "(proven optimal)" after the total;
    ``problems`` (a list of ``{"train", "rule", "message"}``, an audit's findings)
    draws those trains dashed and lists the messages under the map. ``focus``: hex ids
    to zoom onto (the picture shows just around them, text sized for that zoom).
    Returns the axes.
    """
    lo, hi = extent(board, focus)
    if ax is None:
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=_figsize(lo, hi, run is not None and legend))
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(hi[1], lo[1])  # south is down
    ax.set_aspect("equal")
    ax.axis("off")
    st = _Style(_points_per_unit(ax, lo, hi))
    if fill_grid is None:
        fill_grid = board.title is None
    _draw_hexes(ax, board, st, show_ids, fill_grid, lo, hi)
    _draw_track(ax, board, st)
    taken = _draw_stops(ax, board, st)
    for hex_id in board.hexes:
        _draw_hex_labels(ax, board, hex_id, st, show_ids, taken[hex_id])
    heading = title if title is not None else _default_title(board)
    if heading:
        ax.set_title(heading, fontsize=max(9, min(14, st.font(0.4))))
    if run is None:
        return ax
    problems = list(problems or [])
    handles = _draw_routes(ax, board, run.routes, st, {p.get("train") for p in problems})
    for name in run.idle:
        handles.append(Line2D([], [], color="#999999", linewidth=3, linestyle=":",
                              label=f"{name}-train: idle"))
    handles.append(Line2D([], [], color="none", label=total_label(run, caption)))
    if legend:
        leg = ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                        fontsize=10, frameon=True, title="Run", title_fontsize=10)
        leg.get_texts()[-1].set_fontweight("bold")
    if problems:
        text = "\n".join(f"{p.get('train', '?')}-train [{p.get('rule', '?')}]: {p.get('message', '')}"
                         for p in problems)
        ax.text(0.0, -0.02, text, transform=ax.transAxes, ha="left", va="top", fontsize=9,
                color="#b00020", wrap=True)
    return ax


def _default_title(board):
    parts = [board.title, board.corporation, f"phase {board.phase}" if board.phase else None,
             "trains " + ", ".join(t.name for t in board.trains) if board.trains else None]
    return " · ".join(p for p in parts if p)


def _scale(lo, hi):
    """Inches per hex unit: the usual scale, larger for a few hexes so they fill a picture."""
    return max(INCHES_PER_UNIT, 5.0 / max(hi - lo))


def _figsize(lo, hi, with_legend):
    w, h = (hi - lo) * _scale(lo, hi)
    return (max(w, 3.0) + (3.2 if with_legend else 0.0), max(h, 2.5) + 0.5)


def save(board, run, path, **options):
    """Draw ``board`` with ``run`` (None: the board alone) into an .svg, .png or .pdf file.

    Text stays text in an SVG (searchable, and tests can read it). Raises
    :class:`~trainruns.errors.InputError` for an unknown extension or an unwritable path.
    """
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in FORMATS:
        raise InputError(f"cannot draw to a '{ext or 'extension-less'}' file; use "
                         + ", ".join(FORMATS), str(path))
    lo, hi = extent(board, options.get("focus"))
    fig = Figure(figsize=_figsize(lo, hi, run is not None and options.get("legend", True)))
    ax = fig.add_axes([0.02, 0.06, 0.96 * _map_share(lo, hi, run is not None), 0.88])
    draw_board(board, run, ax=ax, **options)
    import matplotlib

    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "trainruns"}):
        try:
            fig.savefig(path, dpi=DPI, bbox_inches="tight", metadata=_metadata(ext))
        except OSError as e:
            raise InputError(f"cannot write the picture ({e.strerror or e})", str(path)) from None
    return path


def _map_share(lo, hi, with_legend):
    """The share of the figure's width the map gets (the legend takes the rest)."""
    if not with_legend:
        return 1.0
    w = max((hi - lo)[0] * _scale(lo, hi), 3.0)
    return w / (w + 3.2)


def _metadata(ext):
    # No dates in SVG/PDF: the same run draws the same file.
    if ext == ".svg":
        return {"Date": None}
    if ext == ".pdf":
        return {"CreationDate": None}
    return {}

"""The drawing shows what it should: routes along their track, every hex id, the legend."""

import json
import pathlib
import xml.etree.ElementTree as ET

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from trainruns.cli.main import main  # noqa: E402
from trainruns.errors import InputError  # noqa: E402
from trainruns.route.hexgrid import neighbour, opposite  # noqa: E402
from trainruns.route.result import Route, Run  # noqa: E402
from trainruns.services import geometry as geo  # noqa: E402
from trainruns.services.declared import audited_run, find_track  # noqa: E402
from trainruns.services.draw import draw_board, save  # noqa: E402
from trainruns.titles.load import load_position  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
SMALL = ROOT / "fixtures" / "custom" / "draw_small.json"
REAL = ROOT / "fixtures" / "real"  # boards from real play

# The proven best run of draw_small.json, written out so these tests need no search:
# 3-train Brockton - B4 - Ashford along D4, C5, B4, B2; 2-train Lakeport - Ashford.
BEST = Run(routes=[
    Route(train="3", stops=[("D4", 0), ("B4", 0), ("B2", 0)], revenue=90, counted=[True] * 3,
          track=[("D4", 2), ("C5", 0), ("B4", 1), ("B4", 0), ("B2", 2)]),
    Route(train="2", stops=[("A1", 0), ("B2", 0)], revenue=60, counted=[True] * 2,
          track=[("A1", 0), ("B2", 0)]),
], revenue=150, optimal=True, bound=150)


@pytest.fixture(scope="module")
def board():
    return load_position(SMALL)


def svg_texts(path):
    """Every text string of an SVG (matplotlib writes text as <text> with fonttype none)."""
    root = ET.parse(path).getroot()
    return ["".join(el.itertext()) for el in root.iter() if el.tag.endswith("}text")]


def distance_to(points, p):
    return np.min(np.linalg.norm(points - p, axis=1)), int(np.argmin(np.linalg.norm(points - p, axis=1)))


# --- geometry -----------------------------------------------------------------------


@pytest.mark.parametrize("path", [SMALL, REAL / "1830-26855-318.json", REAL / "1889-3-6-KO-160.json"])
def test_neighbours_share_the_side_midpoint(path):
    """Track crossing a side leaves one hex and enters the next at the same point, in both
    layouts and with swapped axes."""
    b = load_position(path)
    where = {(h.x, h.y): h.id for h in b.hexes.values()}
    checked = 0
    for h in b.hexes.values():
        for side in range(6):
            other = where.get(neighbour(h.x, h.y, side, b.layout))
            if other:
                a = geo.side_midpoint(b, h.id, side)
                c = geo.side_midpoint(b, other, opposite(side))
                assert np.allclose(a, c), (h.id, side, other)
                checked += 1
    assert checked > 0


def test_side_midpoints_lie_on_the_hex_outline(board):
    c = geo.hex_center(board, "B2")
    for side in range(6):
        assert np.isclose(np.linalg.norm(geo.side_midpoint(board, "B2", side) - c), geo.APOTHEM)
    # Flat layout: side 0 is due south (y grows southward in map coordinates).
    assert np.allclose(geo.side_direction("flat", 0), [0, 1])
    assert np.allclose(geo.side_direction("pointy", 1), [-1, 0])


def test_straight_path_runs_through_the_centre_and_curves_stay_inside(board):
    # C5 joins sides 2 and 4 (a gentle curve): it stays inside the hex, ends on the sides.
    pts = geo.path_points(board, "C5", 0)
    c = geo.hex_center(board, "C5")
    assert np.allclose(pts[0], geo.side_midpoint(board, "C5", 2))
    assert np.allclose(pts[-1], geo.side_midpoint(board, "C5", 4))
    assert np.all(np.linalg.norm(pts - c, axis=1) <= 1.0 + 1e-9)
    # A straight tile (1830's B5 joins sides 0 and 3) passes through the hex centre.
    b = load_position(REAL / "1889-3-6-KO-160.json")
    j = b.hexes["B5"].paths.index((("side", 0), ("side", 3)))
    pts = geo.path_points(b, "B5", j)
    assert distance_to(pts, geo.hex_center(b, "B5"))[0] < 1e-9


def test_route_line_passes_through_its_stops_in_order_along_the_track(board):
    for route in BEST.routes:
        line = geo.route_geometry(board, route)
        # Continuous: no jump longer than a sample step.
        assert np.max(np.linalg.norm(np.diff(line, axis=0), axis=1)) < 0.2
        hits = [distance_to(line, geo.stop_position(board, h, k)) for h, k in route.stops]
        assert all(d < 1e-9 for d, _ in hits), hits
        order = [i for _, i in hits]
        assert order == sorted(order)
        # Every hex on the track is crossed through its interior, C5 included.
        for hex_id, _ in route.track:
            assert distance_to(line, geo.hex_center(board, hex_id))[0] < 0.9


def test_route_line_of_the_3_train_bends_through_c5(board):
    line = geo.route_geometry(board, BEST.routes[0])
    # It crosses from D4 into C5 and from C5 into B4 at the shared side midpoints.
    assert distance_to(line, geo.side_midpoint(board, "C5", 4))[0] < 1e-9
    assert distance_to(line, geo.side_midpoint(board, "C5", 2))[0] < 1e-9
    # ... and never goes near C3, which the 2-train's city shares but this route avoids.
    assert distance_to(line, geo.hex_center(board, "C3"))[0] > 0.8


def test_multi_stop_hexes_place_stops_apart():
    b = load_position(REAL / "1830-26855-318.json")
    for hex_id in ("G19", "E11", "F20"):
        pos = [geo.stop_position(b, hex_id, k) for k in range(len(b.hexes[hex_id].stops))]
        assert np.linalg.norm(pos[0] - pos[1]) > 0.4
    # E11's city 0 leaves by side 3 (north-east), so it sits on that side of the centre.
    d = geo.stop_position(b, "E11", 0) - geo.hex_center(b, "E11")
    assert d @ geo.side_direction("pointy", 3) > 0.3


# --- the picture --------------------------------------------------------------------


def test_svg_has_every_hex_id_and_a_legend_with_each_revenue_and_the_total(board, tmp_path):
    out = save(board, BEST, tmp_path / "run.svg")
    texts = svg_texts(out)
    for hex_id in board.hexes:
        assert hex_id in texts
    assert "3-train: 90" in texts
    assert "2-train: 60" in texts
    assert "Total: 150 (proven optimal)" in texts
    for name in ("Lakeport", "Ashford", "Brockton"):
        assert name in texts
    # Current values: Lakeport pays 30 in phase 3, tokens show their corporations.
    assert "30" in texts and "A" in texts and "B" in texts


def test_drawn_route_lines_follow_the_route_geometry(board):
    ax = draw_board(board, BEST)
    lines = {ln.get_gid(): ln for ln in ax.get_lines() if (ln.get_gid() or "").startswith("route-")}
    assert set(lines) == {"route-0", "route-1"}
    for i, route in enumerate(BEST.routes):
        drawn = np.asarray(lines[f"route-{i}"].get_xydata())
        # Both trains stop in Ashford, so each line is moved a little sideways there.
        for h, k in route.stops:
            assert distance_to(drawn, geo.stop_position(board, h, k))[0] < 0.1
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["3-train: 90", "2-train: 60", "Total: 150 (proven optimal)"]
    matplotlib.pyplot.close(ax.figure)


def test_board_alone_png(board, tmp_path):
    out = save(board, None, tmp_path / "board.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_unknown_extension_is_bad_input(board, tmp_path):
    with pytest.raises(InputError):
        save(board, BEST, tmp_path / "run.gif")


def test_1832_map_is_recognisable(tmp_path):
    b = load_position({"title": "1832", "phase": "2", "corporation": "SALR", "trains": ["2"],
                       "tokens": [{"hex": "D20", "stop": 0, "corporation": "SALR"}]})
    texts = svg_texts(save(b, None, tmp_path / "map.svg"))
    for name in ("Atlanta", "Miami", "Raleigh", "Louisville", "N16", "B14"):
        assert name in texts, name
    assert "coal" in texts  # the West Virginia Coal Fields are marked
    assert any(t.startswith("▲") for t in texts) and any(t.startswith("≈") for t in texts)


# --- declared routes and the command ------------------------------------------------


def test_declared_routes_find_the_track_the_solver_used(board):
    run, verdict = audited_run(board, {"routes": [{"train": "3", "stops": ["D4.0", "B4.0", "B2.0"]},
                                                  {"train": "2", "stops": ["A1.0", "B2.0"]}]})
    assert verdict.legal
    assert [r.track for r in run.routes] == [r.track for r in BEST.routes]
    assert run.revenue == 150
    # A leg with no track (C3 to B4 are not joined) draws as a straight line instead.
    assert find_track(board, [("C3", 0), ("B4", 0)]) is None


def test_declared_stop_not_on_board_is_named_by_the_audit(board):
    _, verdict = audited_run(board, {"routes": [{"train": "2", "stops": ["Z9.0", "B2.0"]}]})
    assert not verdict.legal and [p.rule for p in verdict.problems] == ["unknown-stop"]
    assert "Z9.0" in verdict.problems[0].message


def test_command_draws_declared_routes(tmp_path, capsys):
    decl = tmp_path / "declared.json"
    decl.write_text(json.dumps({"routes": [{"train": "2", "stops": ["A1.0", "B2.0"]}]}))
    out = tmp_path / "declared.svg"
    assert main(["draw", str(SMALL), "--routes", str(decl), "--out", str(out)]) == 0
    texts = svg_texts(out)
    assert "2-train: 60 = A1 30 + B2 30" in texts  # with the parts that add up to it
    assert "Total: 60 (declared, legal; best is 150)" in texts


def test_command_marks_an_illegal_declaration_in_the_audits_words(tmp_path):
    decl = tmp_path / "declared.json"
    decl.write_text(json.dumps({"routes": [{"train": "2", "stops": ["A1.0", "B2.0", "C3.0"]}]}))
    out = tmp_path / "illegal.svg"
    assert main(["draw", str(SMALL), "--routes", str(decl), "--out", str(out)]) == 0
    texts = svg_texts(out)
    assert any("NOT legal" in t for t in texts)
    assert any("[too-many-stops]" in t for t in texts)


def test_command_draws_the_best_run(tmp_path):
    out = tmp_path / "best.svg"
    assert main(["draw", str(SMALL), "--out", str(out)]) == 0
    assert "Total: 150 (proven optimal)" in svg_texts(out)


@pytest.mark.parametrize("args, message", [
    (["--out", "x.gif"], "'.gif'"),
    (["--out", "x"], "extension-less"),
    (["--out", "x.png", "--routes", "/nonexistent/declared.json"], "no such declared routes file"),
])
def test_command_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    args = [a if not a.startswith("x") else str(tmp_path / a) for a in args]
    assert main(["draw", str(SMALL)] + args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_command_unreadable_position_is_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["draw", str(bad), "--out", str(tmp_path / "x.png")]) == 2
    assert "malformed JSON" in capsys.readouterr().err


@pytest.mark.parametrize("fixture", ["1831/example.json", "1832/06-phase3-atlanta-distinct-cities.json",
                                     "1833NE/boston_montreal.json", "1832/worked_example.json"])
def test_every_title_draws_its_best_run_along_the_track(fixture, tmp_path):
    import trainruns

    b = load_position(ROOT / "fixtures" / fixture)
    run = trainruns.solve(b)
    for route in run.routes:
        assert route.track, route.train
        line = geo.route_geometry(b, route)
        assert np.max(np.linalg.norm(np.diff(line, axis=0), axis=1)) < 0.2  # no jumps
        for h, k in route.stops:
            assert distance_to(line, geo.stop_position(b, h, k))[0] < 1e-9, (route.train, h, k)
    texts = svg_texts(save(b, run, tmp_path / "run.svg"))
    assert set(b.hexes) <= set(texts)
    assert f"Total: {run.revenue} (proven optimal)" in texts


def test_a_declared_leg_without_track_is_drawn_straight_the_rest_along_track(board):
    # C3 to B4 has no track: that leg is a straight jump, the others follow the track.
    stops = [("A1", 0), ("B2", 0), ("C3", 0), ("B4", 0)]
    track = find_track(board, stops, partial=True)
    assert track == [("A1", 0), ("B2", 0), ("B2", 1), ("C3", 0)]
    line = geo.route_geometry(board, Route(train="4", stops=stops, revenue=0, track=track))
    hits = [distance_to(line, geo.stop_position(board, h, k)) for h, k in stops]
    assert all(d < 1e-9 for d, _ in hits) and [i for _, i in hits] == sorted(i for _, i in hits)
    assert distance_to(line, geo.side_midpoint(board, "B2", 5))[0] < 1e-9
    assert np.allclose(line[-1], geo.stop_position(board, "B4", 0))


# --- what the picture must show, and how large it may be --------------

EXAMPLE = ROOT / "fixtures" / "custom" / "example.json"


def test_a_path_past_a_town_does_not_run_through_its_dot():
    """fixtures/custom/example.json's D4: a town joined to sides 3, 0 and 4, and a
    separate path from side 2 to side 5 across the hex. Drawn straight, that path ran
    through the town's dot (a five-exit town); it must keep clear of it."""
    b = load_position(EXAMPLE)
    hx = b.hexes["D4"]
    town = geo.stop_position(b, "D4", 0)
    through = [j for j, (a, z) in enumerate(hx.paths) if ("stop", 0) not in (a, z)]
    assert through
    for j in through:
        d, _ = distance_to(geo.path_points(b, "D4", j), town)
        # the dot's radius, half the track's width (0.11 / 2) and no less
        assert d >= geo.TOWN_RADIUS + 0.055, d
        # its ends still meet the neighbours at the side midpoints
        pts = geo.path_points(b, "D4", j)
        for end, q in zip(hx.paths[j], (pts[0], pts[-1])):
            assert np.allclose(q, geo.side_midpoint(b, "D4", end[1]))
    # the town's own paths still reach its dot
    for j, (a, z) in enumerate(hx.paths):
        if ("stop", 0) in (a, z):
            assert distance_to(geo.path_points(b, "D4", j), town)[0] < 1e-9


def test_drawn_track_keeps_clear_of_every_stop_it_does_not_touch():
    """The same on every hex of every fixture, as drawn (the black lines' data)."""
    for path in [EXAMPLE, SMALL, ROOT / "fixtures" / "1831" / "example.json",
                 ROOT / "fixtures" / "1833NE" / "boston_montreal.json"]:
        b = load_position(path)
        for hex_id, hx in b.hexes.items():
            for j, (a, z) in enumerate(hx.paths):
                pts = geo.path_points(b, hex_id, j)
                for k, stop in enumerate(hx.stops):
                    if ("stop", k) not in (a, z) and ("side" == a[0] and "side" == z[0]):
                        d, _ = distance_to(pts, geo.stop_position(b, hex_id, k))
                        assert d >= geo.stop_radius(stop), (path.name, hex_id, j, k)


def test_canvas_bounds_come_from_the_hexes_that_exist(board):
    ax = draw_board(board)
    centres = np.array([geo.hex_center(board, h) for h in board.hexes])
    lo, hi = ax.get_xlim(), ax.get_ylim()
    assert lo[0] == pytest.approx(centres[:, 0].min() - 1.15) and lo[1] == pytest.approx(centres[:, 0].max() + 1.15)
    # y is flipped (south down)
    assert hi[1] == pytest.approx(centres[:, 1].min() - 1.15) and hi[0] == pytest.approx(centres[:, 1].max() + 1.15)
    # focus: just those hexes
    ax = draw_board(board, focus=["B2"])
    c = geo.hex_center(board, "B2")
    assert ax.get_xlim() == pytest.approx((c[0] - 1.15, c[0] + 1.15))
    import matplotlib.pyplot as plt
    plt.close("all")


def test_a_far_away_hex_is_refused_not_drawn(tmp_path, capsys):
    """A failure this guards against: one hex A20001 on a 5-hex board made the picture (and its empty grid)
    grow past 3 GB. The canvas is capped: exit 2 with one line, before any solve."""
    data = json.loads(SMALL.read_text())
    data["map"]["hexes"].append({"id": "A20001", "stops": [], "paths": []})
    pos = tmp_path / "far.json"
    pos.write_text(json.dumps(data))
    with pytest.raises(InputError, match="A20001"):
        save(load_position(pos), None, tmp_path / "far.png")
    code = main(["draw", str(pos), "--out", str(tmp_path / "far.png")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--focus" in err
    # the rest of the map can still be drawn, by focusing on it
    assert main(["draw", str(pos), "--out", str(tmp_path / "near.svg"), "--routes", "none",
                 "--focus", "A1,B2,B4"]) == 0


def test_command_focus_zooms_and_names_unknown_hexes(tmp_path, capsys):
    out = tmp_path / "focus.svg"
    assert main(["draw", str(SMALL), "--out", str(out), "--routes", "none", "--focus", "B2, B4"]) == 0
    texts = svg_texts(out)
    assert "B2" in texts and "B4" in texts
    assert main(["draw", str(SMALL), "--out", str(out), "--focus", "B2,Z99"]) == 2
    err = capsys.readouterr().err
    assert "Z99" in err and err.count("\n") == 1


def test_tile_numbers_names_whole_and_legend_parts(tmp_path):
    """Tile numbers are drawn (they help check a typed board); long names are never cut
    off; the legend shows every part of each route's revenue."""
    from trainruns import solve

    b = load_position(ROOT / "fixtures" / "1833NE" / "boston_montreal.json")
    run = solve(b)
    out = tmp_path / "ne.svg"
    save(b, run, out)
    texts = svg_texts(out)
    tiles = {hx.tile for hx in b.hexes.values() if hx.tile}
    assert tiles and all(f"#{t}" in texts for t in tiles)
    names = {hx.name for hx in b.hexes.values() if hx.name}
    shown = " ".join(t.replace("\n", " ") for t in texts)
    assert all(n in shown or n.replace("/", "/ ") in shown for n in names), [n for n in names if n not in shown]
    assert "…" not in shown
    start = next(i for i, t in enumerate(texts) if t.startswith("3/5-train"))
    end = next(i for i, t in enumerate(texts) if t.startswith("Total"))
    legend = " ".join(texts[start:end])  # one text per legend line
    numbers = [int(x) for x in legend.split("=", 1)[1].replace("+", " ").split() if x.lstrip("-").isdigit()]
    assert sum(numbers) == run.routes[0].revenue == 230


def test_1831_sites_drawn_by_type_each_token_on_its_own_site():
    """5.2.3.9: Stations are circles, Rail Yards squares; 5.2.7.2: black sites black; a
    token is drawn on the site it stands on (here the second one), not the first."""
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Circle, Rectangle

    pos = {"title": "1831", "phase": "3", "corporation": "A", "trains": ["2S"],
           "map": {"layout": "flat", "hexes": [
               {"id": "B2", "tile": "601", "stops": [{"kind": "city", "value": 20,
                                                      "slot_types": ["station", "yard", "black"]}],
                "paths": []}]},
           "tokens": [{"hex": "B2", "stop": 0, "slot": 1, "corporation": "A"}]}
    b = load_position(pos)
    ax = draw_board(b)
    p = geo.stop_position(b, "B2", 0)
    sites = [q for q in ax.patches if isinstance(q, (Circle, Rectangle))
             and getattr(q, "get_zorder")() == 6]  # Z_TOKEN
    assert len(sites) == 3
    shapes = ["square" if isinstance(q, Rectangle) else "circle" for q in sites]
    assert shapes == ["circle", "square", "circle"]
    assert sites[2].get_facecolor() == to_rgba("black")
    assert sites[0].get_facecolor() == to_rgba("white")
    assert sites[1].get_facecolor() not in (to_rgba("white"), to_rgba("black"))
    assert all(np.linalg.norm(np.array(q.get_center() if isinstance(q, Circle) else
                                       np.array(q.get_xy()) + q.get_width() / 2) - p) < 0.6 for q in sites)
    assert any(t.get_text() == "#601" for t in ax.texts)
    import matplotlib.pyplot as plt
    plt.close("all")


def test_hex_ids_and_names_keep_off_the_stops():
    """Boston (1833NE G22: two cities and a $0 node) was cluttered: its name sat on its
    stops. Every id and name of the map is drawn clear of its hex's stops (the text's
    box, about 0.3 of its size wide per letter, kept off each stop's disc)."""
    b = load_position(ROOT / "fixtures" / "1833NE" / "boston_montreal.json")
    ax = draw_board(b)
    checked = set()
    for t in ax.texts:
        q = np.array(t.get_position())
        text = t.get_text()
        owners = [h for h, hx in b.hexes.items() if text == h or hx.name in (text.replace("\n", " "), text.replace("\n", ""))]
        if not owners:
            continue
        hex_id = min(owners, key=lambda h: np.linalg.norm(geo.hex_center(b, h) - q))
        size = t.get_fontsize()  # points
        lines = text.split("\n")
        units = size / (72.0 * ax.bbox.width / ax.figure.dpi / (ax.get_xlim()[1] - ax.get_xlim()[0]))
        hw, hh = 0.3 * units * max(map(len, lines)), 0.5 * units * len(lines)
        for k, stop in enumerate(b.hexes[hex_id].stops):
            p = geo.stop_position(b, hex_id, k)
            gap = max(abs(q[0] - p[0]) - hw, abs(q[1] - p[1]) - hh) - geo.stop_radius(stop)
            assert gap > 0, (hex_id, text, k, gap)
        checked.add((hex_id, text))
    assert ("G22", "G22") in checked and ("G22", "Boston") in checked and len(checked) > 140
    import matplotlib.pyplot as plt
    plt.close("all")

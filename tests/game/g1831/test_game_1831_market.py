"""1831's C/P market (4.3, 4.4) behind the shared market interface (game/market.py): a
sale's move ``down(cell, steps)``, which the shared steps make, is the 1831 walk."""

from __future__ import annotations

from trainruns.game.game import Game


def market():
    return Game("1831", ["P0", "P1", "P2", "P3"], 7).rules.market


def test_a_sale_moves_down_row_by_row_then_left_at_the_bottom_4_6_3_2_2():
    m = market()
    top = m.par_cells()[0]
    bottom = next((r, top[1]) for r in range(len(m.rows) - 1, -1, -1) if m.exists((r, top[1])))
    steps = bottom[0] - top[0] + 1       # one more than the rows below: a step left at the bottom
    assert m.down(top, steps) == m.walk(top, "down", steps)[0] != bottom
    assert m.down(top, 1) == (top[0] + 1, top[1])


def test_a_sale_stops_on_a_closed_out_square_4_3_2():
    m = market()
    closed = [(r, c) for r, row in enumerate(m.rows) for c, sq in enumerate(row) if sq and sq.get("area") == "closed"]
    assert closed
    r, c = closed[0]
    above = next((r - k, c) for k in range(1, r + 1) if m.exists((r - k, c)) and m.zone((r - k, c)) != "closed")
    assert m.down(above, 10) == (r, c)   # stops there however many steps are left


def test_the_page_draws_both_prices_and_no_box_where_there_is_no_square_4_4():
    m = market()
    rows = m.view()["rows"]
    cell = m.par_cells()[0]
    assert rows[cell[0]][cell[1]] == {"price": m.common(cell), "preferred": m.preferred(cell), "zone": m.zone(cell)}
    holes = [(r, c) for r, row in enumerate(m.rows) for c, sq in enumerate(row) if sq is None]
    assert all(rows[r][c] is None for r, c in holes)

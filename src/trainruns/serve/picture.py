"""The map as ``trainruns draw`` draws it, as SVG text for the page.

It is :func:`trainruns.services.draw.save` itself (no second renderer): the board's hexes keep
their ``hex-ID`` ids in the SVG, which is how the page knows which hex was clicked.
matplotlib is not safe to drive from two threads at once, so drawings take turns.
"""

from __future__ import annotations

import os
import tempfile
import threading

from trainruns.services.draw import save

_LOCK = threading.Lock()


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

"""The 1831 stock market (4.3, 4.4): a grid of squares each with a common (C) and a
preferred (P) price, from the config (the printed grid is in no source).

Squares are ``{"c", "p", "area"?}`` or null (no square). ``area`` marks STOCK TRADES
CLOSED OUT (``closed``, 4.3.2), STOCK SPLIT GO TO TARGET (``split``, 4.3.4) and the
SPLIT TARGET (``target``). Movements, as the rules state them:

- down (a common sale, 4.6.3.2.2): one row down; at the bottom "it moves left until it
  is able to continue downwards", each step counted;
- left (5.8.1, 5.4.5): one square left, or down if it cannot move left;
- right (5.8.1): one square right, or up if it cannot move right;
- up (4.7.10, 4.8.3): one square up, or right if it cannot move up.

A marker entering a ``closed`` square stops there (the company is closed out); one
entering a ``split`` square goes to the target (the caller adds the 2x markers).
Markers on one square are stacked, a newcomer "underneath any markers that are already
there" (4.4.2): the operating order (5.0.4) is price, then the right-most square, then
the top of the stack.
"""

from __future__ import annotations

from trainruns.game.market import Stacks


class Market1831(Stacks):
    def __init__(self, config: dict):
        super().__init__()
        self.rows = config["rows"]
        self.par_column = config["par_column"]
        self.target = next(((r, c) for r, row in enumerate(self.rows) for c, sq in enumerate(row)
                            if sq and sq.get("area") == "target"), None)

    def square(self, cell) -> dict:
        return self.rows[cell[0]][cell[1]]

    def price(self, cell) -> int:
        """The share price order's price: the common price (5.0.4)."""
        return self.common(cell)

    def common(self, cell) -> int:
        return self.square(cell)["c"]

    def preferred(self, cell) -> int:
        return self.square(cell)["p"]

    def zone(self, cell) -> str:
        """The square's area (``closed``, ``split``, ``target``), else ``white``."""
        return self.square(cell).get("area") or "white"

    def box_view(self, cell) -> dict | None:
        """A square as the page draws it: the shared box (its C price and its area or
        "white") with its ``preferred`` price; None where there is no square."""
        view = super().box_view(cell)
        return view and dict(view, preferred=self.preferred(cell))

    def par_cell(self, par: int):
        """4.7.5: the PAR column square whose P price is the par value."""
        for r, row in enumerate(self.rows):
            c = self.par_column
            if c < len(row) and row[c] is not None and row[c]["p"] == par:
                return (r, c)
        return None

    def par_cells(self) -> list[tuple]:
        """4.7.5: the squares of the PAR column."""
        return [(r, self.par_column) for r in range(len(self.rows)) if self.exists((r, self.par_column))]

    # --- single steps ------------------------------------------------------------------

    def _step(self, cell, first, second):
        for dr, dc in (first, second):
            nxt = (cell[0] + dr, cell[1] + dc)
            if self.exists(nxt):
                return nxt
        return cell

    STEPS = {"up": ((-1, 0), (0, 1)), "down": ((1, 0), (0, -1)), "left": ((0, -1), (1, 0)),
             "right": ((0, 1), (-1, 0))}

    def up(self, cell):
        return self._step(cell, *self.STEPS["up"])

    def down(self, cell, steps: int = 1):
        """The shared interface's sale move: ``steps`` squares down (4.6.3.2.2), stopping
        on a closed-out or split square (:meth:`walk`)."""
        return self.walk(cell, "down", steps)[0]

    def left(self, cell):
        return self._step(cell, *self.STEPS["left"])

    def right(self, cell):
        return self._step(cell, *self.STEPS["right"])

    def walk(self, cell, direction: str, steps: int):
        """``steps`` moves one way; stops on a closed-out or split square. Returns
        ``(cell, area reached or None)``."""
        for _ in range(steps):
            nxt = self._step(cell, *self.STEPS[direction])
            if nxt == cell:
                break
            cell = nxt
            if self.zone(cell) in ("closed", "split"):
                return cell, self.zone(cell)
        return cell, None

"""The stock market grid and its token movements (1832 [5.8], [5.1.1]; the grid: docs/gaps.md).

A grid is rows of box strings: the price followed by letters for the box kind
(``p`` par box, ``y`` yellow, ``o`` green, ``b`` brown, ``c`` closed, ``i`` below the soft
ledge). Movements, as [5.8.1] states them and the grid's shape fixes them:

- up: one row up; from the top row one right and one down instead; the top-right
  box stays;
- down: one row per share sold; a token at or reaching the soft ledge (the last box
  above an ``i`` box) stops there when exactly one more step is due; at the bottom of
  its column (the lower ledge) it stops whatever is left;
- right: one box right; at the end of a row, or from above the soft ledge into an
  ``i`` box, up instead (the arrows);
- left: one box left; from the first column, down instead (the arrows).

Tokens in one box are stacked in arrival order (:class:`Market` keeps the stacks):
the share price order is price, then the rightmost box, then the top of a stack.
"""

from __future__ import annotations


class Stacks:
    """What every title's market does with its price tokens: a grid of boxes (``rows``,
    ``exists``, ``price``, ``zone``, ``par_cell``, ``box_view``, and the moves the shared
    steps make, ``up(cell)``, ``down(cell, steps)`` for a sale, ``left(cell)`` and
    ``right(cell)``, as the title's market defines them) and the tokens in each box
    stacked in arrival order, a newcomer
    underneath (1831 4.4.2; 1832 [4.1.3]): the share price order is price, then the
    rightmost box, then the top of a stack."""

    def __init__(self):
        self.stacks: dict[tuple, list[str]] = {}

    def exists(self, cell) -> bool:
        """Whether the grid has a box at ``cell`` (a row may be short, and a title's grid
        may leave a place empty: None)."""
        r, c = cell
        return 0 <= r < len(self.rows) and 0 <= c < len(self.rows[r]) and self.rows[r][c] is not None

    def price(self, cell) -> int:
        raise NotImplementedError

    def par_cells(self) -> list[tuple]:
        """The boxes a company may start on, as the title's market marks them."""
        raise NotImplementedError

    def zone(self, cell) -> str:
        """What the box means by rule, as the page's legend names it (``white`` for a
        plain box; ``closed`` for one that closes a company)."""
        raise NotImplementedError

    def place(self, cid: str, cell):
        self.stacks.setdefault(cell, []).append(cid)

    def move(self, cid: str, old, new):
        if old == new:
            return
        self.remove(cid, old)
        self.place(cid, new)

    def remove(self, cid: str, cell):
        stack = self.stacks.get(cell, [])
        if cid in stack:
            stack.remove(cid)

    def depth(self, cid: str, cell) -> int:
        """Where ``cid`` stands in the stack of box ``cell`` (0: the top)."""
        stack = self.stacks.get(cell, [])
        return stack.index(cid) if cid in stack else len(stack)

    def put_back(self, cid: str, old, cell, depth: int):
        """``cid`` from box ``old`` back into box ``cell`` at ``depth`` of its stack, where
        it stood before a sale now undone (1832 [5.9]: "the share price is restored to
        its original position as if the sale never took place"; the stack decides the
        operating order, [4.1.3])."""
        self.remove(cid, old)
        stack = self.stacks.setdefault(cell, [])
        stack.insert(min(depth, len(stack)), cid)

    def view(self) -> dict:
        """The market as the page draws it: rows of boxes (:meth:`box_view`; None where
        the grid has no box) and, per box holding price tokens, the corporations in
        stacking order (top last)."""
        return {"rows": [[self.box_view((r, c)) for c in range(len(row))] for r, row in enumerate(self.rows)],
                "stacks": {f"{r},{c}": list(ids) for (r, c), ids in self.stacks.items() if ids}}

    def box_view(self, cell) -> dict | None:
        """A box as the page draws it: ``{"price", "zone"}``; None where there is no box."""
        return {"price": self.price(cell), "zone": self.zone(cell)} if self.exists(cell) else None

    def order_key(self, cid: str, cell):
        """Sort key for share price order, highest first: price, then the rightmost
        box, then the top of a stack."""
        stack = self.stacks.get(cell, [])
        return (-self.price(cell), -cell[1], stack.index(cid) if cid in stack else 0)


class Market(Stacks):
    def __init__(self, rows: list[list[str]]):
        super().__init__()
        self.rows = []
        for row in rows:
            cells = []
            for box in row:
                digits = "".join(ch for ch in box if ch.isdigit())
                cells.append((int(digits), set(box[len(digits):])))
            self.rows.append(cells)

    # --- boxes ----------------------------------------------------------------------------

    def price(self, cell) -> int:
        return self.rows[cell[0]][cell[1]][0]

    def kinds(self, cell) -> set:
        return self.rows[cell[0]][cell[1]][1]

    def zone(self, cell) -> str:
        """``yellow``, ``green``, ``brown``, ``closed`` or ``white``."""
        k = self.kinds(cell)
        for letter, name in (("c", "closed"), ("b", "brown"), ("o", "green"), ("y", "yellow")):
            if letter in k:
                return name
        return "white"

    def par_cell(self, price: int):
        for r, row in enumerate(self.rows):
            for c, (p, k) in enumerate(row):
                if p == price and "p" in k:
                    return (r, c)
        return None

    def par_cells(self) -> list[tuple]:
        """The par boxes (``p``), row by row."""
        return [(r, c) for r, row in enumerate(self.rows) for c, (_, k) in enumerate(row) if "p" in k]

    def par_prices(self) -> list[int]:
        return sorted(p for row in self.rows for p, k in row if "p" in k)

    def _below_ledge(self, cell) -> bool:
        return "i" in self.kinds(cell)

    # --- movements ------------------------------------------------------------------------

    def up(self, cell):
        r, c = cell
        if r > 0 and self.exists((r - 1, c)):
            return (r - 1, c)
        if self.exists((r + 1, c + 1)) and self.exists((r, c + 1)):
            return (r + 1, c + 1)
        return cell

    def down(self, cell, steps: int):
        r, c = cell
        left = steps
        while left > 0:
            nxt = (r + 1, c)
            if not self.exists(nxt):
                break  # the lower ledge: stop regardless
            if not self._below_ledge((r, c)) and self._below_ledge(nxt) and left == 1:
                break  # the soft ledge: exactly one more step stops on it
            r, c = nxt
            left -= 1
        return (r, c)

    def right(self, cell):
        r, c = cell
        nxt = (r, c + 1)
        if not self.exists(nxt) or (not self._below_ledge(cell) and self._below_ledge(nxt)):
            return self.up(cell) if r > 0 else cell
        return nxt

    def left(self, cell):
        r, c = cell
        if c == 0:
            return (r + 1, c) if self.exists((r + 1, c)) else cell
        return (r, c - 1)

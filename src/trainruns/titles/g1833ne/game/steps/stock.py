"""1833NE's stock turn: the shared turn with incremental capitalisation (summary
"Capitalization type", "Floating percentage and per-player share limits"; [E] 1846
turn: sell first, in one block per corporation, then buy one certificate, which ends
the turn). The rules it reads are the hooks of ``game/stock.py``."""

from __future__ import annotations

from trainruns.game.steps.stock import StockTurn


class StockTurn1833NE(StockTurn):
    buy_then_sell = False   # the purchase ends the turn
    pass_by_rule = False    # [E] a turn with nothing but a pass waits for the player's pass

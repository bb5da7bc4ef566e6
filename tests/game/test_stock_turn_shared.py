"""One stock turn (game/steps/stock.py) for every title: 1832 [5.3], 1833NE "Comparison
with 1830" and 1831 4.5 turns are each the shared StockTurn, a title's own code only
where its rulebook differs."""

from types import SimpleNamespace

import pytest

from trainruns.game.game import Game
from trainruns.game.steps.stock import StockTurn


@pytest.mark.parametrize("title", ["1831", "1832", "1833NE"])
def test_each_titles_turn_is_the_shared_stock_turn(title):
    g = Game(title, ["A", "B", "C", "D"], 1, [], None)
    turn = g.rules.stock_turn(SimpleNamespace(selling=True, sold_by={}, no_sale=set()), "A")
    assert isinstance(turn, StockTurn)


@pytest.mark.parametrize("title, sales_first, buy_then_sell", [
    ("1831", True, False),     # 4.5.1: selling first
    ("1832", False, True),     # [5.3] Buy/Sell Order: buy then sell, or sell then buy
    ("1833NE", False, False),  # "Comparison with 1830": the purchase ends the turn
])
def test_the_buy_sell_order_is_the_titles(title, sales_first, buy_then_sell):
    g = Game(title, ["A", "B", "C", "D"], 1, [], None)
    turn = g.rules.stock_turn(SimpleNamespace(selling=True, sold_by={}, no_sale=set()), "A")
    assert (turn.sales_listed_first, turn.buy_then_sell) == (sales_first, buy_then_sell)

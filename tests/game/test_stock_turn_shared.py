"""One stock turn (game/steps/stock.py) for every title: 1832 [5.3], 1833NE "Comparison
with 1830" and 1831 4.5 turns are each the shared StockTurn, a title's own code only
where its rulebook differs."""

import itertools
from types import SimpleNamespace

import pytest

from trainruns.game.game import Game
from trainruns.game.shares import next_president
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


def _seats(names):
    return SimpleNamespace(players=[SimpleNamespace(name=n) for n in names])


def test_next_president_by_hand():
    """1832 [5.5]: the player holding more than the president takes the certificate,
    ties to the one closest to the president's left. B (president, 3) sells down to 2;
    C and A hold 3 each: C sits first to B's left."""
    held = {"A": 3, "B": 2, "C": 3, "D": 1}
    assert next_president(_seats("ABCD"), "B", held.get, held["B"]) == "C"
    # nobody holds more than the president's 3: no change
    assert next_president(_seats("ABCD"), "B", held.get, 3) is None


def test_next_president_against_brute_force():
    """Every holding of 0-4 shares among four players, every president: the candidate
    the shared search names is the one holding most above the threshold, the nearest to
    the president's left among equals (1832 [5.5], 1831 4.7.9)."""
    names = "ABCD"
    for holdings in itertools.product(range(5), repeat=4):
        held = dict(zip(names, holdings))
        for president in names:
            above = held[president]
            left = [names[(names.index(president) + k) % 4] for k in (1, 2, 3)]
            over = [n for n in left if held[n] > above]
            want = min(over, key=lambda n: (-held[n], left.index(n))) if over else None
            assert next_president(_seats(names), president, held.get, above) == want

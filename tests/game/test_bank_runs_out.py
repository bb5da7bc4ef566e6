"""When the bank runs out of money: a payment it cannot make in full, or one that leaves
it with nothing (1832 Glossary "Broken Bank": "it has zero dollars or less, or it does
not have enough money to make a payment"; 1831 6.1 and 1833NE "End game triggers": the
bank "runs out", read the same way, docs/gaps.md). The bank's state is what the game
ends by ([13.2], 6.1)."""

import pytest

from _1831 import new as new_1831
from _1832 import new as new_1832
from _1832 import start
from trainruns.game.game import Game
from trainruns.game.round import StockRound


def new_1833ne():
    return Game("1833NE", ["A", "B", "C", "D"], 1)


@pytest.mark.parametrize("new", [new_1832, new_1831, new_1833ne], ids=["1832", "1831", "1833NE"])
def test_a_payment_that_leaves_the_bank_with_nothing_breaks_it(new):
    g = new()
    s = g.state
    player = next(iter(s.player))
    s.pay("bank", f"player:{player}", s.bank.cash - 1)
    assert (s.bank.cash, s.bank.broken) == (1, False)   # $1 left: not out of money
    s.pay("bank", f"player:{player}", 1)
    assert (s.bank.cash, s.bank.broken) == (0, True)    # "zero dollars": out


@pytest.mark.parametrize("new", [new_1832, new_1831, new_1833ne], ids=["1832", "1831", "1833NE"])
def test_a_payment_the_bank_cannot_make_breaks_it_and_is_kept_on_paper(new):
    g = new()
    s = g.state
    player = next(iter(s.player))
    had = s.player[player].cash
    short = s.bank.cash + 50
    s.pay("bank", f"player:{player}", short)
    assert s.bank.broken and s.bank.cash == -50 and s.player[player].cash == had + short


def test_1832_a_sale_into_the_open_market_that_empties_the_bank_breaks_it():
    """[13.2] a. and the Glossary: B sells one SALR share at $100 to a bank holding
    exactly $100; the bank pays it and is left with zero dollars: broken, shown in
    the state."""
    g = new_1832(3)
    s = g.state
    s.bank.cash += 100_000   # room for the setup's own transfers
    start(g, "SALR", "A", 100, {"A": 2, "B": 3, "C": 1})
    g.rules.end_stock_round(None)   # SALR floats
    g.round = StockRound(g, "B", 2)
    g.round.settle()
    extra = s.bank.cash - 100
    s.bank.cash -= extra
    s.player["C"].cash += extra
    g.act({"type": "sell_shares", "player": "B", "corporation": "SALR", "count": 1})
    assert s.bank.cash == 0
    assert g.to_json()["bank"]["broken"] is True

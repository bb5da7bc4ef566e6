"""Shared helpers of the 1832 game tests: a new game, a refusal with its rule id, the
private sales played out, and a company started on a prepared state."""

import pytest

from trainruns.game.errors import Refusal
from trainruns.game.game import Game

NAMES = ["A", "B", "C", "D", "E", "F", "G"]


def new(n=4, variants=()):
    return Game("1832", NAMES[:n], 1, list(variants))


def refused(game, action, rule):
    """The action is refused by ``rule``; the refusal is returned for its message."""
    with pytest.raises(Refusal) as e:
        game.act(action)
    assert e.value.rule == rule
    return e.value


def buy_all_privates(g, cog_par=100):
    """Each player in turn buys the cheapest private; P7's buyer sets CoG's par."""
    while g.to_json()["round"]["kind"] == "private_auction":
        active = g.active()["player"]
        listed = g.actions()
        if listed[0]["type"] == "par":
            g.act({"type": "par", "player": active, "corporation": "CG", "price": cog_par})
            continue
        buy = next(a for a in listed if a["type"] == "buy_private")
        g.act(buy)


def start(g, cid, president, par=100, shares=None, cash=10_000):
    """A company started on a prepared state: each buyer first gets ``cash`` from the
    bank (the total stays the same), then the president's certificate and the other
    shares are bought at par (money to the bank, [5.3])."""
    r, s = g.rules, g.state
    c = s.corp[cid]
    for name in {president, *(shares or {})}:
        s.player[name].cash += cash
        s.bank.cash -= cash
    r.start_corporation(c, president, par)
    for name, n in (shares or {}).items():
        r.buy_shares(c, name, "ipo", n, par)
    return c


def operated(g, cid, president, par, holders, cell=None):
    """A started, floated, capitalised company that has operated, with its home token;
    ``holders`` maps players to shares bought at par from the initial offering (their
    money first from the bank: the total stays the same)."""
    from trainruns.game.state import player_key

    r, s = g.rules, g.state
    c = s.corp[cid]
    for name, n in {president: 2, **holders}.items():
        s.pay("bank", player_key(name), par * (n + (2 if name == president and name in holders else 0)))
    r.start_corporation(c, president, par)
    for name, n in holders.items():
        r.buy_shares(c, name, "ipo", n, par)
    s.pay("bank", f"corp:{cid}", par * 10)
    c.capitalised = c.floated = c.operated = True
    r.home_token(c)
    if cell is not None:
        r.market.move(c.id, c.cell, cell)
        c.cell = cell
    return c


def at_step(g, step_class, c):
    """``c`` alone in an operating round (1 of 1), at a step of ``step_class``: a scene's
    turn begun where the test needs it."""
    from trainruns.game.round import OperatingRound

    g.rules.or_set = (1, 1)
    g.round = OperatingRound(g, 1, 1)
    g.round.order = []
    step = step_class(g, c)
    g.round.queue = [step]
    step.enter()
    return step

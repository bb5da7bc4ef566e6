"""Shared helpers of the 1831 game tests, on the shipped (invented) config: a new game,
a started company made active with its treasury set, and a train record."""

from trainruns.game.game import Game


def new(n=4, seed=7, **kw):
    return Game("1831", [f"P{i}" for i in range(n)], seed, **kw)


def company(g, cid, par, president, cash=None):
    """A started, active company; its treasury set to ``cash`` (the rest to the bank)."""
    r, s = g.rules, g.rules.state
    c = s.corp[cid]
    r.start_company(c, president, par)
    c.extra["active"] = True
    if cash is not None:
        if c.cash > cash:
            s.pay(f"corp:{cid}", "bank", c.cash - cash)
        else:
            s.pay("bank", f"corp:{cid}", cash - c.cash)
    return c


def train(size, kind="S", status="new"):
    return {"train": f"{size}{kind}", "size": size, "status": status}

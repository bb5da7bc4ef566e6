"""Shared helpers of the 1831 game tests, on the shipped (invented) config: a new game,
a started company made active with its treasury set, and a train record."""

from dataclasses import replace

from trainruns.game.game import Game
from trainruns.titles.g1831.game.config import Config
from trainruns.titles.g1831.game.state import Token, Turn1831

SHIPPED = Config()
TRAINS = SHIPPED.train_cards()


def new(n=4, seed=7, **kw):
    return Game("1831", [f"P{i}" for i in range(n)], seed, **kw)


def company(g, cid, par, president, cash=None):
    """A started, active company; its treasury set to ``cash`` (the rest to the bank)."""
    r, s = g.rules, g.rules.state
    c = s.corp[cid]
    r.start_corporation(c, president, par)
    c.active = True
    if cash is not None:
        if c.cash > cash:
            s.pay(f"corp:{cid}", "bank", c.cash - cash)
        else:
            s.pay("bank", f"corp:{cid}", cash - c.cash)
    return c


def train(size, kind="S", status="new"):
    return replace(TRAINS[f"{size}{kind}"], status=status)


# --- operating steps and mergers (audit1831: test_game_1831_mergers.py, test_serve_game.py)


def turn_of(c):
    """A fresh turn record of ``c`` in an operating round, as the round keeps it."""
    return Turn1831(c.id)


def current_step(g, step):
    """Make ``step`` the round's current step (a hand-built state at that point of a turn)."""
    g.round.queue.insert(0, step)
    step.enter()
    return step


def operated(g, cid, par, president, preferred_to=(), home=True):
    """A started, active company that has been through one Operation Set (5.9.5), its
    ordinary preferred held by ``preferred_to`` (holders in turn; the rest by its
    president), its home token placed."""
    from trainruns.titles.g1831.game import certs

    r = g.rules
    c = r.state.corp[cid]
    r.start_corporation(c, president, par)
    holders = list(preferred_to)
    for x in c.certs:
        if x.kind == "preferred":
            certs.move(r.state, c, x, holders.pop(0) if holders else f"player:{president}")
            r.state.pay("bank", f"corp:{cid}", par)   # as if bought from the initial offering
    c.active = True
    c.active_set = 0
    r.sets_done = 1
    r.state.title_state.trains_bought = True
    if home:
        r.home_token(c)
    r.update_president(c)
    return c


def neighbours(g, a, b):
    """B's token in A's home city, so A reaches it (5.9.3); from the first 3-train, so A
    may keep it beside its own Station (5.2.7.6)."""
    g.rules.state.phase = "3"
    b.sites.append(Token(a.home, 1, "yard"))
    b.tokens.append((a.home, 0))


def merger_pair(a_par=200, b_par=40, b_president="P1", **b_kw):
    """A new game where PRR (``a_par``, P0) reaches NYC (``b_par``, ``b_president``,
    without a home token unless ``home=True``): PRR's merger candidate (5.9.3)."""
    g = new()
    a = operated(g, "PRR", a_par, "P0")
    b = operated(g, "NYC", b_par, b_president, **{"home": False, **b_kw})
    neighbours(g, a, b)
    return g, a, b

"""The moves every merger shares (game/merger.py), on an 1832 game: [11.7] Post-merger
Assets (the buyer inherits cash, trains and privates; the bought company's shell leaves
play) and [11.7]'s payment for the shares bought out."""

from _trains import owned

from trainruns.game import merger
from trainruns.game.game import Game
from trainruns.game.state import corp_key, player_key
from trainruns.game.train import names


def started(g, cid, president, par):
    """A company started at ``par`` by ``president`` (his cash from the bank)."""
    c = g.state.corp[cid]
    g.state.pay("bank", player_key(president), 2 * par)
    g.rules.start_corporation(c, president, par)
    return c


def test_absorb_hands_over_the_assets_and_retires_the_shell_11_7():
    g = Game("1832", ["A", "B", "C"], 1)
    s, r = g.state, g.rules
    x, y = started(g, "ACL", "A", 100), started(g, "CG", "B", 90)
    s.pay("bank", corp_key(x.id), 50)
    s.pay("bank", corp_key(y.id), 120)
    x.trains, y.trains = owned(g, "2"), owned(g, "3", "2")
    s.private["P1"].owner = corp_key(y.id)
    money = s.money()
    merger.absorb(r, x, y)
    assert x.cash == 170 and y.cash == 0 and s.money() == money
    assert names(x.trains) == ["2", "3", "2"] and y.trains == []
    assert s.private["P1"].owner == corp_key(x.id)
    assert y.closed and y.shares == {} and y.tokens == [] and y.president is None
    assert y.id not in [cid for stack in r.market.stacks.values() for cid in stack]
    assert x.id in [cid for stack in r.market.stacks.values() for cid in stack]


def test_buy_out_pays_players_and_companies_and_the_rest_to_the_bank_11_7():
    g = Game("1832", ["A", "B", "C"], 1)
    s, r = g.state, g.rules
    x = started(g, "ACL", "A", 100)
    y = started(g, "GRR", "C", 80)
    s.pay("bank", corp_key(x.id), 500)
    bank, b, c = s.bank.cash, s.player["B"].cash, s.corp["GRR"].cash
    # the title's holdings bought out, as its buyout_payments hook would list them
    r.buyout_payments = lambda shell: [("player:B", 160), ("ipo", 240), ("market", 80), ("corp:GRR", 0)]
    assert merger.buyout_cost(r, y) == 480
    merger.buy_out(r, x, y)
    assert s.player["B"].cash == b + 160 and s.bank.cash == bank + 320 and s.corp["GRR"].cash == c
    assert x.cash == 500 - 480 and y.president == "C"

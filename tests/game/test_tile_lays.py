"""The turn's tile-lay allowance as data (game/tile_lays.py), against the rulebooks'
allowances written out by hand: every sequence of up to four lays (Y a new tile, U an
upgrade) is allowed exactly when the rule allows it."""

from itertools import product

import pytest

from trainruns.game.tile_lays import may_lay
from trainruns.titles.tiled import load_data


def allowed_1832_company(seq):
    """1832 [6]: two yellow tiles, or one upgrade."""
    return seq in ("", "Y", "YY", "U")


def allowed_1832_system(seq):
    """1832 [11.6.8]: three yellow tiles, or one yellow tile and one upgrade, either order."""
    return seq in ("", "Y", "YY", "YYY", "U", "YU", "UY")


def allowed_1833ne(seq):
    """1833NE "Comparison with 1830": one yellow tile plus a second yellow or an upgrade."""
    return seq in ("", "Y", "YY", "U", "YU", "UY")


def allowed_by_data(allowance, seq):
    lays = []
    for kind in seq:
        if not may_lay(allowance, lays, upgrade=kind == "U"):
            return False
        lays.append({"upgrade": kind == "U"})
    return True


SEQUENCES = ["".join(p) for n in range(5) for p in product("YU", repeat=n)]


@pytest.mark.parametrize("allowance,rule", [
    (load_data("trainruns.titles.g1832", "game.json")["tile_lays"]["company"], allowed_1832_company),
    (load_data("trainruns.titles.g1832", "game.json")["tile_lays"]["system"], allowed_1832_system),
    (load_data("trainruns.titles.g1833ne", "game.json")["tile_lays"], allowed_1833ne),
])
def test_the_data_allows_what_the_rule_allows(allowance, rule):
    assert [s for s in SEQUENCES if allowed_by_data(allowance, s) != rule(s)] == []


def test_a_free_lay_takes_no_slot():
    """1833NE: a private's free lay (P2's, P3's) comes on top of the turn's two."""
    allowance = load_data("trainruns.titles.g1833ne", "game.json")["tile_lays"]
    lays = [{"upgrade": False, "free": True}, {"upgrade": False}, {"upgrade": True}]
    assert not may_lay(allowance, lays, upgrade=False)
    assert may_lay(allowance, lays[:2], upgrade=True)


def allowed_1831(seq, tiles, cities):
    """1831 5.2.4.3 (a company: "up to 4 tiles ... at most 2 cities") and 5.2.4.2 (a system:
    7 tiles, at most 5 cities); each lay a new tile or an upgrade (t, c: a new tile on a
    track or city hex; T, C: an upgrade)."""
    return len(seq) <= tiles and sum(1 for k in seq if k in "cC") <= cities


def allowed_1831_by_data(allowance, seq):
    lays = []
    for kind in seq:
        one = {"upgrade": kind.isupper(), "city": kind in "cC"}
        if not may_lay(allowance, lays, one["upgrade"], one["city"]):
            return False
        lays.append(one)
    return True


@pytest.mark.parametrize("who,tiles,cities,longest", [("company", 4, 2, 5), ("system", 7, 5, 8)])
def test_1831s_data_allows_what_5_2_4_allows(who, tiles, cities, longest):
    allowance = load_data("trainruns.titles.g1831", "rules.json")["tile_lays"][who]
    letters = "tcTC" if longest <= 5 else "tc"
    sequences = ["".join(p) for n in range(longest + 1) for p in product(letters, repeat=n)]
    assert [s for s in sequences if allowed_1831_by_data(allowance, s) != allowed_1831(s, tiles, cities)] == []

"""One check of an action's ids for every title (game/rules/ids.py, docs/game-log.md "The
action log"): an unknown name or a negative number is bad input (exit 2) the same way
in 1831, 1832 and 1833NE, and an alias becomes the reference id."""

from __future__ import annotations

import pytest

from trainruns.errors import InputError
from trainruns.game.game import Game

TITLES = [("1831", 4), ("1832", 4), ("1833NE", 3)]


def game(title, n):
    g = Game(title, [f"P{i}" for i in range(n)], 1)
    return g, next(iter(g.state.corp)), list(g.rules.train_names())[0]


@pytest.mark.parametrize("title,n", TITLES)
def test_a_train_from_an_unknown_company_is_bad_input(title, n):
    g, cid, train = game(title, n)
    with pytest.raises(InputError, match="a train comes from 'bank', 'market' or a corporation, not 'NOPE'"):
        g.rules.check_ids({"type": "buy_train", "corporation": cid, "train": train, "from": "NOPE"}, "action")


@pytest.mark.parametrize("title,n", TITLES)
def test_a_train_from_a_company_by_its_alias_is_logged_by_its_id(title, n):
    g, cid, train = game(title, n)
    a = {"type": "buy_train", "corporation": cid, "train": train, "from": cid.lower()}
    g.rules.check_ids(a, "action")
    assert a["from"] == cid


@pytest.mark.parametrize("title,n", TITLES)
def test_a_negative_count_is_bad_input(title, n):
    g, cid, _ = game(title, n)
    with pytest.raises(InputError, match="'count' cannot be negative"):
        g.rules.check_ids({"type": "sell_shares", "player": "P0", "corporation": cid, "count": -1}, "action")


@pytest.mark.parametrize("title,n", TITLES)
def test_an_unknown_train_names_the_titles_trains(title, n):
    g, cid, train = game(title, n)
    with pytest.raises(InputError, match=f"unknown train 'ZZ' \\({title} trains: .*{train}"):
        g.rules.check_ids({"type": "buy_train", "corporation": cid, "train": "ZZ", "from": "bank"}, "action")

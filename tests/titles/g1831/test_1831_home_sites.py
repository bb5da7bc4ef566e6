"""5.2.5 in ``trainruns whatif``: "the 'home token' is not special in any way except
that its location is reserved for exclusive use by the company". A game's position
names the sites kept for the home tokens not yet placed (``home_sites``), and whatif's
token moves leave them free, as the game's own rule does
(``OperatingRules.free_sites``): checked against it on the states of seeded random
games, and the position's field checked as any input is (exit 2, one line)."""

import json
import random

import pytest
from _1831 import new

from trainruns.errors import InputError
from trainruns.game.selfplay import fill
from trainruns.services.whatif import token_candidates
from trainruns.titles.load import load_position


def _states(seeds, per_game=400):
    """(game, position of the operating company) at states where some other company
    keeps a home site its city has room for, from seeded random 4-player games."""
    for seed in seeds:
        g = new(4, seed)
        rng = random.Random(seed)
        for _ in range(per_game):
            if g.finished:
                break
            listed = g.actions()
            if not listed:
                break
            g.act(fill(rng.choice(listed), rng))
            if g.rules.operating_corporation() is None:
                continue   # a position is asked of the operating company
            pos = g.position()
            if pos.get("home_sites"):
                yield g, pos


def _moves(pos):
    return {(m["hex"], m["type"]) for m, _variant in token_candidates(pos)}


def test_5_2_5_whatif_never_offers_a_site_the_game_keeps_for_a_home_token():
    refused = offered = 0
    for g, pos in _states(range(3)):
        r = g.rules
        c = r.state.corp[pos["corporation"]]
        laid, taken = r.laid(), r.taken_sites()
        kept = _moves(pos)
        for hex_id, kind in kept:
            offered += 1
            # the game's rule: a free site of that type it may take
            assert r.free_sites(c, hex_id, kind, r.map.sites(hex_id, laid), taken), (hex_id, kind)
        # the same position with the kept sites left out offers the kept ones too: each
        # of those the game refuses (the field is what makes whatif agree)
        bare = _moves({k: v for k, v in pos.items() if k != "home_sites"})
        for hex_id, kind in bare - kept:
            refused += 1
            assert not r.free_sites(c, hex_id, kind, r.map.sites(hex_id, laid), taken)
    assert offered > 50 and refused > 0, (offered, refused)


def _a_position():
    # a state with tokens on the map and a site kept
    for g, pos in _states([0]):
        if pos["tokens"]:
            return g, json.loads(json.dumps(pos))
    raise AssertionError("no state with a kept home site")


@pytest.mark.parametrize("change,message", [
    (lambda h: h.update(hex="Z99"), "unknown hex"),
    (lambda h: h.update(type="black"), "type"),
    (lambda h: h.pop("corporation"), "corporation"),
    (lambda h: h.update(extra=1), "extra"),
])
def test_a_bad_home_site_is_refused_with_where(change, message):
    _g, pos = _a_position()
    change(pos["home_sites"][0])
    with pytest.raises(InputError) as e:
        load_position(pos)
    assert "home_sites" in str(e.value.where) or "home_sites" in str(e.value)
    assert message in str(e.value)


def test_5_2_5_no_site_is_kept_for_a_company_with_a_token_on_the_map():
    _g, pos = _a_position()
    placed = next(t["corporation"] for t in pos["tokens"])
    pos["home_sites"][0]["corporation"] = placed
    with pytest.raises(InputError, match="home token is placed"):
        load_position(pos)


def test_5_2_5_no_more_sites_kept_in_a_city_than_are_free():
    _g, pos = _a_position()
    first = pos["home_sites"][0]
    pos["home_sites"] += [dict(first, corporation=f"X{i}") for i in range(16)]
    with pytest.raises(InputError, match="kept for home tokens than are free"):
        load_position(pos)

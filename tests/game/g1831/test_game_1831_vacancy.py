"""5.2.4.1 (1831 rulebook): "If a corporation upgrades a city to create a
vacancy, it must also lay a token there. If a corporation with a token in a city upgrades
the city, it does not have to lay a token there and may leave a vacancy." On the shipped
(invented) config: Scranton (G5) with yellow tile 501 (a Station and a Rail Yard site)
and green 611 (two Stations and a Rail Yard)."""

from __future__ import annotations

from test_game_1831_receivership import company, yellow_track
from test_game_1831_track_duties import home_at, track_step

from trainruns.titles.g1831.game.state import Token

GREEN = {"hex": "G5", "tile": "611", "rotation": 2, "upgrade": True, "cost": 0}


def scranton(full=True, own=False):
    """PRR (home E5) reaching Scranton's yellow 501; its two sites taken by NYC and B&O
    (``full``), or only the Station (one vacancy); with ``own``, PRR holds the Rail Yard."""
    g, r, s, c = home_at(cash=300, home="E5")
    e5, f4, g5 = yellow_track(g, "E5", "F4", "G5")
    s.tiles = [e5, f4, g5]
    nyc = company(g, "NYC", 100, "P1")
    nyc.sites = [Token("G5", 0, "station")]
    if own:
        c.sites.append(Token("G5", 1, "yard"))
    elif full:
        bo = company(g, "B&O", 100, "P2")
        bo.sites = [Token("G5", 1, "yard")]
    return g, r, s, c


def test_an_upgrade_that_opens_a_full_city_obliges_a_token_5_2_4_1():
    g, r, s, c = scranton(full=True)
    assert r.lay_owes_token(c, dict(GREEN))
    st, turn = track_step(g, c)
    r.lay_tile(c, dict(GREEN))
    assert turn.owed_token == "G5"      # the track step lists only that token next (5.2.6.8's duty)


def test_no_token_owed_where_the_city_had_a_vacancy_already():
    g, r, s, c = scranton(full=False)
    assert not r.lay_owes_token(c, dict(GREEN))


def test_no_token_owed_by_a_company_with_a_token_there_5_2_4_1():
    g, r, s, c = scranton(own=True)
    assert not r.lay_owes_token(c, dict(GREEN))


def test_no_token_owed_by_an_upgrade_that_opens_no_site():
    g, r, s, c = scranton(full=True)
    same = dict(GREEN, tile=s.tiles[-1].tile)   # a tile with the same two sites
    assert not r.lay_owes_token(c, same)

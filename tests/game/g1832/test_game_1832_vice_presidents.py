"""A System's vice-president's certificates (1832 [11.6] System Presidency, [5.5] Change
of Presidency; the 1832 rulebook): traded with the president's certificate when
the presidency changes, and bought and sold as a single transaction. Share counts and
certificates are worked by hand in each test."""

from _1832 import new, operated, refused

from trainruns.game.round import StockRound
from trainruns.game.state import player_key


def _system(g, a_extra, b_extra, c_shares=0):
    """SALR (A president, ``a_extra`` more shares) and ACL (B president, ``b_extra``
    more; C ``c_shares``) form System AMTK with A as initiator: A exchanges SALR's
    president's certificate and 2 more SALR shares for the System's (4 shares), B's
    ACL president's certificate stays as a vice-president's certificate ([11.6])."""
    x = operated(g, "SALR", "A", 100, {"A": a_extra} if a_extra else {})
    y = operated(g, "ACL", "B", 100, dict({"B": b_extra} if b_extra else {}, **({"C": c_shares} if c_shares else {})))
    return g.rules.form_system(x, y, "A", "AMTK")


def _b_sells_his_certificate_next():
    """A System where B holds only ACL's vice-president's certificate, C 2 shares; a
    stock round with B to act."""
    g = new()
    sysc = _system(g, 2, 0, c_shares=2)
    g.rules.end_stock_round(None)
    g.round = StockRound(g, "B", 2)
    g.round.settle()
    return g, sysc


def _vps(g, sid="AMTK"):
    return next(c for c in g.to_json()["corporations"] if c["id"] == sid)["system"]


def test_new_president_at_formation_trades_his_vice_presidents_certificate_for_the_presidents():
    """[5.5], [11.6]: B holds ACL's president's certificate (2) and 3 more ACL shares:
    5 System shares against A's 4, so B takes the presidency at once; "If the new
    president of a System has any vice-president's certificates, they must be included
    in the shares traded": B gives the vice-president's certificate and 2 shares for the
    president's certificate. A then holds the vice-president's certificate and 2 shares
    (3 certificates), B the president's certificate and 1 share (2 certificates)."""
    g = new()
    sysc = _system(g, 2, 3)
    r = g.rules
    assert sysc.president == "B"
    assert sysc.held(player_key("A")) == 4 and sysc.held(player_key("B")) == 5
    assert sysc.vice_presidents == {"ACL": "player:A"}
    assert _vps(g)["vice_presidents"] == {"ACL": "A"}
    assert r.certificates_held(sysc, "A") == 3 and r.certificates_held(sysc, "B") == 2


def test_new_president_by_a_purchase_trades_his_vice_presidents_certificate():
    """[5.5] in a stock round: B (vice-president's certificate + 2 shares = 4) buys a
    fifth share; he becomes president and his vice-president's certificate goes to A
    with 2 ordinary shares for the president's certificate."""
    g = new()
    sysc = _system(g, 2, 2)
    r = g.rules
    assert sysc.president == "A" and sysc.vice_presidents == {"ACL": "player:B"}
    g.state.pay("bank", player_key("B"), 100)
    r.buy_shares(sysc, "B", "ipo", 1, 100)
    assert sysc.president == "B" and sysc.vice_presidents == {"ACL": "player:A"}
    assert r.certificates_held(sysc, "A") == 3 and r.certificates_held(sysc, "B") == 2


def test_new_president_by_the_old_presidents_sale_trades_his_vice_presidents_certificate():
    """[5.5] a sale (in an operating round, for a train, or a stock round alike): A
    (president's certificate + 2 = 6) sells 2, B (vice-president's + 3 = 5) holds more
    and takes the president's certificate for his vice-president's certificate and 2
    shares; A is left with the vice-president's certificate and 2 shares."""
    g = new()
    sysc = _system(g, 4, 3)
    r = g.rules
    assert sysc.president == "A" and sysc.held(player_key("A")) == 6
    r.sell_shares(sysc, "A", 2, r.market.price(sysc.cell), stock_round=False)
    assert sysc.president == "B" and sysc.vice_presidents == {"ACL": "player:A"}
    assert sysc.held(player_key("A")) == 4 and r.certificates_held(sysc, "A") == 3


def test_a_vice_presidents_certificate_is_sold_and_bought_as_one_transaction():
    """[11.6] "vice-president's certificates, which are bought and sold as a single
    transaction": B, holding only ACL's vice-president's certificate (2 shares), may
    sell 2 shares or none, never 1; in the open market it is one purchase of 2 shares
    (twice the price), and the market's single shares are none."""
    g, sysc = _b_sells_his_certificate_next()
    r = g.rules
    sell = [x for x in g.actions() if x["type"] == "sell_shares" and x["corporation"] == "AMTK"]
    assert [x["count"] for x in sell] == [2]
    refused(g, {"type": "sell_shares", "player": "B", "corporation": "AMTK", "count": 1}, "stock.vice-president")
    price = r.market.price(sysc.cell)
    g.act({"type": "sell_shares", "player": "B", "corporation": "AMTK", "count": 2})
    assert sysc.vice_presidents == {"ACL": "market"} and sysc.held("market") == 2
    assert _vps(g)["vice_presidents_in_market"] == ["ACL"] and _vps(g)["vice_presidents"] == {}
    if g.active() == {"player": "B"}:
        g.act({"type": "pass", "player": "B"})
    if g.active() == {"player": "A"}:    # [5.9] A declines to protect
        g.act({"type": "pass", "player": "A"})
    assert g.active() == {"player": "C"}
    buys = [x for x in g.actions() if x["type"] == "buy_shares" and x["corporation"] == "AMTK"
            and x["from"] == "market"]
    assert buys == [{"type": "buy_shares", "player": "C", "corporation": "AMTK", "from": "market", "count": 2,
                     "vice_president": "ACL"}]
    refused(g, {"type": "buy_shares", "player": "C", "corporation": "AMTK", "from": "market"},
            "stock.vice-president")
    cash = g.state.player["C"].cash
    now = r.market.price(sysc.cell)
    g.act(buys[0])
    assert g.state.player["C"].cash == cash - 2 * now
    assert sysc.vice_presidents == {"ACL": "player:C"} and sysc.held(player_key("C")) == 4
    assert r.certificates_held(sysc, "C") == 3     # the certificate and 2 shares
    assert price >= now


def test_a_protecting_president_takes_the_vice_presidents_certificate_sold():
    """[5.9] the president buys all the shares sold; [11.6] a vice-president's
    certificate among them goes to him whole."""
    g, sysc = _b_sells_his_certificate_next()
    g.act({"type": "sell_shares", "player": "B", "corporation": "AMTK", "count": 2})
    if g.active() == {"player": "B"}:
        g.act({"type": "pass", "player": "B"})
    g.act({"type": "protect", "player": "A", "corporation": "AMTK"})
    assert sysc.vice_presidents == {"ACL": "player:A"} and sysc.held(player_key("A")) == 6
    assert sysc.held("market") == 0


def test_the_selfplay_check_finds_a_split_vice_presidents_certificate():
    """game/selfplay.py's per-state check ([11.6]): a vice-president's certificate is
    whole with its holder. B's certificate is 2 shares; with one of them moved away
    (not a legal sale) the check names the split, and it passes the state before."""
    from trainruns.game.selfplay import check_state, money

    g = new()
    sysc = _system(g, 2, 0, c_shares=2)
    s = g.to_json()
    assert check_state(s, money(s)) == []
    g.state.move_shares(sysc, player_key("B"), "market", 1)
    s = g.to_json()
    assert any("vice-president's certificate split" in p for p in check_state(s, money(s)))


def test_protecting_a_vice_presidents_certificate_takes_one_certificate_of_room():
    """[5.9] the president buys all the shares sold within his certificate limit
    ([5.4]); [11.6] B's vice-president's certificate is 2 shares in one certificate, so
    A protects it with room for one certificate, and not with none."""
    for room, protects in ((1, True), (0, False)):
        g, sysc = _b_sells_his_certificate_next()
        g.act({"type": "sell_shares", "player": "B", "corporation": "AMTK", "count": 2})
        if g.active() == {"player": "B"}:
            g.act({"type": "pass", "player": "B"})
        r, s = g.rules, g.state
        fill = r.cert_room("A") - room
        for cid in ("A&WP", "CG", "FECR", "GRR", "GMO", "L&N", "N&W", "SOU"):
            n = min(fill, 2)    # a certificate a share; C's 2 keep the presidency
            if n:
                other = operated(g, cid, "C", 100, {})
                s.pay("bank", player_key("A"), 100 * n)
                r.buy_shares(other, "A", "ipo", n, 100)
                fill -= n
        assert r.cert_room("A") == room
        listed = [a for a in g.actions() if a["type"] == "protect"]
        assert bool(listed) is protects
        if protects:
            g.act({"type": "protect", "player": "A", "corporation": "AMTK"})
            assert sysc.vice_presidents == {"ACL": "player:A"} and r.cert_room("A") == 0

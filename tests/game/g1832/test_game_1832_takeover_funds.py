"""1832 takeovers paid with the president's share sales and the merger initiator's status
yielded ([11.7] Takeovers, [11] Merger Initiator; the 1832 rulebook), played through
Game.act in a merger phase; prices, cash and shares worked by hand."""

from _1832 import new, operated, refused
from _trains import owned

from trainruns.game.state import player_key
from trainruns.game.train import names
from trainruns.titles.g1832.game.steps.merger import MergerRound
from trainruns.game.state import LaidTile


def _scene():
    """SALR (A: 4 shares, treasury $100) and ACL (B 3, C 2, 5 unsold; price $100) share
    Charleston, so they reach each other ([11] Merger Eligibility); A holds 6 GMO ($100;
    D started it with 2, so A presides) and $200. Buying ACL costs 5 x $100 for the
    players' shares and 5 x $100 par for the unsold: $1,000 ([11.7])."""
    g = new()
    s = g.state
    x = operated(g, "SALR", "A", 100, {"A": 2})
    y = operated(g, "ACL", "B", 100, {"B": 1, "C": 2})
    operated(g, "GMO", "D", 100, {"A": 6})
    # green Charleston (#57 then #14: two token spaces) holds ACL's home and a SALR token
    s.tiles = [LaidTile("G17", "57", 0), LaidTile("G17", "14", 0)]
    x.tokens.append(("G17", 0))
    s.pay(f"corp:{x.id}", "bank", x.cash - 100)
    s.pay(player_key("A"), "bank", s.player["A"].cash - 200)
    s.phase = "4"
    g.round = MergerRound(g, "A")
    g.round.settle()
    return g, x, y


def test_a_takeover_the_president_pays_by_selling_shares_other_than_the_targets():
    """[11.7] "If the company does not have enough cash, the president must contribute
    cash ... he may sell stock (not including stock in the company being purchased)
    subject to the 50% maximum in the open market." $100 + $200 leave $700 short; A may
    sell 5 GMO (the market takes 50%, 5 shares) for $500 and 2 SALR (keeping his
    president's certificate) for $200: exactly $700, so each block must be whole. Then
    SALR owns ACL, and A paid $900 of the $1,000."""
    g, x, y = _scene()
    s = g.state
    total = s.money()
    assert {"type": "merge", "player": "A", "corporation": "SALR", "with": "ACL", "kind": "takeover"} in g.actions()
    g.act({"type": "merge", "player": "A", "corporation": "SALR", "with": "ACL", "kind": "takeover"})
    g.act({"type": "consent", "player": "B", "corporation": "ACL", "with": "SALR"})
    sells = sorted((a["corporation"], a["count"]) for a in g.actions())
    assert sells == [("GMO", 5), ("SALR", 2)]
    refused(g, {"type": "sell_shares", "player": "A", "corporation": "GMO", "count": 4}, "merger.takeover-sale")
    g.act({"type": "sell_shares", "player": "A", "corporation": "GMO", "count": 5})
    assert not y.closed and s.player["A"].cash == 700
    assert s.corp["GMO"].president == "D"           # [5.5] D's 2 now beat A's 1
    g.act({"type": "sell_shares", "player": "A", "corporation": "SALR", "count": 2})
    assert y.taken_over_by == "SALR" and y.closed
    assert s.player["A"].cash == 0 and x.cash == 1000      # ACL's treasury inherited ([11.7])
    assert s.money() == total


def test_a_takeover_the_presidents_sales_cannot_pay_is_not_offered():
    """[11.7] "if he is not able to raise sufficient cash, the merger is not allowed":
    with $100 less, A's $900 cannot pay $1,000."""
    g, x, y = _scene()
    g.state.pay(player_key("A"), "bank", 100)
    assert not any(a.get("kind") == "takeover" and a.get("corporation") == "SALR" for a in g.actions())


def test_the_asking_president_may_yield_the_initiators_status():
    """[11] Merger Initiator: "If he wishes to yield initiator status to the other
    president who agrees, the other president becomes the initiator", who "decides what
    type of Merger will take place" and whose company buys in a takeover: A yields, B
    chooses ACL's takeover of SALR (paid from ACL's $1,000: SALR's 4 players' shares and
    6 unsold at $100; ACL then holds SALR's $100)."""
    g, x, y = _scene()
    a = {"type": "merge", "player": "A", "corporation": "SALR", "with": "ACL", "kind": "yield"}
    assert a in g.actions()
    g.act(a)
    assert g.active() == {"player": "B"}
    choices = [x for x in g.actions() if x["type"] == "merge"]
    assert {"type": "merge", "player": "B", "corporation": "ACL", "with": "SALR", "kind": "takeover"} in choices
    assert all(c["corporation"] == "ACL" and c["with"] == "SALR" for c in choices)
    g.act({"type": "merge", "player": "B", "corporation": "ACL", "with": "SALR", "kind": "takeover"})
    assert x.taken_over_by == "ACL" and y.cash == 100       # $1,000 paid, SALR's $100 inherited


def test_a_yielded_initiator_may_refuse():
    """[11] "who agrees": B's pass ends it, and A is not offered the same yield again in
    that turn."""
    g, x, y = _scene()
    a = {"type": "merge", "player": "A", "corporation": "SALR", "with": "ACL", "kind": "yield"}
    g.act(a)
    g.act({"type": "pass", "player": "B"})
    assert not x.closed and not y.closed
    assert g.active() == {"player": "A"} and a not in g.actions()


def test_a_takeover_with_trains_to_discard_is_made_once():
    """[11.7] Post-merger Assets: "If the purchasing company has too many trains, the
    president discards his choice of extra trains": SALR (two 4-trains) buys ACL (two
    more) in phase 4 (limit 3, Table 1): one discard, and the takeover is made once."""
    g, x, y = _scene()
    s = g.state
    s.pay("bank", player_key("A"), 1000)
    x.trains, y.trains = owned(g, "4", "4"), owned(g, "4", "4")
    g.act({"type": "merge", "player": "A", "corporation": "SALR", "with": "ACL", "kind": "takeover"})
    g.act({"type": "consent", "player": "B", "corporation": "ACL", "with": "SALR"})
    assert [a["type"] for a in g.actions()] == ["discard_train"]
    g.act(g.actions()[0])
    assert names(x.trains) == ["4", "4", "4"] and x.took_over == ["ACL"]
    assert len(s.title_state.takeovers) == 1 and x.merger_kinds == ["takeover"]

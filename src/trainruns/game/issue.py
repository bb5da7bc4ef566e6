"""A company issuing shares of its treasury to the market and redeeming them from it
during its operating turn (1833NE "Comparison with 1830" item 3; the 1846 family).

Once a turn, before it runs ([E] for 1833NE), the company may either issue up to
:meth:`~.game_rules.GameRules.issuable` shares, each sold to the bank at
:meth:`~.game_rules.GameRules.issue_price`, or redeem up to what its treasury pays at
:meth:`~.game_rules.GameRules.redeem_price` of the shares in the market. The title
lists :func:`share_moves` among its turn actions and passes the two types to
:func:`issue_or_redeem`.
"""

from __future__ import annotations

from trainruns.game.action import bounds
from trainruns.game.errors import Refusal
from trainruns.game.shares import up_to
from trainruns.game.state import corp_key
from trainruns.game.turn import Turn

TYPES = ("issue_shares", "redeem_shares")


def _count(n: int):
    return 1 if n == 1 else {"min": 1, "max": n}


def share_moves(rules, c, turn: Turn) -> list[dict]:
    """The issue and the redeem open to ``c`` now: none once it issued or redeemed this
    turn (``turn.issued``)."""
    if turn.issued or c.closed:
        return []
    out = []
    n = rules.issuable(c)
    if n and rules.issue_price(c) > 0:
        out.append({"type": "issue_shares", "corporation": c.id, "count": _count(n)})
    n = min(c.held("market"), c.cash // rules.redeem_price(c))
    if n >= 1:
        out.append({"type": "redeem_shares", "corporation": c.id, "count": _count(n)})
    return out


def issue_or_redeem(rules, c, turn: Turn, a: dict, listed: list[dict], why: str) -> dict:
    """Process ``a`` (an ``issue_shares`` or ``redeem_shares`` of :data:`TYPES`): a count
    from 1 to what the title lists now (``listed``: its turn actions, which hold
    :func:`share_moves` while it may issue), refused otherwise with ``why`` (the title's
    rule); returns what the log records."""
    t = a["type"]
    listed = next((x for x in listed if x["type"] == t), None)
    most = bounds(listed["count"])[1] if listed else 0
    verb = t.split("_")[0]
    if not 1 <= a["count"] <= most:
        raise Refusal("shares." + verb, f"{c.id} may {verb} {up_to(most, 'share')} now: {why}")
    s, count = rules.state, a["count"]
    if t == "issue_shares":
        price = rules.issue_price(c)
        s.pay("bank", corp_key(c.id), price * count)
        s.move_shares(c, "treasury", "market", count)
    else:
        price = rules.redeem_price(c)
        s.pay(corp_key(c.id), "bank", price * count)
        s.move_shares(c, "market", "treasury", count)
    turn.issued = True
    s.event(verb, corporation=c.id, count=count, price=price)
    return a

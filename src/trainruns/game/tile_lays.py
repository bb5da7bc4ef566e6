"""How many tiles a company lays in a turn, as data (1832 [6], [11.6.8]; 1833NE "Laying
track"): the turn's allowance is a list of slots, one per lay in the order made, each
saying whether that lay may be a new tile (``lay``) and whether it may be an upgrade
(``upgrade``): ``true``, ``false``, or ``"not_if_upgraded"`` (only when no earlier lay
of the turn was an upgrade). 1832's company lays two yellow tiles or one upgrade:

    [{"lay": true, "upgrade": true}, {"lay": "not_if_upgraded", "upgrade": false}]

A lay made free by a private (``"free": true`` in the turn's lays) takes no slot.

Where a title also bounds the cities laid or upgraded in a turn, the allowance is an
object: its ``slots`` and the most ``cities`` (each lay of the turn saying whether its
hex is a city, ``"city": true``). 1831's company lays or upgrades up to four tiles, at
most two of them cities (5.2.4.3):

    {"slots": [{"lay": true, "upgrade": true}, ... four ...], "cities": 2}
"""

from __future__ import annotations

NOT_IF_UPGRADED = "not_if_upgraded"


def may_lay(allowance, lays: list[dict], upgrade: bool, city: bool = False) -> bool:
    """Whether one more lay, an upgrade or a new tile (on a city when ``city``), fits the
    turn's ``allowance`` (a list of slots, or ``{"slots", "cities"}``) after ``lays``
    (each ``{"upgrade": bool, "city": bool, ...}``)."""
    counted = [x for x in lays if not x.get("free")]
    if isinstance(allowance, dict):
        most = allowance.get("cities")
        if city and most is not None and sum(1 for x in counted if x.get("city")) >= most:
            return False
        allowance = allowance["slots"]
    if len(counted) >= len(allowance):
        return False
    allowed = allowance[len(counted)]["upgrade" if upgrade else "lay"]
    if allowed == NOT_IF_UPGRADED:
        return not any(x.get("upgrade") for x in counted)
    return bool(allowed)

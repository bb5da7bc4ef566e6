"""How many tiles a company lays in a turn, as data (1832 [6], [11.6.8]; 1833NE "Laying
track"): the turn's allowance is a list of slots, one per lay in the order made, each
saying whether that lay may be a new tile (``lay``) and whether it may be an upgrade
(``upgrade``): ``true``, ``false``, or ``"not_if_upgraded"`` (only when no earlier lay
of the turn was an upgrade). 1832's company lays two yellow tiles or one upgrade:

    [{"lay": true, "upgrade": true}, {"lay": "not_if_upgraded", "upgrade": false}]

A lay made free by a private (``"free": true`` in the turn's lays) takes no slot.
"""

from __future__ import annotations

NOT_IF_UPGRADED = "not_if_upgraded"


def may_lay(allowance: list[dict], lays: list[dict], upgrade: bool) -> bool:
    """Whether one more lay, an upgrade or a new tile, fits the turn's ``allowance``
    after ``lays`` (each ``{"upgrade": bool, ...}``)."""
    counted = [x for x in lays if not x.get("free")]
    if len(counted) >= len(allowance):
        return False
    allowed = allowance[len(counted)]["upgrade" if upgrade else "lay"]
    if allowed == NOT_IF_UPGRADED:
        return not any(x.get("upgrade") for x in counted)
    return bool(allowed)

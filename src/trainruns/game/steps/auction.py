"""The waterfall sale of the privates, as 1832 [5.7] writes it and 1833NE reads it
([E], docs/gaps.md): privates offered in ascending cost order; a player buys the cheapest
unsold one at its price or bids on a dearer one (at least the bid step over its cost or
the high bid; the money is set aside); a private with two or more bids when its turn
comes is auctioned among its bidders alone. The titles keep their own resolution
(1832's P7 par and P1 drop, 1833NE's private-only operating rounds); these are the
listings and the sale both share."""

from __future__ import annotations

from trainruns.game.state import State, player_key


def bids_on_dearer(state: State, name: str, unsold: list, bids: dict, step: int) -> list[dict]:
    """``name``'s legal bids on the privates after the cheapest: at least ``step`` over
    the private's cost or its high bid, at most his cash plus what he already set aside
    on it."""
    out = []
    for x in unsold[1:]:
        on = bids.get(x.id, {})
        low = max([x.cost] + list(on.values())) + step
        most = state.player[name].cash + on.get(name, 0)
        if most >= low:
            out.append({"type": "bid", "player": name, "private": x.id, "price": {"min": low, "max": most}})
    return out


def auction_turn(state: State, auction: dict, name: str, step: int) -> list[dict]:
    """In an auction among a private's bidders: raise the high bid by at least ``step``
    (within cash plus the bid already set aside), or pass and take the bid back."""
    high = max(auction["bids"].values())
    most = state.player[name].cash + auction["bids"].get(name, 0)
    out = []
    if most >= high + step:
        out.append({"type": "bid", "player": name, "private": auction["private"],
                    "price": {"min": high + step, "max": most}})
    return out + [{"type": "pass", "player": name}]


def sell_private(state: State, private, name: str, price: int):
    """``name`` pays the bank ``price`` and owns ``private``."""
    state.pay(player_key(name), "bank", price)
    private.owner = player_key(name)
    state.event("private_sold", private=private.id, player=name, price=price)

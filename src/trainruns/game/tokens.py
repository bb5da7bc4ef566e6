"""Tokens across a tile upgrade, for every title: a token stays in its city when the
city's tile is upgraded (1832 [7.2]; 1833NE as 1830), and a company left with two tokens
in one city takes one back."""

from __future__ import annotations


def carry_tokens(state, hex_id: str, mapping: dict) -> dict[str, list[int]]:
    """Move every company's tokens and home slot on ``hex_id`` by ``mapping`` (old stop
    -> new stop); a token that lands beside one of its own goes back (an event). Returns
    where the returned tokens stood in each company's list of placed tokens, for a
    title that keeps what each placed token cost."""
    returned = {}
    for d in state.corporations:
        if d.home == hex_id:
            d.home_stop = mapping.get(d.home_stop, d.home_stop)
        seen, kept = set(), []
        for i, (h, k) in enumerate(d.tokens):
            if h == hex_id:
                k = mapping.get(k, k)
                if (h, k) in seen:
                    state.event("token_returned", corporation=d.id, hex=h, stop=k)
                    returned.setdefault(d.id, []).append(i)
                    continue
            seen.add((h, k))
            kept.append((h, k))
        d.tokens = kept
    return returned

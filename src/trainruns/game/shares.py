"""Share rules common to the 1830 family (1832 [5.3]-[5.5]).

- certificates: a president's certificate is one certificate of ``president`` shares;
  the other shares are one certificate each ([5.4]);
- presidency ([5.5]): a player holding more shares than the president takes the
  presidency; among equal candidates the one closest to the president's left wins; the
  president's certificate is traded for ordinary shares, which moves no share count.
"""

from __future__ import annotations

from trainruns.game.state import Corporation, State, player_key


def scaled(shares: dict, corp: Corporation, key: str) -> int:
    """A title's share number ``shares[key]`` (a limit or the president's certificate,
    given for its ordinary company of ``shares["total"]`` shares) for ``corp``. The
    numbers are percentages, so a company of more shares has proportionally more:
    1832 [11.6] a System of 20 shares has a president's certificate of 4, a 60% holding
    limit of 12, a 50% market limit of 10 and a 40% redemption limit of 8."""
    return shares[key] * corp.total_shares // shares.get("total", corp.total_shares)


def certificates(corp: Corporation, name: str, president_size: int) -> int:
    n = corp.held(player_key(name))
    if n and corp.president == name:
        return n - president_size + 1
    return n


def seat_order_from(state: State, name: str) -> list[str]:
    """The other players clockwise from ``name``'s left."""
    names = [p.name for p in state.players]
    i = names.index(name)
    return names[i + 1:] + names[:i]


def next_president(state: State, president: str, holding, above: int) -> str | None:
    """The player other than ``president`` whose ``holding(name)`` is the largest and
    more than ``above``, who takes the presidency ([5.5]: "ties: closest to the old
    president's left"; 1831 4.7.9: preferred stock, "nearest the president's left");
    None when nobody holds more."""
    best, best_n = None, above
    for name in seat_order_from(state, president):
        n = holding(name)
        if n > best_n:
            best, best_n = name, n
    return best


def update_president(state: State, corp: Corporation) -> str | None:
    """[5.5] Change of Presidency: the player with more shares than the president
    becomes president (:func:`next_president`). Returns the new president when it
    changed."""
    if corp.president is None:
        return None
    best = next_president(state, corp.president, lambda name: corp.held(player_key(name)),
                          corp.held(player_key(corp.president)))
    if best is not None:
        old = corp.president
        corp.president = best
        state.event("president", corporation=corp.id, player=best, previous=old)
    return best


def presiding_after(state: State, corp: Corporation, name: str, held: int) -> str:
    """[5.5] who presides ``corp`` while its president ``name`` holds ``held`` of its
    shares: :func:`next_president` when someone holds more, else ``name``."""
    return next_president(state, name, lambda other: corp.held(player_key(other)), held) or name


def keeping_presidency(state: State, corp: Corporation, name: str, n: int, president_size: int) -> int:
    """At most ``n`` of ``corp``'s shares, as few as its president ``name`` must keep to
    stay its president in a forced sale for its own train (1832 [10] Presidential Stock
    Sales: "not ... to change the presidency"; 1833NE "Emergency sell"): the president's
    certificate, and as many as any other player holds."""
    others = max((corp.held(player_key(p.name)) for p in state.players if p.name != name), default=0)
    return min(n, corp.held(player_key(name)) - max(president_size, others))


def market_room(corp: Corporation, limit: int) -> int:
    """[5.4] Open Market: at most ``limit`` shares of a company in the open market."""
    return max(0, limit - corp.held("market"))


def max_sellable(state: State, corp: Corporation, name: str, market_limit: int, president_size: int) -> int:
    """How many shares ``name`` may sell of ``corp`` now ([5.4] market limit, [5.5] a
    president keeps his certificate unless another player holds at least as many as
    the president's certificate and can take it)."""
    held = corp.held(player_key(name))
    room = market_room(corp, market_limit)
    if corp.president != name:
        return min(held, room)
    others = max((corp.held(player_key(p.name)) for p in state.players if p.name != name), default=0)
    if others >= president_size:
        # he may sell down below the other player, who takes the certificate: he then
        # holds ordinary shares only; never more than the room in the market
        return min(held, room)
    return min(held - president_size, room)


def why_none_sellable(corp: Corporation, name: str, market_limit: int, president_size: int) -> tuple[str, str | None]:
    """Why ``name`` may sell no share of ``corp`` when :func:`max_sellable` says none:
    what is true, and the topic of the rule it follows (``GameRules.citations``:
    ``"limits"`` for the market limit, ``"presidency"`` for the president's certificate;
    None when he holds none)."""
    if not corp.held(player_key(name)):
        return f"{name} holds no {corp.id} share", None
    if not market_room(corp, market_limit):
        return f"the market holds {corp.held('market')} {corp.id} shares, its limit", "limits"
    return (f"{name} holds {corp.id}'s president's certificate only, and no other player holds the "
            f"{president_size} shares to take it", "presidency")


def up_to(n: int, noun: str) -> str:
    """At most ``n`` of ``noun`` in words, never a range that cannot be: "1 to 3
    shares", "1 share", "no share"."""
    return f"1 to {n} {noun}s" if n > 1 else f"1 {noun}" if n == 1 else f"no {noun}"


def shares_value(state: State, market, name: str) -> int:
    """A player's shares at their companies' stock prices (1832 [14], 1833NE "End game
    triggers": part of a player's score)."""
    return sum(c.held(player_key(name)) * market.price(c.cell)
               for c in state.corporations if c.cell is not None and not c.closed)

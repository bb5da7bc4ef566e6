"""Mergers: one company takes in another (1831 5.9 mergers and takeovers; 1832 [11.6]
System formation and [11.7] takeovers).

Every merger these titles know is made of the same moves, written here once; where a
title's rules differ, the shared move calls a hook of its rules
(:class:`~.game_rules.GameRules`):

- eligibility: the buyer's track reaches one of the other company's tokens
  (:func:`reaches`; the title's :meth:`~.game_rules.GameRules.merger_reach` says how far
  its track reaches: a run of unlimited length in 1832 [11] Merger Eligibility, a path
  through cities not full of others' tokens in 1831 5.9.3);
- the shares bought out are paid for (:func:`buy_out`, what they cost:
  :func:`buyout_cost`): each holder that is a player or a company is paid, the rest of
  the money goes to the bank; who holds what at which price is the title's
  :meth:`~.game_rules.GameRules.buyout_payments` (1832 [11.7]: market price, unsold
  shares at par; 1831 5.9.7.3 and 5.9.8.5: the preferred shares at their P price);
- the absorbed company's treasury, trains and privates go to the merged company and its
  shell leaves play (:func:`absorb`: its share price token leaves the market; no shares,
  tokens, trains or president; closed); the title's
  :meth:`~.game_rules.GameRules.absorbed_assets` moves what else it holds (1832's special
  tokens) and :meth:`~.game_rules.GameRules.retire_shell` clears the rest of its state
  (1831's certificates and stations);
- a merger made during an operating round gives the merged company at most one turn in
  it (:func:`merged_turn_order`, 1832 [11] Merged Company Operations).

The title keeps what is its own: which mergers exist, how shares are exchanged, who
presides, how the tokens of both are fitted together and how excess trains are
discarded.
"""

from __future__ import annotations

from trainruns.game.state import corp_key


def reaches(rules, buyer, stops) -> bool:
    """The buyer's track reaches one of ``stops``, the cities ``(hex, stop)`` holding
    the other company's tokens (1832 [11] Merger Eligibility; 1831 5.9.3):
    :meth:`~.game_rules.GameRules.merger_reach` of ``buyer`` meets them."""
    return bool(rules.merger_reach(buyer) & set(stops))


def buyout_cost(rules, shell) -> int:
    """What buying out ``shell``'s shares costs: the sum of the title's
    :meth:`~.game_rules.GameRules.buyout_payments` (1832 [11.7] the takeover's cost;
    1831 5.9.7.3, 5.9.8.3, 5.9.9.3: what A's cash must cover)."""
    return sum(amount for _holder, amount in rules.buyout_payments(shell))


def buy_out(rules, buyer, shell) -> None:
    """The buyer pays for ``shell``'s shares it buys out: each of the title's
    :meth:`~.game_rules.GameRules.buyout_payments` (holder key, amount), in their
    order; a player or a company is paid, any other holder (the initial offering, the
    open market or pool) is paid through the bank. Nothing moves for an amount of 0."""
    s = rules.state
    for holder, amount in rules.buyout_payments(shell):
        if amount:
            s.pay(corp_key(buyer.id), holder if holder.startswith(("player:", "corp:")) else "bank", amount)


def absorb(rules, into, shell) -> None:
    """``shell``'s assets go to ``into`` and the shell leaves play (1831 5.9.7.6,
    5.9.8.8; 1832 [11.6] System Assets, [11.7] Post-merger Assets): its treasury, its
    trains (over the limit, the title's discards follow) and the privates it owns; then
    :meth:`~.game_rules.GameRules.absorbed_assets`. Its share price token leaves the
    market, it holds no shares, tokens or trains, has no president and is closed; then
    :meth:`~.game_rules.GameRules.retire_shell`."""
    s = rules.state
    if shell.cash:
        s.pay(corp_key(shell.id), corp_key(into.id), shell.cash)
    into.trains.extend(shell.trains)
    shell.trains = []
    for x in s.privates:
        if x.owner == corp_key(shell.id):
            x.owner = corp_key(into.id)
    rules.absorbed_assets(shell, into)
    rules.market.remove(shell.id, shell.cell)
    shell.shares = {}
    shell.tokens = []
    shell.president = None
    shell.closed = True
    rules.retire_shell(shell)


def merged_turn_order(rules, merged, parts) -> None:
    """A merger during an operating round (1832 [11] Merged Company Operations): the
    merged company does not operate again if one of ``parts`` already operated in it;
    if none did, it operates in share price order among those still to operate."""
    r = rules.game.round
    if r.kind != "operating":
        return
    waiting = all(p in r.order for p in parts)
    r.order = [c for c in r.order if c not in parts and c is not merged]
    if waiting:
        r.order = rules.price_order(r.order + [merged])

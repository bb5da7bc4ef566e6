"""1833NE money that moves by rule: private income ("List of private companies"; none
once flipped in phase III) and dividends with the summary's thresholds ("Comparison
with 1830" item 4; "Capitalization type": treasury shares collect dividends)."""

from __future__ import annotations

from trainruns.game.rules.dividend import Dividend


def price_steps(per_share: int, price: int) -> int:
    """"Comparison with 1830" item 4: the columns the price moves for a payout of
    ``per_share`` a share at stock price ``price``: less than half -> one left (-1);
    from half to below the price -> 0; at least the price -> +1; at least double -> +2;
    at least triple with the price already $165 or more -> +3."""
    if per_share * 2 < price:
        return -1
    if per_share < price:
        return 0
    if per_share >= 3 * price and price >= 165:
        return 3
    if per_share >= 2 * price:
        return 2
    return 1


def split_half(revenue: int) -> tuple[int, int]:
    """Half pay ([E] 1846, docs/gaps.md): the corporation keeps half rounded down to a
    multiple of $10, i.e. floor(R/20)*10; the rest is paid out. Returns (kept, paid)."""
    kept = revenue // 20 * 10
    return kept, revenue - kept


class MoneyRules:
    def paying_privates(self):
        """Each open private pays its owner at the start of an operating round; flipped
        privates (phase III) pay nothing."""
        flipped = self.state.title_state.flipped
        return [x for x in super().paying_privates() if x.id not in flipped]

    def dividend(self, c, revenue, kind):
        """Full, half or withheld. A payout of ``P`` pays ``P // 10`` a share to every
        share: players', the treasury's (to the corporation) and the Stock Market's
        ([?], default: to the bank, so no money moves); the odd dollars stay in the
        treasury."""
        revenue = revenue or 0
        if kind == "half" and revenue:
            kept, paid = split_half(revenue)
        elif kind == "payout" and revenue:
            kept, paid = 0, revenue
        else:
            kept, paid, kind = revenue, 0, "withhold"
        per = paid // c.total_shares
        kept += paid - per * c.total_shares
        return Dividend(kind, kept, [(holder, per * n) for holder, n in sorted(c.shares.items())],
                        {"per_share": per})

    def price_after_dividend(self, c, d):
        """The price moves by :func:`price_steps` of the amount paid per share (withheld:
        $0 a share, one left)."""
        self.move_price(c, price_steps(d.fields["per_share"], self.price(c)), d.kind)

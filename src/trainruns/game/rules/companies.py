"""What the titles' companies share besides a step: the privates' income (1832 [4.1.3]), a
share price moved and the companies in share price order, a company closed (1832 [5.1.1]
Black area), and what a merger does with the absorbed company
(:mod:`trainruns.game.merger`: 1832 [11])."""

from __future__ import annotations

from trainruns.game.state import corp_key


class CompanyRules:
    """Companies: income, share price, closing and merging.
    A mixin of :class:`~trainruns.game.game_rules.GameRules`."""

    def private_income(self):
        """The privates pay their owners (1832 [4.1.3] "First, all private companies pay
        their owner"; 1833NE "List of private companies"): each of
        :meth:`paying_privates` from the bank to its owner, a player or a company's
        treasury, with an ``income`` event."""
        s = self.state
        for x in self.paying_privates():
            s.pay("bank", x.owner, x.revenue)
            s.event("income", private=x.id, owner=x.owner.partition(":")[2], amount=x.revenue)

    def affords(self, c, cost: int) -> bool:
        """Whether ``c`` may pay ``cost`` for a tile lay or a token now [from its
        treasury; 1831 5.4.10: in receivership it goes on the debt]."""
        return cost <= c.cash

    def paying_privates(self) -> list:
        """The privates that pay income now, in the state's order (default: every open
        private that has an owner)."""
        return [x for x in self.state.privates if x.open and x.owner is not None]

    def move_share_price(self, c, new, reason: str) -> bool:
        """Move ``c``'s share price token to market box ``new`` (its stack kept by the
        market) and report a ``price`` event when it moved; returns whether it moved."""
        old = c.cell
        self.market.move(c.id, old, new)
        c.cell = new
        if new != old:
            self.state.event("price", corporation=c.id, price=self.market.price(new), reason=reason)
        return new != old

    def price_order(self, corps: list) -> list:
        """``corps`` in share price order: highest price first, then the rightmost box,
        then the top of a stack (1832 [4.1.3]; 1833NE: ties by arrival in the box, [E]);
        the market's :meth:`~.market.Market.order_key`."""
        return sorted(corps, key=lambda c: self.market.order_key(c.id, c.cell))

    def close_corporation(self, c):
        """``c`` closes (1832 [5.1.1] Black area; 1833NE "A corporation closes if its
        stock price falls to $0"): its treasury goes to the bank, its trains as
        :meth:`closing_trains` says, its tokens and share price token leave, its
        certificates are void (the JSON shows a total of 0), it has no president; then
        :meth:`closing_assets`; the privates it owns close; a ``close`` event."""
        s = self.state
        if c.cash:
            s.pay(corp_key(c.id), "bank", c.cash)
        self.closing_trains(c)
        c.trains = []
        c.tokens = []
        self.market.remove(c.id, c.cell)
        c.shares = {}
        c.closed = True
        c.president = None
        self.closing_assets(c)
        for x in s.privates:
            if x.owner == corp_key(c.id):
                x.open = False
        s.event("close", corporation=c.id)

    def closing_trains(self, c):
        """Where a closing company's trains go (default: to the open market, 1832
        [5.1.1])."""
        self.state.market_trains.extend(c.trains)

    def closing_assets(self, c):
        """What else of a closing company leaves with it (special tokens, ferries);
        default: nothing."""

    def merger_reach(self, c) -> frozenset:
        """The cities ``(hex, stop)`` ``c``'s track reaches for a merger's eligibility
        (:func:`.merger.reaches`; default: a run of unlimited length from its tokens,
        1832 [11] Merger Eligibility)."""
        from trainruns.game import route_adapter

        return route_adapter.reached_stops(self.position(c.id, trains=[]))

    def buyout_payments(self, shell) -> list:
        """:func:`.merger.buy_out`, :func:`.merger.buyout_cost`: (holder key, amount) for
        each holding of ``shell`` a merger buys out, in the order paid (1832 [11.7]:
        market price, unsold shares at par; 1831 5.9.7.3: the preferred shares at their
        P price); default: none."""
        return []

    def absorbed_assets(self, shell, into):
        """:func:`.merger.absorb`: what else of ``shell`` goes to ``into`` besides its
        treasury, trains and privates (1832's special tokens); default: nothing."""

    def retire_shell(self, shell):
        """:func:`.merger.absorb`: what else of an absorbed ``shell`` leaves play besides
        its share price token, shares, tokens, trains and president (1831's certificates
        and stations); default: nothing."""

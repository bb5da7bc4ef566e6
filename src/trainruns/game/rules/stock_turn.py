"""The stock turn's hooks (:class:`~trainruns.game.steps.stock.StockTurn`): the limits on
holding (1832 [5.1.1], [5.4]), starting a company at par (1832 [5.6], 1831 4.7.5), buying
(1832 [5.5]) and selling shares with the price move a sale makes (1832 [5.8.1])."""

from __future__ import annotations

from trainruns.game.shares import (
    max_sellable,
    scaled,
    update_president,
    why_none_sellable,
)
from trainruns.game.state import corp_key, player_key


class StockTurnRules:
    """A player's turn in the stock round: limits, par, purchases and sales.
    A mixin of :class:`~trainruns.game.game_rules.GameRules`."""

    #: the title's share numbers for an ordinary company: ``president`` (shares in the
    #: president's certificate), ``player_limit`` (60%), ``market_limit`` (50%),
    #: ``float``, ``total`` (:func:`~.shares.scaled` scales them for a larger company)
    shares: dict = {}

    #: where unsold shares are bought from: the initial offering (``"ipo"``), or the
    #: company's treasury (``"treasury"``: incremental capitalisation, 1833NE)
    ipo_source: str = "ipo"

    def cert_limit(self) -> int:
        """The most certificates a player may hold now (1832 [5.4], 1831 4.7.7)."""
        raise NotImplementedError

    def cert_room(self, name: str) -> int:
        """How many more certificates player ``name`` may hold: the :meth:`cert_limit`
        less the certificates he holds (``player_certs``; below 0 when over it)."""
        return self.cert_limit() - self.player_certs(name)

    def counts_for_limit(self, c) -> bool:
        """Whether ``c``'s shares count toward the certificate limit [they do] (1832
        [5.1.1]: not in the yellow, green or brown area)."""
        return True

    def may_exceed_holding(self, c) -> bool:
        """Whether a player may hold more than the holding limit of ``c`` [no] (1832
        [5.1.1] green and brown areas)."""
        return False

    def holding_room(self, c, name: str) -> int:
        """How many more shares of ``c`` player ``name`` may hold: up to the 60% holding
        limit (``shares["player_limit"]``, :func:`~.shares.scaled` for a larger company;
        1832 [5.4]), or where :meth:`may_exceed_holding` every share he does not hold."""
        limit = c.total_shares if self.may_exceed_holding(c) else scaled(self.shares, c, "player_limit")
        return limit - c.held(player_key(name))

    def multiple_buys(self, c) -> bool:
        """Whether a turn may buy several market shares of ``c`` at once [no] (1832
        [5.1.1] brown area)."""
        return False

    def can_par(self, c) -> bool:
        """Whether ``c`` may be started now [any open company not started]."""
        return not c.closed and c.par is None

    def par_prices(self, c) -> list[int]:
        """The par values ``c`` may start at."""
        raise NotImplementedError

    def ipo_price(self, c) -> int:
        """What a share of ``c`` from its :attr:`ipo_source` costs [its par]."""
        return c.par

    def ipo_refusal(self, c):
        """Why the next share of ``c``'s initial offering may not be bought now, as
        ``(rule id, message)`` (1832 [17.4]: a company's 6th share waits for its
        predecessors), or None when it may; default: it may."""
        return None

    def start_corporation(self, c, name: str, price: int):
        """Player ``name`` starts ``c`` at par ``price``: [he pays ``price`` a share of its
        president's certificate to :meth:`share_payee`, its token goes on the market
        (:meth:`set_par`) and the certificate is his (1832 [5.6]; 1833NE
        "Capitalization type")]. The title reports it and adds what follows."""
        s, n = self.state, self.shares["president"]
        s.pay(player_key(name), self.share_payee(c, self.ipo_source), price * n)
        self.set_par(c, price)
        s.move_shares(c, self.ipo_source, player_key(name), n)
        c.president = name

    def set_par(self, c, price: int):
        """``c`` starts at par ``price``: its token goes on the market's par box for it,
        under any tokens already there (1832 [5.6], 1831 4.7.5, 4.4.2)."""
        c.par = price
        c.cell = self.market.par_cell(price)
        self.market.place(c.id, c.cell)

    def buy_shares(self, c, name: str, source: str, count: int, price: int):
        """Player ``name`` buys ``count`` shares of ``c`` from ``source`` at ``price``
        each. [The money goes to :meth:`share_payee`; the presidency follows
        (:meth:`change_president`), then :meth:`check_float`.]"""
        s = self.state
        s.pay(player_key(name), self.share_payee(c, source), price * count)
        s.move_shares(c, source, player_key(name), count)
        s.event("buy", corporation=c.id, player=name, count=count, price=price, source=source)
        self.change_president(c)
        self.check_float(c)

    def share_payee(self, c, source: str) -> str:
        """Who is paid for shares of ``c`` bought from ``source`` [the bank (1832 [5.3]);
        ``c`` for shares of its treasury (1833NE "Capitalization type")]."""
        return corp_key(c.id) if source == "treasury" else "bank"

    def change_president(self, c) -> str | None:
        """The presidency follows the shares after a purchase or a sale [the shared
        :func:`~.shares.update_president`, 1832 [5.5]]; returns the new president when
        it changed."""
        return update_president(self.state, c)

    def check_float(self, c):
        """Whether ``c`` floats after a purchase of its shares [nothing: a title whose
        companies float on shares sold says when, 1832 [5.6]]."""

    def may_sell(self, c, name: str) -> int:
        """How many shares of ``c`` player ``name`` may sell now [the market limit and
        the president's certificate: :func:`~.shares.max_sellable`, none before it starts]."""
        if not c.started:
            return 0
        return max_sellable(self.state, c, name, scaled(self.shares, c, "market_limit"),
                            scaled(self.shares, c, "president"))

    def why_no_sale(self, c, name: str) -> str:
        """Why player ``name`` may sell no share of ``c`` (:meth:`may_sell` says none),
        with the title's section."""
        if not c.started:
            return f"{c.id} has not started{self.cite('par')}"
        why, topic = why_none_sellable(c, name, scaled(self.shares, c, "market_limit"),
                                       scaled(self.shares, c, "president"))
        return why + (self.cite(topic) if topic else "")

    def sell_shares(self, c, name: str, count: int, price: int | None = None, stock_round: bool = False):
        """Player ``name`` sells ``count`` shares of ``c`` to the market at ``price`` each
        [the price now]: the bank pays, the presidency may change (1832 [5.5]) and the
        price moves (:meth:`price_after_sale`)."""
        s = self.state
        price = self.market.price(c.cell) if price is None else price
        by_president = c.president == name
        s.pay("bank", player_key(name), price * count)
        s.move_shares(c, player_key(name), "market", count)
        s.event("sell", corporation=c.id, player=name, count=count, price=price)
        self.change_president(c)
        self.price_after_sale(c, count, by_president)

    def price_after_sale(self, c, count: int, by_president: bool):
        """How a sale of ``count`` shares of ``c`` moves its price [one row down per
        share, 1832 [5.8.1]]."""
        self.move_share_price(c, self.market.down(c.cell, count), "sale")

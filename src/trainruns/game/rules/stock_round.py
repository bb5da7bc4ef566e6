"""The stock round's hooks (:class:`~trainruns.game.round.StockRound`): what happens as it
starts, whose turn step comes, who takes turns, and its end: the priority (1832 [5.2.2])
and the price moves of a round's end (1832 [5.8.1], 1831 4.8.3)."""

from __future__ import annotations

from trainruns.game.round import next_seat


class StockRoundRules:
    """The stock round around the turns.
    A mixin of :class:`~trainruns.game.game_rules.GameRules`."""

    #: the step class of a player's stock turn, a :class:`~trainruns.game.steps.stock.StockTurn`
    #: with the title's own listing where it differs
    stock_turn_step: type | None = None

    def start_stock_round(self, r):
        """What happens as stock round ``r`` starts (a card drawn)."""

    def stock_turn(self, r, player: str):
        """The step of ``player``'s turn in stock round ``r`` [the title's
        :attr:`stock_turn_step`, selling where the round allows it (1832 [5.7]: not in
        the initial stock round)]."""
        return self.stock_turn_step(self.game, r, player, r.selling)

    def between_stock_turns(self, r) -> list:
        """Steps that come before the next turn (offers to protect a price after a
        sale, a seat chosen); empty for none."""
        return []

    def takes_stock_turns(self, player: str) -> bool:
        """Whether ``player`` takes turns in the stock round (not a bankrupt one)."""
        return True

    def player_after(self, name: str) -> str:
        """The next player clockwise from ``name`` who takes stock turns
        (:meth:`takes_stock_turns`), the priority's seat after the last to act; ``name``
        when nobody else does."""
        return next_seat(self.state, name, [p.name for p in self.state.players if self.takes_stock_turns(p.name)])

    def end_stock_round(self, last_actor):
        """What happens as the stock round ends; ``last_actor`` is the last player who did
        not pass, or None. [Priority to the player after him (1832 [5.2.2]), then each
        started company, in share price order, moves as :meth:`stock_round_end_move` says.]"""
        if last_actor is not None:
            self.priority = self.player_after(last_actor)
        self.stock_round_price_moves()

    def stock_round_price_moves(self):
        """Each started company, in share price order (fixed before any moves), moves by
        :meth:`stock_round_end_move` (1832 [5.8.1], 1831 4.8.3)."""
        for c in self.price_order([c for c in self.state.corporations if c.started]):
            self.stock_round_end_move(c)

    def stock_round_end_move(self, c):
        """How ``c``'s token moves as a stock round ends [it stays] (1832: sold out, up)."""

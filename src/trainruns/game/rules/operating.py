"""The operating round's hooks (:class:`~trainruns.game.round.OperatingRound`): what happens
as it starts, its order, each company's turn and what it may do at any point of it (a
private bought, shares issued or redeemed: :mod:`trainruns.game.issue`, 1833NE [E])."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.turn import Turn


class OperatingRules:
    """The operating round and what a company may do at any point of its turn.
    A mixin of :class:`~trainruns.game.game_rules.GameRules`."""

    #: the record of an operating turn its steps share (:class:`~trainruns.game.turn.Turn`,
    #: or the title's subclass recording more)
    turn_class: type = Turn

    def start_operating_round(self):
        """What happens as an operating round starts, before the order is fixed [the
        privates pay their income: 1832 [4.1.3] "First, all private companies pay their
        owner", 1833NE "List of private companies" (:meth:`private_income`)]."""
        self.private_income()

    def operating_order(self) -> list:
        """The companies that operate this round, in order [each that :meth:`operates`,
        in share price order fixed at the round's start (:meth:`price_order`): 1832
        [4.1.3], 1833NE "Number of phases", 1831 5.0.4]."""
        return self.price_order([c for c in self.state.corporations if self.operates(c)])

    def still_to_operate(self, order: list) -> list:
        """The companies of ``order`` still to operate this round, in the order they now
        come, as the next turn starts [``order`` as :meth:`operating_order` fixed it:
        1833NE "Number of phases", 1831 5.0.4; 1832's Glossary "Share price order is
        determined dynamically": the share price order now]."""
        return order

    def operating_round_fields(self, k: int, n: int) -> dict:
        """The ``operating_round`` event's fields besides ``order``: the stock round
        whose set this is, and operating round ``k`` of ``n``."""
        return {"number": self.stock_round_number, "round": k, "of": n}

    def operating_round_ends_now(self) -> bool:
        """Whether the round stops before the next company's turn (a rule that ends the
        game at once)."""
        return False

    def interrupting_steps(self) -> list:
        """Steps that run before the next company's turn (a merger phase between two
        turns); empty for none."""
        return []

    def operates(self, c) -> bool:
        """Whether ``c`` operates: it has a place in the :meth:`operating_order` fixed as
        a round starts, and still takes its turn when it comes [floated and not closed:
        1833NE "List of corporations", a corporation launched; 1832 [4.1.3]]."""
        return c.floated and not c.closed

    def start_turn(self, c) -> Turn:
        """What happens by rule as ``c``'s turn starts (a home token placed); returns the
        turn record its steps share (a :attr:`turn_class`)."""
        return self.turn_class(c.id)

    def operating_turns_over(self):
        """What happens once the last company of the round has operated."""

    def turn_under_way(self, c) -> Turn:
        """The record of ``c``'s operating turn under way, the one its current step
        shares (what it did so far this turn), for a hook that is not handed it; a
        new record when ``c`` is not the company of the current step."""
        r = self.game.round
        step = r.step() if r is not None and not self.game.finished else None
        if step is not None and step.corp is c and step.turn is not None:
            return step.turn
        return self.turn_class(c.id)

    def turn_actions(self, c, turn: Turn) -> list[dict]:
        """What ``c`` may do at any point of its turn besides the current step's own
        actions (buying a private, a mortgage, issuing shares). ``turn`` is the turn's
        record; once the company has run, it holds the run's ``revenue``."""
        return []

    def turn_action(self, c, turn: Turn, a: dict):
        """Process an action of :meth:`turn_actions`; returns what the log records."""
        raise Refusal("turn.action", f"{a['type']} is not allowed in this step of {c.id}'s turn")

    def issuable(self, c) -> int:
        """How many shares ``c`` may issue from its treasury now (:mod:`.issue`; 1833NE
        "Comparison with 1830" item 3); default: none."""
        return 0

    def issue_price(self, c) -> int:
        """What the bank pays a share ``c`` issues (:mod:`.issue`; default: the price one
        column left of its own, 1833NE [E])."""
        return self.market.price(self.market.left(c.cell))

    def redeem_price(self, c) -> int:
        """What ``c`` pays a share it redeems (:mod:`.issue`; default: the price one
        column right of its own, 1833NE [E])."""
        return self.market.price(self.market.right(c.cell))

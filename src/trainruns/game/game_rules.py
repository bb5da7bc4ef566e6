"""What a title gives the engine: :class:`GameRules`, its data and the hooks the shared
rounds and steps call, each declared here once with what it must do and a default.

A title's rules class subclasses it (``class Rules(StockRules, OperatingRules,
GameRules)``: the title's own mixins first, so their methods override these defaults)
and sets the class attributes below. docs/engine.md lists the hooks and shows a title's
shape; a new title implements the hooks without a default and overrides only where its
rules differ.
"""

from __future__ import annotations

from .ids import Ids
from .report import PlayerReport


class GameRules(Ids, PlayerReport):
    """The engine's view of a title. Set by the title's ``__init__``: ``game``,
    ``state`` (:class:`~.state.State`), ``market``, ``stock_round_number``, ``priority``."""

    #: the title's name as logs and positions spell it
    title: str = ""
    #: the action types it accepts (:func:`.action.declare`)
    action_types: dict = {}
    #: the steps of a company's operating turn, in order: step classes built as
    #: ``Step(game, corporation, turn)`` (:class:`~.steps.operating.CorporationStep`)
    operating_steps: tuple = ()

    # --- the rounds --------------------------------------------------------------------

    def first_round(self):
        """The round the game starts with (an auction, an initial stock round)."""
        raise NotImplementedError

    def next_round(self):
        """The round after ``self.game.round``, which is over; calls ``game.finish``
        when the game ends between rounds."""
        raise NotImplementedError

    # --- the operating round (:class:`~.round.OperatingRound`) ---------------------------

    def start_operating_round(self):
        """What happens as an operating round starts, before the order is fixed (the
        privates' income, counters of the title)."""

    def operating_order(self) -> list:
        """The companies that operate this round, in order (usually by share price)."""
        raise NotImplementedError

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
        """Whether ``c``, in the order fixed at the round's start, still takes its turn
        when it comes."""
        return not c.closed

    def start_turn(self, c) -> dict:
        """What happens by rule as ``c``'s turn starts (a home token placed); returns the
        turn record its steps share."""
        return {"corporation": c.id}

    def operating_turns_over(self):
        """What happens once the last company of the round has operated."""

    # --- the state ---------------------------------------------------------------------

    def check_ids(self, a: dict, where: str):
        """Unknown ids in ``a`` are bad input (InputError); aliases become reference ids."""
        raise NotImplementedError

    def state_json(self) -> dict:
        """The state as GAME-CONTRACT.md's JSON."""
        raise NotImplementedError

    def position(self, corporation: str | None = None) -> dict:
        """The position of ``corporation`` (default: the one operating) for the route core."""
        raise NotImplementedError

    def value(self, name: str) -> int:
        """Player ``name``'s score by the title's formula, now."""
        raise NotImplementedError

    def player_certs(self, name: str) -> int:
        """How many certificates player ``name`` holds, as the certificate limit counts them."""
        raise NotImplementedError

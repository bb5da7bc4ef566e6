"""Rounds made of steps (kept small).

A :class:`Step` lists the legal actions of the entity acting now and processes one;
``done`` says it is finished. A step with no decision to offer finishes by itself in
:meth:`Step.enter` (and records what happened as events). A :class:`Round` owns the
steps of its current entity and knows which entity comes next; the game asks the title
for the next round when one is over.
"""

from __future__ import annotations


class Step:
    done = False
    #: the company the step acts for (a company's turn, :class:`~trainruns.game.steps.
    #: operating.CorporationStep`; the company a price protection concerns) and the
    #: operating turn's record it shares; None where there is none
    corp = None
    turn = None

    @property
    def concerns(self) -> str | None:
        """The id of the corporation whose operating turn the step belongs to (what a
        position asked for with no corporation named shows), or None."""
        return self.corp.id if self.corp is not None else None

    def round_info(self, info: dict) -> dict:
        """The round as the game shows it while this step is current (a title's step
        may show its own: 1832's last-chance merger phase inside an operating round)."""
        return info

    def __init__(self, game):
        self.game = game
        self.state = game.state

    def enter(self):
        """Called when the step becomes current: finish at once when there is nothing
        to decide."""

    def only_pass(self) -> bool:
        """Whether ``pass`` is the one legal action: a turn without a choice, which a
        step passes by rule in :meth:`enter` (docs/game-log.md: only decisions are
        logged)."""
        return [x["type"] for x in self.actions()] == ["pass"]

    def active(self) -> dict:
        raise NotImplementedError

    def actions(self) -> list[dict]:
        raise NotImplementedError

    def process(self, action: dict):
        raise NotImplementedError


class Round:
    """A round: ``kind`` (docs/game-log.md round.kind), a current step, and hooks."""

    kind = "round"

    def __init__(self, game):
        self.game = game
        self.state = game.state
        self.over = False

    def info(self) -> dict:
        return {"kind": self.kind}

    def step(self) -> Step | None:
        raise NotImplementedError

    def settle(self):
        """Advance past finished steps and entities; set ``over`` at the end."""
        raise NotImplementedError


class StepsRound(Round):
    """A round whose entities each go through a fixed list of steps; a step may push
    an interrupting step (a discard, a price protection) in front of the others."""

    def __init__(self, game):
        super().__init__(game)
        self.queue: list[Step] = []

    def step(self):
        return self.queue[0] if self.queue else None

    def push(self, step: Step):
        self.queue.insert(0, step)
        step.enter()

    def settle(self):
        while not self.over and not self.game.finished:
            while self.queue and self.queue[0].done:
                self.queue.pop(0)
                if self.queue:
                    self.queue[0].enter()
            if self.queue:
                return
            if not self.next_entity():
                self.over = True

    def next_entity(self) -> bool:
        """Load the steps of the next entity; False when the round is over."""
        raise NotImplementedError


class OperatingRound(StepsRound):
    """An operating round (1832 [4.1.3], 1833NE "Number of phases", 1831 5.0): the
    title starts it (private income, counters), fixes the order of the companies that
    operate (read again before each turn: ``still_to_operate``), and each company in
    turn goes through the title's ``operating_steps``, which share one turn record. The
    hooks it calls are :class:`~.game_rules.GameRules`'."""

    kind = "operating"

    def __init__(self, game, k: int, n: int):
        super().__init__(game)
        self.k, self.n = k, n
        # the record of the turn of the company operating last (:meth:`next_entity`): the
        # steps its turn pushes (a deal the other party answers, a discard) belong to it
        self.turn = None
        rules = game.rules
        rules.start_operating_round()
        self.order = rules.operating_order()
        self.state.event("operating_round", **rules.operating_round_fields(k, n),
                         order=[c.id for c in self.order])

    def info(self):
        info = {"kind": self.kind, "number": self.game.rules.stock_round_number, "or": self.k, "of": self.n}
        step = self.step()
        return step.round_info(info) if step is not None else info

    def next_entity(self):
        rules = self.game.rules
        if rules.operating_round_ends_now():
            return False
        interrupting = rules.interrupting_steps()
        if interrupting:
            self.queue = interrupting
            self.queue[0].enter()
            return True
        self.order = rules.still_to_operate(self.order)
        while self.order:
            c = self.order.pop(0)
            if not rules.operates(c):
                continue   # closed, or out of play, since the order was fixed
            self.turn = turn = rules.start_turn(c)
            c.operated = True
            self.queue = [step(self.game, c, turn) for step in rules.operating_steps]
            self.queue[0].enter()
            return True
        self.turn = None
        rules.operating_turns_over()
        return False


class StockRound(StepsRound):
    """A stock round (1832 [5.2], 1833NE "Stock round", 1831 4.5): turns go round the
    table from the priority holder until every player in the round has passed in a row.
    The title starts it (``start_stock_round``), gives each turn (``stock_turn``), what
    comes between turns (``between_stock_turns``), who takes turns
    (``takes_stock_turns``) and what ends it (``end_stock_round``)."""

    kind = "stock"

    def __init__(self, game, first: str, number: int, selling: bool = True):
        super().__init__(game)
        self.number = number
        self.selling = selling
        self.current = first
        self.passes = 0
        self.last_actor = None          # the last player who did something, not passed
        self.sold_by: dict[str, set] = {}
        self.started_here: set = set()  # companies started this round (1832 [16.2] P4)
        self.reissued: set = set()      # companies whose redeemed shares were reissued (1832 [5.11])
        self.redeemed: dict[str, int] = {}  # shares each company redeemed this round (1832 [5.10], [11.6.9])
        self.no_sale: set = set()
        self.started = False
        self.last_turn = None
        self.resume = None              # the player the next turn follows, when not the last
        game.rules.start_stock_round(self)

    def info(self):
        return {"kind": self.kind, "number": self.number}

    def passed(self, name):
        self.passes += 1

    def acted(self, name):
        self.passes = 0
        self.last_actor = name

    def next_entity(self):
        rules = self.game.rules
        between = rules.between_stock_turns(self)
        if between:
            self.queue = between
            self.queue[0].enter()
            return True
        in_round = [p.name for p in self.state.players if rules.takes_stock_turns(p.name)]
        if self.passes >= len(in_round):
            rules.end_stock_round(self.last_actor)
            return False
        if self.started or self.current not in in_round:
            self.current = next_seat(self.state, self.resume or self.current, in_round)
        self.resume = None
        self.started = True
        self.last_turn = rules.stock_turn(self, self.current)
        self.queue = [self.last_turn]
        self.queue[0].enter()
        return True


def next_seat(state, name: str, among: list[str]) -> str:
    """The player of ``among`` who sits next after ``name``, clockwise."""
    names = [p.name for p in state.players]
    i = names.index(name)
    return next((n for n in names[i + 1:] + names[:i + 1] if n in among), name)


def operating_set(rules):
    """The first operating round of the set that follows a stock round: as many as the
    phase's ``operating_rounds`` (1832 [4.1] Table 1, 1833NE "Number of phases": always
    two, 1831 5.0.5: 1, 2 or 4). ``rules.or_set`` holds (k, n) of the round now."""
    n = rules.phase_row()["operating_rounds"]
    rules.or_set = (1, n)
    return OperatingRound(rules.game, 1, n)


def after_operating_round(rules, r):
    """The round after operating round ``r`` (1832 [4.1], 1833NE "Number of phases", 1831
    5.0.5): what ends every operating round happens
    (:meth:`~.game_rules.GameRules.end_of_operating_round`); a broken bank ends the game
    once the set is over (1832 [13.2]; where
    :attr:`~.game_rules.GameRules.bank_ends_game_after_round`, at the end of this round,
    1831 6.1); else the next of the set, or, once the set is over
    (:meth:`~.game_rules.GameRules.end_of_operating_set`), the next stock round.
    ``rules`` holds ``or_set`` (k, n), ``priority`` and ``stock_round_number``."""
    k, n = rules.or_set
    rules.end_of_operating_round()
    if rules.state.bank.broken and (k == n or rules.bank_ends_game_after_round):
        rules.game.finish("bank")
        return r
    if k < n:
        rules.or_set = (k + 1, n)
        return OperatingRound(rules.game, k + 1, n)
    rules.end_of_operating_set(n)
    rules.stock_round_number += 1
    return StockRound(rules.game, rules.priority, rules.stock_round_number)

"""Phases and the train limit (:mod:`trainruns.game.phase`; 1832 Table 1 and [10.2], 1833NE
"Number of phases", 1831 5.3.5): a new phase's rusted trains, its events from the title's
data (``event_<type>`` hooks), and the discards of companies over the new limit
(:class:`~trainruns.game.steps.discard.DiscardStep`; 1832 [10] Exceeding Train Limits)."""

from __future__ import annotations

from trainruns.game.train import kinds, names, remove_named


class PhaseRules:
    """Phases, the train limit and discards.
    A mixin of :class:`~trainruns.game.game_rules.GameRules`."""

    def phase_row(self, name: str | None = None) -> dict:
        """Phase ``name``'s row of the title's phases (default: the phase now): its
        train limit, operating rounds and the title's own columns (1831 5.3.5: colours,
        token prices, retirements)."""
        return self.phases.by_name[name or self.state.phase]

    def train_limit(self, c) -> int:
        """How many trains ``c`` may hold now [the phase's ``train_limit``: 1832 [10.2],
        1833NE "Number of phases", 1831 5.3.5]."""
        return self.phases.limit(self.state.phase)

    def phased_out(self, train) -> bool:
        """Whether the phase that phases out ``train`` (its ``obsolete_on``) has come: it
        runs once more, then leaves (:meth:`after_run`), and does not count against the
        limit (1833NE "Number of phases")."""
        return self.trains.ended(train.name, "obsolete_on", self.state.phase, self.phases)

    def counted_trains(self, c) -> list:
        """The trains of ``c`` that count against its limit [all but the
        :meth:`phased_out` ones]."""
        return [x for x in c.trains if not self.phased_out(x)]

    def new_phase(self, phase: str, buyer):
        """``phase`` starts, by a train ``buyer`` bought from the bank: the trains it
        ends leave (:meth:`remove_trains`), its events run in the order the title's data
        lists them (``events`` of the phase's row: ``{"type": T, ...}`` calls
        ``event_T(phase, ...)``), and companies over the new limit (or the row's own
        ``discard_limit``) discard (:meth:`queue_discards`)."""
        s = self.state
        s.phase = phase
        s.event("phase", phase=phase)
        self.remove_trains(phase)
        for event in self.phases.events(phase):
            getattr(self, f"event_{event['type']}")(phase, **{k: v for k, v in event.items() if k != "type"})
        self.queue_discards(buyer, self.phases.discard_limit(phase))

    def event_close_privates(self, phase: str, only=None, keep=(), held_by_players: bool = False):
        """A phase's event ``{"type": "close_privates"}`` (1832 Table 1, phase 5; 1833NE
        "Number of phases", phases III and IV): the open privates close, each with a
        ``private_closed`` event: every one, or ``only`` those listed; never those in
        ``keep`` (1832 [17.3]: the Southern Bank); with ``held_by_players``, only those
        a player holds or nobody owns (1833NE phase III)."""
        for x in self.state.privates:
            if not x.open or x.id in keep or (only is not None and x.id not in only):
                continue
            if held_by_players and x.owner is not None and not x.owner.startswith("player:"):
                continue
            x.open = False
            self.state.event("private_closed", private=x.id,
                             reason=f"phase {phase}" + (": held by a player" if held_by_players else ""))

    def remove_trains(self, phase: str):
        """The trains that rust as ``phase`` starts (each train's ``rusts_on``) leave the
        companies and the open market, without compensation."""
        s = self.state
        for t in self.phases.scrapped_at(phase):
            holders = []
            for d in s.corporations:
                if t in names(d.trains):
                    holders.append(d.id)
                    d.trains = [x for x in d.trains if x.name != t]
            s.market_trains[:] = [x for x in s.market_trains if x.name != t]
            s.event("rust", train=t, corporations=holders)

    def queue_discards(self, buyer, limit: int | None = None):
        """Companies over their limit (or over ``limit``, a rule's own for this discard)
        discard (:meth:`discard_surplus`), in :meth:`discard_order`."""
        over = [d for d in self.state.corporations if not d.closed and self.surplus(d, limit=limit)[0] > 0]
        for d in reversed(self.discard_order(buyer, over)):
            self.discard_surplus(d, limit=limit)

    def discard_order(self, buyer, over: list) -> list:
        """The order in which the companies ``over`` their limit discard after ``buyer``'s
        purchase (1832 [10] Exceeding Train Limits): the company that caused the phase
        change first, then the others in descending share price order."""
        return ([buyer] if buyer in over else []) + self.price_order([d for d in over if d is not buyer])

    def discard_surplus(self, c, bought=None, limit: int | None = None):
        """``c`` is over its limit: its president's discard (:class:`.steps.discard.DiscardStep`)
        goes in front of the step under way (1832 [10]: "the president chooses")."""
        from trainruns.game.steps.discard import DiscardStep

        self.game.round.push(DiscardStep(self.game, c, bought=bought, limit=limit))

    def surplus(self, c, bought=None, limit: int | None = None) -> tuple[int, list]:
        """How many trains ``c`` holds over its limit (or ``limit``, a rule's own for this
        discard), and the trains that may go: those that count against it
        (:meth:`counted_trains`) but the train ``bought`` at the limit (1831 5.3.7: given
        up "to make room for the new trains")."""
        counted = self.counted_trains(c)
        return len(counted) - self._discard_limit(c, limit), [t for t in counted if t is not bought]

    def discardable(self, c, bought=None, limit: int | None = None) -> list[str]:
        """DiscardStep: the trains ``c`` may discard now, one name each (:meth:`surplus`);
        none once it is within its limit."""
        over, may_go = self.surplus(c, bought, limit)
        return kinds(may_go) if over > 0 else []

    def _discard_limit(self, c, limit: int | None) -> int:
        return self.train_limit(c) if limit is None else limit

    def discard_train(self, c, name: str, bought=None):
        """DiscardStep: a train named ``name`` of ``c`` goes (default: to the open market,
        without compensation, 1832 [10] Exceeding Train Limits)."""
        self.state.market_trains.append(remove_named(c.trains, name))
        self.state.event("discard", corporation=c.id, train=name)

    def why_not_discard(self, c, bought=None, limit: int | None = None) -> tuple[str, str]:
        """DiscardStep: (rule id, message) refusing a discard :meth:`discardable` did not list."""
        return "train.discard", (f"{c.id} must discard one of its trains {names(self.counted_trains(c))} down to its "
                                 f"limit of {self._discard_limit(c, limit)}")

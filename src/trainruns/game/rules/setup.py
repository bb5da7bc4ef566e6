"""The hooks of the game as a whole: a new game's players and variants checked, the round
that starts it and the round after each, and a player's certificates and score (1832
[5.4] and [14], 1833NE "End game triggers", 1831 4.7.7)."""

from __future__ import annotations

from trainruns.errors import InputError
from trainruns.game.round import after_operating_round, operating_set
from trainruns.game.shares import certificates, scaled, shares_value
from trainruns.game.state import Player, State, player_key


class SetupRules:
    """The game's start, its rounds' succession and the score.
    A mixin of :class:`~trainruns.game.game_rules.GameRules`."""

    def check_setup(self, n: int, players: dict, rule: str, variants=None):
        """A new game's players and variants, refused as bad input where the title's
        rules do not allow them: ``n`` players within ``players`` (``{"min", "max"}``,
        the title's data; ``rule``: where its rulebook says so), and each variant one
        of :attr:`known_variants` (``variants`` None: the title checks its own)."""
        if not players["min"] <= n <= players["max"]:
            raise InputError(f"{self.title} is for {players['min']} to {players['max']} players, not {n} ({rule})",
                             "players")
        for v in variants or ():
            if v not in self.known_variants:
                raise InputError(f"unknown {self.title} variant {v!r} (known: {', '.join(self.known_variants)})",
                                 "variants")

    def start_state(self, players: list[str], cash: int, bank: int, corporations: list, rows: list[dict],
                    privates: list, depot: list):
        """The state a new game starts in (shared; called by the title's ``__init__``):
        each of ``players`` with ``cash``, paid out of the bank's ``bank`` (1832 [3],
        1833NE "Starting cash by player count", 1831 3.2.2), the ``corporations`` (their
        data ``rows`` name them and their aliases, :meth:`add_aliases`), the ``privates``
        and the trains of the ``depot``; the first phase; no round played yet."""
        self._aliases = {}
        for row in rows:
            self.add_aliases(row)
        self.state = State([Player(name=p, cash=cash) for p in players], corporations, privates,
                           bank - cash * len(players), depot)
        self.state.phase = self.phases.names[0]
        self.stock_round_number = 0
        self.or_set = None   # (k, n) of the operating round now

    def first_round(self):
        """The round the game starts with (an auction, an initial stock round)."""
        raise NotImplementedError

    def next_round(self):
        """The round after ``self.game.round``, which is over; calls ``game.finish``
        when the game ends between rounds [after an operating round, the next of its set
        or the next stock round (:func:`~trainruns.game.round.after_operating_round`);
        after any other round, the game's end if :meth:`game_ends_after` says so, else
        the round of :meth:`round_before_operating`, else the set of operating rounds
        the phase says (:func:`~trainruns.game.round.operating_set`): 1832 [4.1], 1833NE
        "Number of phases", 1831 3.4.1]."""
        r = self.game.round
        if r.kind == "operating":
            return after_operating_round(self, r)
        if self.game_ends_after(r):
            return r
        return self.round_before_operating(r) or operating_set(self)

    def after_action(self):
        """:meth:`~trainruns.game.game.Game.act` and a replay: what follows at once from
        the state a decision left, before the rounds move on (1832 [17.3]: a mortgage is
        lost as soon as its holder stops presiding its company, even if he presides it
        again later) [nothing]."""

    def game_ends_after(self, r) -> bool:
        """:meth:`next_round`: whether the game ends after round ``r`` (not an operating
        round), by the title's own ends; calls ``game.finish`` when it does [never]."""
        return False

    def round_before_operating(self, r):
        """:meth:`next_round`: the round that comes after round ``r`` (not an operating
        round) instead of the set of operating rounds (1832's merger phase, a stock round
        after 1833NE's auction), or None [None]."""

    def end_of_operating_round(self):
        """:func:`~trainruns.game.round.after_operating_round`: what happens as every
        operating round ends, before the bank's end is checked [nothing]."""

    #: a broken bank ends the game at the end of the operating round it broke in (1831
    #: 6.1), not at the end of the set (1832 [13.2], 1833NE "End game triggers")
    bank_ends_game_after_round = False

    def end_of_operating_set(self, n: int):
        """:func:`~trainruns.game.round.after_operating_round`: what happens when a set
        of ``n`` operating rounds is over, before the stock round [nothing]."""

    def value(self, name: str) -> int:
        """Player ``name``'s score by the title's formula, now [1832 [14], 1833NE "End
        game triggers": cash, shares at their market price and, where
        :meth:`scores_privates`, the privates he holds at face value]."""
        s = self.state
        p = s.player[name]
        total = p.cash + p.committed + shares_value(s, self.market, name)
        if self.scores_privates():
            total += sum(x.cost for x in s.privates if x.open and x.owner == player_key(name))
        return total

    def scores_privates(self) -> bool:
        """:meth:`value`: whether a player's privates count at face value now [they do]."""
        return True

    def player_certs(self, name: str) -> int:
        """How many certificates player ``name`` holds, as the certificate limit counts them
        [those of each open company that counts toward it (:meth:`certificates_held`), and
        each open private he owns that counts (:meth:`private_counts`); 1832 [5.4]]."""
        s = self.state
        n = sum(self.certificates_held(c, name) for c in s.corporations if not c.closed and self.counts_for_limit(c))
        return n + sum(1 for x in s.privates if x.open and x.owner == player_key(name) and self.private_counts(x, name))

    def certificates_held(self, c, name: str) -> int:
        """The certificates of ``c`` player ``name`` holds [a share each, the president's
        certificate one]."""
        return certificates(c, name, scaled(self.shares, c, "president"))

    def private_counts(self, x, name: str) -> bool:
        """Whether private ``x``, held by player ``name``, counts toward his certificate
        limit [it does]."""
        return True

"""The hooks of the game as a whole: a new game's players and variants checked, the round
that starts it and the round after each, and a player's certificates and score (1832
[5.4] and [14], 1833NE "End game triggers", 1831 4.7.7)."""

from __future__ import annotations

from trainruns.errors import InputError
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

    def start_state(self, players: list, cash: int, corporations: list, privates: list, bank: int, depot: list):
        """The state a new game starts in: each of ``players`` with ``cash`` the bank
        (``bank`` before paying it) pays him (1832 [3] Player Starting Capital, 1833NE
        "Starting cash by player count"), the companies, the privates and the bank's
        trains (``depot``), in the first phase; the first player holds the priority and
        no round has been played yet."""
        self.state = State([Player(name=p, cash=cash) for p in players], corporations, privates,
                           bank - cash * len(players), depot)
        self.state.phase = self.phases.names[0]
        self.priority = players[0]
        self.stock_round_number = 0
        self.or_set = None   # (k, n): operating round k of the set of n now

    def first_round(self):
        """The round the game starts with (an auction, an initial stock round)."""
        raise NotImplementedError

    def next_round(self):
        """The round after ``self.game.round``, which is over; calls ``game.finish``
        when the game ends between rounds."""
        raise NotImplementedError

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

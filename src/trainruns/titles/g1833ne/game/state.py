"""1833NE's own game state (the 1833NE rules summary; docs/game-1833NE.md):
the game's facts beyond the shared :class:`~trainruns.game.state.State`. A corporation
keeps nothing beyond the shared :class:`~trainruns.game.state.Corporation`.

The state JSON's ``title_state`` shows some of these (``Rules.state_json``); the rest
only steer what is legal next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trainruns.game.turn import Turn


@dataclass
class TitleState1833NE:
    """The facts of an 1833NE game that belong to no single corporation or player."""

    # the ferries and bonuses are data/game_config.json's, which no source gives
    # (docs/game-1833NE.md "The config"; docs/gaps.md)
    config_invented: bool
    # the config's ferries: id -> the corporation owning it, None while unsold,
    # "removed" from phase IV or once its corporation closed ("Game-specific mechanics")
    ferries: dict = field(default_factory=dict)
    # the ferries in the order bought: the last carries the "New" bonus
    # ("Game-specific mechanics")
    ferry_order: list = field(default_factory=list)
    # the ferry P5 doubles, never reassigned ("List of private companies" P5)
    luxury_ferry: str | None = None
    # the privates flipped in phase III: no income, their ability kept ("Number of
    # phases" Phase III)
    flipped: list = field(default_factory=list)
    # a corporation bought P2: the B&L may lay track in phase I ("List of private
    # companies" P2)
    lowell_merchants_bought: bool = False
    # the corporation that bought P2 and may lay a free tile in Lowell this round
    # ("List of private companies" P2)
    free_tile: str | None = None
    # the game's very first operating round, in reverse stock price order, was played
    # ("Number of phases")
    first_or_done: bool = False
    # the privates a corporation bought: P1-P3 no longer block their hexes ("List of
    # private companies")
    privates_bought: list = field(default_factory=list)
    # the bridges, tunnels and passes ("A-B" of the two hexes) a lay paid for: each is
    # paid once ("Game-specific mechanics")
    borders_paid: list = field(default_factory=list)


class Turn1833NE(Turn):
    """A 1833NE corporation's operating turn: its ferry bought ("one a turn")."""

    ferry: bool = False

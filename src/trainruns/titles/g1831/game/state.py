"""1831's own game state (the 1831 rulebook; docs/game-1831.md): a
company's facts beyond the shared ones (:class:`Corporation1831`) and the game's facts
beyond the shared :class:`~trainruns.game.state.State` (:class:`TitleState1831`).

The state JSON shows most of these (``corporations[]`` and ``title_state`` through
``Rules.state_json``); the rest only steer what is legal next.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields

from trainruns.game.state import Corporation
from trainruns.game.turn import Turn
from trainruns.titles.g1831.game import certs


def started(default):
    """A fact a company has from its start, set anew by :meth:`Corporation1831.reset`
    to ``default`` (a list or dict: a new empty one)."""
    if default in (list, dict):
        return field(default_factory=default, metadata={"started": True})
    return field(default=default, metadata={"started": True})


@dataclass(frozen=True)
class Token:
    """A company's token on the map (5.2): on site ``slot`` of the city in ``hex``, a
    Station or a Rail Yard (``type``: "station" or "yard", 1.2), ``home_black`` when
    it is the home token on a black site (5.2.5, 5.2.5.1: no other company may use
    it). A merged company takes over the absorbed one's tokens themselves (5.9.7.8)."""

    hex: str
    slot: int
    type: str
    home_black: bool = False


@dataclass(kw_only=True)
class Corporation1831(Corporation):
    """An 1831 company or system (4.0). :meth:`reset` gives the facts of a company not
    yet started: at setup, and again when it is closed out (4.3.2) or given back by a
    merger's bonds (4.3.3, 5.4.14)."""

    # --- the config's company table (3.2.1.1, 1.9): fixed for the game

    # the President's Preferred certificate, in percent (1.9, 4.1.1)
    president_percent: int
    # the home token's type on the map: "station" or "yard" (5.2.5)
    home_type: str
    # the tokens on its company mat: {"station": n, "yard": n} (1.2, 4.7.5.1)
    base_supply: dict

    # --- from its start: set anew by reset()

    # its certificates, each a :class:`~.certs.Cert` (1.9, 4.1; 2x markers 4.3.4): the
    # shares behind Corporation.shares
    certs: list = field(default_factory=list)
    # the Par Marker on the Par Bar Chart: the initial offering's price (4.7.5); up one
    # value when the company becomes active (4.7.6)
    par_marker: int | None = started(None)
    # all its preferred sold: it operates (4.7.6); off again when taken over (5.9)
    active: bool = started(False)
    # in receivership (5.4): its debt on paper, its presidency frozen (5.4.12)
    receivership: bool = started(False)
    # the paper debt: loans, 10% interest, and track and tokens bought in receivership
    # (5.4.1, 5.4.1.2, 5.4.10); repaid by 5.11
    debt: int = started(0)
    # the kind of its last dividend ("did_not_run", "hold", "preferred", "split", "all",
    # "all200"; 5.7): how far its commons sold move the Stock Marker (4.6.3.2.1); None
    # before the first, read as "preferred"
    last_dividend: str | None = started(None)
    # tokens a merger or closed bonds left it unable to hold, off the map until its
    # president has liquidated enough of them (5.9.7.8, 5.4.14), each a :class:`Token`
    liquidating: list[Token] = started(list)
    # its bonds closed by the Bond Marker (4.3.3): at the start of its next Phase 2 its
    # token limits drop and it removes the excess tokens, without compensation, until
    # they fit (Rules.correct_due_tokens)
    tokens_due: bool = started(False)
    # its tokens on the map in the order placed (5.2.5, 5.2.7)
    sites: list[Token] = started(list)
    # its home token bought, or no site found for it, at its first operation (5.2.5)
    home_done: bool = started(False)
    # the tokens it may have, {"station": n, "yard": n}: its mat's and those of the
    # companies it absorbed, at most 19 of each (5.9.1, 5.9.7.6)
    supply: dict = field(default_factory=dict)
    # its supply before each merger: back to the last when its bonds close (4.3.3, 5.4.14)
    supply_before: list = started(list)
    # the companies merged into it, in order: a system while there is one (4.0; at most
    # two, 5.9.1; a train more each, 5.9.7.7)
    absorbed: list = started(list)
    # a system's bonds after a Type IV takeover: B's 10/5/0% commons (4.1.1.3.2,
    # 5.9.10.8), each a :class:`~.certs.Cert` of kind "bond"
    bonds: list = started(list)
    # the Bond Marker's square (B's Stock Marker put under A's, 5.9.10.8; it moves as a
    # Stock Marker, 4.4.1); None without bonds
    bond_cell: tuple | None = started(None)
    # the track rights bought this Operation Round, as (hex, slot) (5.5; for that round
    # only, 5.5.3)
    rights: list = started(list)
    # the Operation Round (Rules.or_counter) of its last merger announcement: one per
    # round (5.9.1)
    merge_tried: int | None = started(None)
    # the Operation Sets done (Rules.sets_done) when it became active: it merges after
    # one full set (5.9.5)
    active_set: int | None = started(None)
    # the stock round from which it may be started again, 0 for any (4.3.2, 4.3.3,
    # 5.4.14: "available for sale during the next Stock Round")
    for_sale_from: int = 0

    # --- kept when it starts again

    # its commons a forced sale for a train could not put in the pool, sold as the pool
    # makes room (5.3.4)
    owed_commons: int = 0
    # the Operation Round (Rules.or_counter) it went into receivership in: no interest
    # in that round (5.4.1.2, 5.3.9)
    entered_or: int | None = None

    def reset(self, for_sale_from: int):
        """A company not yet started: its certificates in the initial offering, its mat's
        tokens, and every fact marked ``started`` as it was at setup: no markers, no
        debt, no merger; not floated, capitalised or operated (the state JSON shows a
        company given back by a merger's bonds, 4.3.3, as one never started)."""
        for f in fields(self):
            if f.metadata.get("started"):
                setattr(self, f.name, f.default_factory() if f.default is MISSING else f.default)
        self.floated = self.capitalised = self.operated = False
        self.certs = certs.make_certs(self.president_percent)
        self.supply = dict(self.base_supply)
        self.shares = {"ipo": 20}
        self.total_shares = 20
        self.for_sale_from = for_sale_from


@dataclass(kw_only=True)
class TitleState1831:
    """The facts of an 1831 game that belong to no single company or player. The state
    JSON's ``title_state`` shows all but ``deck`` (as ``cards_left``), ``seats_settled``
    and ``trains_bought``."""

    # the config in play: "shipped (invented: for tests and examples)" or "supplied"
    # (docs/game-1831.md: the config gives what the rulebook lacks)
    config: str
    # the config's numbers are invented, not a published map's (docs/game-1831.md)
    config_invented: bool
    # the player holding the FIRST STOCK OPTION card: first in a stock round (3.2.3.1,
    # 4.2.3); it goes to the last buyer (4.7.12), to the left after the round (4.8.1)
    first_stock_option: str
    # who drew GOVERNMENT INTERVENTION at setup: he may swap seats before the first
    # stock round (3.2.3.2); None when the deck stopped before it
    setup_gi_drawer: str | None
    # the First Buy deck left, reshuffled without FIRST STOCK OPTION (3.2.3.3); a card
    # drawn at the start of each stock round (4.2.1)
    deck: list = field(default_factory=list)
    # GOVERNMENT INTERVENTION drawn: its rules apply from then on (4.2.1, 4.2.2)
    government_intervention: bool = False
    # the cards drawn so far, in order (4.2.1)
    cards_drawn: list = field(default_factory=list)
    # the setup GI drawer's seat swap has been offered (3.2.3.2)
    seats_settled: bool = False
    # a train has been bought: mergers are open from the first 2-train (5.3.5)
    trains_bought: bool = False


class Turn1831(Turn):
    """An 1831 company's operating turn: what else its steps and rules read."""

    #: tokens bought this turn, the home token placed as it starts among them (5.2.4.3,
    #: 5.2.5: the phase's limit of tokens a turn)
    tokens: int = 0
    #: the hex of a city whose upgrade made a vacancy this turn: the company's token
    #: goes there next (5.2.4.1, 5.2.6.8)
    owed_token: str | None = None
    #: the company sold its own stock for a forced purchase: no more trains from other
    #: corporations this turn (5.3.4)
    own_sold: bool = False
    #: False once the company ran no train (DID NOT RUN, 5.7.1)
    ran: bool = True

"""1832's own game state (the 1832 rulebook; docs/game-1832.md): a
company's facts beyond the shared ones (:class:`Corporation1832`) and the game's facts
beyond the shared :class:`~trainruns.game.state.State` (:class:`TitleState1832`).

The state JSON shows some of these (``corporations[]`` through
:meth:`.game_merger.MergerRules.merger_json`, ``title_state`` through
``Rules._title_state_json``); the rest only steer what is legal next.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from trainruns.game.state import Corporation


@dataclass
class Corporation1832(Corporation):
    """A public company or a System of 1832 ([5], [11.6])."""

    # the FEC: owns the Key West token it may place on Miami ([7.5]; companies.json)
    key_west: bool = False
    # a System: the 20-share company two companies became ([11.6])
    system: bool = False
    # company shells it counts as: 2 for a System; it multiplies the train limit
    # ([10.2], [11.6] System Trains), the redemptions per stock round ([11.6.9]) and,
    # taken over, the certificate limit columns ([11.7])
    shells: int = 1
    # a System's two companies, initiator's first ([11.6])
    components: list = field(default_factory=list)
    # a System's vice-presidents' certificates: component id -> player holding it ([11.6])
    vice_presidents: dict = field(default_factory=dict)
    # the merger types ("system", "takeover") it took part in: each once ([11] Merger
    # Eligibility)
    merger_kinds: list = field(default_factory=list)
    # the System it went into: its shell is no closed company for the limit ([11.6])
    merged_into: str | None = None
    # the company that took it over ([11.7])
    taken_over_by: str | None = None
    # the companies it took over, in order ([11.7])
    took_over: list = field(default_factory=list)
    # the par of its reissued shares, once it reissued ([5.11]); they sell at it
    reissue_par: int | None = None
    # money from reissued shares sold this stock round: not spent before it ends ([5.11])
    reissue_cash: int = 0


class Record:
    """A record of the title state the state JSON shows whole, field by field."""

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class SpecialToken:
    """P2's Cotton token in a city (``stop``) or P3's Port token (None: a port hex has
    no choice of city), and the company that placed it ([16.2] P2, P3): its runs to
    that city or port earn the bonus."""

    hex: str
    corporation: str
    stop: int | None = None

    def to_json(self) -> dict:
        """As the state JSON shows it: the Cotton token with its city, the Port token
        without."""
        if self.stop is None:
            return {"hex": self.hex, "corporation": self.corporation}
        return {"hex": self.hex, "stop": self.stop, "corporation": self.corporation}


@dataclass
class Mortgage(Record):
    """P6's owner's loan to a company he presides on one of its assets ([17.3] Southern
    Bank): ``asset`` ``train:NAME`` or ``token:HEX.K``, its ``value`` (the train's
    price or the token's cost), the ``amount`` lent."""

    player: str
    corporation: str
    asset: str
    value: int
    amount: int


@dataclass
class SystemFormed(Record):
    """A System formed ([11.6]): its id, its two companies (initiator's first), its
    share price and par."""

    system: str
    companies: list
    price: int
    par: int


@dataclass
class Takeover(Record):
    """A takeover ([11.7]): ``corporation`` took over ``company`` for ``cost``."""

    corporation: str
    company: str
    cost: int


@dataclass
class CivilWar(Record):
    """The Civil War as fought ([17.5]): the coin, and the yellow tiles it removed."""

    coin: str
    removed_tiles: list


@dataclass
class TitleState1832:
    """The facts of an 1832 game that belong to no single company or player."""

    # WVCF tokens still with the bank, five in all ([6.5.2])
    coal_tokens_left: int
    # some company has run to Miami: it scores from then on ([8.5] Miami)
    miami_run: bool = False
    # the companies holding a WVCF token, in the order they got it ([6.5.2])
    coal_holders: list = field(default_factory=list)
    # the Cotton token placed ([16.2] P2)
    cotton: SpecialToken | None = None
    # the Port token placed ([16.2] P3)
    port: SpecialToken | None = None
    # the company whose Key West token lies on Miami ([7.5])
    key_west: str | None = None
    # the company P4 was exchanged for a share of ([16.2] P4): P4 closes at its first
    # dividend
    london: str | None = None
    # each special token is placed once: removed in phase 6 or 8, it is not offered
    # again ([16.2], [7.5])
    cotton_used: bool = False
    port_used: bool = False
    key_west_used: bool = False
    # the mortgage outstanding ([17.3] Southern Bank)
    mortgage: Mortgage | None = None
    # [stock round, operating round] of the last mortgage or repayment: one per
    # complete operating round ([17.3])
    mortgage_or: list | None = None
    # the last-chance merger phase after the first 6-train: None, "pending" or "done"
    # ([11] Merger Phase)
    last_chance: str | None = None
    # the Systems formed, in order ([11.6])
    systems: list[SystemFormed] = field(default_factory=list)
    # the takeovers, in order ([11.7])
    takeovers: list[Takeover] = field(default_factory=list)
    # the Civil War, once fought ([17.5])
    civil_war: CivilWar | None = None

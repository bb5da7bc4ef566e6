"""The record of a company's operating turn: what it did so far, which its steps share
(:class:`~trainruns.game.steps.operating.CorporationStep`) and the rules read where the
turn allows something once (1833NE "one issue or redeem a turn"; 1831 5.2.4.3's tokens
a phase; 1832 [8] the run's revenue, paid by the dividend step).

A field not set this turn reads as its class default; :meth:`Turn.record` gives the
fields set, as what the turn has done (an advisor tells two turns apart by it). A title
whose turns record more subclasses :class:`Turn` (``GameRules.turn_class``)."""

from __future__ import annotations


class Turn:
    """The fields every title's turn may set, and their defaults."""

    #: the run's revenue once its routes step is over (None: it ran no train)
    revenue: int | None = None
    #: issued or redeemed shares this turn (1833NE "Comparison with 1830" item 3)
    issued: bool = False
    #: the offers declined this turn, ``(kind, what)``, not made again (game/steps/consent.py)
    declined: tuple = ()

    def __init__(self, corporation: str):
        self.corporation = corporation

    def ran_routes(self) -> bool:
        """Whether the turn's routes step is over (its ``revenue`` set)."""
        return "revenue" in vars(self)

    def decline(self, kind: str, what: str):
        """Keep a declined offer, not to be made again this turn."""
        self.declined = [*self.declined, (kind, what)]

    def record(self) -> dict:
        """The fields set this turn, by name."""
        return dict(vars(self))

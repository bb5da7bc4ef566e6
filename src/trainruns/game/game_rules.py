"""What a title gives the engine: :class:`GameRules`, its data and the hooks the shared
rounds and steps call, each declared once with what it must do and a default.

The hooks live in one short module a step, in :mod:`trainruns.game.rules`, grouped by
where the engine calls them (docs/engine.md "The hooks" has the same groups): the setup
and the score (``setup.py``), the stock round and its turn (``stock_round.py``,
``stock_turn.py``), the operating round (``operating.py``), the route core's position
(``position.py``), the track, token, run and dividend steps (``track.py``, ``token.py``,
``run.py``, ``dividend.py``), trains (``trains.py``), phases and discards
(``phases.py``), what the companies share (``companies.py``), the state JSON
(``state_json.py``) and an action's ids (``ids.py``). :class:`GameRules` composes them
and holds the title's declared data.

A title's rules class subclasses it (``class Rules(StockRules, OperatingRules,
GameRules)``: the title's own mixins first, so their methods override these defaults)
and sets the class attributes below. docs/engine.md lists the hooks and shows a title's
shape; a new title implements the hooks without a default and overrides only where its
rules differ.
"""

from __future__ import annotations

from trainruns.game.rules.companies import CompanyRules
from trainruns.game.rules.dividend import DividendRules
from trainruns.game.rules.ids import Ids
from trainruns.game.rules.operating import OperatingRules
from trainruns.game.rules.phases import PhaseRules
from trainruns.game.rules.position import PositionRules
from trainruns.game.rules.run import RunRules
from trainruns.game.rules.setup import SetupRules
from trainruns.game.rules.state_json import StateJson
from trainruns.game.rules.stock_round import StockRoundRules
from trainruns.game.rules.stock_turn import StockTurnRules
from trainruns.game.rules.token import TokenRules
from trainruns.game.rules.track import TrackRules
from trainruns.game.rules.trains import TrainRules


class GameRules(SetupRules, StockRoundRules, StockTurnRules, OperatingRules, PositionRules, TrackRules, TokenRules,
                RunRules, DividendRules, TrainRules, PhaseRules, CompanyRules, StateJson, Ids):
    """The engine's view of a title. Set by the title's ``__init__``: ``game``,
    ``state`` (:class:`~.state.State`), ``market``, ``stock_round_number``, ``priority``."""

    #: the title's name as logs and positions spell it
    title: str = ""
    #: the action types it accepts (:func:`.action.declare`)
    action_types: dict = {}
    #: the variants the game is played with
    variants: list = []
    #: the variants a new game may choose: name -> what it changes, with its rule (the
    #: page's New game form lists them)
    known_variants: dict = {}
    #: the steps of a company's operating turn, in order: step classes built as
    #: ``Step(game, corporation, turn)`` (:class:`~.steps.operating.CorporationStep`)
    operating_steps: tuple = ()
    #: where the title's own rules say what a shared step refuses: topic -> the section
    #: as the title's refusals cite it, brackets and all ("[8]" in 1832, "(5.0.4)" in
    #: 1831, '("Emergency sell")' for a heading of 1833NE's summary); :meth:`cite` reads
    #: it. The topics are those the shared steps the title runs cite.
    citations: dict = {}
    #: what each zone of the stock market means (zone as ``market.view()`` names it ->
    #: the title's words and section), and ``"par"`` for a par box; the page's legend
    market_legend: dict = {}
    #: private id -> what the private does, in the title's words (its companies' data),
    #: which :meth:`private_ability` tells the page
    abilities: dict = {}

    #: the rules' attributes set when the game starts and only read after it (the
    #: title's tables, its map and market grid): a copy of the game shares them
    fixed_attributes: tuple = ("data", "numbers", "config", "phases", "shares", "trains", "token_costs",
                               "abilities", "cards", "sides", "private_data", "map")

    def fixed(self) -> list:
        """The objects of :attr:`fixed_attributes` (and the market's grid of boxes)
        this game has: :meth:`~.game.Game.copy` shares them instead of copying."""
        out = [getattr(self, name) for name in self.fixed_attributes if hasattr(self, name)]
        rows = getattr(getattr(self, "market", None), "rows", None)
        return out + ([rows] if rows is not None else [])

    def cite(self, topic: str) -> str:
        """The title's own rule on ``topic`` (:attr:`citations`) as a refusal of a shared
        step appends it: " [8]" (with the space before it); empty when the title's
        rules say nothing on it, never another title's section."""
        where = self.citations.get(topic)
        return f" {where}" if where else ""


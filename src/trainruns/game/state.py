"""The game state: players, corporations, privates, the bank, the depot, the market.

One place per thing (docs/game-log.md guarantees 1, 2, 5, 7):
- money: every dollar is the ``cash`` of exactly one holder (the bank, a player, a
  corporation) or a player's ``committed`` (a standing bid); it moves only through
  :meth:`State.pay`, :meth:`State.commit` and :meth:`State.release`, so the sum never
  changes;
- shares: a corporation's ``shares`` maps each holder (``ipo``, ``market``,
  ``treasury``, ``player:NAME``, ``corp:ID``) to a count in the title's smallest share;
  they move only through :meth:`State.move_shares`;
- trains: a train sits in the depot's count, a corporation's ``trains`` or the open
  market's ``market_trains`` (a :class:`~trainruns.game.train.Train` in either);
  tokens in ``Corporation.tokens`` (placed) and the title's special-token records.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class LaidTile:
    """A tile laid on the map: ``tile`` on hex ``hex`` at ``rotation`` (docs/game-log.md
    "The state": ``tiles``). The state keeps them in the order laid; the last on a hex
    is the one there now (1832's downgrade goes back to the one before, [16.5])."""

    hex: str
    tile: str
    rotation: int

    @classmethod
    def of(cls, lay: dict) -> "LaidTile":
        """The tile a listed lay (``{"hex", "tile", "rotation", ...}``) puts down."""
        return cls(lay["hex"], lay["tile"], lay["rotation"])

    def to_json(self) -> dict:
        return {"hex": self.hex, "tile": self.tile, "rotation": self.rotation}

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self   # frozen: a game's copy shares its laid tiles (Game.copy)


@dataclass
class Bank:
    cash: int = 0
    broken: bool = False
    name: str = "bank"


@dataclass
class Player:
    name: str
    cash: int = 0
    committed: int = 0
    bankrupt: bool = False


@dataclass
class Corporation:
    id: str
    name: str
    home: str
    home_stop: int
    # what each placed token cost, in the order of ``tokens``, then what each token
    # still on the charter will cost, in the order they are placed
    token_costs: list
    total_shares: int
    cash: int = 0
    par: int | None = None
    cell: tuple | None = None   # (row, column) of the share price token
    floated: bool = False       # the float share count left the initial offering
    capitalised: bool = False   # the starting treasury was paid
    operated: bool = False
    closed: bool = False
    president: str | None = None
    trains: list = field(default_factory=list)
    tokens: list = field(default_factory=list)   # [(hex, stop)] in the order placed
    shares: dict = field(default_factory=dict)   # holder -> count

    def held(self, holder: str) -> int:
        return self.shares.get(holder, 0)

    @property
    def sold_from_offering(self) -> int:
        """The shares sold out of the company: neither in its initial offering nor in its
        treasury (1832 [5.6] "six shares sold from the initial offering")."""
        return self.total_shares - self.held("ipo") - self.held("treasury")

    @property
    def started(self) -> bool:
        return self.par is not None and not self.closed


@dataclass
class Private:
    id: str
    name: str
    cost: int
    revenue: int
    price: int
    owner: str | None = None     # "player:NAME" or "corp:ID"
    open: bool = True


def player_key(name: str) -> str:
    return f"player:{name}"


def corp_key(cid: str) -> str:
    return f"corp:{cid}"


class State:
    """Everything a game holds. Mutated only by steps, through the methods below."""

    def __init__(self, players: list[Player], corporations: list[Corporation], privates: list[Private],
                 bank_cash: int, depot: list):
        self.players = players
        self.player = {p.name: p for p in players}
        self.corporations = corporations
        self.corp = {c.id: c for c in corporations}
        self.privates = privates
        self.private = {p.id: p for p in privates}
        self.bank = Bank(bank_cash)
        self.depot = depot                # the bank's trains: train.DepotRow, in order
        self.market_trains: list = []       # the open market ("pool") of trains: Train objects
        self.tiles: list[LaidTile] = []     # laid, in order
        self.phase: str = ""
        self.events: list[dict] = []
        self.title_state = None             # the title's own facts (a dataclass of its state.py)

    # --- holders ------------------------------------------------------------------------

    def holder(self, key: str):
        """The object whose ``cash`` a key names: ``bank``, ``player:A``, ``corp:SALR``."""
        if key == "bank":
            return self.bank
        kind, _, name = key.partition(":")
        return self.player[name] if kind == "player" else self.corp[name]

    # --- money --------------------------------------------------------------------------

    def pay(self, src: str, dst: str, amount: int) -> int:
        """Move ``amount`` dollars from one holder to another. The bank may go below zero
        only once broken ([13.2]: the last set of operating rounds is kept on paper).
        It is broken when a payment leaves it with nothing (1832 Glossary "Broken Bank":
        "it has zero dollars or less, or it does not have enough money to make a
        payment"; 1831 6.1 and 1833NE "End game triggers": the bank "runs out",
        docs/gaps.md)."""
        if amount < 0:
            raise ValueError("negative payment")
        a, b = self.holder(src), self.holder(dst)
        if a is not self.bank and a.cash < amount:
            raise ValueError(f"{src} cannot pay {amount}")
        a.cash -= amount
        b.cash += amount
        if a is self.bank and self.bank.cash <= 0:
            self.bank.broken = True
        return amount

    def commit(self, name: str, amount: int):
        """Set money aside (a standing bid, [5.7])."""
        p = self.player[name]
        if p.cash < amount:
            raise ValueError("not enough cash to commit")
        p.cash -= amount
        p.committed += amount

    def release(self, name: str, amount: int):
        p = self.player[name]
        p.committed -= amount
        p.cash += amount

    def money(self) -> int:
        return self.bank.cash + sum(p.cash + p.committed for p in self.players) + sum(
            c.cash for c in self.corporations)

    # --- shares -------------------------------------------------------------------------

    def move_shares(self, corp: Corporation, src: str, dst: str, count: int):
        if count <= 0 or corp.shares.get(src, 0) < count:
            raise ValueError(f"{src} holds {corp.shares.get(src, 0)} {corp.id} shares, cannot move {count}")
        corp.shares[src] -= count
        if not corp.shares[src] and src.startswith(("player:", "corp:")):
            del corp.shares[src]
        corp.shares[dst] = corp.shares.get(dst, 0) + count

    def player_shares(self, name: str) -> dict:
        key = player_key(name)
        return {c.id: c.shares[key] for c in self.corporations if c.shares.get(key)}

    def event(self, _event: str, **fields):
        self.events.append({"event": _event, **fields})

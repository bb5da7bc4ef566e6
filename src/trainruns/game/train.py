"""Trains and the bank's depot (1832 [10] Bank Trains; 1833NE "Train list and prices").

A title's ``data/trains.json`` lists its trains in the 18xx.games shape: ``name``,
``distance``, ``price``, ``num``, ``rusts_on`` (the phase that removes it),
``obsolete_on`` (the phase that phases it out: it runs once more and does not count
against the limit), ``available_on``, and ``variants``: the sides of a two-sided card
(1833NE), each bought as a train of its own and fixed afterwards. :class:`Trains` reads
them into one :class:`Train` per name a company can own.

A train a company owns, or the open market holds, is one of these :class:`Train`
objects (of a two-sided card, the side bought). They never change, so the game's
copies share them: a change of status (1831 5.3.2, 5.3.6) is a new Train in the
company's list. The state JSON and the events name them (:func:`names`); a rule that
asks for a train by name finds it by :func:`remove_named` or compares ``t.name``.

The depot is a list of :class:`DepotRow` in the title's order (``left`` None =
unlimited), the bank sells all of a type before the next; trains a
company discards or loses go to the open market (``State.market_trains``) and are sold
there at the printed price ([10] Train Cost).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Train:
    """A train a company can own: a type, or one side of a two-sided card; the phases
    that end it are its card's."""
    name: str
    distance: object
    price: int
    num: int | None = None
    rusts_on: str | None = None
    obsolete_on: str | None = None
    available_on: str | None = None
    card: str = ""                 # the card it is printed on: its own name, or the two-sided card's
    sides: tuple[str, ...] = ()    # of a card: the trains it is bought as
    # where the title tracks what an owned train may do (1831 5.3.2, 5.3.6: "new", "used",
    # "restored", "retired"); a change of status is a new Train in the company's list
    status: str = "new"

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self   # frozen: a game's copy shares its trains (Game.copy)


def names(trains) -> list[str]:
    """The names of ``trains`` (owned or in the open market), in order: how the state
    JSON, the events and the route core's position name them."""
    return [t.name for t in trains]


def kinds(trains) -> list[str]:
    """The names among ``trains``, each once, in order (a company's or the open market's
    trains on offer, one offer per name)."""
    return list(dict.fromkeys(t.name for t in trains))


def remove_named(trains: list, name: str) -> Train:
    """The first of ``trains`` named ``name``, taken out of the list (a train sold,
    discarded or traded in is any one of that name)."""
    for i, t in enumerate(trains):
        if t.name == name:
            return trains.pop(i)
    raise ValueError(f"no {name}-train among {names(trains)}")


class Trains:
    """The title's trains by name (each side of a card is one), and its cards in order."""

    def __init__(self, rows: list[dict]):
        self.cards: list[Train] = []
        self.by_name: dict[str, Train] = {}
        for r in rows:
            ends = {k: r.get(k) for k in ("num", "rusts_on", "obsolete_on", "available_on")}
            sides = tuple(v["name"] for v in r.get("variants", []))
            card = Train(r["name"], r.get("distance"), r["price"], card=r["name"], sides=sides, **ends)
            self.cards.append(card)
            if not sides:
                self.by_name[card.name] = card
            for v in r.get("variants", []):
                self.by_name[v["name"]] = Train(v["name"], v.get("distance"), v["price"], card=r["name"], **ends)

    def __getitem__(self, name: str) -> Train:
        return self.by_name[name]

    def __contains__(self, name) -> bool:
        return name in self.by_name

    def __iter__(self):
        return iter(self.by_name)

    def price(self, name: str) -> int:
        """The printed price: what the open market sells it at."""
        return self.by_name[name].price

    def ended(self, name: str, by: str, phase: str, phases) -> bool:
        """Whether ``name``'s ``by`` phase (``rusts_on`` or ``obsolete_on``) has come by
        ``phase``."""
        p = getattr(self.by_name[name], by)
        return bool(p) and phases.index(phase) >= phases.index(p)


@dataclass
class DepotRow:
    """A row of the bank's depot: the ``left`` trains of one type or card (None:
    unlimited) at ``price``. A two-sided card (1833NE) has the ``phase`` it comes in and
    its ``sides``, (train, price) each, and is priced at its cheaper side; 1831's rows
    have the ``size`` the bank sells the lowest of first (5.3.8)."""

    train: str
    left: int | None
    price: int
    phase: str | None = None
    sides: tuple = ()
    size: int | None = None

    def trains(self) -> list[tuple[str, int]]:
        """(train, price) the row sells: its card's sides, or its one train."""
        return list(self.sides) if self.sides else [(self.train, self.price)]

    def to_json(self) -> dict:
        """As the state JSON's ``depot`` shows it (docs/game-log.md)."""
        out = {"train": self.train, "left": self.left, "price": self.price}
        if self.sides:
            out.update(phase=self.phase, sides=[{"train": t, "price": p} for t, p in self.sides])
        return out


def make_depot(trains: Trains, unlimited_on: str | None = None) -> list[DepotRow]:
    """The bank's rows, one per card of the title's data, in order. A two-sided card is
    one row with its ``sides`` and the ``phase`` it comes in, priced at its cheaper
    side; the cards of phase ``unlimited_on`` never run out (1833NE's phase V card,
    "effectively unlimited")."""
    rows = []
    for t in trains.cards:
        if not t.available_on:
            rows.append(DepotRow(t.name, t.num, t.price))
            continue
        rows.append(DepotRow(t.name, None if t.available_on == unlimited_on else t.num,
                             min(trains[s].price for s in t.sides), phase=t.available_on,
                             sides=tuple((s, trains[s].price) for s in t.sides)))
    return rows


def available(depot: list[DepotRow]) -> DepotRow | None:
    """The row the bank sells from now: the first type not sold out."""
    for row in depot:
        if row.left is None or row.left > 0:
            return row
    return None


def sell_one(row: DepotRow):
    """One train of depot ``row`` bought from the bank ([10], 1831 5.3.8): its count down
    by one (an unlimited row stays unlimited)."""
    if row.left is not None:
        row.left -= 1


def take(depot: list[DepotRow], name: str) -> DepotRow:
    """One train named ``name`` bought from the bank (:func:`sell_one`); its row."""
    row = next(r for r in depot if r.train == name)
    sell_one(row)
    return row

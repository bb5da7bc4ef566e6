"""A train a company holds (1831 5.3, 1832 [10], 1833NE "Trains"): one type for every
title.

``name`` is what the log, the state JSON and the route core call it ("3MX", "4+4E");
``distance`` its printed number of stops; ``price`` its face value; ``rusts_on`` and
``obsolete_on`` the phase that scraps it or makes it obsolete; ``status`` what it may do
now (1831 5.3.2, 5.3.6: "new", "used", "restored", "retired"); ``sides`` the other
faces of a card bought as one of its sides (1833NE). Two trains with the same fields
are equal, so removing "a 3S" from a company's trains takes the first one that is."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Train:
    name: str
    distance: int | None = None
    price: int | None = None
    rusts_on: str | None = None
    obsolete_on: str | None = None
    status: str = "new"
    sides: tuple = ()

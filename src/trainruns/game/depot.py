"""The bank's trains ([10] Bank Trains): sold in order, all of a type before the next.

The depot is a list of ``{"train", "left", "price"}`` rows in the title's order
(``left`` None = unlimited). Trains a corporation discards or loses go to the open
market (``State.market_trains``) and are sold there at the printed price ([10] Train
Cost)."""

from __future__ import annotations


def make_depot(trains: list[dict], unlimited_on: str | None = None) -> list[dict]:
    """The bank's rows, one per train of the title's data (18xx.games shape), in order:
    ``{"train", "left", "price"}``. A card bought as one of its two sides (1833NE:
    ``variants`` with ``available_on``) is one row with its ``sides`` and the ``phase``
    it comes in, priced at its cheaper side; the cards of phase ``unlimited_on`` never
    run out (1833NE's phase V card, "effectively unlimited")."""
    rows = []
    for t in trains:
        if "available_on" not in t:
            rows.append({"train": t["name"], "left": t.get("num"), "price": t["price"]})
            continue
        rows.append({"train": t["name"], "left": None if t["available_on"] == unlimited_on else t["num"],
                     "price": min(s["price"] for s in t["variants"]), "phase": t["available_on"],
                     "sides": [{"train": s["name"], "price": s["price"]} for s in t["variants"]]})
    return rows


def available(depot: list[dict]) -> dict | None:
    """The row the bank sells from now: the first type not sold out."""
    for row in depot:
        if row["left"] is None or row["left"] > 0:
            return row
    return None


def price_of(trains: list[dict], name: str) -> int:
    return next(t["price"] for t in trains if t["name"] == name)


def take(depot: list[dict], name: str) -> dict:
    """One train named ``name`` bought from the bank ([10], 1831 5.3.8): its row's count
    down by one (an unlimited row stays unlimited); the row."""
    row = next(r for r in depot if r["train"] == name)
    if row["left"] is not None:
        row["left"] -= 1
    return row

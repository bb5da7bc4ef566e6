"""The bank's trains ([10] Bank Trains): sold in order, all of a type before the next.

The depot is a list of ``{"train", "left", "price"}`` rows in the title's order
(``left`` None = unlimited). Trains a corporation discards or loses go to the open
market (``State.market_trains``) and are sold there at the printed price ([10] Train
Cost)."""

from __future__ import annotations


def make_depot(trains: list[dict]) -> list[dict]:
    return [{"train": t["name"], "left": t.get("num"), "price": t["price"]} for t in trains]


def available(depot: list[dict]) -> dict | None:
    """The row the bank sells from now: the first type not sold out."""
    for row in depot:
        if row["left"] is None or row["left"] > 0:
            return row
    return None


def take(depot: list[dict], name: str) -> dict:
    row = available(depot)
    if row is None or row["train"] != name:
        raise ValueError(f"the bank does not sell a {name}-train now")
    if row["left"] is not None:
        row["left"] -= 1
    return row


def price_of(trains: list[dict], name: str) -> int:
    return next(t["price"] for t in trains if t["name"] == name)

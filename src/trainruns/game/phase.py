"""Phases (1832 [4.2], 1833NE "Number of phases", 1831 5.3.5): a phase starts when the
first train of its type is bought.

Phases are rows in the 18xx.games shape: ``name``, ``on`` (the train that starts it),
``train_limit``, ``tiles``, ``operating_rounds``, ``status`` (the flags that hold while
the phase lasts), ``events``: what happens once as it starts, in order, each
``{"type": T, ...}`` run by the title's hook ``event_T`` with the other fields as its
arguments (:meth:`~.game_rules.GameRules.new_phase`), and ``discard_limit`` where a rule
has the companies discard, as the phase starts, below its train limit (1832 [17.5]
"discard any excess just as if the train limit were one")."""

from __future__ import annotations


class Phases:
    def __init__(self, rows: list[dict], trains: list[dict]):
        self.rows = rows
        self.by_name = {r["name"]: r for r in rows}
        self.names = [r["name"] for r in rows]
        self.rusts = {t["name"]: t.get("rusts_on") for t in trains}

    def after_buying(self, current: str, train: str) -> list[str]:
        """The phases a purchase of ``train`` starts (usually none or one)."""
        out = []
        i = self.names.index(current)
        for row in self.rows[i + 1:]:
            if row["on"] == train:
                out.append(row["name"])
        return out

    def events(self, phase: str) -> list[dict]:
        """What happens once as ``phase`` starts, in order."""
        return self.by_name[phase].get("events", [])

    def scrapped_at(self, phase: str) -> list[str]:
        """Train types scrapped when ``phase`` starts (Table 1)."""
        return [t for t, p in self.rusts.items() if p == phase]

    def limit(self, phase: str) -> int:
        return self.by_name[phase]["train_limit"]

    def discard_limit(self, phase: str) -> int | None:
        """The limit the companies discard down to as ``phase`` starts, where its row
        sets one below the train limit (none: the train limit)."""
        return self.by_name[phase].get("discard_limit")

    def has(self, phase: str, flag: str) -> bool:
        return flag in self.by_name[phase].get("status", [])

    def index(self, phase: str) -> int:
        return self.names.index(phase)

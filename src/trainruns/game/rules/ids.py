"""Ids in an action (docs/game-log.md, "The action log": players by name, corporations by
the reference ids, rulebook abbreviations accepted). Written once for every title."""

from __future__ import annotations

from trainruns.errors import InputError


class Ids:
    """A title's rules mix this in; they hold ``state`` and ``_aliases`` (a lower-case
    name or abbreviation -> the corporation's reference id)."""

    def add_aliases(self, row: dict):
        """The names a corporation's data row accepts for it: its id and its
        ``aliases`` (rulebook abbreviations), any case."""
        for name in [row["id"], *row.get("aliases", [])]:
            self._aliases[name.lower()] = row["id"]

    def corporation_id(self, name):
        """The reference id of the corporation ``name`` names (an id, name or
        abbreviation, any case), or None."""
        if not isinstance(name, str):
            return None
        return self._aliases.get(name.lower())

    def corporation(self, name):
        """The corporation ``name`` names (an id, name or abbreviation, any case)."""
        return self.state.corp[self.corporation_id(name)]

    def operating_corporation(self):
        """The id of the corporation whose operating turn the game is in (the
        corporation of the operating round's step now; while a deal its turn offered
        waits for the other party's answer, game/steps/consent.py, the one the offer
        concerns), or None."""
        step = self.game.round.step() if not self.game.finished else None
        if step is None or self.game.round.kind != "operating":
            return None
        return step.concerns

    def asked_corporation(self, name, corporations: str):
        """The id of the corporation a position is asked for: ``name`` (an id, name or
        abbreviation) or, without one, the corporation operating now (the title's
        ``operating_corporation``). An unknown name, or none given while no corporation
        operates, is bad input (exit 2): never a position of another corporation."""
        if name is None:
            cid = self.operating_corporation()
            if cid is None:
                raise InputError("no corporation is operating now: name one (--corporation ID)", "corporation")
            return cid
        cid = self.corporation_id(name)
        if cid is None:
            raise InputError(f"unknown corporation {name!r} ({corporations}: {', '.join(self.state.corp)})",
                             "corporation")
        return cid

    def check_player_and_corporation(self, a: dict, where: str, corporations: str):
        """An unknown player or corporation is bad input (exit 2); an alias becomes the
        reference id. ``corporations`` names the list in the message ("1832", "in play")."""
        s = self.state
        if "player" in a and a["player"] not in s.player:
            raise InputError(f"unknown player {a['player']!r} (players: {', '.join(s.player)})", where)
        if "corporation" in a:
            cid = self.corporation_id(a["corporation"])
            if cid is None:
                raise InputError(f"unknown corporation {a['corporation']!r} ({corporations}: {', '.join(s.corp)})",
                                 where)
            a["corporation"] = cid

    def check_ids(self, a: dict, where: str):
        """Unknown ids in ``a`` are bad input (InputError, exit 2); aliases become the
        reference ids [shared: its player and corporation, a private, a train
        (:meth:`train_names`), the company a train is bought from, the one a company
        merges with or consents to, a negative price or count; then
        :meth:`check_title_ids`]."""
        self.check_player_and_corporation(a, where, self.title)
        s = self.state
        if "private" in a and a["private"] not in s.private:
            raise InputError(f"unknown private {a['private']!r} ({self.title}: {', '.join(s.private)})", where)
        if "train" in a and a["train"] not in self.train_names():
            raise InputError(f"unknown train {a['train']!r} ({self.title} trains: {', '.join(self.train_names())})",
                             where)
        if a["type"] == "buy_train" and a.get("from") not in ("bank", "market"):
            a["from"] = self._named_corporation(a.get("from"), where, "a train comes from 'bank', 'market' or "
                                                                      "a corporation")
        if "with" in a and a["type"] in ("merge", "consent"):
            a["with"] = self._named_corporation(a["with"], where, "a corporation")
        for key in ("price", "count"):
            if isinstance(a.get(key), int) and a[key] < 0:
                raise InputError(f"field {key!r} cannot be negative", where)
        self.check_title_ids(a, where)

    def _named_corporation(self, name, where: str, expected: str) -> str:
        cid = self.corporation_id(name)
        if cid is None:
            raise InputError(f"{expected}, not {name!r} ({self.title}: {', '.join(self.state.corp)})", where)
        return cid

    def train_names(self):
        """The train names an action may name (default: the title's ``trains``)."""
        return self.trains

    def check_title_ids(self, a: dict, where: str):
        """The title's own fields of ``a`` that name something (:meth:`check_ids`):
        unknown ones are bad input (InputError); default: none."""

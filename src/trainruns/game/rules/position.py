"""The position of a company for the route core (docs/position-format.md): what the track,
token and run steps and a merger's reach hand the route core."""

from __future__ import annotations

from trainruns.game.train import names


class PositionRules:
    """The position the route core answers for.
    A mixin of :class:`~trainruns.game.game_rules.GameRules`."""

    def position(self, corporation: str | None = None, trains=None) -> dict:
        """The position of ``corporation`` (default: the one operating, bad input when
        none is) for the route core, with ``trains`` instead of its own [what
        :meth:`core_position` says; a title adds its own fields]."""
        return self.core_position(self.asked_corporation(corporation, self.title), trains)

    def core_position(self, cid: str, trains=None) -> dict:
        """What every title's position for the route core starts with
        (docs/position-format.md): the title, the phase, the corporation, its trains
        (or ``trains``), the tiles laid and every open company's tokens."""
        s = self.state
        c = s.corp[cid]
        pos = {"title": self.title, "phase": s.phase, "corporation": cid,
               "trains": names(c.trains) if trains is None else list(trains),
               "tiles": [x.to_json() for x in s.tiles],
               "tokens": [{"hex": h, "stop": k, "corporation": x.id}
                          for x in s.corporations if not x.closed for h, k in x.tokens]}
        if trains is None and not c.closed and self.surplus(c)[0] > 0:
            # 1832 [10.2.1] it holds the excess until its president discards: the route
            # core takes the trains over the limit only when the position says so
            pos["must_discard"] = True
        return pos

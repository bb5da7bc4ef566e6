"""A player as the state JSON shows it (docs/game-log.md, "The state"), for every title."""

from __future__ import annotations

from trainruns.game.state import player_key


class PlayerReport:
    """A title's rules mix this in; they give ``state``, ``player_certs`` and ``value``
    (the title's certificate count and score formula)."""

    def _player_json(self, p):
        s = self.state
        return {"name": p.name, "cash": p.cash, "committed": p.committed, "certificates": self.player_certs(p.name),
                "shares": s.player_shares(p.name),
                "privates": [x.id for x in s.privates if x.owner == player_key(p.name) and x.open],
                "value": self.value(p.name), "bankrupt": p.bankrupt}

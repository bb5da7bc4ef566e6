"""The state as JSON (docs/game-log.md "The state"): what every title shows, with the hooks
where a title adds its own fields, and what a private does for the page."""

from __future__ import annotations

from trainruns.game.state import corp_key, player_key
from trainruns.game.train import names


class StateJson:
    """The state JSON and the page's words for a private.
    A mixin of :class:`~trainruns.game.game_rules.GameRules`."""

    def _player_json(self, p):
        s = self.state
        return {"name": p.name, "cash": p.cash, "committed": p.committed, "certificates": self.player_certs(p.name),
                "shares": s.player_shares(p.name),
                "privates": [x.id for x in s.privates if x.owner == player_key(p.name) and x.open],
                "value": self.value(p.name), "bankrupt": p.bankrupt}

    def state_json(self) -> dict:
        """The state as JSON (docs/game-log.md "The state"): the title adds to it through
        :meth:`corporation_fields`, :meth:`private_json`, :meth:`bank_json`,
        :meth:`depot_json`, :meth:`market_trains_json` and :meth:`title_state_json`."""
        s, g = self.state, self.game
        return {"title": self.title, "finished": g.finished, "end_reason": g.end_reason, "result": g.result,
                "round": g.round.info(), "phase": s.phase, "active": g.active(), "priority": self.priority,
                "bank": self.bank_json(), "cert_limit": self.cert_limit(),
                "players": [self._player_json(p) for p in s.players],
                "corporations": [self.corporation_json(c) for c in s.corporations],
                "privates": [self.private_json(x) for x in s.privates],
                "depot": self.depot_json(), "market_trains": self.market_trains_json(),
                "tiles": [t.to_json() for t in s.tiles], "events": list(s.events),
                "actions_applied": len(g.applied), "variants": list(self.variants),
                "title_state": self.title_state_json()}

    def bank_json(self) -> dict:
        """The bank in the state JSON."""
        return {"cash": self.state.bank.cash, "broken": self.state.bank.broken}

    def depot_json(self) -> list:
        """The bank's trains in the state JSON."""
        return [row.to_json() for row in self.state.depot]

    def market_trains_json(self) -> list:
        """The open market's trains in the state JSON."""
        return names(self.state.market_trains)

    def private_json(self, x) -> dict:
        """A private company in the state JSON."""
        kind, _, name = (x.owner or "").partition(":")
        return {"id": x.id, "owner": name or None, "owner_kind": kind or None, "open": x.open, "price": x.price,
                "cost": x.cost, "revenue": x.revenue}

    def private_ability(self, private_id: str) -> str:
        """What private ``private_id`` does, in the title's words with its section, for
        the page (default: its entry in :attr:`abilities`, the title's companies' data;
        nothing said without one)."""
        return self.abilities.get(private_id, "")

    def corporation_json(self, c) -> dict:
        """A corporation in the state JSON: what every title shows, then the title's
        :meth:`corporation_fields` (which may also replace a field)."""
        return {"id": c.id, "name": c.name, "president": c.president, "par": c.par,
                "price": self.market.price(c.cell) if c.cell and not c.closed else None,
                "floated": c.floated, "closed": c.closed, "operated": c.operated, "cash": c.cash,
                "trains": names(c.trains), "tokens": [{"hex": h, "stop": k} for h, k in c.tokens],
                "tokens_left": len(c.token_costs) - len(c.tokens) if not c.closed else 0,
                "privates": [x.id for x in self.state.privates if x.owner == corp_key(c.id) and x.open],
                "shares": self.shares_json(c),
                **self.corporation_fields(c)}

    def shares_json(self, c) -> dict:
        """Where a corporation's shares are, in the state JSON: the places add up to
        ``total`` (0 once closed: its certificates are void)."""
        sh = c.shares
        return {"total": 0 if c.closed else c.total_shares, "ipo": sh.get("ipo", 0), "market": sh.get("market", 0),
                "treasury": sh.get("treasury", 0),
                "players": {k.partition(":")[2]: v for k, v in sh.items() if k.startswith("player:") and v},
                "corporations": {k.partition(":")[2]: v for k, v in sh.items() if k.startswith("corp:") and v}}

    def corporation_fields(self, c) -> dict:
        """The title's own fields of a corporation in the state JSON."""
        return {}

    def title_state_json(self) -> dict:
        """The title's own facts in the state JSON (``title_state``)."""
        return {}

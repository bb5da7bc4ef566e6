"""The token step's hooks (:class:`~trainruns.game.steps.token.TokenStep`; 1832 [7], 1833NE
"List of corporations"): the cities a company may place a token in, the homes kept for
others, a token's cost, and the home token placed free."""

from __future__ import annotations

from trainruns.game.state import corp_key


class TokenRules:
    """Placing station tokens.
    A mixin of :class:`~trainruns.game.game_rules.GameRules`."""

    def token_places(self, c) -> list[dict]:
        """TokenStep: every ``{"hex", "stop"}`` where ``c`` may place a token now. [1832
        [7.2], 1833NE "List of corporations": while it has a token left, each city the
        route core finds it reaches with room and none of its tokens, less the spots the
        title's route rules keep (its ``token_refusal``: 1833NE's reserved spots); never
        the last free slot of a home kept for another company (:meth:`reserved_homes`);
        at a :meth:`token_cost` it :meth:`affords`.]"""
        from trainruns.game import route_adapter

        if len(c.tokens) >= len(c.token_costs):
            return []
        cities = route_adapter.token_cities(self.position(c.id))
        homes = {(r["hex"], r["stop"]) for r in self.reserved_homes() if r["corporation"] != c.id}
        return [{"hex": h, "stop": k} for h, k, free in cities if not ((h, k) in homes and free <= 1)
                and self.affords(c, self.token_cost(c, h))]

    def token_cost(self, c, hex_id: str) -> int:
        """What ``c``'s next token costs on ``hex_id`` [its charter's price for it, 1832
        [7] Token Cost]."""
        return c.token_costs[len(c.tokens)]

    def place_token(self, c, place: dict):
        """TokenStep: ``c`` places a token where :meth:`token_places` listed and pays its
        :meth:`token_cost` to the bank; then :meth:`token_placed`."""
        cost = self.token_cost(c, place["hex"])
        if cost:
            self.state.pay(corp_key(c.id), "bank", cost)
        c.tokens.append((place["hex"], place.get("stop", 0)))
        self.token_placed(c, place, cost)

    def token_placed(self, c, place: dict, cost: int):
        """:meth:`place_token`: what follows a token placed for ``cost`` [nothing]."""

    def why_not_token(self, c, a: dict) -> tuple[str, str]:
        """TokenStep: (rule id, message) refusing a token that was not listed."""
        raise NotImplementedError

    def reserved_homes(self) -> list[dict]:
        """The home cities kept now for corporations that have not placed their home
        token, each ``{"corporation", "hex", "stop"}``, as :meth:`token_places` keeps
        them from the others [each company that :meth:`keeps_home`]."""
        return [{"corporation": d.id, "hex": d.home, "stop": d.home_stop} for d in self.state.corporations
                if self.keeps_home(d)]

    def keeps_home(self, d) -> bool:
        """:meth:`reserved_homes`: whether company ``d`` keeps its home slot [open, no token
        placed yet: 1832 [7.2]]."""
        return not d.closed and not d.tokens

    def home_token(self, c):
        """The home token, placed free in ``c``'s home slot when it has no token yet
        (1832 [7.1]; 1833NE "List of corporations": as it launches)."""
        if c.tokens:
            return
        c.tokens.append((c.home, c.home_stop))
        self.state.event("token", corporation=c.id, hex=c.home, stop=c.home_stop, cost=0, reason="home")

"""Placing a token (1832 [7.2]): one paid token per operating round, in a city the
corporation reaches with room and none of its tokens, never the last slot of a home
city of a company that has not yet placed its home token; the title lists them."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.steps.operating import CorporationStep


class TokenStep(CorporationStep):
    def enter(self):
        if not self.actions_but_pass():
            self.done = True

    def actions_but_pass(self):
        out = [dict({"type": "place_token", "corporation": self.corp.id}, **m)
               for m in self.game.rules.token_places(self.corp)]
        return out + self.extra_actions()

    def actions(self):
        return self.actions_but_pass() + [self.pass_action()]

    def process(self, a):
        self.check_entity(a)
        if a["type"] == "pass":
            self.done = True
            return a
        if a["type"] != "place_token" or a.get("kind"):
            recorded = self.process_extra(a)
            if not self.done and not self.actions_but_pass():
                self.done = True
            return recorded
        for m in self.game.rules.token_places(self.corp):
            if m["hex"] == a["hex"] and m.get("stop", 0) == a.get("stop", 0) and m.get("kind") == a.get("kind"):
                self.game.rules.place_token(self.corp, m)
                self.done = True
                return a
        raise Refusal(*self.game.rules.why_not_token(self.corp, a))

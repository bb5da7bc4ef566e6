"""1832's steps of a company's operating turn where they add to the shared ones: the
WVCF coal token bought with the track ([6.5.2]) and the special tokens placed with the
token ([16.2] P2 Cotton, P3 port; [7.5] Key West)."""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.steps.buy_train import BuyTrainStep
from trainruns.game.steps.token import TokenStep
from trainruns.game.steps.track import TrackStep


class TrackStep1832(TrackStep):
    """[6] track; [6.5.2] a WVCF token counts as a yellow tile lay of the turn."""

    def has_moves(self) -> bool:
        """A tile lay, or [6.5.2] a WVCF token in place of a yellow tile: the step stays
        open for it also when no tile may be laid."""
        return super().has_moves() or self.game.rules.coal_token_offer(self.corp, self.lays) is not None

    def extra_actions(self):
        offer = self.game.rules.coal_token_offer(self.corp, self.lays)
        return super().extra_actions() + ([offer] if offer else [])

    def process_extra(self, a):
        if a["type"] != "buy_token" or a.get("kind") != "coal":
            return super().process_extra(a)
        rules = self.game.rules
        rules.buy_coal_token(self.corp, self)
        if not self.lays or not rules.may_lay_tile(self.corp, self.lays) and \
                not rules.coal_token_offer(self.corp, self.lays):
            self.done = not rules.may_lay_tile(self.corp, self.lays)
        return a


class TokenStep1832(TokenStep):
    """[7.2] a token; [16.2] P2, P3: the Cotton and Port tokens "as an extra token lay
    during the token placement step", so before or after the station token; [7.5] the
    Key West token "counts as its sole token placement for the operating round": in
    place of the station token, the Cotton and Port tokens also after it."""

    placed = False   # the station token (or the Key West token) of this step is placed

    def _specials(self):
        out = [dict({"type": "place_token", "corporation": self.corp.id}, **m)
               for m in self.game.rules.special_tokens(self.corp)]
        return [x for x in out if x["kind"] != "key_west"] if self.placed else out

    def extra_actions(self):
        return super().extra_actions() + self._specials()

    def actions_but_pass(self):
        return self.extra_actions() if self.placed else super().actions_but_pass()

    def process(self, a):
        station = a["type"] == "place_token" and a.get("kind") in (None, "key_west")
        if station and self.placed:
            self.check_entity(a)
            raise Refusal("token.illegal", f"{self.corp.id} has placed its one token of this operating round "
                                           "([7.2]; [7.5] the Key West token is its sole token placement)")
        recorded = super().process(a)
        if station and self.done:
            self.placed = True
            self.done = not self._specials()   # [16.2] the Cotton or Port token may follow
        return recorded

    def process_extra(self, a):
        if a["type"] != "place_token" or not a.get("kind"):
            return super().process_extra(a)
        rules = self.game.rules
        for m in rules.special_tokens(self.corp):
            if m["kind"] == a["kind"] and m["hex"] == a["hex"] and m.get("stop", 0) == a.get("stop", 0):
                rules.place_special(self.corp, m, self)
                return a
        raise Refusal("token.special", f"{self.corp.id} cannot place a {a['kind']} token on {a['hex']} now "
                                       "([16.2] P2/P3: the owning company, eligible cities, once; [7.5] "
                                       "Key West: the FEC on Miami from phase 3)")


class BuyTrainStep1832(BuyTrainStep):
    """[10] trains; [12], [16.2] "a company that is operating may buy a private company
    from any player ... at any point during its operating round ... even if it was the
    first company to buy a 3-train": a purchase that leaves no train to buy ends the
    step only when nothing else of the turn is open (a private, a mortgage); the
    president then ends it with ``pass``."""

    def process(self, a):
        out = super().process(a)
        if self.done and a["type"] != "pass" and not self.corp.closed and not self.game.finished \
                and self.extra_actions():
            self.done = False
        return out

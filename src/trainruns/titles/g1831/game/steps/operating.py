"""The steps of an 1831 company's operating turn (5.0.3), which the shared operating round
runs in the order ``Rules.operating_steps`` gives. Phases with no decision happen by
themselves (restore trains, interest, the marker's move, paying the debt); the ones
here with decisions are track and tokens, trains, track rights (5.5) and mergers and
takeovers (5.9); the run (5.6) and the dividend (5.7) are the shared steps with 1831's hooks."""

from __future__ import annotations

from trainruns.game.action import free_amount, within
from trainruns.game.errors import Refusal
from trainruns.game.round import Step
from trainruns.game.steps.buy_train import BuyTrainStep
from trainruns.game.steps.operating import CorporationStep
from trainruns.game.steps.track import TrackStep as SharedTrackStep


class TrackStep(SharedTrackStep):
    """Phase 2 (5.2): lay tiles and buy tokens, in any order, then pass; a yellow tile
    in a city is followed by its token (5.2.6.8), a company without a running route
    does not pass while it can buy a token that makes one (5.2.2), and one in
    receivership builds toward its minimum route (5.4.10). The lay allowance (5.2.4.3)
    counts the step's lays and the tokens the turn's record keeps; the title's
    ``tile_lays`` lists the home tile first (5.2.5)."""

    def enter(self):
        """4.3.3: a system whose Bond Marker closed its bonds corrects its tokens first
        (:meth:`correct_due_tokens`; the step is entered again once its president has
        chosen which go)."""
        if self.game.rules.correct_due_tokens(self.corp):
            return
        super().enter()

    def token_places(self):
        """The tokens the company may buy (5.2.7); only the owed one while a yellow city
        tile's token is owed (5.2.6.8)."""
        r = self.game.rules
        owed = r.owed_token(self.corp)
        return [m for m in r.token_places(self.corp) if owed is None or m["hex"] == owed]

    def extra_actions(self):
        if self.game.rules.home_lays(self.corp):   # 5.2.5: no token before the home tile
            return super().extra_actions()
        return super().extra_actions() + [{"type": "place_token", "corporation": self.corp.id, "hex": m["hex"],
                                           "stop": 0, "kind": m["kind"]} for m in self.token_places()]

    def has_moves(self) -> bool:
        return bool(self.moves())

    def may_pass(self, moves) -> bool:
        """5.2.5: not before the home tile is laid (``home_lays``); 5.2.6.8: not while the
        token of this turn's yellow city tile is owed; 5.2.2: not while a company without a
        running route can buy a token that makes one (``route_token_owed``); 5.4.10: not while a company in receivership must still
        build toward its minimum route (``must_build``: with no lay or token left to
        list, or none able to make the route, it may pass; 5.4.15: always once the bank
        has run out)."""
        r = self.game.rules
        return not moves or (not r.home_lays(self.corp) and r.owed_token(self.corp) is None
                             and not r.route_token_owed(self.corp) and not r.must_build(self.corp))

    def process(self, a):
        self.check_entity(a)
        r = self.game.rules
        owed = r.owed_token(self.corp)
        if owed and a["type"] != "place_token":
            raise Refusal("token.owed", f"{self.corp.id} laid a yellow tile in the city {owed}: it must buy a token "
                                        "there now (5.2.6.8)")
        home = r.home_lays(self.corp)
        if home and (a["type"] != "lay_tile" or not any(
                (m["hex"], m["tile"], m["rotation"] % 6) == (a.get("hex"), str(a.get("tile")), a.get("rotation"))
                for m in home)):
            raise Refusal("5.2.5", f"{self.corp.id} operates for the first time: its first play is to lay a "
                                   f"yellow tile on its home city {self.corp.home} (one of those listed), then "
                                   "its home token goes there (5.2.5)")
        if a["type"] == "pass" and not self.may_pass(self.moves()):
            if r.route_token_owed(self.corp):
                raise Refusal("track.running-route", f"{self.corp.id} has no running route and must buy a "
                                                     "token in a city its track reaches (5.2.2)")
            raise Refusal("5.4.10", f"{self.corp.id} is in receivership without its minimum route (5.4.9) and "
                                    "must lay yellow track and buy tokens toward it on debt, within the "
                                    "phase's limits (5.4.10, 5.2.4.3)")
        return super().process(a)

    def process_extra(self, a):
        """A token (5.2.7) of :meth:`extra_actions`; nothing else is done in this phase."""
        if a["type"] != "place_token":
            raise Refusal("turn.phase", f"{self.corp.id} lays track and buys tokens now, or passes (5.2)")
        for m in self.token_places():
            if m["hex"] == a["hex"] and a.get("stop", 0) == 0 and m["kind"] == a.get("kind", m["kind"]):
                self.game.rules.place_token(self.corp, m)
                self.enter()
                return a
        raise Refusal("token.illegal", f"{self.corp.id} cannot place a {a.get('kind', 'token')} on {a['hex']} "
                                       "now: reach, a free site of the type, one per city (5.2.7.6), supply, "
                                       "cash, 3 per phase (5.2.4.3)")


class TrainStep(BuyTrainStep):
    """Phase 3 (5.3): buy trains; one is required (5.3.1): a forced purchase the
    company's cash cannot pay goes through 5.3.4's steps (deals with other
    corporations' presidents, which the president may decline by buying from the bank
    or the pool, or by passing when they are the only trains there are, 5.3.3); end of
    phase: interest (5.3.9). A deal with a corporation of another president is an offer
    that president accepts or declines (5.3.2 "at any mutually agreed price", 5.3.4 "The
    President is not forced to accept any offers"; game/steps/consent.py), and the step
    is entered again once he has answered."""

    def finish(self):
        r = self.game.rules
        if self.corp.cell is not None and r.needs_train(self.corp) and not self.corp.receivership:
            r.enter_receivership(self.corp)   # 5.3.3: no train to be had
        if self.corp.cell is not None:
            r.interest(self.corp)
        super().finish()

    def process(self, a):
        self.check_entity(a)
        if a["type"] == "pass" and self.game.rules.must_buy(self):
            raise Refusal("train.must-buy", f"{self.corp.id} has fewer trains than its minimum and must buy "
                                            "one the bank or the pool sells (5.3.1, 5.3.4)")
        if a["type"] not in ("pass", "buy_train"):
            raise Refusal("turn.phase", f"{self.corp.id} buys trains now, or passes (5.3)")
        return super().process(a)


class LiquidateStep(CorporationStep):
    """5.9.7.8 "A must decide which of the tokens that cannot be absorbed are to be
    liquidated" (and 5.4.14's reduced limits; 4.3.3's "removing excess tokens of its
    choice without compensation"): the president liquidates one of the tokens in
    conflict at a time (``liquidate_token``), until the others fit. Pushed by the merger
    (or the bonds' closing, or the Phase 2 that corrects them) in front of the step
    under way."""

    @property
    def done(self):
        return self.corp.cell is None or not self.corp.liquidating

    def actions(self):
        return [{"type": "liquidate_token", "corporation": self.corp.id, "hex": x.hex, "slot": x.slot}
                for x in self.corp.liquidating]

    def process(self, a):
        self.check_entity(a)
        site = next((x for x in self.corp.liquidating if a["type"] == "liquidate_token"
                     and (x.hex, x.slot) == (a["hex"], a["slot"])), None)
        if site is None:
            held = ", ".join(f"{x.hex} slot {x.slot}" for x in self.corp.liquidating)
            rule = "4.3.3" if self.corp.tokens_due else "5.9.7.8"
            raise Refusal(rule, f"{self.corp.id} cannot hold all its tokens and liquidates one of {held} "
                                f"first ({rule})")
        self.game.rules.liquidate_token(self.corp, site)
        return a


class RightsStep(CorporationStep):
    """Phase 5 (5.5): rent other corporations' tokens for this round, or pass."""

    def enter(self):
        if self.corp.cell is None or not self.game.rules.may_buy_right(self.corp):
            self.done = True

    def actions(self):
        return [{"type": "track_right", "corporation": self.corp.id, "hex": m["hex"], "slot": m["slot"]}
                for m in self.game.rules.right_places(self.corp)] + [self.pass_action()]

    def process(self, a):
        self.check_entity(a)
        r = self.game.rules
        if a["type"] == "pass":
            self.done = True
            return a
        if a["type"] != "track_right":
            raise Refusal("turn.phase", f"{self.corp.id} buys track rights now, or passes (5.5)")
        for m in r.each_right_place(self.corp):
            if (m["hex"], m["slot"]) == (a["hex"], a["slot"]):
                r.buy_right(self.corp, m)
                self.enter()
                return a
        raise Refusal("rights.illegal", f"{self.corp.id} cannot rent the token in slot {a['slot']} of {a['hex']}: "
                                        "another corporation's token it reaches, at the price of a new one from "
                                        "its cash (5.5.1, 5.5.5), a train must run to it (5.6.5), not in "
                                        "receivership (5.4.7)")


class MergerStep(CorporationStep):
    """Phases 9, 10 and 11 (5.9, 5.10, 5.11): one merger or takeover announcement, or
    pass; then the bond revenue and the debt (no decision)."""

    def enter(self):
        if self.corp.cell is None or not self.game.rules.merger_targets(self.corp):
            self._finish()

    def _finish(self):
        r = self.game.rules
        if self.corp.cell is not None:
            r.collect_bond_revenue(self.corp)
            r.pay_debt(self.corp)
        self.done = True

    def actions(self):
        return [{"type": "merge", "corporation": self.corp.id, "with": b.id}
                for b, _ in self.game.rules.merger_targets(self.corp)] + [self.pass_action()]

    def process(self, a):
        self.check_entity(a)
        r = self.game.rules
        if a["type"] == "pass":
            self._finish()
            return a
        if a["type"] != "merge":
            raise Refusal("turn.phase", f"{self.corp.id} may announce a merger or takeover now, or pass (5.9)")
        for b, kind in r.merger_targets(self.corp):
            if b.id == a["with"]:
                owners = r.merge(self.corp, b, kind)
                if owners:
                    # 5.9.8.4 / 5.9.10.5: B's common owners choose first; this step
                    # finishes when it is current again (no second announcement, 5.9.1)
                    self.game.round.push(SplitSaleStep(self.game, self.corp, b, kind, owners))
                    return a
                self._finish()
                return a
        raise Refusal("merger.illegal", f"{self.corp.id} cannot take over {a['with']} now: mergers from the "
                                        "first 2-train to the first 12-train (5.3.5), one attempt per round, at "
                                        "most two absorbed (5.9.1), a path to its token (5.9.3), never a system "
                                        "(5.9.4), both active a full Operation Set, not in receivership (5.9.5)")


class SplitSaleStep(Step):
    """5.9.8.4 / 5.9.10.5: B's stock split during the takeover's move: each player holding
    B's commons, in turn, sells some or all of them at the current price with their 2x
    markers (``sell_shares``), or passes to keep them (Type II: traded one for one for
    A's 5% common for mergers, markers and all; Type IV: held as A's bonds). Then the
    takeover goes on (:meth:`complete_takeover`)."""

    def __init__(self, game, a, b, kind, owners):
        super().__init__(game)
        self.a, self.b, self.kind, self.owners = a, b, kind, list(owners)

    def enter(self):
        r = self.game.rules
        while self.owners and not r.split_sale_most(self.b, self.owners[0]):
            self.owners.pop(0)
        if not self.owners:
            r.complete_takeover(self.a, self.b, self.kind)
            self.done = True

    def active(self):
        return {"player": self.owners[0]}

    def actions(self):
        name = self.owners[0]
        most = self.game.rules.split_sale_most(self.b, name)
        return [{"type": "sell_shares", "player": name, "corporation": self.b.id, "kind": "common",
                 "count": free_amount(1, most)}, {"type": "pass", "player": name}]

    def process(self, a):
        r, name = self.game.rules, self.owners[0]
        keep = "trade them for A's 5% commons" if self.kind == "II" else "hold them as A's bonds"
        if a.get("player") != name:
            raise Refusal("merger.split-sale", f"{name} decides now whether to sell his {self.b.id} commons or "
                                               f"{keep} (5.9.8.4, 5.9.10.5)")
        if a["type"] == "sell_shares":
            most = r.split_sale_most(self.b, name)
            if r.corporation_id(a["corporation"]) != self.b.id or a.get("kind", "common") != "common" \
                    or not within(free_amount(1, most), a["count"]):
                raise Refusal("merger.split-sale", f"{name} may sell 1 to {most} of his {self.b.id} commons at the "
                                                   f"current price, or pass to {keep} (5.9.8.4, 5.9.10.5)")
            r.split_sale(self.b, name, a["count"], self.kind)
        elif a["type"] != "pass":
            raise Refusal("merger.split-sale", f"{name} sells {self.b.id} commons or passes to {keep} "
                                               "(5.9.8.4, 5.9.10.5)")
        self.owners.pop(0)
        self.enter()
        return a

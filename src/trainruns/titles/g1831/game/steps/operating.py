"""The steps of an 1831 company's operating turn (5.0.3), which the shared operating round
runs in the order ``Rules.operating_steps`` gives. Phases with no decision happen by
themselves (restore trains, interest, the marker's move, paying the debt); the ones
here with decisions are track and tokens, trains, the run and the dividend, track
rights (5.5) and mergers and takeovers (5.9)."""

from __future__ import annotations

from trainruns.game.action import free_amount, within
from trainruns.game.errors import Refusal
from trainruns.game.round import Step
from trainruns.game.steps.operating import CorporationStep
from trainruns.game.steps.routes import check_revenue
from trainruns.game.steps.track import check_rotation


class TrackStep(CorporationStep):
    """Phase 2 (5.2): lay tiles and buy tokens, in any order, then pass; a yellow tile
    in a city is followed by its token (5.2.6.8), a company without a running route
    does not pass while it can buy a token that makes one (5.2.2), and one in
    receivership builds toward its minimum route (5.4.10)."""

    def enter(self):
        if not self._moves():
            self.done = True

    def _moves(self):
        r = self.game.rules
        owed = r.owed_token(self.corp, self.turn)
        places = [m for m in r.token_places(self.corp, self.turn) if owed is None or m["hex"] == owed]
        out = [] if owed else [{"type": "lay_tile", "corporation": self.corp.id, "hex": m["hex"], "tile": m["tile"],
                                "rotation": m["rotation"]} for m in r.tile_lays(self.corp, self.turn)]
        out += [{"type": "place_token", "corporation": self.corp.id, "hex": m["hex"], "stop": 0, "kind": m["kind"]}
                for m in places]
        return out

    def _may_pass(self, moves) -> bool:
        """5.2.6.8: not while the token of this turn's yellow city tile is owed; 5.2.2:
        not while a company without a running route can buy a token that makes one
        (:meth:`route_token_owed`); 5.4.10: not while a company in receivership must
        still build toward its minimum route (:meth:`must_build`: with no lay or token
        left to list, or none able to make the route, it may pass; 5.4.15: always once
        the bank has run out)."""
        r = self.game.rules
        return not moves or (r.owed_token(self.corp, self.turn) is None
                             and not r.route_token_owed(self.corp, self.turn)
                             and not r.must_build(self.corp, self.turn))

    def actions(self):
        moves = self._moves()
        return moves + [self.pass_action()] if self._may_pass(moves) else moves

    def process(self, a):
        self.check_entity(a)
        r = self.game.rules
        owed = r.owed_token(self.corp, self.turn)
        if owed and a["type"] != "place_token":
            raise Refusal("token.owed", f"{self.corp.id} laid a yellow tile in the city {owed}: it must buy a token "
                                        "there now (5.2.6.8)")
        if a["type"] == "pass":
            if not self._may_pass(self._moves()):
                if r.route_token_owed(self.corp, self.turn):
                    raise Refusal("track.running-route", f"{self.corp.id} has no running route and must buy a "
                                                         "token in a city its track reaches (5.2.2)")
                raise Refusal("5.4.10", f"{self.corp.id} is in receivership without its minimum route (5.4.9) and "
                                        "must lay yellow track and buy tokens toward it on debt, within the "
                                        "phase's limits (5.4.10, 5.2.4.3)")
            self.done = True
            return a
        if a["type"] == "lay_tile":
            check_rotation(a)
            for m in r.tile_lays(self.corp, self.turn):
                if (m["hex"], m["tile"], m["rotation"] % 6) == (a["hex"], str(a["tile"]), a["rotation"]):
                    r.lay_tile(self.corp, m, self.turn)
                    self.enter()
                    return a
            raise Refusal("track.illegal", f"{self.corp.id} cannot lay tile {a['tile']} on {a['hex']} at rotation "
                                           f"{a['rotation']} now: reach (5.2.4.1), colour and upgrade (5.2.6), "
                                           "track kept (5.2.6.5), cost (5.2.3), limits (5.2.4.3)")
        if a["type"] == "place_token":
            for m in r.token_places(self.corp, self.turn):
                if owed and m["hex"] != owed:
                    continue
                if m["hex"] == a["hex"] and a.get("stop", 0) == 0 and m["kind"] == a.get("kind", m["kind"]):
                    r.place_token(self.corp, m, self.turn)
                    self.enter()
                    return a
            raise Refusal("token.illegal", f"{self.corp.id} cannot place a {a.get('kind', 'token')} on {a['hex']} "
                                           "now: reach, a free site of the type, one per city (5.2.7.6), supply, "
                                           "cash, 3 per phase (5.2.4.3)")
        raise Refusal("turn.phase", f"{self.corp.id} lays track and buys tokens now, or passes (5.2)")


class TrainStep(CorporationStep):
    """Phase 3 (5.3): buy trains; one is required (5.3.1): a forced purchase the
    company's cash cannot pay goes through 5.3.4's steps (deals with other
    corporations' presidents, which the president may decline by buying from the bank
    or the pool, or by passing when they are the only trains there are, 5.3.3); end of
    phase: interest (5.3.9). A deal with a corporation of another president is an offer
    that president accepts or declines (5.3.2 "at any mutually agreed price", 5.3.4 "The
    President is not forced to accept any offers"; game/steps/consent.py)."""

    def enter(self):
        # also called again once another president has answered an offer (5.3.4)
        if self.corp.closed or self.corp.cell is None or not self.game.rules.train_buys(self.corp, self.turn):
            self._finish()

    def _finish(self):
        r = self.game.rules
        if self.corp.cell is not None and r.needs_train(self.corp) and not self.corp.receivership:
            r.enter_receivership(self.corp)   # 5.3.3: no train to be had
        if self.corp.cell is not None:
            r.interest(self.corp)
        self.done = True

    def _may_pass(self, buys) -> bool:
        """5.3.1: not while the company needs a train the bank or the pool sells; 5.3.4:
        "The President is not forced to accept any offers" of other corporations."""
        r = self.game.rules
        return not r.needs_train(self.corp) or not any(x["from"] in ("bank", "market") for x in buys)

    def actions(self):
        out = self.game.rules.train_buys(self.corp, self.turn)
        return out + [self.pass_action()] if self._may_pass(out) else out

    def process(self, a):
        self.check_entity(a)
        r = self.game.rules
        buys = r.train_buys(self.corp, self.turn)
        if a["type"] == "pass":
            if not self._may_pass(buys):
                raise Refusal("train.must-buy", f"{self.corp.id} has fewer trains than its minimum and must buy "
                                                "one the bank or the pool sells (5.3.1, 5.3.4)")
            self._finish()
            return a
        if a["type"] != "buy_train":
            raise Refusal("turn.phase", f"{self.corp.id} buys trains now, or passes (5.3)")
        src = r.corporation_id(a["from"]) or a["from"]
        for x in buys:
            if x["from"] == src and x["train"] == a["train"]:
                a = dict(a, **{"from": src})
                # 5.3.2, 5.3.4: another president answers first; the step goes on after
                # the answer (enter)
                if r.offer_train(self.corp, a, x, self.turn, lambda: r.buy_train(self.corp, a, x, self.turn)):
                    return a
                r.buy_train(self.corp, a, x, self.turn)
                if self.corp.closed or self.corp.cell is None or not r.train_buys(self.corp, self.turn):
                    self._finish()
                return dict(a, **{"from": src, "price": a.get("price", x["price"])})
        raise Refusal(*self._why_not(a, src))

    def _why_not(self, a, src):
        r, c = self.game.rules, self.corp
        if src not in ("bank", "market") and src in r.state.corp:
            o = r.state.corp[src]
            if o.receivership:
                return "train.seller-receivership", f"{o.id} is in receivership and may not sell trains (5.4.4)"
            if self.turn.get("own_sold"):
                return "train.deals-over", (f"{c.id} has sold its own stock for a forced purchase: no more trains "
                                            "from other corporations (5.3.4)")
            if c.cash < 1:
                return "train.cash", f"a train from another corporation is paid from {c.id}'s cash, at least $1 (5.3.4)"
        if c.receivership and not r.needs_train(c):
            return "train.receivership", f"{c.id} is in receivership: no more than its minimum of trains (5.4.3)"
        shop = r.shop_trains(c)
        if src == "bank" and not any(x["from"] == "bank" and x["train"] == a["train"] for x in shop):
            sold = ", ".join(x["train"] for x in shop if x["from"] == "bank") or "nothing"
            return "train.lowest-first", (f"the bank sells the lowest size it has first: {sold}, not a "
                                          f"{a['train']} (5.3.8)")
        if r.needs_train(c) and min((x["price"] for x in shop), default=0) > c.cash:
            return "train.forced-cheapest", (f"{c.id} must buy a train it cannot pay for: the cheapest the bank or "
                                             "the pool has (5.3.4)")
        listed = next((x for x in shop if x["from"] == src and x["train"] == a["train"]), None)
        if listed is not None and listed["price"] > c.cash:
            return "train.cash", f"{c.id} cannot pay ${listed['price']} for the {a['train']} from its cash (5.3)"
        return "train.unavailable", (f"{c.id} cannot buy a {a['train']} from {a['from']} now: trains come from "
                                     "the bank, the pool (5.3.2) or another corporation, never a retired one "
                                     "(5.3.2)")


class RightsStep(CorporationStep):
    """Phase 5 (5.5): rent other corporations' tokens for this round, or pass."""

    def enter(self):
        if self.corp.cell is None or not self.game.rules.right_places(self.corp):
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
        for m in r.right_places(self.corp):
            if (m["hex"], m["slot"]) == (a["hex"], a["slot"]):
                r.buy_right(self.corp, m)
                self.enter()
                return a
        raise Refusal("rights.illegal", f"{self.corp.id} cannot rent the token in slot {a['slot']} of {a['hex']}: "
                                        "another corporation's token it reaches, at the price of a new one from "
                                        "its cash (5.5.1, 5.5.5), a train must run to it (5.6.5), not in "
                                        "receivership (5.4.7)")


class RunStep(CorporationStep):
    """Phase 6 (5.6): run trains; with no train able to run, DID NOT RUN (5.7.1). When
    the trains have no route (``no_route``), a ``pass`` makes that run of no train, as
    ``run_routes "best"`` does (both listed: a log that ran it replays as before)."""

    def enter(self):
        if self.corp.cell is None or not self.game.rules.runnable(self.corp):
            self.turn["revenue"] = None
            self.done = True

    def actions(self):
        out = [{"type": "run_routes", "corporation": self.corp.id, "routes": "best"}]
        return out + [self.pass_action()] if self.game.rules.no_route(self.corp) else out

    def process(self, a):
        self.check_entity(a)
        passed = a["type"] == "pass" and self.game.rules.no_route(self.corp)
        if a["type"] != "run_routes" and not passed:
            raise Refusal("run.must-run", f"{self.corp.id} must run at least one train (5.6.6)")
        routes, revenue, proof = self.game.rules.run(self.corp, "best" if passed else a["routes"])
        if not passed:
            check_revenue(a, revenue)
        self.turn["revenue"] = revenue if routes else None
        self.corp.rights = []   # 5.5.3: rights last for this round only, and are used now
        self.done = True
        if passed:
            return a
        # the log says whether the bounded search proved the run best, and its bound if not
        return {"type": "run_routes", "corporation": self.corp.id, "routes": routes, "revenue": revenue,
                **(proof or {})}


KINDS = ("hold", "preferred", "split", "all", "all200")


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
            r.split_sale(self.b, name, a["count"])
        elif a["type"] != "pass":
            raise Refusal("merger.split-sale", f"{name} sells {self.b.id} commons or passes to {keep} "
                                               "(5.9.8.4, 5.9.10.5)")
        self.owners.pop(0)
        self.enter()
        return a

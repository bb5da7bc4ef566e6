"""The 1831 operating round (5.0-5.12): active companies in order of their common price
at the start of the round (5.0.4), each through the phases of 5.0.3. Phases with no
decision happen by themselves (restore trains, interest, the marker's move, paying the
debt); the ones built here with decisions are track and tokens, trains, the run and the
dividend, track rights (5.5) and mergers and takeovers (5.9)."""

from __future__ import annotations

from ....game.errors import Refusal
from ....game.round import StepsRound
from ....game.steps.operating import CorporationStep


class OperatingRound(StepsRound):
    kind = "operating"

    def __init__(self, game, k, n):
        super().__init__(game)
        self.k, self.n = k, n
        rules = game.rules
        rules.or_counter += 1
        active = [c for c in self.state.corporations if c.extra["active"] and c.cell is not None]
        self.order = sorted(active, key=lambda c: rules.market.order_key(c.id, c.cell))
        self.state.event("operating_round", round=k, of=n, order=[c.id for c in self.order])

    def info(self):
        return {"kind": self.kind, "number": self.game.rules.stock_round_number, "or": self.k, "of": self.n}

    def next_entity(self):
        rules = self.game.rules
        while self.order:
            c = self.order.pop(0)
            if c.cell is None or not c.extra["active"]:
                continue   # closed out earlier in the round
            rules.restore_trains(c)
            rules.home_token(c)
            c.operated = True
            c.extra["rights"] = []
            turn = {"corporation": c.id, "tiles": 0, "cities": 0, "tokens": 0, "hexes": [], "revenue": None}
            self.queue = [TrackStep(self.game, c, turn), TrainStep(self.game, c, turn),
                          RightsStep(self.game, c, turn), RunStep(self.game, c, turn),
                          DividendStep(self.game, c, turn), MergerStep(self.game, c, turn)]
            self.queue[0].enter()
            return True
        return False


class TrackStep(CorporationStep):
    """Phase 2 (5.2): lay tiles and buy tokens, in any order, then pass."""

    def __init__(self, game, corp, turn):
        super().__init__(game, corp)
        self.turn = turn

    def enter(self):
        if not self._moves():
            self.done = True

    def _moves(self):
        r = self.game.rules
        out = [{"type": "lay_tile", "corporation": self.corp.id, "hex": m["hex"], "tile": m["tile"],
                "rotation": m["rotation"]} for m in r.tile_lays(self.corp, self.turn)]
        out += [{"type": "place_token", "corporation": self.corp.id, "hex": m["hex"], "stop": 0, "kind": m["kind"]}
                for m in r.token_places(self.corp, self.turn)]
        return out

    def actions(self):
        return self._moves() + [self.pass_action()]

    def process(self, a):
        self.check_entity(a)
        r = self.game.rules
        if a["type"] == "pass":
            self.done = True
            return a
        if a["type"] == "lay_tile":
            for m in r.tile_lays(self.corp, self.turn):
                if (m["hex"], m["tile"], m["rotation"] % 6) == (a["hex"], str(a["tile"]), a["rotation"] % 6):
                    r.lay_tile(self.corp, m, self.turn)
                    self.enter()
                    return a
            raise Refusal("track.illegal", f"{self.corp.id} cannot lay tile {a['tile']} on {a['hex']} at rotation "
                                           f"{a['rotation']} now: reach (5.2.4.1), colour and upgrade (5.2.6), "
                                           "track kept (5.2.6.5), cost (5.2.3), limits (5.2.4.3)")
        if a["type"] == "place_token":
            for m in r.token_places(self.corp, self.turn):
                if m["hex"] == a["hex"] and a.get("stop", 0) == 0 and m["kind"] == a.get("kind", m["kind"]):
                    r.place_token(self.corp, m, self.turn)
                    self.enter()
                    return a
            raise Refusal("token.illegal", f"{self.corp.id} cannot place a {a.get('kind', 'token')} on {a['hex']} "
                                           "now: reach, a free site of the type, one per city (5.2.7.6), supply, "
                                           "cash, 3 per phase (5.2.4.3)")
        raise Refusal("turn.phase", f"{self.corp.id} lays track and buys tokens now, or passes (5.2)")


class TrainStep(CorporationStep):
    """Phase 3 (5.3): buy trains; one is required (5.3.1); end of phase: interest (5.3.9)."""

    def __init__(self, game, corp, turn):
        super().__init__(game, corp)
        self.turn = turn

    def enter(self):
        if not self.game.rules.train_buys(self.corp):
            self._finish()

    def _finish(self):
        r = self.game.rules
        if r.needs_train(self.corp) and not self.corp.extra["receivership"]:
            r.enter_receivership(self.corp)   # 5.3.3: no train to be had
        r.interest(self.corp)
        self.done = True

    def actions(self):
        r = self.game.rules
        out = r.train_buys(self.corp)
        if not r.needs_train(self.corp):
            out = out + [self.pass_action()]
        return out

    def process(self, a):
        self.check_entity(a)
        r = self.game.rules
        if a["type"] == "pass":
            if r.needs_train(self.corp) and r.train_buys(self.corp):
                raise Refusal("train.must-buy", f"{self.corp.id} has no train and must buy one (5.3.1, 5.3.4)")
            self._finish()
            return a
        if a["type"] != "buy_train":
            raise Refusal("turn.phase", f"{self.corp.id} buys trains now, or passes (5.3)")
        src = r.corporation_id(a["from"]) or a["from"]
        for x in r.train_buys(self.corp):
            xsrc = r.corporation_id(x["from"]) or x["from"]
            if xsrc == src and x["train"] == a["train"]:
                if not isinstance(x["price"], dict) and "price" in a and a["price"] != x["price"]:
                    raise Refusal("train.price", f"the {a['train']} costs {x['price']} here (5.3)")
                r.buy_train(self.corp, dict(a, **{"from": src}), x)
                if self.corp.closed or self.corp.cell is None or not r.train_buys(self.corp):
                    self._finish()
                return a
        raise Refusal("train.unavailable", f"{self.corp.id} cannot buy a {a['train']} from {a['from']} now: the "
                                           "bank sells the lowest size first (5.3.8), cash (5.3.4), receivership "
                                           "buys only the minimum (5.4.3)")


class RightsStep(CorporationStep):
    """Phase 5 (5.5): rent other corporations' tokens for this round, or pass."""

    def __init__(self, game, corp, turn):
        super().__init__(game, corp)
        self.turn = turn

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
    """Phase 6 (5.6): run trains; with no train able to run, DID NOT RUN (5.7.1)."""

    def __init__(self, game, corp, turn):
        super().__init__(game, corp)
        self.turn = turn

    def enter(self):
        if self.corp.cell is None or not self.game.rules.runnable(self.corp):
            self.turn["revenue"] = None
            self.done = True

    def actions(self):
        return [{"type": "run_routes", "corporation": self.corp.id, "routes": "best"}]

    def process(self, a):
        self.check_entity(a)
        if a["type"] != "run_routes":
            raise Refusal("run.must-run", f"{self.corp.id} must run at least one train (5.6.6)")
        routes, revenue, proof = self.game.rules.run(self.corp, a["routes"])
        self.turn["revenue"] = revenue if routes else None
        self.corp.extra["rights"] = []   # 5.5.3: rights last for this round only, and are used now
        self.done = True
        # the log says whether the bounded search proved the run best, and its bound if not
        return {"type": "run_routes", "corporation": self.corp.id, "routes": routes, "revenue": revenue,
                **(proof or {})}


KINDS = ("hold", "preferred", "split", "all", "all200")


class DividendStep(CorporationStep):
    """Phases 7 and 8 (5.7, 5.8): dispose of the run's money, move the marker."""

    def __init__(self, game, corp, turn):
        super().__init__(game, corp)
        self.turn = turn

    def enter(self):
        r = self.game.rules
        if self.corp.cell is None:
            self.done = True
            return
        if self.turn["revenue"] is None:
            r.did_not_run(self.corp)
            self._finish()
        elif r.dividend_kinds(self.corp, self.turn["revenue"]) == ["hold"]:
            r.pay_dividend(self.corp, self.turn["revenue"], "hold")
            self._finish()

    def _finish(self):
        self.done = True

    def actions(self):
        return [{"type": "dividend", "corporation": self.corp.id, "kind": k}
                for k in self.game.rules.dividend_kinds(self.corp, self.turn["revenue"])]

    def process(self, a):
        self.check_entity(a)
        kinds = self.game.rules.dividend_kinds(self.corp, self.turn["revenue"])
        if a["type"] != "dividend" or a["kind"] not in kinds:
            raise Refusal("dividend.kind", f"{self.corp.id} chooses one of {kinds} (5.7; all200 needs twice the "
                                           "run in cash, 5.7.4; receivership holds, 5.4.2)")
        self.game.rules.pay_dividend(self.corp, self.turn["revenue"], a["kind"])
        self._finish()
        return a


class MergerStep(CorporationStep):
    """Phases 9, 10 and 11 (5.9, 5.10, 5.11): one merger or takeover announcement, or
    pass; then the bond revenue and the debt (no decision)."""

    def __init__(self, game, corp, turn):
        super().__init__(game, corp)
        self.turn = turn

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
                r.merge(self.corp, b, kind)
                self._finish()
                return a
        raise Refusal("merger.illegal", f"{self.corp.id} cannot take over {a['with']} now: mergers from the "
                                        "first 2-train to the first 12-train (5.3.5), one attempt per round, at "
                                        "most two absorbed (5.9.1), a path to its token (5.9.3), never a system "
                                        "(5.9.4), both active a full Operation Set, not in receivership (5.9.5)")

"""1832 merger phases ([11] Merger Phase): each player in priority order proposes one
or more mergers for companies he presides, then passes; a merger with another
president's company waits for that president's ``consent`` (or his ``pass``, a refusal).
The last-chance phase (first 6-train) runs the same turns inside the operating round,
for two companies of one president only (:meth:`MergerRules.last_chance_turns`).

Actions: ``{"type": "merge", "player", "corporation" (his company), "with", "kind":
"system" | "takeover", "system" (optional: which System, A-E)}``; ``{"type": "consent",
"player", "corporation" (his company), "with"}``; ``pass``. A proposal refused by the
other president is not offered again in that turn (docs/gaps.md).
"""

from __future__ import annotations

from trainruns.game.action import within
from trainruns.game.errors import Refusal
from trainruns.game.merger import buyout_cost, merged_turn_order
from trainruns.game.round import Step, StepsRound
from trainruns.game.shares import seat_order_from


class MergerRound(StepsRound):
    kind = "merger"

    def __init__(self, game, first):
        super().__init__(game)
        self.order = [first] + seat_order_from(self.state, first)
        self.state.event("merger_phase", last_chance=False)

    def info(self):
        return {"kind": self.kind, "number": self.game.rules.stock_round_number, "last_chance": False}

    def next_entity(self):
        rules = self.game.rules
        while self.order:
            name = self.order.pop(0)
            if rules.merger_proposals(name, last_chance=False):
                self.queue = [MergerTurn(self.game, name, last_chance=False)]
                self.queue[0].enter()
                return True
        return False


class MergerPhaseStep(Step):
    """A step of [11]'s merger phase. Inside an operating round (the last-chance merger
    phase) the round shows as a merger round while it lasts."""

    def round_info(self, info: dict) -> dict:
        return {"kind": "merger", "number": info["number"], "last_chance": True, "or": info["or"], "of": info["of"]}


class MergerTurn(MergerPhaseStep):

    def __init__(self, game, player, last_chance):
        super().__init__(game)
        self.player = player
        self.last_chance = last_chance
        self.declined: set = set()

    def active(self):
        return {"player": self.player}

    def _proposals(self):
        return self.game.rules.merger_proposals(self.player, self.last_chance, self.declined)

    def enter(self):
        if not self._proposals():
            self.done = True

    def actions(self):
        return self._proposals() + [{"type": "pass", "player": self.player}]

    def process(self, a):
        if a.get("player") != self.player:
            raise Refusal("turn.not-yours", f"it is {self.player}'s turn in the merger phase [11]")
        if a["type"] == "pass":
            self.done = True
            return a
        if a["type"] != "merge":
            raise Refusal("merger.action", "in the merger phase a player proposes a merger ('merge') or "
                                           "passes [11] Merger Phase")
        rules = self.game.rules
        listed = self._proposals()
        match = [x for x in listed if all(x[k] == a.get(k) for k in ("corporation", "with", "kind"))]
        if not match:
            partner = rules.state.corp.get(a["with"])
            if self.last_chance and partner is not None and partner.president != self.player:
                raise Refusal("merger.last-chance", "in the last merger phase one player must preside both "
                                                    "companies [11] Merger Phase")
            raise Refusal(*rules.merge_refusal(a))
        proposal = dict(match[0])
        if proposal["kind"] == "system":
            sid = rules.system_id(a["system"]) if a.get("system") is not None else proposal["system"]
            if sid is None or sid in rules.state.corp:
                raise Refusal("merger.system-letter", f"System {a.get('system')!r} is not available (the free "
                                                      f"one: {proposal['system']}) [11.6]")
            proposal["system"] = sid
        other = rules.state.corp[proposal["with"]].president
        if proposal["kind"] == "yield":
            self.game.round.push(YieldStep(self.game, self, proposal, other))
        elif other != self.player:
            self.game.round.push(ConsentStep(self.game, self, proposal, other))
        else:
            merge(self.game, proposal, self)
        return proposal

    def after_merge(self):
        """A merger (and the sales paying for it) is over: the turn goes on while the
        player has another merger to propose."""
        if not self._proposals():
            self.done = True


class AnswerStep(MergerPhaseStep):
    """The other president answers a proposal of ``turn`` (a :class:`MergerTurn`); his
    ``pass`` refuses it, and it is not proposed again in that turn ([11]: mergers are
    always voluntary)."""

    #: the event that puts the proposal to him, and the proposal's fields it leaves out
    event, dropped = "", ("type",)

    def __init__(self, game, turn, proposal, player):
        super().__init__(game)
        self.turn = turn
        self.proposal = proposal
        self.player = player
        game.state.event(self.event, **{k: v for k, v in proposal.items() if k not in self.dropped})

    def active(self):
        return {"player": self.player}

    def refused(self, kind):
        """His ``pass``: the proposal of ``kind`` is declined for the rest of the turn."""
        p = self.proposal
        self.turn.declined.add((p["corporation"], p["with"], kind))
        self.state.event("merger_declined", player=self.player, corporation=p["with"])
        self.done = True


class ConsentStep(AnswerStep):
    """[11] "If the president agrees, a merger takes place": the other president
    consents or passes."""

    event = "merger_proposed"

    def actions(self):
        p = self.proposal
        return [{"type": "consent", "player": self.player, "corporation": p["with"], "with": p["corporation"],
                 "kind": p["kind"]}, {"type": "pass", "player": self.player}]

    def process(self, a):
        if a.get("player") != self.player:
            raise Refusal("turn.not-yours", f"{self.player} answers the proposed merger [11]")
        p = self.proposal
        if a["type"] == "pass":
            self.refused(p["kind"])
            return a
        if a["type"] != "consent" or a.get("corporation") != p["with"]:
            raise Refusal("merger.consent", f"{self.player} consents to the merger of {p['with']} with "
                                            f"{p['corporation']} ('consent') or refuses ('pass') [11]")
        self.done = True
        merge(self.game, p, None)
        return dict(a, **{"with": p["corporation"], "kind": p["kind"]})


class YieldStep(AnswerStep):
    """[11] Merger Initiator: "If he wishes to yield initiator status to the other
    president who agrees, the other president becomes the initiator", who "decides what
    type of Merger will take place": he answers with a ``merge`` of his company with the
    asking president's (the asking president agreed to it by yielding) or refuses with
    ``pass``."""

    event, dropped = "merger_yielded", ("type", "kind")

    def _choices(self):
        rules = self.game.rules
        p = self.proposal
        return rules.yielded_mergers(rules.state.corp[p["corporation"]], rules.state.corp[p["with"]], self.player)

    def actions(self):
        return self._choices() + [{"type": "pass", "player": self.player}]

    def process(self, a):
        if a.get("player") != self.player:
            raise Refusal("turn.not-yours", f"{self.player}, made the merger initiator, chooses the merger [11]")
        p = self.proposal
        if a["type"] == "pass":
            self.refused("yield")
            return a
        match = [x for x in self._choices() if a["type"] == "merge" and a.get("kind") == x["kind"]
                 and a.get("corporation") == x["corporation"] and a.get("with") == x["with"]]
        if not match:
            raise Refusal("merger.yield", f"{self.player}, the initiator now, chooses a merger of {p['with']} with "
                                          f"{p['corporation']} ('merge', kind system or takeover) or refuses "
                                          "('pass') [11] Merger Initiator")
        self.done = True
        merge(self.game, match[0], None)
        return match[0]


class TakeoverSaleStep(MergerPhaseStep):
    """[11.7] "If the company does not have enough cash, the president must contribute
    cash to complete the merger. To do so, he may sell stock (not including stock in the
    company being purchased) subject to the 50% maximum in the open market. A player may
    not go bankrupt in this manner": the merger is offered only when his sales can pay
    (:meth:`MergerRules.takeover_funds`); he then sells, a block per company at its
    price then ([10]'s readings: no change of the buying company's presidency, [5.9.8]'s
    sale down to 60%; no price protection, which [5.9] gives to stock rounds and [10]'s
    forced sales), each block at least what keeps the rest payable, until the treasury
    and his cash pay; then the takeover is made (docs/gaps.md)."""

    def __init__(self, game, x, y, turn):
        super().__init__(game)
        self.x, self.y, self.turn = x, y, turn
        self.player = x.president
        self.sold: set = set()

    def _short(self):
        rules = self.game.rules
        return buyout_cost(rules, self.y) - self.x.cash - self.state.player[self.player].cash

    def enter(self):
        # entered again after the discards the takeover queued in front of it ([11.7])
        if not self.done and self._short() <= 0:
            self._complete()

    def _complete(self):
        rules = self.game.rules
        self.done = True
        rules.take_over(self.x, self.y)
        merged_turn_order(rules, self.x, [self.x, self.y])
        if self.turn is not None:
            self.turn.after_merge()

    def active(self):
        return {"player": self.player}

    def actions(self):
        rules = self.game.rules
        short = self._short()
        sales = [(d, n) for d, n in rules.takeover_sales(self.x, self.y, self.player) if d.id not in self.sold]
        value = {d.id: n * rules.market.price(d.cell) for d, n in sales}
        out = []
        for d, n in sales:
            price = rules.market.price(d.cell)
            rest = sum(v for cid, v in value.items() if cid != d.id)
            low = -(-max(0, short - rest) // price) if price else 1
            low = max(low, rules.sell_back_minimum(d, self.player, n))
            count = rules.sale_counts(d, self.player, low, n) if low <= n else None
            if count is not None:
                out.append({"type": "sell_shares", "player": self.player, "corporation": d.id, "count": count})
        return out

    def process(self, a):
        if a.get("player") != self.player or a["type"] != "sell_shares":
            raise Refusal("merger.takeover-sale", f"{self.player} sells shares to pay for {self.y.id}'s shares "
                                                  "[11.7]")
        rules = self.game.rules
        listed = next((x for x in self.actions() if x["corporation"] == rules.corporation_id(a["corporation"])),
                      None)
        lc = listed["count"] if listed else None
        if listed is None or not within(lc, a.get("count")):
            raise Refusal("merger.takeover-sale", f"{self.player} may sell {lc if lc is not None else 'none'} of "
                                                  f"{a['corporation']} now: not shares of {self.y.id}, within the "
                                                  "50% market limit, keeping the rest payable [11.7]")
        d = self.state.corp[listed["corporation"]]
        rules.sell_shares(d, self.player, a["count"])
        self.sold.add(d.id)
        if self._short() <= 0:
            self._complete()
        return dict(a, corporation=d.id)


def merge(game, p, turn):
    """Make the merger ``p`` ([11.6], [11.7]); a takeover the treasury and the
    president's cash cannot pay waits for his sales (:class:`TakeoverSaleStep`).
    ``turn``: the merger turn that goes on after it (None: a consent or a yielded
    merger, whose turn goes on when the step ends)."""
    rules = game.rules
    x, y = rules.state.corp[p["corporation"]], rules.state.corp[p["with"]]
    if p["kind"] == "system":
        merged = rules.form_system(x, y, p["player"], p["system"])
        merged_turn_order(rules, merged, [x, y])
        if turn is not None:
            turn.after_merge()
        return
    game.round.push(TakeoverSaleStep(game, x, y, turn))

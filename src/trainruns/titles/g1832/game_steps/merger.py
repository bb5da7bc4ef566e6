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

from ....game.errors import Refusal
from ....game.round import Step, StepsRound
from ....game.shares import seat_order_from


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

    @staticmethod
    def round_info(info: dict) -> dict:
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
        if other != self.player:
            self.game.round.push(ConsentStep(self.game, self, proposal, other))
        else:
            merge(self.game, proposal)
            if not self._proposals():
                self.done = True
        return proposal


class ConsentStep(MergerPhaseStep):
    """[11] "If the president agrees, a merger takes place": the other president
    consents or passes (mergers are always voluntary)."""

    def __init__(self, game, turn, proposal, player):
        super().__init__(game)
        self.turn = turn
        self.proposal = proposal
        self.player = player
        game.state.event("merger_proposed", **{k: v for k, v in proposal.items() if k != "type"})

    def active(self):
        return {"player": self.player}

    def actions(self):
        p = self.proposal
        return [{"type": "consent", "player": self.player, "corporation": p["with"], "with": p["corporation"],
                 "kind": p["kind"]}, {"type": "pass", "player": self.player}]

    def process(self, a):
        if a.get("player") != self.player:
            raise Refusal("turn.not-yours", f"{self.player} answers the proposed merger [11]")
        p = self.proposal
        if a["type"] == "pass":
            self.turn.declined.add((p["corporation"], p["with"], p["kind"]))
            self.state.event("merger_declined", player=self.player, corporation=p["with"])
            self.done = True
            return a
        if a["type"] != "consent" or a.get("corporation") != p["with"]:
            raise Refusal("merger.consent", f"{self.player} consents to the merger of {p['with']} with "
                                            f"{p['corporation']} ('consent') or refuses ('pass') [11]")
        merge(self.game, p)
        self.done = True
        return dict(a, **{"with": p["corporation"], "kind": p["kind"]})


def merge(game, p):
    rules = game.rules
    x, y = rules.state.corp[p["corporation"]], rules.state.corp[p["with"]]
    if p["kind"] == "system":
        merged = rules.form_system(x, y, p["player"], p["system"])
    else:
        rules.take_over(x, y)
        merged = x
    rules.after_merger(merged, [x, y])

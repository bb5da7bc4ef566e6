"""Operating trains (1832 [8]): the one place where the game meets the route core.

``run_routes`` with ``"routes": "best"`` runs the proven best run of the corporation's
position; a declared run is audited and must be legal and earn the proven best ([8]
Route Value: any shareholder may point out a better route, which must then be run).
The log records the run made (its routes and revenue), so a replay audits it. A company
whose trains have no route at all (``GameRules.no_route``) may also ``pass``: its best
run is no run, $0, and the pass makes it; ``run_routes`` stays listed, so a log that
ran that $0 run replays as before."""

from __future__ import annotations

from trainruns.errors import InputError
from trainruns.game.errors import Refusal
from trainruns.game.steps.operating import CorporationStep


def declared_run(routes: list, audit_run, cite: str = "") -> tuple[int, int | None, list[dict]]:
    """A declared run as the route core audits it (``trainruns audit``): ``audit_run``
    gives (problems as ``(rule, message)``, declared revenue, best revenue or None).
    A run that cannot be read or breaks a rule is refused with the rule's id; the
    answer is (declared revenue, best revenue, the routes as the log keeps them)."""
    try:
        problems, declared, best = audit_run(routes)
    except InputError as e:
        raise Refusal("run.malformed", f"the declared run cannot be read: {e}{cite}") from None
    if problems:
        raise Refusal(*problems[0])
    return declared, best, [{"train": r["train"], "stops": list(r["stops"])} for r in routes]


def check_revenue(a, revenue):
    """A run that says its revenue (a logged one does) must earn it: the log never
    says one thing while the game did another."""
    if "revenue" in a and a["revenue"] != revenue:
        raise Refusal("run.revenue", f"the run earns {revenue}, not the {a['revenue']} it declares")


class RoutesStep(CorporationStep):
    """The run; its revenue goes to the turn record for the dividend."""

    def enter(self):
        if not self.game.rules.may_run(self.corp):
            self.turn.revenue = None
            self.done = True

    def run_action(self) -> dict:
        """The run as the step lists it first, whatever else it lists: the best run."""
        return {"type": "run_routes", "corporation": self.corp.id, "routes": "best"}

    def actions(self):
        out = [self.run_action()] + self.extra_actions()
        return out + [self.pass_action()] if self.game.rules.no_route(self.corp) else out

    def process(self, a):
        self.check_entity(a)
        if a["type"] == "pass":
            if not self.game.rules.no_route(self.corp):
                raise Refusal("run.must-run", f"{self.corp.id} owns trains and must run them"
                                              f"{self.game.rules.cite('run')}")
            self._run("best")   # no route: the best run is no run (and what follows a run by rule)
            return a
        if a["type"] != "run_routes":
            return self.process_extra(a)
        routes, revenue = self._run(a["routes"], a)
        return {"type": "run_routes", "corporation": self.corp.id, "routes": routes, "revenue": revenue,
                **self.game.rules.run_fields(self.corp)}

    def run(self, routes) -> tuple[list[dict], int]:
        """The run of ``routes`` (``"best"`` or declared): the title's ``run``."""
        return self.game.rules.run(self.corp, routes)

    def _run(self, routes, a=None):
        routes, revenue = self.run(routes)
        if a is not None:
            check_revenue(a, revenue)
        self.game.rules.after_run(self.corp, routes)
        self.turn.revenue = revenue
        self.done = True
        return routes, revenue

"""The run step's hooks (:class:`~trainruns.game.steps.routes.RoutesStep`; 1832 [8], 1833NE
"Train list and prices"): the route core's best run or a declared run its audit finds legal,
what the log records with it, and what a run changes besides the revenue."""

from __future__ import annotations

from trainruns.game.train import names


class RunRules:
    """Running the trains.
    A mixin of :class:`~trainruns.game.game_rules.GameRules`."""

    def may_run(self, c) -> bool:
        """RoutesStep: whether ``c`` has a train that may run now (default: it owns
        one); when not, the step ends with no run (``revenue`` None)."""
        return bool(c.trains)

    #: the counts (a :class:`~trainruns.route.limits.Work`) that bound the search for a
    #: ``"best"`` run where the title does not require the best (1831 5.6.6: "nor is it
    #: required to find and run optimal routes"): the run found within them, the same on
    #: every machine, its log saying whether it is proven best (:meth:`run_fields`), and a
    #: declared run audited without searching for the best; None: the proven best run
    run_work = None
    #: (the company, what :meth:`run_fields` records of its last run's proof)
    run_proof: tuple = (None, None)

    def run(self, c, routes) -> tuple[list[dict], int]:
        """RoutesStep: ``c`` runs ``routes`` (``"best"``, the route core's best run or
        within :attr:`run_work` its bounded one; or a declared run that the route core's
        audit of its position finds legal, refused otherwise and as
        :meth:`check_declared_run` says). Returns (the routes as the log keeps them, the
        revenue); the step calls :meth:`after_run` once the run is accepted (its revenue
        checked), so a refused run changes nothing."""
        from trainruns.game import route_adapter
        from trainruns.game.steps.routes import declared_run

        pos = self.position(c.id)
        self.run_proof = (c.id, None)
        if routes == "best" and self.run_work is not None:
            revenue, chosen, proof = route_adapter.bounded_run(pos, self.run_work)
            self.run_proof = (c.id, proof)
        elif routes == "best":
            revenue, chosen = route_adapter.best_run(pos)
        else:
            revenue, best, chosen = declared_run(
                routes, lambda r: route_adapter.audit_run(pos, r, best=self.run_work is None), self.cite("run"))
            self.check_declared_run(c, revenue, best)
        return chosen, revenue

    def check_declared_run(self, c, declared: int, best: int):
        """RoutesStep: refuse (a Refusal) a legal declared run earning ``declared`` when
        the best earns ``best`` and the title requires the best (default: any legal
        run may be declared)."""

    def run_fields(self, c) -> dict:
        """RoutesStep: what the log records with ``c``'s ``run_routes`` besides its routes
        and revenue, read once the run is made [a ``"best"`` run within :attr:`run_work`:
        whether the bounded search proved it best, and its bound if not (1831 5.6.6);
        else nothing]."""
        cid, proof = self.run_proof
        return (proof or {}) if cid == c.id else {}

    def after_run(self, c, routes: list[dict]):
        """RoutesStep: what running ``routes`` changes beyond the revenue (1832's first
        run to Miami, 1833NE's phased-out trains), once the run is accepted: :meth:`run`
        changes nothing, so a run refused for its declared revenue leaves the state as
        it was. [The :meth:`phased_out` trains leave, having run once more: 1833NE
        "Number of phases".]"""
        gone = [x for x in c.trains if self.phased_out(x)]
        if gone:
            c.trains = [x for x in c.trains if not self.phased_out(x)]
            self.state.event("trains_removed", corporation=c.id, trains=names(gone), reason="phased out, ran once more")

    def no_route(self, c) -> bool:
        """RoutesStep: whether ``c``'s trains have no route at all, so that its best run
        is no run ($0) and a ``pass`` makes it (default: the route core's best run of
        its position, or its bounded run within :attr:`run_work`, has no route; with no
        run the board's rules allow at all, 1831 5.6.5, it is not "no route")."""
        from trainruns.game import route_adapter

        if self.run_work is None:
            return not route_adapter.best_run(self.position(c.id))[1]
        run = route_adapter.bounded_run_or_none(self.position(c.id), self.run_work)
        return run is not None and not run[1]

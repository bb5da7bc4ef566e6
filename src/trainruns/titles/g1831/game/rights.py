"""1831's track rights (5.5): the other corporations' Stations and Rail Yards a company
may rent for a round to enhance its run, and the rent paid to their owners."""

from __future__ import annotations

from trainruns.game import route_adapter
from trainruns.titles.g1831.game.operating import run_budget
from trainruns.titles.g1831.game.trains import train_type
from trainruns.titles.g1831.route.mapformat import SLOT_TYPES

# 5.5.5 sets no number; each right listed costs a search of the run with it (5.6.5), so a
# company rents at most this many per round, and at most MOST_OFFERS tokens are tried for
# each (in the order of the corporations and their tokens; a bound on work: docs/gaps.md)
MOST_RIGHTS = 3
MOST_OFFERS = 4


class RightsRules:
    def right_places(self, c) -> list[dict]:
        """Every track right the company may buy now (:meth:`each_right_place`)."""
        return list(self.each_right_place(c))

    def may_buy_right(self, c) -> bool:
        """Whether the company may buy a track right now: the first of
        :meth:`each_right_place` found, the rest not tried."""
        return next(self.each_right_place(c), None) is not None

    def each_right_place(self, c):
        """5.5: other corporations' Stations and Rail Yards the company may rent for this
        round at the price of a new one, paid to their owners (who cannot refuse, 5.5.4),
        from its cash (5.5.5); not in receivership (5.4.7). Offered only where a train
        can run to it: every right bought must be used by a run (5.6.5), so a right is
        listed when the best run with it (and the rights already bought) uses them all;
        and only one that enhances the run (5.5.1 "To enhance its route"): that run earns
        more than the best without it. (A right that lowers the run would bind its
        train to the rented token, 5.6.5, while an audit of the same routes counts the
        company's own token there instead: the replayed revenue would differ.)"""
        if c.receivership or not self.runnable(c) or not c.sites:
            return
        have = c.rights
        if len(have) >= MOST_RIGHTS:
            return
        board, reached = route_adapter.board_and_loose_reach(self.position(c.id, trains=[]))
        laid = self.laid()
        types = {train_type(t) for t in c.trains}
        usable = {"station"} if types <= {"S"} else {"yard"} if types <= {"YD"} else set(SLOT_TYPES)
        tried, base = 0, None
        for o in self.state.corporations:
            if o is c or o.cell is None:
                continue
            for site in o.sites:
                h, kind = site.hex, site.type
                if (h, 0) not in reached.stops or kind not in usable or site.home_black:
                    continue
                if any(x.hex == h and x.type == kind for x in c.sites):
                    continue   # its own token of that type there already counts
                if any(hh == h and self.map.sites(h, laid)[j] == kind for hh, j in have):
                    continue   # the route core: one right of a type per city
                cost = self.token_price(kind)
                if cost > c.cash or tried >= MOST_OFFERS:
                    continue
                tried += 1
                trial = self.position(c.id)
                trial["track_rights"] = [{"hex": hh, "stop": 0, "slot": j} for hh, j in have + [(h, site.slot)]]
                found = route_adapter.bounded_run_or_none(trial, run_budget())
                if found is None:
                    continue   # the route core: no run uses every right (5.6.5)
                revenue, routes, _proof = found
                if base is None:
                    without = route_adapter.bounded_run_or_none(self.position(c.id), run_budget())
                    base = without[0] if without else 0
                if routes and revenue > base:
                    yield {"hex": h, "slot": site.slot, "kind": kind, "owner": o.id, "cost": cost}

    def buy_right(self, c, m):
        self.state.pay(f"corp:{c.id}", f"corp:{m['owner']}", m["cost"])
        c.rights.append((m["hex"], m["slot"]))
        self.state.event("track_right", corporation=c.id, hex=m["hex"], slot=m["slot"], kind=m["kind"],
                         owner=m["owner"], cost=m["cost"])

"""1831's operating turn as a whole (5.0, 5.6-5.8): the position the route core is
asked about, whether and what a company runs (5.6, the bounded search of 5.6.6), and
its dividend (5.7) and the Stock Marker's move after it (5.8). The turn's other parts
have their modules: track (:mod:`.track`), tokens (:mod:`.tokens`), trains
(:mod:`.trains`, a forced purchase's funding :mod:`.forced`), track rights
(:mod:`.rights`) and receivership (:mod:`.receivership`)."""

from __future__ import annotations

from trainruns.game import route_adapter
from trainruns.game.rules.dividend import Dividend
from trainruns.route.limits import Work
from trainruns.titles.g1831.game import certs
from trainruns.titles.g1831.game.certs import is_preferred, shares_of

# 5.6.6: a run need not be the best, so the game's search is bounded, by counts and not a
# time (a live game must not depend on the machine's load), large enough that the boards
# of a game are solved to proof: the routes found in PATH_STEPS steps of the listing from
# each token (a late board's token-to-token paths grow exponentially with its track),
# then at most RUN_NODES branch and bound nodes, or COVERING_NODES for a run that must
# use every bought track right (5.6.5; each node scans a train's whole candidate list)
RUN_NODES = 20_000
COVERING_NODES = 2_000
PATH_STEPS = 20_000


def run_budget() -> Work:
    """The bounded search's counts, an option of its solve
    (:func:`trainruns.game.route_adapter.bounded_run`)."""
    return Work(nodes=RUN_NODES, covering_nodes=COVERING_NODES, path_steps=PATH_STEPS)


def best_run(position: dict) -> tuple[int, list[dict], dict]:
    """The best run the game's bounded search finds (5.6.6: "nor is it required to find
    and run optimal routes"): revenue, routes and ``{"proven", "bound"}``, the same on
    every machine. The log records the routes, so a replay audits them instead of
    searching again, and the proof, so a run not proven best says so with its bound."""
    return route_adapter.bounded_run(position, run_budget())


class OperatingRules:
    def position(self, corporation=None, trains=None) -> dict:
        cid = self.asked_corporation(corporation, "in play")
        c = self.state.corp[cid]
        tokens = []
        for other in self.state.corporations:
            for site in other.sites:
                tok = {"hex": site.hex, "stop": 0, "slot": site.slot, "corporation": other.id}
                if site.home_black:
                    tok.update(home=True, type=site.type)
                tokens.append(tok)
        train_list = trains if trains is not None else [
            {"name": t.name, "status": self._running_status(c, t)} for t in c.trains]
        pos = {"title": "1831", "phase": self.state.phase, "corporation": cid, "trains": train_list,
               "map": self.map.position_map(self.laid()), "tokens": tokens,
               "receivership": bool(c.receivership)}
        if c.rights:
            pos["track_rights"] = [{"hex": h, "stop": 0, "slot": j} for h, j in c.rights]
        kept = self.kept_sites(c)
        if kept:
            pos["home_sites"] = kept  # 5.2.5: what whatif's token moves must leave free
        if self.config.raw.get("mixed_counts"):
            pos["rules"] = {"mixed_counts": self.config.raw["mixed_counts"]}
        return pos

    @staticmethod
    def _running_status(c, t) -> str:
        """A train's status in the position (docs/rules-1831.md): a new train runs as a
        restored one; a retired train of a company in receivership runs until it leaves
        receivership (5.3.6, 5.4.8), so it goes as restored (the position's
        ``receivership`` keeps its retired size); any other retired or used train does
        not run."""
        if t.status == "new" or t.status == "retired" and c.receivership:
            return "restored"
        return t.status

    def may_run(self, c) -> bool:
        """5.6: a company still in play with a train that runs (:meth:`runnable`)."""
        return c.cell is not None and self.runnable(c)

    def runnable(self, c) -> bool:
        return any(t.status in ("new", "restored") or (t.status == "retired" and c.receivership)
                   for t in c.trains)

    # 5.6.6: the run "best" is the bounded search's (:func:`best_run`), its proof logged
    run_work = run_budget()

    def after_run(self, c, chosen):
        """5.5.3: the track rights bought are used by this run and end; 5.7.1: a run of no
        train is DID NOT RUN (:meth:`settle_without_dividend`)."""
        c.rights = []
        self.turn_under_way(c).ran = bool(chosen)

    payout_kind = "all"       # 5.7.2.4 PAY ALL: the run to every share

    withhold_kind = "hold"    # 5.7.2.1 HOLD: the run to the treasury

    def dividend_kinds(self, c, revenue) -> list[str]:
        if c.receivership:
            return ["hold"]   # 5.4.2
        kinds = ["hold", "preferred", "split", "all"]
        if c.cash >= 2 * revenue:
            kinds.append("all200")   # 5.7.4: it must have the cash
        return kinds

    def settle_without_dividend(self, c, revenue):
        """A company closed out earlier in the round pays nothing; one that did not run
        is DID NOT RUN (5.7.1)."""
        if c.cell is None:
            return True
        if revenue is None or not self.turn_under_way(c).ran:
            self.did_not_run(c)
            return True
        return False

    def dividend(self, c, revenue, kind):
        """5.7: pool shares' part stays with the bank, initial-offering and own shares'
        with the company; 2x markers do not change dividends (decision). ALL 200% (5.7.4)
        pays three times the run, the company adding twice the run from its treasury."""
        pot = 3 * revenue if kind == "all200" else revenue
        paid, corp = {}, f"corp:{c.id}"
        in_play = [x for x in c.certs if x.holder not in certs.OUT_OF_PLAY]
        n_pref = sum(shares_of(x) for x in in_play if is_preferred(x))
        for x in in_play if kind != "hold" else []:
            # by the certificate's percent (size x 5%): a preferred share 10%; a 10%
            # common 5% (split) or 10% (all), a 5% common 2.5% or 5%, rounded down
            if kind == "preferred":
                amount = pot * shares_of(x) // n_pref if is_preferred(x) else 0
            elif kind == "split":
                amount = pot * x.size * (50 if is_preferred(x) else 25) // 1000
            else:
                amount = pot * x.size * certs.UNIT // 100
            if amount:
                key = corp if x.holder in ("ipo", "treasury") else x.holder
                paid[key] = paid.get(key, 0) + amount
        # what is not paid out (all of a hold, the remainders) stays with the company
        rest = pot - sum(paid.values())
        if rest or kind == "all200":
            paid[corp] = paid.get(corp, 0) + rest
        return Dividend(kind, 0, list(paid.items()), {"paid": {k.partition(":")[2] or k: v for k, v in paid.items()}},
                        company_adds=2 * revenue if kind == "all200" else 0)

    def price_after_dividend(self, c, d):
        """5.8.1: the marker moves as the dividend's kind says (the title's
        ``dividend_moves``)."""
        c.last_dividend = d.kind
        direction, steps = self.numbers["dividend_moves"][d.kind]
        if direction != "none":
            self.move_marker(c, direction, steps, "dividend")

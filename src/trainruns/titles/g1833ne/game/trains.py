"""1833NE trains, phases and the emergency purchase (summary "Train list and prices",
"Number of phases", "Emergency sell").

- Each card of phases I-IV is bought as one of its two sides, fixed afterwards; the bank
  sells the cards in order; the first card of a phase starts that phase.
- Entering a phase phases out the cards it names (they run once more, then leave;
  they do not count against the limit: 3 in I-III, 2 in IV-V) and removes older ones.
  Phase III: privates held by players and P1-P2 removed, P3-P6 flipped (no income);
  phase IV: P3-P5 and the ferries removed, city reservations end.
- A corporation with no train after running and removing phased-out trains must buy
  one: its treasury, then emergency issues (one column left per share, one value below
  the new price, never under $20), then the president's cash (not for the dearer side
  when it can afford the cheaper), then his share sales; then bankruptcy.
"""

from __future__ import annotations

from trainruns.game import emergency
from trainruns.game.shares import update_president
from trainruns.game.state import corp_key, player_key
from trainruns.game.steps.buy_train import trains_from_companies
from trainruns.game.steps.consent import was_declined
from trainruns.game.train import names


class TrainRules:
    # --- cards and phases ------------------------------------------------------------------

    def remove_trains(self, phase):
        """Cards whose removal phase has come leave the companies ("removes older
        ones"); the open market also loses the phased-out ones."""
        s = self.state
        for c in s.corporations:
            removed = [x for x in c.trains if self._removed(x)]
            if removed:
                c.trains = [x for x in c.trains if not self._removed(x)]
                s.event("trains_removed", corporation=c.id, trains=names(removed), reason=f"phase {phase}")
        gone = [x for x in s.market_trains if self._removed(x) or self.phased_out(x)]
        if gone:
            s.market_trains[:] = [x for x in s.market_trains if not (self._removed(x) or self.phased_out(x))]
            s.event("trains_removed", corporation=None, trains=names(gone), reason=f"phase {phase}: open market")

    def _removed(self, side):
        return self.trains.ended(side.name, "rusts_on", self.state.phase, self.phases)

    # --- phase III and IV: the events of data/phases.json ---------------------------------

    def event_remove_privates(self, phase):
        """Phase III removes P1 and P2, phase IV P3 to P5 (the phase's ``privates_removed``)."""
        self.event_close_privates(phase, only=self.phases.by_name[phase]["privates_removed"])

    def event_flip_privates(self, phase):
        """Phase III: the privates left are flipped (no income)."""
        flipped = self.state.title_state.flipped
        for x in self.state.privates:
            if x.open and x.id not in flipped:
                flipped.append(x.id)
                self.state.event("private_flipped", private=x.id)

    def event_remove_ferries(self, phase):
        """Phase IV: the ferries are removed."""
        ferries = self.state.title_state.ferries
        for f, owner in ferries.items():
            if owner != "removed":
                ferries[f] = "removed"
        self.state.event("ferries_removed")

    # --- buying ------------------------------------------------------------------------

    def enter_buy_train(self, step):
        """"Emergency sell": the corporation "first spends its whole treasury and then
        must issue shares up to the normal limit ... Only then does the president put in
        personal cash" and, short even with his sales, go bankrupt. While it has an
        emergency issue left, the step lists it (:meth:`treasury_raises`) and nobody is
        bankrupt yet; once none is left, :func:`.emergency.bankrupt_if_short` at the
        prices the issues left."""
        c = step.corp
        if c.closed or not self.emergency_issuable(c):
            emergency.bankrupt_if_short(self, step)

    def emergency_issuable(self, c) -> int:
        """Shares the corporation may issue in an emergency: the normal limit, and never a
        share that would take the price below $20 (``emergency_issue_min_price``)."""
        n, cell = 0, c.cell
        for _ in range(self.issuable(c)):
            new = self.market.left(cell)
            if new == cell or self.market.price(new) < self.data["emergency_issue_min_price"]:
                break
            n, cell = n + 1, new
        return n

    def _emergency_proceeds(self, c, count):
        """Each share moves the price one column left and pays one value below the new
        price ("Emergency sell")."""
        total, cell = 0, c.cell
        for _ in range(count):
            cell = self.market.left(cell)
            total += self.market.price(self.market.left(cell))
        return total

    def more_train_buys(self, c, sources, forced):
        """Another corporation's trains, also in a forced purchase while the treasury pays
        a train on sale: the emergency, where none is bought from another corporation
        ([E] EBUY_FROM_OTHERS never), is the treasury paying none, and the engine asks
        this hook only outside it."""
        return self._corporation_buys(c)

    def treasury_raises(self, c, sources):
        """The emergency issue comes first: at most what the dearer side needs ([E])."""
        n = self.emergency_issuable(c)
        if not n:
            return []
        dearest = max(p for _f, _t, p in sources)
        need = 1
        while need < n and c.cash + self._emergency_proceeds(c, need) < dearest:
            need += 1
        return [{"type": "issue_shares", "corporation": c.id, "emergency": True,
                 "count": 1 if need == 1 else {"min": 1, "max": need}}]

    def president_helps(self, c, sources, most):
        """Any train his cash reaches (the treasury pays none here)."""
        return [x for x in sources if x[2] <= most]

    def _corporation_buys(self, c) -> list[dict]:
        """Trains bought from another corporation: implied by "A phased-out train ...
        can't be sold to another corporation"; the price is agreed, $1 to the buyer's
        treasury [?]; never in the emergency, the treasury paying no train on sale ([E]
        EBUY_FROM_OTHERS never). The seller's
        president accepts unless he presides both."""
        turn = self.turn_under_way(c)
        return trains_from_companies(self.state, c, self.counted_trains,
                                     skip=lambda d: not d.started or was_declined(turn, "train", d.id))

    def president_sale_most(self, c, d, name) -> int:
        """What the president may sell in the emergency: never changing the presidency of
        the operating corporation nor closing it (its price falls a column a sale)."""
        if d is c and self.market.price(self.market.left(d.cell)) <= 0:
            return 0
        return super().president_sale_most(c, d, name)

    emergency_types = ("sell_shares", "issue_shares")

    def why_not_emergency(self, c, a):
        return "train.emergency", (f"{c.id} needs a train: its treasury first, then emergency issues, then its "
                                   "president's cash, then his share sales, never changing its presidency "
                                   "(\"Emergency sell\")")

    def emergency_act(self, step, a, low):
        """"Emergency sell": the listed emergency issue, or the president's listed sale."""
        if a["type"] == "issue_shares":
            self.emergency_issue(step.corp, a["count"])
        else:
            self.sell_shares(self.state.corp[a["corporation"]], a["player"], a["count"])

    #: a train from another corporation: its president accepts unless he presides both
    seller_answers = True

    def why_not_company_train(self, c, a):
        return "train.phased-out", ("a phased-out train can't be sold to another corporation, nor any in the "
                                    "emergency (\"Train list and prices\"; \"Emergency sell\")")

    def why_not_afford(self, c, a):
        return (f"{c.id} cannot pay for that train; with its president's cash it may not buy the dearer side when "
                "it can afford the cheaper (\"Emergency sell\")")

    def emergency_issue(self, c, count):
        s = self.state
        total = 0
        for _ in range(count):
            old = c.cell
            c.cell = self.market.left(old)
            self.market.move(c.id, old, c.cell)
            got = self.market.price(self.market.left(c.cell))
            s.pay("bank", corp_key(c.id), got)
            s.move_shares(c, "treasury", "market", 1)
            total += got
        s.event("issue", corporation=c.id, count=count, cash=total, emergency=True)
        s.event("price", corporation=c.id, price=self.price(c), reason="emergency issue")

    def train_bought(self, c, source, side, price):
        self.state.event("train", corporation=c.id, train=side, price=price, source=source)

    # --- bankruptcy ("Emergency sell") -------------------------------------------------------

    def bankrupt(self, c, name, step):
        """The president can't raise the price: he is bankrupt and out. What he may sell
        is sold as in the emergency, his cash goes to the corporation, his other shares
        go to the Stock Market without moving prices; a corporation whose presidency
        changes gets a new president, who must buy the train; one left with no player
        holding 20% closes (docs/gaps.md). His privates leave the game."""
        s = self.state
        emergency.sell_out(self, c, name)
        for d in s.corporations:
            n = d.held(player_key(name))
            if n and not d.closed:
                s.move_shares(d, player_key(name), "market", n)
            if d.president == name and not d.closed:
                best = max((q.name for q in s.players if not q.bankrupt),
                           key=lambda q: d.held(player_key(q)), default=None)
                if best is None or d.held(player_key(best)) < self.shares["president"]:
                    self.close_corporation(d)
                else:
                    d.president = best
                    update_president(s, d)
                    s.event("president", corporation=d.id, player=d.president, previous=name)
        for x in s.privates:
            if x.open and x.owner == player_key(name):
                x.open = False
                s.event("private_closed", private=x.id, reason="owner bankrupt")
        self.check_bankruptcies()
        if c.closed or self.game.finished:
            step.done = True
        elif self.must_buy(step):
            self.enter_buy_train(step)

"""1831's trains (5.3): the limit and its surplus, what the bank, the pool and other
corporations sell a company, a system's president's subsidy (5.3.11), a purchase and the
phase it brings; the retirements of a new phase (5.3.6)."""

from __future__ import annotations

from dataclasses import replace

from trainruns.game.state import player_key
from trainruns.game.steps.buy_train import trains_from_companies
from trainruns.game.steps.consent import was_declined
from trainruns.game.train import Train, remove_named, take


def train_type(t: Train) -> str:
    """5.6.2.3: a train's type, "S", "MX" or "YD", after its size in its name."""
    return t.name[len(str(t.distance)):]


class TrainRules:
    def train_limit(self, c) -> int:
        """5.3.5: the phase's limit; a system one more per merger (5.9.7.7), at most two."""
        return super().train_limit(c) + min(2, len(c.absorbed))

    def remove_trains(self, phase):
        """5.3.6: the trains the new phase retires (their ``rusts_on``, the engine's
        :meth:`~trainruns.game.phase.Phases.scrapped_at`) leave the companies, the pool
        and the bank; a corporation in receivership keeps and runs its obsolete trains
        (5.4.8)."""
        s = self.state
        for old in self.phases.scrapped_at(phase):
            for c in s.corporations:
                keep = []
                for t in c.trains:
                    if str(t.distance) == old and not c.receivership:
                        s.event("retire", corporation=c.id, train=t.name)
                        continue
                    keep.append(replace(t, status="retired") if str(t.distance) == old else t)
                c.trains = keep
            before = len(s.market_trains)
            s.market_trains = [t for t in s.market_trains if t.card != old]
            if len(s.market_trains) != before:
                s.event("retire", corporation=None, train=old, where="pool")
            for row_ in s.depot:
                if row_.size == int(old):
                    row_.left = 0

    def discard_order(self, buyer, over: list) -> list:
        """5.3.5: a lower limit sends the surplus trains to the pool; the rules set no
        order, so the corporations go as listed, the last listed first (each pushed in
        front of the one before). The buyer's own surplus is settled after its purchase,
        keeping the train bought (5.3.7, :meth:`add_train`)."""
        return [d for d in reversed(over) if d is not buyer]

    def counted_trains(self, c) -> list:
        """5.3.7 / 5.6.1: every train the corporation holds counts against its limit, a
        USED one too; a RETIRED one does not (kept in receivership, 5.4.8)."""
        return [t for t in c.trains if t.status != "retired"]

    def discard_surplus(self, c, bought=None, limit=None):
        """Over the limit (a lower limit, 5.3.5; a purchase at the limit, 5.3.7; a
        merger's or bonds' limit, 5.9.7.7, 4.3.3): "It must give its extra trains to the
        Stock Bank Pool, with no compensation". Which ones the rules leave to the
        company, so its president chooses (``discard_train``, the shared ``DiscardStep``);
        when the trains that may go are all of one name, there is no choice and they go
        at once."""
        over, may_go = self.surplus(c, bought)
        if over <= 0:
            return
        if len({t.name for t in may_go}) > 1 and self.game.round is not None:
            return super().discard_surplus(c, bought)
        while over > 0 and may_go:
            self.discard_train(c, may_go[0].name, bought)
            over, may_go = self.surplus(c, bought)

    def discardable(self, c, bought=None, limit=None) -> list[str]:
        """5.3.7: the engine's (:meth:`surplus`), none of a company out of play (4.3.2)."""
        return super().discardable(c, bought) if c.cell is not None else []

    def why_not_discard(self, c, bought=None, limit=None):
        return "5.3.7", (f"{c.id} is over its limit of {self.train_limit(c)} trains and gives one of "
                         f"{', '.join(self.discardable(c, bought))} to the pool, not the train just bought "
                         "(5.3.7, 5.3.5)")

    def discard_train(self, c, name: str, bought=None):
        """5.3.7: a train named ``name`` goes to the pool without compensation; of two of
        that name, a USED one first (it would not run this round, 5.3.2)."""
        t = min((t for t in self.surplus(c, bought)[1] if t.name == name), key=lambda t: t.status != "used")
        c.trains.remove(t)
        self.state.market_trains.append(t)
        self.state.event("surplus_train", corporation=c.id, train=t.name)

    def bank_rows(self) -> list:
        """5.3.8: the lowest size the bank has; the buyer picks S, MX or YD."""
        left = [r for r in self.state.depot if r.left]
        size = min((r.size for r in left), default=None)
        return [r for r in left if r.size == size]

    def market_price(self, name: str) -> int:
        """5.3.2.1: the pool's trains at 60% of face, rounded up (decision)."""
        return -(-super().market_price(name) * self.numbers["pool_train_percent"] // 100)

    def needs_train(self, c) -> bool:
        """5.3.1: fewer trains than the minimum (a system two from the first 3-train)."""
        return len(c.trains) < self.min_trains(c)

    def train_deals(self, c, turn=None) -> list[dict]:
        """5.3.2: a train from another corporation, "at any mutually agreed price": the
        buyer's president proposes a price and, when the seller has another president,
        that president accepts or declines it (the engine's ``agree_company_train`` with
        :attr:`seller_answers`; one president may deal with himself); 5.3.4 "at least $1
        and no more than the real cost (as printed on the train), and ... fully funded by
        the corporation's cash" (read as the same bounds when the purchase is not forced).
        A seller whose president declined is not asked again this turn
        (game/steps/consent.py). Never a retired train (5.3.2: not one it counts,
        :meth:`counted_trains`), never from a corporation in receivership (5.4.4)."""
        return trains_from_companies(
            self.state, c, self.counted_trains,
            lambda o: o.cell is None or not o.active or o.receivership or was_declined(turn, "train", o.id),
            face=self.trains.price)

    def train_buys(self, step) -> list[dict]:
        """5.3: the trains the company of ``step`` may buy now (none once it is closed
        out, 4.3.2). A company in receivership buys no
        more than its minimum (5.4.3). A forced purchase (5.3.1) the company's cash
        cannot pay from the bank or the pool (5.3.4) lists the president's deals with
        other corporations first and the cheapest train of the bank and the pool (its
        funding: the company's own stock and bonds, then the president's cash, then a
        loan, :meth:`fund_forced_purchase`); once the company has sold its stock the
        deals are over ("the President may no longer buy a train from any
        corporation", ``turn.own_sold``). Otherwise the trains of the bank and the
        pool its cash pays and, for a system, those its president's cash makes up
        (5.3.11, :meth:`train_budget`); the deals stay within its own cash (5.3.4)."""
        c, turn = step.corp, step.turn
        if c.closed or c.cell is None:
            return []
        forced = self.needs_train(c)
        if c.receivership and not forced:
            return []   # 5.4.3: no more than the minimum
        shop = self.train_offers(c, self.train_sources())
        if self.short_of_forced(c, shop):
            cheapest = min(x["price"] for x in shop)
            out = [x for x in shop if x["price"] == cheapest]   # "the lowest appropriate train purchase"
        else:
            out = [x for x in shop if x["price"] <= self.train_budget(c)]
        if not turn.own_sold:
            out += self.train_deals(c, turn)
        return out

    def short_of_forced(self, c, shop) -> bool:
        """5.3.4: ``c`` must buy a train (5.3.1) and its cash pays none of ``shop`` (the
        bank's and the pool's ``buy_train`` offers): the purchase is 5.3.4's."""
        return self.needs_train(c) and bool(shop) and min(x["price"] for x in shop) > c.cash

    def train_budget(self, c) -> int:
        """What ``c`` may spend on a train of the bank or the pool it is not forced to buy
        with 5.3.4's funding: its cash and, for a system, its president's (5.3.11:
        :meth:`subsidy_room`)."""
        return c.cash + self.subsidy_room(c)

    def subsidy_room(self, c) -> int:
        """5.3.11: "The President of a system may use his own cash holdings to subsidize
        the purchase of a train for his system": all his cash, for a system (not a
        company; not one in receivership, which buys only its minimum, 5.4.3, by 5.3.4's
        steps); 0 otherwise."""
        if not self.is_system(c) or c.receivership or c.president is None:
            return 0
        return self.state.player[c.president].cash

    def subsidise(self, c, price: int):
        """5.3.11: "All of the cash in the system must be used first, and then the
        President may add enough to buy the trains he desires, but he may not put any
        extra cash into the system. The system will have no cash holdings after the train
        purchases": the president pays what the system's cash lacks of ``price``."""
        give = price - c.cash
        self.state.pay(player_key(c.president), f"corp:{c.id}", give)
        self.state.event("president_funds", corporation=c.id, player=c.president, cash=give, rule="5.3.11")

    def must_own_train(self, step) -> bool:
        """5.3.1: a company in play (not closed out, 4.3.2) must own its minimum, bought
        from the bank or the pool (5.3.4: "The President is not forced to accept any
        offers" of other corporations)."""
        return step.corp.cell is not None

    def why_not_train(self, c, a):
        """Which of 5.3's rules a purchase not listed (:meth:`train_buys`) breaks."""
        src, turn = a["from"], self.turn_under_way(c)
        if src not in ("bank", "market") and src in self.state.corp:
            o = self.state.corp[src]
            if o.receivership:
                return "train.seller-receivership", f"{o.id} is in receivership and may not sell trains (5.4.4)"
            if turn.own_sold:
                return "train.deals-over", (f"{c.id} has sold its own stock for a forced purchase: no more trains "
                                            "from other corporations (5.3.4)")
            if c.cash < 1:
                return "train.cash", f"a train from another corporation is paid from {c.id}'s cash, at least $1 (5.3.4)"
        if c.receivership and not self.needs_train(c):
            return "train.receivership", f"{c.id} is in receivership: no more than its minimum of trains (5.4.3)"
        shop = self.train_offers(c, self.train_sources())
        if src == "bank" and not any(x["from"] == "bank" and x["train"] == a["train"] for x in shop):
            sold = ", ".join(x["train"] for x in shop if x["from"] == "bank") or "nothing"
            return "train.lowest-first", (f"the bank sells the lowest size it has first: {sold}, not a "
                                          f"{a['train']} (5.3.8)")
        if self.needs_train(c) and min((x["price"] for x in shop), default=0) > c.cash:
            return "train.forced-cheapest", (f"{c.id} must buy a train it cannot pay for: the cheapest the bank or "
                                             "the pool has (5.3.4)")
        listed = next((x for x in shop if x["from"] == src and x["train"] == a["train"]), None)
        if listed is not None and listed["price"] > self.train_budget(c):
            return "train.cash", (f"{c.id} cannot pay ${listed['price']} for the {a['train']} from its cash (5.3), "
                                  "nor with its president's help (a system's, 5.3.11)")
        return "train.unavailable", (f"{c.id} cannot buy a {a['train']} from {a['from']} now: trains come from "
                                     "the bank, the pool (5.3.2) or another corporation, never a retired one "
                                     "(5.3.2)")

    #: 5.3.2 "at any mutually agreed price", 5.3.4 "The President is not forced to accept
    #: any offers": a train of a corporation with another president waits for his answer
    seller_answers = True

    def buy_train(self, c, source: str, name: str, price: int):
        """5.3.2, 5.3.8: ``c`` buys a ``name`` train from the bank or the pool at ``price``;
        a forced purchase its cash cannot pay is funded by 5.3.4 (which ends its deals
        with other corporations, ``own_sold``, and may close it out first, 4.3.2: then no
        purchase), any other a system's cash cannot pay by its president (5.3.11), then
        :meth:`add_train`."""
        s = self.state
        if price > c.cash and not self.short_of_forced(c, self.train_offers(c, self.train_sources())):
            self.subsidise(c, price)   # 5.3.11: a system's president adds what it lacks
        elif price > c.cash:
            self.turn_under_way(c).own_sold = True
            self.fund_forced_purchase(c, price)
            if c.cell is None:
                return
        if source == "bank":
            take(s.depot, name)
        else:
            remove_named(s.market_trains, name)
        s.pay(f"corp:{c.id}", "bank", price)
        self.add_train(c, source, name, price)

    def sell_company_train(self, c, d, name: str, price: int):
        """5.3.2, 5.3.4: ``d`` sells ``c`` its ``name`` train (never a retired one) for the
        agreed ``price``; :meth:`add_train`."""
        d.trains.remove(next(t for t in d.trains if t.name == name and t.status != "retired"))
        self.state.pay(f"corp:{c.id}", f"corp:{d.id}", price)
        self.add_train(c, d.id, name, price)

    def add_train(self, c, source: str, name: str, price: int):
        """5.3.2: a train from the pool or another corporation is USED (it does not run
        this round), one from the bank new and with the phase it brings (5.3.5); then a
        company over its limit gives up a train other than this one (5.3.7)."""
        s = self.state
        bought = replace(self.trains[name], status="new" if source == "bank" else "used")
        c.trains.append(bought)
        s.event("train", corporation=c.id, train=name, source=source, price=price)
        if source == "bank":
            s.title_state.trains_bought = True   # 5.3.5: mergers from the first 2-train
            for phase in self.phases.after_buying(s.phase, bought.card):   # 5.3.5
                self.new_phase(phase, c)
        self.discard_surplus(c, bought)

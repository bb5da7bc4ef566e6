"""The buy-train step's hooks (:class:`~trainruns.game.steps.buy_train.BuyTrainStep`; 1832
[10], 1833NE "Train list and prices"): the trains on sale, a purchase processed and paid
(the president adding what the treasury lacks), and a forced purchase the president
raises by selling shares (:mod:`trainruns.game.emergency`: 1832 [10] Presidential Stock
Sales, 1833NE "Emergency sell")."""

from __future__ import annotations

from trainruns.game.action import bounds, free_amount
from trainruns.game.emergency import contribute, sales_toward
from trainruns.game.errors import Refusal
from trainruns.game.shares import keeping_presidency, scaled
from trainruns.game.state import corp_key
from trainruns.game.train import (
    available,
    kinds,
    names,
    remove_named,
    sell_one,
)


class TrainRules:
    """Buying trains, and a forced purchase.
    A mixin of :class:`~trainruns.game.game_rules.GameRules`."""

    def train_buys(self, step) -> list[dict]:
        """BuyTrainStep: every purchase (and forced share sale) open to ``step.corp`` now.
        [1832 [10], 1833NE "Train list and prices", "Emergency sell": at its limit
        (:meth:`counted_trains`), :meth:`trains_at_limit`; else the trains on sale its
        treasury pays (:meth:`train_sources`) and :meth:`more_train_buys`. A company that
        :meth:`must_buy` and cannot pay any first raises what its treasury may
        (:meth:`treasury_raises`), then its president adds his cash
        (:meth:`president_helps`), then he sells shares toward the cheapest
        (:func:`.emergency.sales_toward`, as many as :meth:`president_sale_count` lists).]"""
        c = step.corp
        if c.closed or len(self.counted_trains(c)) >= self.train_limit(c):
            return self.trains_at_limit(c)
        sources = self.train_sources()
        forced = self.must_buy(step)
        affordable = [x for x in sources if x[2] <= c.cash]
        if affordable or not forced:
            return self.train_offers(c, affordable) + self.more_train_buys(c, sources, forced)
        raises = self.treasury_raises(c, sources)
        if raises:
            return raises
        pres = self.state.player[c.president]
        helped = self.president_helps(c, sources, c.cash + pres.cash)
        if helped:
            return self.train_offers(c, helped)
        short = min(p for _f, _t, p in sources) - c.cash - pres.cash
        return sales_toward(self, c, short, lambda d, n, need: self.president_sale_count(c, d, n, need))

    def trains_at_limit(self, c) -> list[dict]:
        """:meth:`train_buys`: what ``c`` may buy at its train limit, or closed [nothing]."""
        return []

    def more_train_buys(self, c, sources: list, forced: bool) -> list[dict]:
        """:meth:`train_buys`: the purchases besides the trains on sale its treasury pays,
        when it may buy one (``forced``: it must) [none]."""
        return []

    def treasury_raises(self, c, sources: list) -> list[dict]:
        """:meth:`train_buys`: what ``c`` may do to raise the price of a forced train
        itself before its president pays (1833NE "Emergency sell": its emergency
        issue) [nothing]."""
        return []

    def president_helps(self, c, sources: list, most: int) -> list:
        """:meth:`train_buys`: the trains of ``sources`` a forced purchase may buy with its
        president's cash, ``most`` being his and the treasury's together [the cheapest,
        when they pay it: 1832 [10] Train Purchase Funds]."""
        cheapest = min(p for _f, _t, p in sources)
        return [x for x in sources if x[2] == cheapest] if most >= cheapest else []

    def president_sale_count(self, c, d, most: int, need: int):
        """:meth:`train_buys`: the listed count of the president's sale of ``d`` toward
        ``c``'s forced train, of at most ``most`` shares, ``need`` of them paying what he
        lacks; None: none of ``d`` [1 to ``need``: only what the train needs, 1832 [10],
        1833NE "Emergency sell"]."""
        return free_amount(1, min(most, need))

    def train_process(self, step, a: dict):
        """BuyTrainStep: process a purchase or forced sale; returns what the log records.
        Default: any other type than ``buy_train`` is the title's :meth:`emergency_action`
        with what :meth:`train_buys` lists of it; a purchase must be listed
        (:meth:`why_not_train` says why not), from another company it is the title's
        :meth:`buy_company_train`, else it is bought at the listed price
        (:meth:`buy_train`)."""
        c, listed = step.corp, self.train_buys(step)
        if a["type"] != "buy_train":
            return self.emergency_action(step, a, next((x for x in listed if x["type"] == a["type"] and x.get(
                "corporation") == a.get("corporation") and x.get("player") == a.get("player")), None))
        x = next((x for x in listed if x["type"] == "buy_train" and x["from"] == a["from"]
                  and x["train"] == a["train"]), None)
        if x is None:
            raise Refusal(*self.why_not_train(c, a))
        if x["from"] not in ("bank", "market"):
            return self.buy_company_train(step, a, x)
        if "price" in a and a["price"] != x["price"]:
            raise Refusal("train.price", f"a {a['train']}-train from the {a['from']} costs "
                                         f"${x['price']}{self.cite('train-cost')}")
        self.buy_train(c, a["from"], a["train"], x["price"])
        return dict(a, price=x["price"])

    #: the types of :meth:`emergency_action` besides a purchase (1833NE adds its emergency issue)
    emergency_types: tuple = ("sell_shares",)

    def emergency_action(self, step, a: dict, listed: dict | None):
        """:meth:`train_process`: an action of the buy-train step other than a purchase
        (a forced sale, 1833NE's emergency issue), with its entry in :meth:`train_buys`
        (None: not listed); returns what the log records. [One of
        :attr:`emergency_types` with a count within its listed range
        (:meth:`why_not_emergency` refuses it otherwise), made by :meth:`emergency_act`;
        then a company it closed ends the step, else :meth:`enter_buy_train` again: can
        the rest still be raised?]"""
        c = step.corp
        if a["type"] not in self.emergency_types:
            raise Refusal("train.action", f"{c.id} is buying trains: buy_train or pass{self.cite('trains')}")
        if listed is None or not 1 <= a.get("count", 0) <= bounds(listed["count"])[1]:
            raise Refusal(*self.why_not_emergency(c, a))
        self.emergency_act(step, a, bounds(listed["count"])[0])
        if c.closed:
            step.done = True
        else:
            self.enter_buy_train(step)
        return a

    def why_not_emergency(self, c, a: dict) -> tuple[str, str]:
        """:meth:`emergency_action`: (rule id, message) refusing an action of
        :attr:`emergency_types` that :meth:`train_buys` did not list, in the title's words."""
        raise NotImplementedError

    def emergency_act(self, step, a: dict, low: int):
        """:meth:`emergency_action`: make a listed action toward ``step.corp``'s forced
        train (the president's sale; ``low``: its listed count's minimum)."""
        raise NotImplementedError

    def buy_company_train(self, step, a: dict, listed: dict):
        """:meth:`train_process`: a listed purchase of a train from another company, at
        an agreed price within the listed range (1832 [10] Train Cost, 1833NE "Train
        list and prices": $1 to the buyer's treasury), made by :meth:`agree_company_train`."""
        price, (low, high) = a.get("price"), bounds(listed["price"])
        if not isinstance(price, int) or not low <= price <= high:
            raise Refusal("train.price", f"a train from {a['from']} costs an agreed ${low} to ${high}"
                                         f"{self.cite('train-cost')}")
        self.agree_company_train(step.corp, self.state.corp[a["from"]], a["train"], price)
        return dict(a, price=price)

    #: whether :meth:`agree_company_train` waits for the seller's president's answer
    #: (1833NE; 1831 5.3.2 "at any mutually agreed price", 5.3.4 "The President is not
    #: forced to accept any offers") instead of taking the logged action as the deal
    #: both presidents agreed (1832 [10])
    seller_answers: bool = False

    def agree_company_train(self, c, d, name: str, price: int):
        """:meth:`buy_company_train`: ``d`` sells its ``name`` train to ``c`` for ``price``
        once both agree (:meth:`sell_company_train`) [at once; with
        :attr:`seller_answers`, an offer ``d``'s president accepts or declines
        (game/steps/consent.py), unless he presides both]."""
        if not self.seller_answers or d.president == c.president:
            return self.sell_company_train(c, d, name, price)
        from trainruns.game.steps.consent import make_offer

        make_offer(self.game, d.president, {"offer": "train", "corporation": c.id, "from": d.id, "train": name,
                                            "price": price},
                   lambda: self.sell_company_train(c, d, name, price), self.turn_under_way(c))

    def sell_company_train(self, c, d, name: str, price: int):
        """``c`` pays ``d`` ``price`` for its ``name`` train, which changes hands; then
        :meth:`train_bought` with ``d``'s id as the source."""
        s = self.state
        s.pay(corp_key(c.id), corp_key(d.id), price)
        c.trains.append(remove_named(d.trains, name))
        self.train_bought(c, d.id, name, price)

    def why_not_train(self, c, a: dict) -> tuple[str, str]:
        """:meth:`train_process`: (rule id, message) refusing a purchase
        :meth:`train_buys` did not list [over the train limit (:meth:`counted_trains`);
        from the bank, a train that is not next (1832 [10] Bank Trains, 1833NE "Train
        list and prices"); from the open market, one it does not hold; from a company,
        :meth:`why_not_company_train`; else :meth:`why_not_afford`]."""
        limit = self.train_limit(c)
        if len(self.counted_trains(c)) >= limit:
            return "train.limit", (f"{c.id} is at the train limit {limit} of phase {self.state.phase}"
                                   f"{self.cite('train-limit')}")
        if a["from"] == "bank" and not any(f == "bank" and t == a["train"] for f, t, _p in self.train_sources()):
            return "train.order", ("the bank sells its trains in order: all of a type before the next"
                                   f"{self.cite('bank-trains')}")
        if a["from"] == "market" and a["train"] not in names(self.state.market_trains):
            return "train.not-in-market", f"no {a['train']}-train in the open market{self.cite('trains')}"
        if a["from"] not in ("bank", "market"):
            return self.why_not_company_train(c, a)
        return "train.cash", self.why_not_afford(c, a)

    def why_not_company_train(self, c, a: dict) -> tuple[str, str]:
        """:meth:`why_not_train`: (rule id, message) refusing a train from another
        company that :meth:`train_buys` did not list."""
        return "train.from-company", (f"{c.id} may not buy that train from {a['from']} now (its trains, within the "
                                      f"limit, never with the president's money){self.cite('train-cost')}")

    def why_not_afford(self, c, a: dict) -> str:
        """:meth:`why_not_train`: why ``c`` may not buy a train from the bank or the
        market that it may hold and that is on sale (the ``train.cash`` refusal): its
        treasury, and what the president may add, in the title's words."""
        return f"{c.id} cannot pay for that train{self.cite('train-cost')}"

    def train_budget(self, c) -> int:
        """What ``c`` may spend on a train it is not forced to buy [its cash; 1831 5.3.11
        adds a system's president's]."""
        return c.cash or 0

    def must_buy(self, step) -> bool:
        """BuyTrainStep: whether ``step.corp`` must still buy a train (it may not pass)
        [an open company that :meth:`needs_train` and :meth:`must_own_train`, while a
        train is on sale (:meth:`train_sources`): 1832 [10] Requirement to Own a Train,
        1833NE "A corporation must buy a train if it has none after running routes and
        removing phased-out trains", 1831 5.3.1]."""
        c = step.corp
        return self.needs_train(c) and not c.closed and self.must_own_train(step) and bool(self.train_sources())

    def needs_train(self, c) -> bool:
        """:meth:`must_buy`: whether ``c`` holds fewer trains than the rules' minimum [it
        has none; 1831 5.3.1: a system two]."""
        return not c.trains

    def must_own_train(self, step) -> bool:
        """:meth:`must_buy`: whether ``step.corp``, short of trains, is required to own
        them [it is; 1832 [10]: only with a legal route; 1831: while in play]."""
        return True

    def enter_buy_train(self, step):
        """BuyTrainStep: what happens by rule as the step starts (a bankruptcy when a
        forced purchase cannot be raised, :func:`.emergency.bankrupt_if_short`)."""

    def bankrupt(self, c, name: str, step):
        """:func:`.emergency.bankrupt_if_short`: president ``name`` cannot raise the price
        of ``c``'s forced train in ``step``; what follows is the title's (1832 [13]: the
        game ends; 1833NE "Emergency sell": he is out and the game goes on)."""
        raise NotImplementedError

    def bank_rows(self) -> list:
        """The depot rows the bank sells from now (default: the first type not sold out,
        1832 [10] Bank Trains, 1833NE "Train list and prices")."""
        row = available(self.state.depot)
        return [row] if row is not None else []

    def train_sources(self) -> list[tuple]:
        """(from, train, price) of every train on sale at a fixed price now: what
        :meth:`bank_rows` sell (a card as each of its sides), then each kind in the open
        market at its :meth:`market_price`."""
        out = [("bank", t, p) for row in self.bank_rows() for t, p in row.trains()]
        return out + [("market", t, self.market_price(t)) for t in kinds(self.state.market_trains)]

    def market_price(self, name: str) -> int:
        """What the open market sells a ``name`` train at [its printed price: 1832 [10]
        Train Cost; 1831 5.3.2.1: 60% of it]."""
        return self.trains.price(name)

    def train_offers(self, c, sources) -> list[dict]:
        """The ``buy_train`` actions of ``c`` for ``sources`` ((from, train, price) as
        :meth:`train_sources` lists them)."""
        return [{"type": "buy_train", "corporation": c.id, "from": f, "train": t, "price": p} for f, t, p in sources]

    def buy_train(self, c, source: str, name: str, price: int):
        """``c`` buys a ``name`` train from the ``"bank"`` or the ``"market"`` for
        ``price``, its president paying what its treasury lacks (1832 [10] Train Purchase
        Funds): the depot row's count falls or the open market loses it, then
        :meth:`train_bought`, then the phases its card starts (1832 [4.2]; 1833NE "the
        first card of a phase starts that phase")."""
        s = self.state
        row = None
        if source == "bank":
            row = next((r for r in self.bank_rows() if name in dict(r.trains())), None)
            if row is None:
                raise Refusal("train.order", f"the bank does not sell a {name}-train now: all of a type before "
                                             "the next")
        contribute(s, c, price)
        s.pay(corp_key(c.id), "bank", price)
        if row is None:
            c.trains.append(remove_named(s.market_trains, name))
        else:
            sell_one(row)
            c.trains.append(self.trains[name])
        self.train_bought(c, source, name, price)
        if source == "bank":
            for phase in self.phases.after_buying(s.phase, self.trains[name].card):
                self.new_phase(phase, c)

    def train_bought(self, c, source: str, name: str, price: int):
        """What follows a purchase by rule (before its phase change, when from the bank);
        ``source``: ``"bank"``, ``"market"`` or the selling company's id [nothing]."""

    def president_sale_most(self, c, d, name: str) -> int:
        """How many shares of ``d`` the president ``name`` may sell toward ``c``'s
        forced train purchase (:func:`.emergency.president_sales`: 1832 [10]
        Presidential Stock Sales, 1833NE "Emergency sell") [what he may sell
        (:meth:`may_sell`), and of ``c`` itself no more than keeps him its president:
        both titles' "not ... to change the presidency"]."""
        n = self.may_sell(d, name)
        if d is c:
            n = keeping_presidency(self.state, d, name, n, scaled(self.shares, d, "president"))
        return n

    def president_sell(self, d, name: str, count: int):
        """:func:`.emergency.sell_out`: the bankrupt president ``name`` sells ``count``
        shares of ``d`` as the title sells a president's shares for a train [at the
        price now, :meth:`sell_shares`]."""
        self.sell_shares(d, name, count)

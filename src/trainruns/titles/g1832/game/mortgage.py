"""The Southern Bank's mortgages (1832 [17.3], the ``southern_bank`` variant).

"You may loan money to your company by taking out a mortgage on a company asset. The
mortgage value is from half to double the value of the asset. At the start of each
operating round, the company will pay you 10% interest (10% of the value of the
mortgaged asset). If the company does not have enough money to pay the interest, it
pays nothing. The company will repay the mortgage for half to full value of the asset.
Assets eligible to be mortgaged are trains and tokens that the company has paid to
place. You may only have one mortgage outstanding at any one time. If the asset
disappears, you lose your investment. Assets disappear if they become obsolete, you
cease to be the president of the company holding the asset, or the company is involved
in a merger. You may change the status of the mortgage once per complete operating
round". "While it has a mortgage outstanding, it does not count against the player's
certificate limit."

Readings (docs/gaps.md): P6's owner takes out or repays the mortgage during the
operating turn of a company he presides (``mortgage`` / ``repay_mortgage``, listed with
their amount ranges); an asset's value is the train's printed price or what the token
cost to place; a train is known by its type (the mortgage stands while the company
keeps a train of that type); the mortgage is also lost when P6 changes hands or the
company closes; "$10 or 10% interest": a mortgaged P6 pays the interest instead of its
$10, and without a mortgage it pays $10 until phase 5 and nothing after ([4.1.3]).
"""

from __future__ import annotations

from trainruns.game.errors import Refusal
from trainruns.game.state import corp_key, player_key
from trainruns.game.train import kinds
from trainruns.titles.g1832.game.state import Mortgage


class MortgageRules:
    def _p6_owner(self) -> str | None:
        p6 = self.state.private.get(self.data["southern_bank"]["id"])
        if p6 is None or not p6.open or not (p6.owner or "").startswith("player:"):
            return None
        return p6.owner.partition(":")[2]

    def _assets(self, c) -> dict:
        """Mortgageable assets of ``c``: ``train:NAME`` and ``token:HEX.K`` -> value."""
        out = {f"train:{t}": self.trains.price(t) for t in kinds(c.trains)}
        for i, (h, k) in enumerate(c.tokens):
            cost = c.token_costs[i] if i < len(c.token_costs) else 0
            if cost:
                out[f"token:{h}.{k}"] = cost
        return out

    def mortgage(self) -> Mortgage | None:
        """The mortgage outstanding now: None once its asset, the presidency of its
        holder or P6 is gone."""
        m = self.state.title_state.mortgage
        if not m or self._p6_owner() != m.player:
            return None
        c = self.state.corp[m.corporation]
        if c.closed or c.president != m.player or m.asset not in self._assets(c):
            return None
        return m

    def lose_mortgage_in_merger(self, *companies):
        """[17.3] "Assets disappear if ... the company is involved in a merger": the
        mortgage on an asset of a company forming a System or in a takeover, the buyer
        included (it stays open, so the loss is not read from its state later), is lost
        at the merger."""
        m = self.state.title_state.mortgage
        if m and m.corporation in {c.id for c in companies}:
            self._lose_mortgage()

    def after_action(self):
        """[17.3] "Assets disappear if they become obsolete, you cease to be the
        president of the company holding the asset ...": the loss is settled after each
        decision, so a presidency lost and won back, or a train sold and one of its type
        bought again, does not bring the mortgage back."""
        super().after_action()
        self._settle_lost_mortgage()

    def _settle_lost_mortgage(self):
        if self.state.title_state.mortgage and self.mortgage() is None:
            self._lose_mortgage()

    def _lose_mortgage(self):
        t = self.state.title_state
        m = t.mortgage
        self.state.event("mortgage_lost", player=m.player, corporation=m.corporation, asset=m.asset)
        t.mortgage = None

    def _or_key(self):
        return [self.stock_round_number, self.or_set[0] if self.or_set else 0]

    def mortgage_offers(self, c) -> list[dict]:
        owner = self._p6_owner()
        if not self.southern_bank or owner is None or c.president != owner or c.closed:
            return []
        if self.state.title_state.mortgage_or == self._or_key():
            return []   # once per complete operating round
        m = self.mortgage()
        cash = self.state.player[owner].cash
        if m is None:
            out = []
            for asset, value in self._assets(c).items():
                low, high = -(-value // 2), min(2 * value, cash)
                if high >= low:
                    out.append({"type": "mortgage", "corporation": c.id, "player": owner, "asset": asset,
                                "amount": low if high == low else {"min": low, "max": high}})
            return out
        if m.corporation != c.id:
            return []
        low, high = -(-m.value // 2), min(m.value, c.cash)
        if high < low:
            return []
        return [{"type": "repay_mortgage", "corporation": c.id, "player": owner,
                 "amount": low if high == low else {"min": low, "max": high}}]

    def mortgage_process(self, c, a):
        self._settle_lost_mortgage()
        offer = next((x for x in self.mortgage_offers(c) if x["type"] == a["type"]
                      and x.get("asset") == a.get("asset")), None)
        amount = a.get("amount")
        if offer is None:
            raise Refusal("mortgage.illegal", "P6's owner takes out one mortgage at a time on a train or paid token "
                                              "of a company he presides, or repays it, once per operating round "
                                              "[17.3]")
        rng = offer["amount"]
        low, high = (rng["min"], rng["max"]) if isinstance(rng, dict) else (rng, rng)
        if not isinstance(amount, int) or isinstance(amount, bool) or not low <= amount <= high:
            raise Refusal("mortgage.amount", f"the amount is ${low} to ${high} now [17.3]")
        s = self.state
        owner = player_key(offer["player"])
        if a["type"] == "mortgage":
            s.pay(owner, corp_key(c.id), amount)
            s.title_state.mortgage = Mortgage(offer["player"], c.id, offer["asset"],
                                              self._assets(c)[offer["asset"]], amount)
            s.event("mortgage", player=offer["player"], corporation=c.id, asset=offer["asset"], amount=amount)
        else:
            s.pay(corp_key(c.id), owner, amount)
            s.title_state.mortgage = None
            s.event("mortgage_repaid", player=offer["player"], corporation=c.id, amount=amount)
        s.title_state.mortgage_or = self._or_key()
        return a

    def mortgage_income(self) -> bool:
        """At the start of an operating round: the interest of the mortgage (True), or
        False when there is none (P6 then pays its $10 until phase 5)."""
        self._settle_lost_mortgage()
        m = self.mortgage()
        if m is None:
            return False
        c = self.state.corp[m.corporation]
        interest = m.value * self.data["mortgage"]["interest_percent"] // 100
        if c.cash >= interest:
            self.state.pay(corp_key(c.id), player_key(m.player), interest)
            self.state.event("interest", corporation=c.id, player=m.player, amount=interest)
        else:
            self.state.event("interest", corporation=c.id, player=m.player, amount=0)
        return True

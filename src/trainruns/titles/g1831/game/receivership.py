"""1831's receivership (5.4) and debt (5.11): entering it, the minimum route a company
in it must build toward (5.4.9, 5.4.10), the interest on its loan, paying the debt off,
and leaving it at the end of an Operation Set."""

from __future__ import annotations

from trainruns.game import route_adapter
from trainruns.game.state import player_key
from trainruns.titles.g1831.game.operating import run_budget
from trainruns.titles.g1831.game.trains import train_type
from trainruns.titles.g1831.route.mapformat import SLOT_TYPES


class ReceivershipRules:
    @staticmethod
    def runs_to(kind: str) -> tuple:
        """5.6.2.3: an S train (``kind`` "S") runs to Stations, a YD train to Rail Yards,
        an MX to both."""
        return {"S": ("station",), "YD": ("yard",)}.get(kind, SLOT_TYPES)

    def route_need(self, c):
        """5.4.9: a company in receivership needs a route to one-half (rounded up) of
        the size of the smallest train it owns of its tokens, of the types that train
        runs to (a mixed train: at least one Station and one Rail Yard): ``(tokens,
        [train types of that size])``; None without a train."""
        if not c.trains:
            return None
        size = min(t.distance for t in c.trains)
        kinds = sorted({train_type(t) for t in c.trains if t.distance == size})
        return -(-size // 2), kinds

    def route_met(self, c) -> bool:
        """5.4.9: whether the company has its minimum route: a route of one train of
        the needed size and type (the mixed one with only 5.4.9's "at least one Station,
        one Rail Yard"), in the run the game's bounded search finds (5.6.6), runs to
        that many of its tokens; a need of one token is a token of a type the train
        runs to. With two smallest trains of one size, either will do (docs/gaps.md)."""
        need = self.route_need(c)
        if need is None:
            return True
        k, kinds = need
        for kind in kinds:
            if k < 2:
                if any(x.type in self.runs_to(kind) for x in c.sites):
                    return True
                continue
            if len({x.hex for x in c.sites}) < k:
                continue   # fewer token cities than the route needs
            pos = self.position(c.id, trains=[{"name": f"{k}{kind}", "status": "new"}])
            pos.pop("track_rights", None)      # 5.4.7: no rights in receivership
            pos.pop("rules", None)             # 5.4.9: any mix with one of each type
            if route_adapter.bounded_most_run_to(pos, run_budget()) >= k:
                return True
        return False

    def must_build(self, c) -> bool:
        """5.4.10: a company in receivership without its minimum route (5.4.9) "must lay
        track and purchase tokens (subject to the limitations of 5.2.4.2 & 5.2.4.3)", on
        debt; 5.4.15: not once the bank has run out. So its track phase may not end
        while a lay or a token it lists (yellow lays, tokens of its train's types:
        :meth:`tile_lays`, :meth:`token_places`) is left and the route can still be made.

        5.4.10 asks the lays and tokens "to make the route": when none can make it this
        phase, nothing is required and the company may pass. That is certain when its
        token cities of the types its train runs to, plus one per token it may still
        buy this phase (5.2.4.2-3's limit, its supply of those types, 1.9), are fewer
        than the route's count, or when a type the route needs (a mixed train: one
        Station and one Rail Yard, 5.4.9) is neither held nor buyable. Short of that the
        company keeps building; the phase's limits end it in any case."""
        if not c.receivership or self.state.bank.broken or self.route_met(c):
            return False
        k, kinds = self.route_need(c)
        room = max(0, self.token_limit(c) - self.tokens_bought(c))
        for kind in kinds:   # two smallest trains of one size: either route will do (route_met)
            runs = self.runs_to(kind)
            mine = [x for x in c.sites if x.type in runs]
            # the types the route needs: the train's one type; a mixed train's route of
            # two or more tokens one Station and one Rail Yard (5.4.9)
            needs = set(runs) if len(runs) == 1 or k > 1 else set()
            missing = needs - {x.type for x in mine}
            if len(missing) > room or any(self.tokens_left(c, t) <= 0 for t in missing):
                continue
            buyable = min(room, sum(max(0, self.tokens_left(c, t)) for t in runs))
            if len({x.hex for x in mine}) + buyable >= k:
                return True
        return False

    def enter_receivership(self, c):
        """5.4: the marker moves one left (5.4.5); interest from the next OR (5.4.1.2)."""
        if c.receivership:
            return
        c.receivership = True
        c.entered_or = self.or_counter
        self.state.event("receivership", corporation=c.id)
        if c.bond_cell is not None:
            self.close_bonds(c, half=True)   # 5.4.14
        self.move_marker(c, "left", 1, "receivership")

    def interest(self, c):
        """5.3.9: 10% of the debt, rounded up, added to it at the end of the Buy Trains
        phase (not in the OR of entry)."""
        if c.receivership and c.debt and c.entered_or != self.or_counter:
            add = -(-c.debt * self.numbers["interest_percent"] // 100)
            c.debt += add
            self.state.event("interest", corporation=c.id, amount=add, debt=c.debt)

    def pay_debt(self, c):
        """5.11: cash up to the loan, then the president's cash."""
        debt = c.debt
        if not debt or c.closed or c.cell is None:
            return
        a = min(debt, c.cash)
        if a:
            self.state.pay(f"corp:{c.id}", "bank", a)
        b = min(debt - a, self.state.player[c.president].cash) if c.president else 0
        if b:
            self.state.pay(player_key(c.president), "bank", b)
        c.debt -= a + b
        if a + b:
            self.state.event("debt_paid", corporation=c.id, amount=a + b, debt=c.debt)

    def end_of_set(self):
        """5.4.11: out of receivership at the end of an Operation Set with no debt and
        some cash."""
        for c in self.state.corporations:
            if c.receivership and not c.debt and c.cash > 0:
                c.receivership = False
                self.state.event("receivership_ends", corporation=c.id)
                self.update_president(c)   # 5.4.12: the presidency was frozen until now
                for t in list(c.trains):
                    if t.status == "retired":
                        c.trains.remove(t)   # 5.3.6: obsolete trains go once out of receivership
                        self.state.event("retire", corporation=c.id, train=t.name)

"""1832 mergers ([11]): who may merge, System formation ([11.6]) and takeovers ([11.7]).

- Merger phase: after each stock round in phases 4 and 5 (the phases flagged
  ``mergers``), and once more, the "last chance", right after the operating turn in which
  the first 6-train is bought, for two companies of one president only ([11] Merger
  Phase; [11] Merger Eligibility: none afterwards). Players act in priority order
  (:mod:`.steps.merger`).
- Eligibility ([11] Merger Eligibility): both companies have operated; each takes part in
  at most one merger of each type; they reach each other (one company's run of unlimited
  length reaches a city holding a token of the other, or both have a token in one city);
  the other president consents (a ``consent`` action).
- A System ([11.6]) is a new corporation of 20 shares (the 5% unit) made of the two shells:
  every certificate keeps its number of shares; the initiator, or the first player
  clockwise from him holding 40% of the two companies, exchanges 40% (his presidents'
  certificates included) for the System's president's certificate of 4 shares, so each
  holder keeps his count; a component president's certificate held by someone else is a
  vice-president's certificate (one certificate of 2 shares). Price: the average of the
  two prices rounded to the nearest market value (a tie rounds up), placed on the row of
  the leftmost predecessor and moved down-right along the diagonal to the soft or the
  hard ledge; par = that price, at most $275. Cash, trains, privates and placed tokens
  are inherited; a second token in one city goes back to the charter, every token left
  on the charter costs $100; a second WVCF token goes back to the bank ([7.6]).
- A takeover ([11.7]): the initiator's company buys every share of the other: players'
  and open-market shares at the market price, unsold shares at par (to the bank), redeemed shares not at all; the president adds what the treasury lacks. The
  buyer keeps its type, inherits cash, trains (discarding down to its limit), privates
  and placed tokens (unplaced ones are discarded; a second token in one city goes back
  to the charter at $100); the certificate limit moves one column right per shell taken
  over.
"""

from __future__ import annotations

from functools import lru_cache

from trainruns.game import emergency, merger
from trainruns.game.shares import certificates, scaled, seat_order_from
from trainruns.game.state import player_key
from trainruns.titles.g1832.game.state import Corporation1832, SystemFormed, Takeover
from trainruns.titles.tiled import load_data


@lru_cache(maxsize=None)
def _systems() -> tuple:
    """[11.6] the five Systems (data/companies.json), read once."""
    return tuple(load_data("trainruns.titles.g1832", "companies.json")["systems"])


class MergerRules:
    # --- the merger phases ([11] Merger Phase) ----------------------------------------------

    def merger_phase(self):
        """The merger round after a stock round in phases 4 and 5, when some player has a
        merger to propose; else none ([11]: "this phase is skipped")."""
        from trainruns.titles.g1832.game.steps.merger import MergerRound

        if not self.phases.has(self.state.phase, "mergers"):
            return None
        if not any(self.merger_proposals(p.name, last_chance=False) for p in self.state.players):
            return None
        return MergerRound(self.game, self.priority)

    def start_last_chance(self):
        """[11] Merger Phase: the first 6-train opens one last merger phase after the
        buying company's turn (:meth:`last_chance_turns`)."""
        t = self.state.title_state
        if t.last_chance is None:
            t.last_chance = "pending"

    def last_chance_turns(self):
        """The turns of the last-chance merger phase, once, in priority order (players
        presiding two companies that may merge); the operating round runs them before its
        next company."""
        from trainruns.titles.g1832.game.steps.merger import MergerTurn

        t = self.state.title_state
        if t.last_chance != "pending":
            return []
        t.last_chance = "done"
        order = [self.priority] + seat_order_from(self.state, self.priority)
        turns = [MergerTurn(self.game, p, last_chance=True) for p in order
                 if self.merger_proposals(p, last_chance=True)]
        if turns:
            self.state.event("merger_phase", last_chance=True)
        return turns

    # --- eligibility ([11] Merger Eligibility) ------------------------------------------------

    def _mergeable(self):
        return [c for c in self.state.corporations
                if c.started and c.capitalised and c.operated and c.cell is not None]

    def connected(self, x, y) -> bool:
        """[11] Merger Eligibility: a run of unlimited length of one company reaches a city
        with a token of the other, or both have a token in one city."""
        tx, ty = set(x.tokens), set(y.tokens)
        return bool(tx & ty) or any(a.tokens and merger.reaches(self, a, b) for a, b in ((x, ty), (y, tx)))

    def exchanger(self, x, y, initiator):
        """[11.6] System Presidency: the initiator, or the first player clockwise from
        him, holding 40% (4 shares) of the two companies; None if nobody does."""
        need = 2 * self.shares["president"]
        for name in [initiator] + seat_order_from(self.state, initiator):
            if x.held(player_key(name)) + y.held(player_key(name)) >= need:
                return name
        return None

    def free_system(self):
        used = {c.id for c in self.state.corporations}
        return next((d["id"] for d in _systems() if d["id"] not in used), None)

    def system_id(self, name):
        """A System's id from its id or letter (AMTK or A), None if there is none."""
        for d in _systems():
            if str(name).lower() in [d["id"].lower(), *(x.lower() for x in d.get("aliases", []))]:
                return d["id"]
        return None

    def buyout_payments(self, y) -> list:
        """[11.7] a takeover buys players' and open-market shares at the market price,
        unsold shares at par (paid to the bank); shares the company redeemed are its own
        assets and are not bought."""
        price = self.market.price(y.cell)
        return [(holder, n * (self.ipo_price(y) if holder == "ipo" else price))
                for holder, n in sorted(y.shares.items()) if holder != "treasury"]

    def takeover_funds(self, x, y, player) -> int:
        """[11.7] what ``player``, president of ``x``, can put toward buying ``y``: the
        treasury, his cash and his share sales, which are "subject to the 50% maximum in
        the open market" and never of ``y`` (nor, as in [10], a change of ``x``'s
        presidency), each company's shares at today's price (sold in one block)."""
        return x.cash + self.state.player[player].cash + sum(
            n * self.market.price(d.cell) for d, n in self.takeover_sales(x, y, player))

    def takeover_sales(self, x, y, player) -> list:
        """(company, most shares) ``player`` may sell to pay for ``y`` ([11.7])."""
        return [(d, n) for d, n in emergency.president_sales(self, x, player) if d is not y]

    def _pair_kinds(self, x, y, player, sid, same_president) -> list[str]:
        """The merger types ``player``, president of ``x``, may initiate with ``y``."""
        kinds = []
        if (sid and not x.system and not y.system
                and "system" not in x.merger_kinds and "system" not in y.merger_kinds
                and not (same_president and y.id < x.id)   # one proposal per pair of one president
                and self.exchanger(x, y, player)):
            kinds.append("system")
        if "takeover" not in x.merger_kinds and "takeover" not in y.merger_kinds and \
                self.takeover_funds(x, y, player) >= merger.buyout_cost(self, y):
            kinds.append("takeover")
        return kinds

    def merger_proposals(self, player, last_chance, declined=()) -> list[dict]:
        """Every merger ``player`` may propose now for a company he presides ([11]):
        ``{"type": "merge", "player", "corporation" (his company, the initiator's),
        "with", "kind": "system" | "takeover" | "yield", "system"}``. ``yield`` ([11]
        Merger Initiator) offers the initiator's status to the other president, who then
        chooses a type his company may initiate, or refuses."""
        cands = self._mergeable()
        out = []
        sid = self.free_system()
        for x in cands:
            if x.president != player:
                continue
            for y in cands:
                if y is x or (last_chance and y.president != player):
                    continue
                kinds = self._pair_kinds(x, y, player, sid, y.president == player)
                if y.president != player and self._pair_kinds(y, x, y.president, sid, False):
                    kinds.append("yield")
                kinds = [k for k in kinds if (x.id, y.id, k) not in declined]
                if not kinds or not self.connected(x, y):
                    continue
                out += self._merge_actions(player, x, y, kinds, sid)
        return out

    def yielded_mergers(self, x, y, player) -> list[dict]:
        """[11] Merger Initiator: the mergers ``player`` (president of ``y``), made the
        initiator by ``x``'s president, may choose for ``y`` with ``x``."""
        sid = self.free_system()
        return self._merge_actions(player, y, x, self._pair_kinds(y, x, player, sid, False), sid)

    @staticmethod
    def _merge_actions(player, x, y, kinds, sid) -> list[dict]:
        """``player``'s ``merge`` of ``x`` with ``y``, one for each of ``kinds``; a
        System's names the free one, ``sid``."""
        return [dict({"type": "merge", "player": player, "corporation": x.id, "with": y.id, "kind": k},
                     **({"system": sid} if k == "system" else {})) for k in kinds]

    # --- System formation ([11.6]) --------------------------------------------------------------

    def system_cell(self, x, y):
        """[11.6] New Share Price: the cell of the System's token."""
        market = self.market
        avg2 = market.price(x.cell) + market.price(y.cell)   # twice the average
        values = sorted({p for row in market.rows for p, _k in row})
        price = min(values, key=lambda v: (abs(2 * v - avg2), -v))   # a tie rounds up
        row = min((x.cell, y.cell), key=lambda cell: (cell[1], cell[0]))[0]
        cells = [(r, c) for r, cells in enumerate(market.rows) for c, (p, _k) in enumerate(cells) if p == price]
        # the box of that price on the leftmost predecessor's row, or (a row without it)
        # the one of the diagonal nearest to that row
        start = min(cells, key=lambda cell: (abs(cell[0] - row), cell[0]))
        return self._slide(start)

    def _slide(self, cell):
        """Down and to the right along the diagonal (same price) until the soft ledge or
        the hard ledge, whichever comes first ([11.6] New Share Price)."""
        market = self.market
        r, c = cell
        below = "i" in market.kinds(cell)
        while True:
            nxt = (r + 1, c + 1)
            if not market.exists(nxt) or market.price(nxt) != market.price((r, c)):
                return (r, c)   # the hard ledge
            if not below and "i" in market.kinds(nxt):
                return (r, c)   # the soft ledge
            r, c = nxt

    def system_par(self, cell) -> int:
        """[11.6] the par follows the new share price; above $275 it is $275."""
        return min(self.market.price(cell), self.data["mergers"]["system_par_max"])

    def form_system(self, x, y, initiator, sid):
        """[11.6] Two companies become System ``sid`` (module docstring)."""
        s = self.state
        info = next(d for d in _systems() if d["id"] == sid)
        self.lose_mortgage_in_merger(x, y)
        pres = self.exchanger(x, y, initiator)
        cell = self.system_cell(x, y)
        supply = len(x.token_costs) + len(y.token_costs)
        sysc = Corporation1832(id=sid, name=info["name"], home=x.home, home_stop=x.home_stop,
                               token_costs=[], total_shares=x.total_shares + y.total_shares,
                               par=self.system_par(cell), cell=cell, floated=True, capitalised=True,
                               operated=True, president=pres, system=True, shells=info.get("shells", 2),
                               components=[x.id, y.id], merger_kinds=["system"])
        # every certificate keeps its shares: 40% exchanged for the 4-share president's
        # certificate leaves each holder's count as it was
        for c in (x, y):
            for holder, n in c.shares.items():
                sysc.shares[holder] = sysc.shares.get(holder, 0) + n
        vp = {}
        for c in (x, y):
            if c.president != pres:
                vp[c.id] = player_key(c.president)   # [11.6] a vice-president's certificate
        sysc.vice_presidents = vp
        s.corporations.append(sysc)
        s.corp[sid] = sysc
        self.add_aliases(info)
        self.market.place(sid, cell)
        tokens, returned, discarded = self._merged_tokens(x.tokens, y.tokens, sid, self.constituents(x) +
                                                          self.constituents(y))
        sysc.tokens = tokens
        # [11.6] System Company Tokens: all remaining tokens cost $100; [7.2] a second
        # home token in one city is discarded
        supply -= len(discarded)
        sysc.token_costs = [0] * len(tokens) + [self.data["mergers"]["system_token_cost"]] * (supply - len(tokens))
        for c in (x, y):
            c.merged_into = sid
            c.merger_kinds.append("system")
            merger.absorb(self, sysc, c)
        s.event("system", system=sid, companies=[x.id, y.id], president=pres, price=self.market.price(cell),
                par=sysc.par, returned_tokens=returned, **({"discarded_tokens": discarded} if discarded else {}))
        s.title_state.systems.append(SystemFormed(sid, [x.id, y.id], self.market.price(cell), sysc.par))
        self.change_president(sysc)   # [11.6] a player holding more takes it ([5.5])
        return sysc

    def _merged_tokens(self, mine, theirs, cid, parts):
        """Placed tokens of both, in order; a second one in a city goes back to the
        charter, or, when both were home tokens, is discarded ([7.2]; ``parts``: the
        companies whose homes count)."""
        out, returned, discarded = list(mine), [], []
        for t in theirs:
            if t not in out:
                out.append(t)
            elif self.both_homes(parts, t):
                discarded.append({"hex": t[0], "stop": t[1]})
                self.state.event("token_discarded", corporation=cid, hex=t[0], stop=t[1])
            else:
                returned.append({"hex": t[0], "stop": t[1]})
                self.state.event("token_returned", corporation=cid, hex=t[0], stop=t[1])
        return out, returned, discarded

    def constituents(self, c) -> list:
        """The 10-share companies whose shells and tokens ``c`` holds: itself (not a
        System, which is its components), its components and what it took over."""
        out = [] if c.system else [c]
        for cid in list(c.components) + list(c.took_over):
            out += self.constituents(self.state.corp[cid])
        return out

    @staticmethod
    def both_homes(parts, site) -> bool:
        """[7.2] "If both tokens were home tokens (i.e., A&WP and GRR in Atlanta)": the
        city is the home of two of the companies."""
        return sum(1 for p in parts if (p.home, p.home_stop) == tuple(site)) >= 2

    def settle_returned_tokens(self, c, places: list[int]):
        """[7.2] the tokens an upgrade just took from ``c`` (its last ``token_returned``
        events), which stood at ``places`` of its placed tokens: what each was paid
        leaves ``c.token_costs`` with it ([17.3] the others keep theirs), and each goes
        to the charter, to be placed again for $100 after the charter's cheaper ones, or,
        when both tokens in the city were home tokens, is discarded."""
        events = [e for e in self.state.events if e["event"] == "token_returned" and e["corporation"] == c.id]
        back = 0
        for place, e in sorted(zip(places, events[len(events) - len(places):]), reverse=True):
            del c.token_costs[place]
            if self.both_homes(self.constituents(c), (e["hex"], e["stop"])):
                e["event"] = "token_discarded"
            else:
                back += 1
        c.token_costs += [self.data["mergers"]["returned_token_cost"]] * back

    def absorbed_assets(self, c, to):
        """The WVCF and special tokens of ``c`` go to ``to`` ([11.6] System Assets,
        [11.7] Post-merger Assets; its cash, trains and privates: :func:`.merger.absorb`)."""
        s = self.state
        t = s.title_state
        if c.id in t.coal_holders:
            t.coal_holders.remove(c.id)
            if to.id in t.coal_holders:
                t.coal_tokens_left += 1   # [7.6] the second WVCF token goes back to the bank
                s.event("coal_token_returned", corporation=to.id)
            else:
                t.coal_holders.append(to.id)
        for token in (t.cotton, t.port):
            if token and token.corporation == c.id:
                token.corporation = to.id
        if t.london == c.id:
            t.london = to.id
        if t.key_west == c.id and "key_west_inherited" in self.variants:
            t.key_west = to.id   # [11] the variant: the token is inherited (docs/gaps.md)

    # --- takeovers ([11.7]) -----------------------------------------------------------------------

    def take_over(self, x, y):
        s = self.state
        self.lose_mortgage_in_merger(x, y)
        cost = merger.buyout_cost(self, y)
        emergency.contribute(s, x, cost)   # [11.7] the president adds what the treasury lacks
        merger.buy_out(self, x, y)
        tokens, returned, discarded = self._merged_tokens(x.tokens, y.tokens, x.id,
                                                          self.constituents(x) + self.constituents(y))
        # [11.7] the buyer's placed tokens at what it paid for them ([17.3]: a mortgage
        # may be taken on them), the target's as nothing paid; the buyer's own charter
        # tokens at their costs, then the returned ones at $100 ([7.2]); the target's
        # unplaced tokens and a second home token are gone
        paid, unplaced = x.token_costs[:len(x.tokens)], x.token_costs[len(x.tokens):]
        x.tokens = tokens
        x.token_costs = (paid + [0] * (len(tokens) - len(paid)) + unplaced
                         + [self.data["mergers"]["returned_token_cost"]] * len(returned))
        shells = y.shells
        y.taken_over_by = x.id
        x.merger_kinds.append("takeover")
        y.merger_kinds.append("takeover")
        x.took_over.append(y.id)
        merger.absorb(self, x, y)
        s.event("takeover", corporation=x.id, company=y.id, cost=cost, shells=shells, returned_tokens=returned,
                **({"discarded_tokens": discarded} if discarded else {}))
        s.title_state.takeovers.append(Takeover(x.id, y.id, cost))
        self.queue_discards(x)   # [11.7] extra trains to the open market, president's choice

    # --- the certificate limit ([5.4], [11.6], [11.7]) ----------------------------------------------

    def limit_columns(self) -> int:
        """Table 2 columns to the right: one per closed company ([5.1.1]), one per shell
        taken over ([11.7]); a System's formation moves none ([11.6])."""
        return sum(c.shells for c in self.state.corporations if c.closed and not c.merged_into)

    def certificates_held(self, c, name) -> int:
        """[5.4] the certificates of ``c`` ``name`` holds: a president's certificate is one
        (4 shares in a System), and so is a vice-president's certificate (2 shares, [11.6])."""
        n = certificates(c, name, scaled(self.shares, c, "president"))
        return n - len(self.vice_certs(c, player_key(name)))

    # --- the state JSON -------------------------------------------------------------------------------

    def merger_json(self, c) -> dict:
        out = {}
        if c.system:
            # [11.6] the vice-presidents' certificates: held by players (by name) or in
            # the open market
            out["system"] = {"components": list(c.components), "shells": c.shells,
                             "vice_presidents": {comp: h.partition(":")[2] for comp, h in c.vice_presidents.items()
                                                 if h.startswith("player:")},
                             "vice_presidents_in_market": [comp for comp in c.components
                                                           if c.vice_presidents.get(comp) == "market"]}
        if c.system or c.took_over:
            out["token_supply"] = len(c.token_costs)
        if c.merged_into:
            out["merged_into"] = c.merged_into
        if c.taken_over_by:
            out["taken_over_by"] = c.taken_over_by
        if c.took_over:
            out["took_over"] = list(c.took_over)
        return out

    def mergers_state_json(self) -> dict:
        t = self.state.title_state
        return {"systems": [x.to_json() for x in t.systems],
                "takeovers": [x.to_json() for x in t.takeovers],
                "last_chance": t.last_chance}

    def merge_refusal(self, a):
        """The rule a refused ``merge`` breaks, for its message."""
        s = self.state
        x = s.corp.get(a["corporation"])
        y = s.corp.get(a.get("with"))
        if x is None or y is None or x is y:
            return "merger.partner", "a merger joins two different public companies [11]"
        if a.get("kind") not in ("system", "takeover", "yield"):
            return "merger.kind", "a merger is a 'system' formation or a 'takeover' (field 'kind'), or the initiator's " \
                                  "status is yielded ('yield') [11] Merger Types, Merger Initiator"
        if x.president != a.get("player"):
            return "merger.initiator", f"{a.get('player')} does not preside {x.id}: the initiator proposes for his company [11]"
        for c in (x, y):
            if not (c.started and c.capitalised and c.operated):
                return "merger.eligibility", f"{c.id} has not operated: a company must operate before it merges [11]"
        if a["kind"] in x.merger_kinds or a["kind"] in y.merger_kinds:
            return "merger.once", "a company takes part in one merger of each type [11] Merger Eligibility"
        if a["kind"] == "system" and (x.system or y.system):
            return "merger.system", "a System is formed from two 10-share companies [11.6]"
        if a["kind"] == "system" and not self.exchanger(x, y, a["player"]):
            return "merger.presidency", "nobody holds 40% of the two companies for the System's president's " \
                                        "certificate [11.6] System Presidency"
        if a["kind"] == "takeover" and self.takeover_funds(x, y, a["player"]) < merger.buyout_cost(self, y):
            return "merger.cash", f"{x.id} and its president, selling what he may, cannot pay " \
                                  f"${merger.buyout_cost(self, y)} for the shares of {y.id} [11.7]"
        if a["kind"] == "yield" and not self.yielded_mergers(x, y, y.president):
            return "merger.yield", f"{y.president} could initiate no merger of {y.id} with {x.id} [11] Merger Initiator"
        if not self.connected(x, y):
            return "merger.connection", f"{x.id} and {y.id} do not reach each other [11] Merger Eligibility"
        return "merger.illegal", "that merger is not allowed now [11]"


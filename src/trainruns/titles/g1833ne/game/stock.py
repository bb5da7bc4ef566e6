"""1833NE's incremental capitalisation and stock round rules (summary "Capitalization
type", "Floating percentage and per-player share limits", "Comparison with 1830" items
2-4; [E] defaults, listed in docs/gaps.md).

- Launch: the president's 20% certificate at an initial price from $40 to $150; twice
  the price goes into the corporation's treasury; the other eight shares stay there.
- Later shares come from the treasury at the current price (paid to the corporation) or
  from the Stock Market at the current price (paid to the bank).
- No player holds more than 60%; at most 50% in the Stock Market; the president's
  certificate never goes there; before a corporation has operated only its president
  sells; only the president's sales move the price (one column left, however many).
- End of a stock round: a corporation with shares in the Stock Market moves one column
  left; one 100% held by players one right. At $0 a corporation closes.
"""

from __future__ import annotations

from trainruns.game.train import names


class StockRules:
    ipo_source = "treasury"   # "Capitalization type": later shares come from the treasury

    # --- certificate limits --------------------------------------------------------------

    def cert_limit(self) -> int:
        """"Certificate limit in the Standard game": by players and corporations in play
        (it drops when one closes; [E] table for fewer than 9)."""
        row = self.data["cert_limit"][str(len(self.state.players))]
        in_play = sum(1 for c in self.state.corporations if not c.closed)
        return row[str(max(5, min(9, in_play)))]

    def par_prices(self, c=None) -> list[int]:
        """"choosing an initial stock price between $40 and $150" (market values [E])."""
        return self.market.par_prices()

    def price(self, c) -> int:
        return self.market.price(c.cell)

    def ipo_price(self, c) -> int:
        return self.price(c)

    # --- launching and buying ------------------------------------------------------------------

    def start_corporation(self, c, name: str, price: int):
        """"Capitalization type": the president pays twice the initial price into the
        treasury for the 20% certificate; the corporation operates from the next
        operating round ([E]: its home station is placed now)."""
        super().start_corporation(c, name, price)
        c.floated = c.capitalised = True
        self.state.event("launch", corporation=c.id, player=name, price=price, cash=price * self.shares["president"])
        self.home_token(c)

    def may_sell(self, c, name: str) -> int:
        """How many shares of ``c`` a player may sell now: none before its first run
        unless he is its president; the 50% market limit; the president's certificate
        stays with a player (another must hold 20% to take it)."""
        if c.cell is None or (not c.operated and c.president != name):
            return 0
        return super().may_sell(c, name)

    def why_no_sale(self, c, name: str) -> str:
        """Why player ``name`` may sell no share of ``c`` now (:meth:`may_sell` says
        none), with the summary's heading."""
        if c.closed or c.cell is None:
            return f"{c.id} is not in the Stock Market"
        if not c.operated and c.president != name:
            return (f"until {c.id} has operated for the first time, only its president may sell its shares"
                    f"{self.cite('limits')}")
        return super().why_no_sale(c, name)

    def price_after_sale(self, c, count: int, by_president: bool):
        """"Only sales by the president lower the price (by a single column, however many
        shares are sold)"; the seller gets the price before the move ([E])."""
        if by_president:
            self.move_price(c, -1, "president's sale")

    # --- prices ---------------------------------------------------------------------------

    def move_price(self, c, steps: int, reason: str):
        """Move the price token ``steps`` columns (negative: left) along the linear
        market; at $0 the corporation closes ("A corporation closes if its stock price
        falls to $0")."""
        if c.closed or not steps:
            return
        new = c.cell
        for _ in range(abs(steps)):
            new = self.market.right(new) if steps > 0 else self.market.left(new)
        if self.move_share_price(c, new, reason) and self.market.zone(new) == "closed":
            self.close_corporation(c)

    def stock_round_end_move(self, c):
        """"at the end of a stock round corporations with shares in the Stock Market
        drop while those 100% held by players rise" (one column each, [E]); priority goes
        to the player after the last to act, not a bankrupt one ([E])."""
        if c.held("market"):
            self.move_price(c, -1, "shares in the Stock Market")
        elif not c.held("treasury"):
            self.move_price(c, 1, "sold out")

    # --- closing --------------------------------------------------------------------------

    def closing_trains(self, c):
        """A corporation at $0 closes: its trains leave the game (not to the open
        market); it never comes back, and the certificate limit drops."""
        if c.trains:
            self.state.event("trains_removed", corporation=c.id, trains=names(c.trains))

    def closing_assets(self, c):
        """Its ferries leave the game with it."""
        t = self.state.title_state
        for f, owner in t.ferries.items():
            if owner == c.id:
                t.ferries[f] = "removed"

"""A president raising money for his company's forced train purchase, and his
bankruptcy when he cannot (1832 [10] Presidential Stock Sales, [13] Player Bankruptcy;
1833NE "Emergency sell").

Which shares he may sell, and how a sale moves the price, are the title's
(:meth:`~.game_rules.GameRules.president_sale_most`,
:meth:`~.game_rules.GameRules.president_sell`); the sequence is shared: the companies he
may sell from (:func:`president_sales`), what they would raise (:func:`raisable`) and,
when the treasury, his cash and all of that cannot pay, his bankruptcy
(:func:`sell_out`), after which the title says what else follows (1832: the game ends;
1833NE: his other shares go to the market and the game goes on).
"""

from __future__ import annotations

from trainruns.game.state import corp_key, player_key


def contribute(state, c, price: int) -> None:
    """What ``c``'s treasury lacks of ``price``, its president pays into it, with a
    ``contribution`` event (1832 [10] Train Purchase Funds and [11.7]; 1833NE
    "Emergency sell"; the titles offer the payment only when the two together can pay)."""
    if price > c.cash:
        short = price - c.cash
        state.pay(player_key(c.president), corp_key(c.id), short)
        state.event("contribution", corporation=c.id, player=c.president, amount=short)


def president_sales(rules, c, name: str) -> list[tuple]:
    """(company, most shares) the president ``name`` may sell to buy ``c``'s train: each
    started company he holds shares of, in the state's order, as many as
    :meth:`~.game_rules.GameRules.president_sale_most` allows, where that is any."""
    out = []
    for d in rules.state.corporations:
        if not d.started or not d.held(player_key(name)):
            continue
        n = rules.president_sale_most(c, d, name)
        if n > 0:
            out.append((d, n))
    return out


def sales_toward(rules, c, short: int, count) -> list[dict]:
    """The ``sell_shares`` actions open to ``c``'s president when his cash leaves him
    ``short`` of its train: for each company he may sell (:func:`president_sales`),
    ``count(d, most, need)`` lists how many (``need``: the shares that pay ``short`` at
    today's price; None: none of ``d``)."""
    name, out = c.president, []
    for d, n in president_sales(rules, c, name):
        price = rules.market.price(d.cell)
        listed = count(d, n, -(-short // price) if price else n)
        if listed is not None:
            out.append({"type": "sell_shares", "player": name, "corporation": d.id, "count": listed})
    return out


def raisable(rules, c, name: str) -> int:
    """What ``name``'s sales for ``c``'s train would raise at today's prices (each
    company's shares in one block, so at one price)."""
    return sum(n * rules.market.price(d.cell) for d, n in president_sales(rules, c, name))


def bankrupt_if_short(rules, step) -> None:
    """A forced purchase nobody can pay (1832 [13] Player Bankruptcy; 1833NE "Emergency
    sell", once its corporation has made its emergency issues): while ``step.corp`` must
    buy a train and its treasury falls short of the cheapest, its president is bankrupt
    (:meth:`bankrupt` of the title's rules) when his cash and his sales
    (:func:`raisable`) cannot make up the rest."""
    c = step.corp
    if not rules.must_buy(step):
        return
    cheapest = min(p for _f, _t, p in rules.train_sources())
    if c.cash >= cheapest:
        return
    pres = rules.state.player[c.president]
    if c.cash + pres.cash + raisable(rules, c, pres.name) < cheapest:
        rules.bankrupt(c, pres.name, step)


def sell_out(rules, c, name: str) -> None:
    """``name`` cannot raise the price of ``c``'s train (1832 [13] Player Bankruptcy;
    1833NE "Emergency sell"): all he may sell is sold
    (:meth:`~.game_rules.GameRules.president_sell`), his cash goes to ``c``'s treasury
    (unless his sales closed it), he is bankrupt, and a ``bankrupt`` event says so."""
    s = rules.state
    for d, n in president_sales(rules, c, name):
        if not d.closed:
            rules.president_sell(d, name, n)
    p = s.player[name]
    if p.cash and not c.closed:
        s.pay(player_key(name), corp_key(c.id), p.cash)
    p.bankrupt = True
    s.event("bankrupt", player=name, corporation=c.id)

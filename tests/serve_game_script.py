"""A short scripted 1832 game for the serve tests: the private auction, the first stock
round and the first operating round, decided by a simple policy over the engine's own
legal actions (buy each private offered, start a corporation, buy its shares, lay the
first tile offered, buy trains)."""

from trainruns.game.game import Game

PLAYERS = ["Ann", "Bob"]
SEED = 1


def first_rounds():
    """The decisions up to the end of the first operating round, and the game after them."""
    game = Game("1832", PLAYERS, seed=SEED)
    decisions = []
    while True:
        st = game.to_json()
        kind = st["round"]["kind"]
        actions = game.actions()
        me = (game.active() or {}).get("player")
        mine = {c["id"] for c in st["corporations"] if c["president"] == me}

        def first(pred):
            return next((a for a in actions if pred(a)), None)

        if kind == "private_auction":
            a = (first(lambda a: a["type"] == "buy_private") or first(lambda a: a["type"] == "pass")
                 or actions[0])  # a forced decision (P7's holder pars CG)
        elif kind == "stock":
            a = (first(lambda a: a["type"] == "buy_shares" and a["corporation"] in mine and a["from"] == "ipo")
                 or (None if mine else first(lambda a: a["type"] == "par"))
                 or first(lambda a: a["type"] == "pass")
                 or actions[0])  # a forced decision (P7's holder pars CG)
        else:
            order = ["lay_tile", "place_token", "run_routes", "dividend", "buy_train", "pass"]
            a = min(actions, key=lambda a: order.index(a["type"]) if a["type"] in order else len(order))
        decisions.append(a)
        game.act(a)
        if kind == "operating" and game.to_json()["round"]["kind"] != "operating":
            return decisions, game


def to_first_run():
    """The decisions on from :func:`first_rounds` (everyone passes in stock round 2, the
    first tile offered is laid) until a corporation may run its trains; the game then."""
    decisions, game = first_rounds()
    while not any(a["type"] == "run_routes" for a in game.actions()):
        actions = game.actions()
        order = ["pass", "lay_tile"] if game.to_json()["round"]["kind"] == "stock" else ["lay_tile", "place_token", "pass"]
        a = min(actions, key=lambda a: order.index(a["type"]) if a["type"] in order else len(order))
        decisions.append(a)
        game.act(a)
    return decisions, game


def to_first_paying_run():
    """On from :func:`to_first_run` until a corporation's best run pays something (for
    the screenshots: a run drawn on the map)."""
    from trainruns.titles.load import solve

    decisions, game = to_first_run()
    for _ in range(500):
        actions = game.actions()
        if any(a["type"] == "run_routes" for a in actions) and solve(game.position()).revenue > 0:
            break
        order = ["pass"] if game.to_json()["round"]["kind"] == "stock" else \
            ["lay_tile", "place_token", "run_routes", "dividend", "pass", "buy_train"]
        a = min(actions, key=lambda a: order.index(a["type"]) if a["type"] in order else len(order))
        decisions.append(a)
        game.act(a)
    return decisions, game


def to_first_token():
    """On from :func:`to_first_run` (each corporation runs its best run, pays, buys
    trains; tiles laid; stock rounds passed) until a corporation may place a token
    beyond its home: the game then (1832 rulebook "Place a Token")."""
    decisions, game = to_first_run()
    for _ in range(500):
        actions = game.actions()
        if any(a["type"] == "place_token" for a in actions):
            break
        order = ["pass", "lay_tile"] if game.to_json()["round"]["kind"] == "stock" else \
            ["lay_tile", "run_routes", "dividend", "buy_train", "pass"]
        a = min(actions, key=lambda a: order.index(a["type"]) if a["type"] in order else len(order))
        decisions.append(a)
        game.act(a)
    return decisions, game


def to_operating_turn_with_a_train():
    """On from :func:`first_rounds` (stock rounds passed; tiles laid, best runs paid,
    trains bought) to the start of an operating turn of a company that holds a train and
    may lay a tile (the advisor's turn: 1832 [6], [8], [10]): the decisions and the game."""
    decisions, game = first_rounds()
    order = ["lay_tile", "run_routes", "dividend", "buy_train", "pass"]
    last = None
    for _ in range(600):
        cid = (game.active() or {}).get("corporation")
        actions = game.actions()
        if cid and cid != last and any(a["type"] == "lay_tile" for a in actions) and game.state.corp[cid].trains:
            return decisions, game
        last = cid
        if game.to_json()["round"]["kind"] == "stock":
            a = next(a for a in actions if a["type"] == "pass")
        else:
            a = min(actions, key=lambda a: order.index(a["type"]) if a["type"] in order else len(order))
        decisions.append(a)
        game.act(a)
    raise AssertionError("no operating turn with a train in the scripted game")

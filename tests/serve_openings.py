"""Short scripted openings of an 1833NE and an 1831 game for the serve tests: every
decision of the first stock round (1833NE: after its private auction) and the first
operating turn of the first corporation to operate, chosen by a simple policy over the
engine's own legal actions (buy each private offered, start one corporation, buy its
shares, then lay the first tile offered, place a token, run, pay, buy the cheapest
train, pass). A free amount (a range) is taken at its lowest."""

from trainruns.game.game import Game

OPENINGS = {"1833NE": (["Ann", "Bob", "Cat"], 1), "1831": (["Ann", "Bob", "Cat"], 1)}

OPERATING = ["lay_tile", "place_token", "run_routes", "dividend", "buy_train", "pass"]


def fixed(action):
    """The action with each free amount (``{"min", "max"}``) at its lowest."""
    return {k: (v["min"] if isinstance(v, dict) and "min" in v else v) for k, v in action.items()}


def choose(game):
    st = game.to_json()
    kind = st["round"]["kind"]
    actions = game.actions()
    me = (game.active() or {}).get("player")
    mine = {c["id"] for c in st["corporations"] if c.get("president") == me}

    def first(pred):
        return next((a for a in actions if pred(a)), None)

    if kind == "operating":
        a = min(actions, key=lambda a: OPERATING.index(a["type"]) if a["type"] in OPERATING else len(OPERATING))
    elif kind == "stock":
        a = (first(lambda a: a["type"] == "buy_shares" and a["corporation"] in mine and a["from"] == "ipo")
             or (None if mine else first(lambda a: a["type"] == "par"))
             or first(lambda a: a["type"] == "pass") or actions[0])
    else:
        a = first(lambda a: a["type"] == "buy_private") or first(lambda a: a["type"] == "pass") or actions[0]
    return fixed(a)


def opening(title):
    """The decisions up to the end of the first corporation's first operating turn,
    and the game after them (and the index where that turn begins)."""
    players, seed = OPENINGS[title]
    game = Game(title, players, seed=seed)
    decisions, turn_start, corp = [], None, None
    while True:
        active = game.active() or {}
        if game.to_json()["round"]["kind"] == "operating":
            if corp is None:
                corp, turn_start = active.get("corporation"), len(decisions)
            elif active.get("corporation") != corp:
                return decisions, game, turn_start
        a = choose(game)
        decisions.append(a)
        game.act(a)


def to_first_paying_run(title, limit=400):
    """On from the start (the same policy) until a corporation may run trains whose
    best run pays something (for the screenshots: a run drawn on the map)."""
    from trainruns.titles.load import solve

    players, seed = OPENINGS[title]
    game = Game(title, players, seed=seed)
    decisions = []
    for _ in range(limit):
        if any(a["type"] == "run_routes" for a in game.actions()) and solve(game.position()).revenue > 0:
            break
        a = choose(game)
        decisions.append(a)
        game.act(a)
    return decisions, game

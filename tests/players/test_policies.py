"""``trainruns play selfplay --policy advisor`` (docs/advise.md): a seeded game played by
the advisor's players runs through the command, its states checked, with no internal
error, including the turn whose best plan is no decision at all (1833NE's seed 1, three
players: the plan is empty and the player plays on)."""

import json
import subprocess
import sys

import pytest


def test_advisor_selfplay_runs_through_the_command():
    p = subprocess.run([sys.executable, "-m", "trainruns", "play", "selfplay", "1833NE", "--players", "3",
                        "--games", "1", "--seed", "1", "--quiet", "--policy", "advisor", "--max-actions", "60"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    game = json.loads(p.stdout.splitlines()[0])
    assert game["problems"] == [] and game["actions"] == 60 and game["operating_rounds"] >= 1


def _first_stock_turn(title):
    from trainruns.game.game import Game

    game = Game(title, ["A", "B", "C", "D"], 100)
    while not any(a["type"] == "par" for a in game.actions()):
        game.act(next(a for a in game.actions() if a["type"] == "pass"))
    return game


def test_the_seed_draws_the_company_to_start_among_equal_pars():
    """The valuation starts a company at the highest par the player can afford five
    times over (policies' module); which company, when several share that par, is drawn
    with the game's rng, so two seeds may start different companies, and a turn with one
    such company draws nothing from the rng."""
    import random

    from trainruns.players.policies import SELL_FIRST, stock_choice

    game = _first_stock_turn("1831")
    listed = game.actions()
    player = game.active()["player"]
    cash = next(p["cash"] for p in game.to_json()["players"] if p["name"] == player)
    pars = [a for a in listed if a["type"] == "par" and SELL_FIRST * a["price"] <= cash]
    highest = max(a["price"] for a in pars)
    equal = {a["corporation"] for a in pars if a["price"] == highest}
    assert len(equal) > 1
    chosen = set()
    for seed in range(40):
        a = stock_choice(game, player, listed, random.Random(seed))
        assert a["type"] == "par" and a["price"] == highest and a["corporation"] in equal
        chosen.add(a["corporation"])
    assert len(chosen) > 1
    one = [a for a in listed if a["type"] != "par" or a["corporation"] == min(equal)]
    rng = random.Random(7)
    state = rng.getstate()
    assert stock_choice(game, player, one, rng)["corporation"] == min(equal)
    assert rng.getstate() == state



@pytest.mark.parametrize("title,args,said", [
    ("1833NE", ["--players", str(10 ** 20)], "--players: at most 100 players a game"),
    ("1832", ["--players", "3", "--games", str(10 ** 20)], "--games: at most 100,000 games"),
    ("1833NE", ["--players", "100"], "1833NE is for 3 to 5 players, not 100"),
])
def test_selfplay_counts_are_bounded_before_anything_is_built(title, args, said):
    """Memory is bounded: a count of seats or games too large for any game is bad input
    (exit 2, one line) before the seats are named or the games listed; a count within
    the bound meets the title's own range."""
    p = subprocess.run([sys.executable, "-m", "trainruns", "play", "selfplay", title, "--quiet",
                        "--max-actions", "2"] + args, capture_output=True, text=True, timeout=120,
                       env={"TRAINRUNS_DAEMON": "0", "PATH": "/usr/bin:/bin"})
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and said in p.stderr, p.stderr


def test_advisor_players_never_bid_while_nobody_can_buy_the_cheapest_private():
    """1832 [5.7]: bids are set aside until their private sells, and only P1's price
    falls when all pass. In seed 197 the random bids set aside every player's cash, so
    nobody could pay for P2 and the round went on for 4,000 actions. The advisor's
    players pass instead of bidding while no player's cash pays the cheapest private
    for sale (docs/advise.md), and the initial auction ends."""
    import random

    from trainruns.game.game import Game
    from trainruns.players.policies import Advisor, _nobody_pays_the_cheapest

    game, rng, policy = Game("1832", ["A", "B", "C", "D"], 197), random.Random(197), Advisor()
    stuck = 0
    for _ in range(1000):
        if game.to_json()["round"]["kind"] != "private_auction":
            break
        choice = policy(game, game.actions(), rng)
        if _nobody_pays_the_cheapest(game.to_json()):
            stuck += 1
            assert choice["type"] != "bid"
        game.act(choice)
    assert game.to_json()["round"]["kind"] != "private_auction" and stuck > 0
    assert all(x["owner"] for x in game.to_json()["privates"])

"""``/api/facts`` over plain HTTP: what each priced action costs and does is the engine's
own answer and leaves the game untouched; the game's facts are the title's rules; a
version that is not the current one is refused in one line."""

import json

import pytest
from serve_game_script import PLAYERS, SEED, first_rounds, to_first_paying_run
from starlette.testclient import TestClient

from trainruns.game.game import Game
from trainruns.serve import game_engine
from trainruns.serve.app import create_app
from trainruns.serve.game_mode import GameMode
from trainruns.serve.jobs import Jobs

LOCAL = "http://127.0.0.1"


@pytest.fixture()
def served(tmp_path):
    def serve(game):
        jobs = Jobs()
        mode = GameMode(game, str(tmp_path / "game.json"), jobs, time_limit=30)
        client = TestClient(create_app(mode, jobs), base_url=LOCAL)
        opened.append((client, jobs))
        return client.__enter__(), mode

    opened = []
    yield serve
    for client, jobs in opened:
        client.__exit__(None, None, None)
        jobs.close()


def test_a_dividend_is_priced_by_the_rules_and_the_game_is_untouched(served):
    """1832 [9.1.1] full: 10% of the run per share; [9.1.2] half: half the run, rounded
    up per share, the rest kept; [9.1.3] withheld: all kept; [5.8] the price moves right,
    stays, moves left. Asking changes neither the game nor its log."""
    _, game = to_first_paying_run()
    corp = game.active()["corporation"]
    game.act({"type": "run_routes", "corporation": corp, "routes": "best"})
    revenue = game.log()["actions"][-1]["revenue"]
    client, mode = served(game)
    before, log = json.dumps(mode.game.to_json(), sort_keys=True), json.dumps(mode.log())
    out = client.get(f"/api/facts?version={mode.version}").json()
    assert json.dumps(mode.game.to_json(), sort_keys=True) == before and json.dumps(mode.log()) == log
    by_kind = {game.actions()[x["index"]]["kind"]: x["facts"] for x in out["actions"]}
    price = next(c["price"] for c in game.to_json()["corporations"] if c["id"] == corp)
    assert by_kind["payout"]["dividend"]["per_share"] == (revenue * 2 + 10) // 20
    assert by_kind["half"]["dividend"]["per_share"] == -(-revenue // 20)
    assert by_kind["half"]["dividend"]["kept"] == revenue - 10 * -(-revenue // 20)
    assert by_kind["withhold"]["dividend"]["kept"] == revenue and not by_kind["withhold"]["dividend"]["holders"]
    moves = {k: f["price"]["price"] for k, f in by_kind.items()}
    assert moves["payout"][0] == moves["half"][0] == moves["withhold"][0] == price
    assert moves["payout"][1] > price and moves["half"][1] == price and moves["withhold"][1] < price


def test_a_sale_is_priced_for_each_count(served):
    """1832 [5.8.1] the price drops one row per share sold: each count of a sale is
    priced on its own."""
    _, game = first_rounds()
    client, mode = served(game)
    out = client.get(f"/api/facts?version={mode.version}").json()
    sales = [x for x in out["actions"] if game.actions()[x["index"]]["type"] == "sell_shares"]
    assert sales
    for x in sales:
        values = x["facts"]["values"]
        drops = [values[k]["price"]["price"][1] for k in sorted(values, key=int)]
        assert drops == sorted(drops, reverse=True) and len(set(drops)) == len(drops)
        received = [-values[k]["pays"] for k in sorted(values, key=int)]
        assert received == [received[0] * n for n in range(1, len(received) + 1)]


@pytest.mark.parametrize("title", ["1832", "1833NE", "1831"])
def test_every_home_is_kept_at_the_start(served, title):
    """1832 [7.2], 1833NE's unlaunched corporations, 1831 5.2.5: before anyone operates,
    every corporation's home city is kept for it."""
    game = Game(title, ["Ann", "Bob", "Cat"], seed=1)
    client, mode = served(game)
    facts = client.get(f"/api/facts?version={mode.version}").json()["game"]
    homes = {(h["corporation"], h["hex"]) for h in facts["homes"]}
    assert homes == {(c.id, c.home) for c in game.state.corporations}
    assert facts["legend"]["par"] and facts["par_boxes"]


def test_another_version_is_refused_in_one_line(served):
    client, mode = served(game_engine.new("1832", PLAYERS, SEED))
    for query, status in (("?version=99", 400), ("", 400), ("?version=x", 400)):
        r = client.get("/api/facts" + query)
        assert r.status_code == status and set(r.json()) == {"error", "where"} and "\n" not in r.json()["error"]

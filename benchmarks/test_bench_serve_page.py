"""The game page of ``trainruns serve`` in headless Chromium over one scripted 1832
operating round: for each action, the time from the player's click (the page's own
``act``) to the updated page with the operating company's best run drawn on the map.

    pytest benchmarks/test_bench_serve_page.py --benchmark-only

The game is tests/serve_game_script.py's (seeded, a simple policy over the engine's
legal actions) from the first run that pays, through the end of those operating rounds.
The server is the real command in its own process; the browser is Debian's Chromium
(skipped where it is not installed). Each action's time is measured in the page
(``performance.now()`` from the call to the frame where the page shows the new version,
its board, and its best run, or that there is none); the per-action times are in
``extra_info`` (``per_action_ms``, ``max_ms``, ``median_ms``), and the first load of the
page (state, board, run) in ``first_load_ms``. The server's part of each action is the
time some request of the page is under way, from its start to the last byte of its
answer (the page's resource timings, on loopback; requests sent together count once):
``server_ms`` (with each request's own time),
``server_max_ms``, ``server_median_ms``. Nothing asserts a time.
"""

import json
import os
import statistics
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

from serve_helpers import Server, browser_missing, chromium, close  # noqa: E402

pytestmark = pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")

# In the page: act, then wait (each animation frame) until the page shows the new
# version with its board and, when the company operates, its run (or that it has none).
ACT_AND_WAIT = """
const [action, target, done] = arguments;
performance.clearResourceTimings();
const t0 = performance.now();
act(action);
const map = document.getElementById("map");
const ready = () => document.body.dataset.version === String(target) && map.dataset.version === String(target)
  && game && game.version === target && (!game.solve || map.dataset.run === String(target));
// the server's part: each request to the server, from its start to the last byte of
// its answer (on this machine's loopback, the server's work on it)
const server = () => performance.getEntriesByType("resource").filter(e => e.name.includes("/api/"))
  .map(e => [new URL(e.name).pathname, e.requestStart, e.responseEnd]);
const check = () => ready() ? done([performance.now() - t0, server()])
  : (performance.now() - t0 > 120000 ? done([-1, []]) : requestAnimationFrame(check));
check();
"""

FIRST_LOAD = """
const done = arguments[0];
const t0 = performance.timeOrigin;
const map = document.getElementById("map");
const check = () => (game && map.dataset.version === String(game.version) && (!game.solve || map.dataset.run === String(game.version)))
  ? done(performance.now()) : requestAnimationFrame(check);
check();
"""


def busy(spans):
    """The time some of ``spans`` (start, end) is under way: requests the page sends
    together count once."""
    total, reach = 0.0, float("-inf")
    for t0, t1 in sorted(spans):
        if t1 > reach:
            total += t1 - max(t0, reach)
            reach = t1
    return total


def operating_round():
    """The decisions up to the first paying run, and the decisions of the rest of those
    operating rounds (lays, tokens, runs, dividends, trains bought, passes) until the
    next stock round."""
    from serve_game_script import to_first_paying_run

    decisions, game = to_first_paying_run()
    start = list(decisions)
    rest = []
    order = ["lay_tile", "place_token", "run_routes", "dividend", "buy_train", "pass"]
    while game.to_json()["round"]["kind"] == "operating" and len(rest) < 60:
        actions = game.actions()
        a = min(actions, key=lambda a: order.index(a["type"]) if a["type"] in order else len(order))
        rest.append(a)
        game.act(a)
    return start, rest


def test_bench_an_operating_round_on_the_page(benchmark, tmp_path):
    from trainruns.game.game import Game

    start, rest = operating_round()
    game = Game("1832", ["Ann", "Bob"], seed=1)
    for a in start:
        game.act(a)
    log = tmp_path / "round.json"
    log.write_text(json.dumps(game.log()))
    server = Server(log)
    driver = chromium()
    driver.set_script_timeout(180)
    try:
        driver.get(server.url)
        first = driver.execute_async_script(FIRST_LOAD)
        times, answers = [], []

        def one_round():
            for i, a in enumerate(rest):
                ms, requests = driver.execute_async_script(ACT_AND_WAIT, a, i + 2)
                assert ms >= 0, f"action {i} ({a['type']}) never showed"
                times.append((a["type"], round(ms)))
                answers.append((a["type"], round(busy([(t0, t1) for _, t0, t1 in requests])),
                               [(path, round(t1 - t0)) for path, t0, t1 in requests]))

        benchmark.pedantic(one_round, rounds=1, iterations=1)
        ms, server_ms = [t for _, t in times], [t for _, t, _ in answers]
        benchmark.extra_info.update({"actions": len(times), "per_action_ms": times, "max_ms": max(ms),
                                     "median_ms": statistics.median(ms), "first_load_ms": round(first),
                                     "server_ms": answers, "server_max_ms": max(server_ms),
                                     "server_median_ms": statistics.median(server_ms)})
        print("\nfirst load", round(first), "ms;", ", ".join(f"{k} {t}" for k, t in times))
        print("server (requests' answers) ms:", ", ".join(f"{k} {t}" for k, t, _ in answers))
    finally:
        close(driver)
        server.stop()

"""Seeded random 1832 games through ``trainruns play serve`` (docs/game-log.md):
3 to 6 players, 100 games, every state checked by trainruns.game.selfplay.check_state
(money and shares conserved, presidents holding their certificates, no vice-president's
certificate split, a player both president and vice-president of a System only with the
shares of both, no company with two tokens in one city, a finished game's result), every
listed action accepted, and the final log replaying to the same state.

    pytest benchmarks/test_bench_1832_serve.py --benchmark-only
    python benchmarks/test_bench_1832_serve.py GAMES [FIRST_SEED]     # the same, as a script

A game is capped at 3000 actions (an unfinished game is reported, not a failure: the
rules end 1832 only by the bank or a bankruptcy, docs/gaps.md).
"""

import json
import os
import random
import subprocess
import sys
import time

from trainruns.game.selfplay import check_state, fill, money

GAMES, FIRST_SEED, MAX_ACTIONS = 100, 3000, 3000


class Serve:
    """One ``trainruns play serve`` process, one JSON request a line."""

    def __init__(self):
        env = dict(os.environ, TRAINRUNS_DAEMON="0")
        self.p = subprocess.Popen([sys.executable, "-m", "trainruns", "play", "serve"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1, env=env)

    def ask(self, req):
        self.p.stdin.write(json.dumps(req) + "\n")
        self.p.stdin.flush()
        return json.loads(self.p.stdout.readline())

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=30)


def play(seed, n_players):
    """One game; returns (problems, finished, actions)."""
    rng = random.Random(seed)
    players = [chr(65 + i) for i in range(n_players)]
    e = Serve()
    try:
        r = e.ask({"cmd": "new", "title": "1832", "players": players, "seed": seed, "variants": [], "config": None})
        s = r["state"]
        start = money(s)
        problems = check_state(s, start)
        n = 0
        while not s["finished"] and n < MAX_ACTIONS and not problems:
            listed = e.ask({"cmd": "actions"}).get("actions") or []
            if not listed:
                problems.append(f"no action listed after {n}")
                break
            weights = [1.0 if x["type"] == "pass" else 3.0 for x in listed]
            choice = fill(rng.choices(listed, weights=weights)[0], rng)
            r = e.ask({"cmd": "act", "action": choice})
            n += 1
            if not r.get("ok"):
                problems.append(f"listed action {json.dumps(choice)} refused at {n}: {r.get('error')}")
                break
            s = r["state"]
            problems += [f"after action {n}: {p}" for p in check_state(s, start)]
        if not problems:
            log = e.ask({"cmd": "log"})["log"]
            again = e.ask({"cmd": "load", "log": log})
            if json.dumps(again.get("state"), sort_keys=True) != json.dumps(s, sort_keys=True):
                problems.append("the final log does not replay to the same state")
        return problems, s["finished"], n
    finally:
        e.close()


def run(games=GAMES, first_seed=FIRST_SEED, out=None):
    """``games`` games, players 3, 4, 5, 6 in turn; returns the summary."""
    t = time.perf_counter()
    rows = []
    for i in range(games):
        seed, n_players = first_seed + i, 3 + i % 4
        problems, finished, n = play(seed, n_players)
        rows.append({"seed": seed, "players": n_players, "actions": n, "finished": finished, "problems": problems})
        if out:
            print(f"seed {seed} {n_players}p: {n} actions, {'finished' if finished else 'unfinished'}"
                  + (f", PROBLEMS {problems[:2]}" if problems else ""), file=out, flush=True)
    return {"games": games, "clean": sum(not r["problems"] for r in rows),
            "finished": sum(r["finished"] for r in rows), "actions": sum(r["actions"] for r in rows),
            "seconds": round(time.perf_counter() - t, 1), "rows": rows}


def test_100_seeded_1832_games_through_serve_keep_every_check(benchmark):
    summary = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update({k: v for k, v in summary.items() if k != "rows"})
    assert [r for r in summary["rows"] if r["problems"]] == []


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    first = int(sys.argv[2]) if len(sys.argv) > 2 else FIRST_SEED
    summary = run(n, first, out=sys.stdout)
    print(json.dumps({k: v for k, v in summary.items() if k != "rows"}))
    sys.exit(0 if summary["clean"] == n else 1)

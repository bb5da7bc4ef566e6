"""Seeded random games through ``trainruns play serve`` (docs/game-log.md), for the
benchmarks of each title (test_bench_1831_serve.py, test_bench_1832_serve.py,
test_bench_1833ne_serve.py): every state checked by trainruns.game.selfplay.check_state
(money and shares conserved, presidents holding their certificates, no
vice-president's certificate split, a player both president and vice-president of a
System only with the shares of both, no company with two tokens of one kind in one
city, a finished game's result), every listed action accepted, and the final log
replaying to the same state. A game is capped at MAX_ACTIONS (an unfinished game is
reported, not a failure)."""

import json
import os
import random
import subprocess
import sys
import time

from trainruns.game.selfplay import check_state, fill, money

MAX_ACTIONS = 3000


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


def play(title, seed, n_players, variants=()):
    """One game; returns (problems, the final state, actions)."""
    rng = random.Random(seed)
    players = [chr(65 + i) for i in range(n_players)]
    e = Serve()
    try:
        r = e.ask({"cmd": "new", "title": title, "players": players, "seed": seed, "variants": list(variants),
                   "config": None})
        if "state" not in r:
            return [f"new refused: {r.get('error')}"], {"finished": False, "end_reason": None}, 0
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
        return problems, s, n
    finally:
        e.close()


def run(title, games, first_seed, sizes=(3, 4, 5, 6), variants=(), out=None):
    """``games`` games of ``title``, the player counts ``sizes`` in turn; the summary
    counts the games clean, finished and by which end (``end_reason``)."""
    t = time.perf_counter()
    rows = []
    for i in range(games):
        seed, n_players = first_seed + i, sizes[i % len(sizes)]
        problems, s, n = play(title, seed, n_players, variants)
        rows.append({"seed": seed, "players": n_players, "actions": n, "finished": s["finished"],
                     "end_reason": s.get("end_reason"), "problems": problems})
        if out:
            print(f"seed {seed} {n_players}p: {n} actions, {s.get('end_reason') or 'unfinished'}"
                  + (f", PROBLEMS {problems[:2]}" if problems else ""), file=out, flush=True)
    ends = {}
    for r in rows:
        ends[r["end_reason"] or "unfinished"] = ends.get(r["end_reason"] or "unfinished", 0) + 1
    return {"title": title, "variants": list(variants), "games": games, "clean": sum(not r["problems"] for r in rows),
            "finished": sum(r["finished"] for r in rows), "ends": ends, "actions": sum(r["actions"] for r in rows),
            "seconds": round(time.perf_counter() - t, 1), "rows": rows}


def benchmark_games(benchmark, title, games, first_seed, sizes=(3, 4, 5, 6), variants=()):
    """The pytest-benchmark body: one timed round of :func:`run`, its summary in the
    benchmark's extra_info; every game keeps every check."""
    summary = benchmark.pedantic(run, args=(title, games, first_seed, sizes, variants), rounds=1, iterations=1)
    benchmark.extra_info.update({k: v for k, v in summary.items() if k != "rows"})
    assert [r for r in summary["rows"] if r["problems"]] == []


def main(title, games, first_seed, sizes=(3, 4, 5, 6), variants=()):
    """As a script: ``python benchmarks/test_bench_<title>_serve.py [GAMES [FIRST_SEED]]``."""
    n = int(sys.argv[1]) if len(sys.argv) > 1 else games
    first = int(sys.argv[2]) if len(sys.argv) > 2 else first_seed
    summary = run(title, n, first, sizes, variants, out=sys.stdout)
    print(json.dumps({k: v for k, v in summary.items() if k != "rows"}))
    return 0 if summary["clean"] == n else 1

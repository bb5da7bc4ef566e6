#!/usr/bin/env python3
"""Eight ``trainruns play act`` processes at once on one game log, round after round:
every action is kept (exit 0) or refused (exit 1 illegal, exit 2 "the game
is being changed"), never lost silently; the log is always whole, strict JSON, and
replays; no temporary file is left behind.

    python tools/concurrent_acts.py [--rounds 50] [--writers 8] [--title 1832] [--seed 5]

tests/game/test_play_concurrent.py runs the same rounds with forked writers (no Python
start-up per writer); this script starts real processes, as a user's shell would.
Last line: "R rounds, K kept, F refused, 0 lost" (exit 1 and the first problem when
one is found).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

from trainruns.game.game import Game
from trainruns.game.selfplay import fill
from trainruns.position.reader import read_json


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=50)
    p.add_argument("--writers", type=int, default=8)
    p.add_argument("--title", default="1832")
    p.add_argument("--players", default="A,B,C,D")
    p.add_argument("--seed", type=int, default=5)
    args = p.parse_args(argv)
    exe = shutil.which("trainruns") or sys.exit("trainruns is not on PATH")
    rng = random.Random(args.seed)
    folder = tempfile.mkdtemp(prefix="concurrent-acts-")
    path = os.path.join(folder, "g.json")
    env = dict(os.environ, TRAINRUNS_DAEMON="0")
    subprocess.run([exe, "play", "new", args.title, "--players", args.players, "--seed", str(args.seed),
                    "--out", path], check=True, stdout=subprocess.DEVNULL, env=env)
    kept = refused = 0
    started = time.time()
    try:
        for r in range(args.rounds):
            log = read_json(path, "game log")
            listed = Game.replay(log).actions()
            actions = [fill(rng.choice(listed), rng) for _ in range(args.writers - 2)] + [{"type": "undo"}] * 2
            procs = [subprocess.Popen([exe, "play", "act", path, json.dumps(a)], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True, env=env) for a in actions]
            results = [(p.wait(), p.stderr.read()) for p in procs]
            after = read_json(path, "game log")
            Game.replay(after)
            new = after["actions"][len(log["actions"]):]
            ok = [a for a, (code, _) in zip(actions, results) if code == 0]
            problems = []
            if after["actions"][:len(log["actions"])] != log["actions"]:
                problems.append("an earlier action was lost")
            if len(new) != len(ok):
                problems.append(f"{len(ok)} writers said kept, the log gained {len(new)}")
            for code, err in results:
                if code not in (0, 1) and not (code == 2 and "changed" in err):
                    problems.append(f"exit {code}: {err.strip()}")
            if sorted(os.listdir(folder)) != ["g.json"]:
                problems.append(f"left in the folder: {sorted(os.listdir(folder))}")
            if problems:
                print(f"round {r}: " + " | ".join(problems))
                return 1
            kept += len(ok)
            refused += len(actions) - len(ok)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{args.rounds} rounds, {kept} kept, {refused} refused, 0 lost ({time.time() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""State digests of every kept game log and of seeded self-play games, action by action.

A refactor of the game engine must change nothing a player can see. This script plays
each game of a fixed set (the logs kept in ``fixtures/games`` and seeded random games of
every title, its variants and 1831's configs, 3 to 6 players) and records, after every
action, a short digest of the state JSON together with the list of legal actions. Run
``write`` before a change and ``check`` after it: the first action whose state or
listed actions differ is named.

    python tools/replay_digests.py write tests/data/replay_digests.json
    python tools/replay_digests.py check tests/data/replay_digests.json [--only NAME ...]

``tests/game/test_replay_digests.py`` checks a part of the set on every test run; the
whole set runs here (a few minutes on two cores).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from trainruns.game.game import Game  # noqa: E402
from trainruns.game.selfplay import play  # noqa: E402

GAMES = ROOT / "fixtures" / "games"
DIGITS = 8   # hex digits kept per action: a chance collision is 1 in 4 billion


def _config(name: str) -> dict:
    """An 1831 config of fixtures/games/1831-configs with its map and tiles inline."""
    cfg = json.loads((GAMES / "1831-configs" / f"config-{name}.json").read_text())
    for key in ("map", "tiles"):
        if isinstance(cfg.get(key), str):
            cfg[key] = json.loads((GAMES / "1831-configs" / cfg[key]).read_text())
    return cfg


def selfplay_jobs() -> list[dict]:
    """The seeded random games: 20 per title with 3 to 6 players (1833NE: 3 to 5), and a
    few with each variant and each 1831 config."""
    jobs = []
    for title, sizes in (("1832", (3, 4, 5, 6)), ("1833NE", (3, 4, 5)), ("1831", (3, 4, 5, 6))):
        for seed in range(20):
            n = sizes[seed % len(sizes)]
            jobs.append({"name": f"{title}-{n}p-seed{seed}", "title": title, "players": n, "seed": seed})
    for variant in ("southern_bank", "400_finish", "diesels"):
        for seed in range(3):
            jobs.append({"name": f"1832-{variant}-seed{seed}", "title": "1832", "players": 4, "seed": seed,
                         "variants": [variant]})
    for variant in ("extended", "short"):
        for seed in range(3):
            jobs.append({"name": f"1831-{variant}-seed{seed}", "title": "1831", "players": 4, "seed": seed,
                         "variants": [variant]})
    for cfg in ("a", "b"):   # configs for 3 and 4 players
        for seed in range(3):
            jobs.append({"name": f"1831-config-{cfg}-seed{seed}", "title": "1831", "players": 3 + seed % 2,
                         "seed": seed, "config": cfg})
    return jobs


def kept_logs() -> list[tuple[str, dict]]:
    """Every game log kept in fixtures/games (a ``.game`` holds it under ``log``)."""
    out = []
    for path in sorted(GAMES.iterdir()):
        if path.is_dir():
            continue
        data = json.loads(path.read_text())
        out.append((f"log:{path.name}", data.get("log", data)))
    return out


def digest(game: Game) -> str:
    seen = {"state": game.to_json(), "actions": game.actions()}
    return hashlib.sha256(json.dumps(seen, sort_keys=True).encode()).hexdigest()[:DIGITS]


def log_digests(log: dict) -> list[str]:
    """The log replayed one recorded action at a time (undo included)."""
    game = Game(log["title"], log["players"], log.get("seed"), log.get("variants") or (), log.get("config"))
    out = [digest(game)]
    for a in log["actions"]:
        game.act(a)
        out.append(digest(game))
    return out


def selfplay_digests(job: dict) -> list[str]:
    out = []
    players = [chr(ord("A") + i) for i in range(job["players"])]
    config = _config(job["config"]) if job.get("config") else None

    def record(game, _state):
        out.append(digest(game))
        return []

    game, problems, _n = play(job["title"], players, job["seed"], max_actions=3000, on_state=record,
                              variants=job.get("variants", ()), config=config)
    if problems:
        out.append("problems:" + problems[0])
    return out


def everything(only=None):
    items = [(name, lambda log=log: log_digests(log)) for name, log in kept_logs()]
    items += [(j["name"], lambda j=j: selfplay_digests(j)) for j in selfplay_jobs()]
    return [(n, f) for n, f in items if not only or n in only]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("write", "check"))
    ap.add_argument("file")
    ap.add_argument("--only", nargs="*", help="names of games to play (default: all)")
    args = ap.parse_args(argv)
    path = Path(args.file)
    if args.mode == "write":
        # with --only, the named games are rewritten and the file's others kept
        out = json.loads(path.read_text()) if args.only and path.exists() else {}
        path.parent.mkdir(parents=True, exist_ok=True)
        for name, run in everything(args.only):
            t0 = time.time()
            out[name] = "".join(d if not d.startswith("problems:") else "|" + d for d in run())
            print(f"{name}: {len(out[name]) // DIGITS} actions in {time.time() - t0:.1f} s", flush=True)
            path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")   # kept as it grows
        return 0
    want = json.loads(path.read_text())
    bad = 0
    for name, run in everything(args.only or list(want)):
        got = "".join(d if not d.startswith("problems:") else "|" + d for d in run())
        if got != want.get(name):
            bad += 1
            print(f"{name}: {first_difference(want.get(name, ''), got)}", flush=True)
        else:
            print(f"{name}: same ({len(got) // DIGITS} actions)", flush=True)
    print(f"{bad} of {len(want if not args.only else args.only)} games differ")
    return 1 if bad else 0


def first_difference(want: str, got: str) -> str:
    for i in range(0, max(len(want), len(got)), DIGITS):
        if want[i:i + DIGITS] != got[i:i + DIGITS]:
            return f"first differs after action {i // DIGITS} (of {len(want) // DIGITS} recorded, {len(got) // DIGITS} now)"
    return "same"


if __name__ == "__main__":
    sys.exit(main())

"""A record of seeded self-play games, kept in the repository so that a long sweep (issue
32: 100 advisor games of each title, 4 players) can be played a few games at a time, in
several sittings, and its result read back.

    python tools/selfplay_record.py run 1833NE --games 100            # play what is missing
    python tools/selfplay_record.py run 1832 --games 100 --policy random
    python tools/selfplay_record.py report                            # the table
    python tools/selfplay_record.py check 1833NE --sample 2           # replay 2 games again
    python tools/selfplay_record.py check 1831 --seeds 148 197        # replay these games again
    python tools/selfplay_record.py merge 1831 ../sweep-a ../sweep-b  # games other clones played

``run`` plays the games of seeds ``--first`` .. ``--first + --games - 1`` (``--players``
seats named A, B, ...) that ``benchmarks/results/selfplay-<policy>-<title>-<n>p.jsonl``
does not hold yet, one after the other, by :func:`trainruns.players.policies.play_one`
(the guarantees of :mod:`trainruns.game.selfplay` checked after every action), and
appends each game's summary as one JSON line the moment it ends: its end (a rule's end,
``stalled`` or ``capped``), actions, revenue per operating round, the final state's
digest, the CPU seconds it took and the commit that played it. A line is written whole
with one ``write`` on a file opened for appending, so a sweep that is stopped loses at
most the game it was playing.

``run --corpus`` also writes each game's corpus file (the position of every operating
turn, proven: tools/make_corpus.py) from the same play, into benchmarks/corpus/ or the
folder named: a sweep and the corpus cost one play.

``check`` plays recorded games again and compares their final digests: a seeded game is
the same game on any machine and at any load, so a record made by an earlier commit
stays valid exactly as long as the games it holds still replay to the same digests.

``merge`` takes in the games that other clones of the repository played (a sweep split
over processes, each in its own clone so that each runs its own tree): the record lines
of seeds this record lacks, in seed order, and with ``--corpus`` their games' corpus
files. A seed recorded here already is kept as it is.

``report`` prints, per title and policy: games, how they ended, games stalled, capped
or with a problem found, the mean (min-max) revenue per operating round and the mean CPU
seconds of a game.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import make_corpus  # beside this script

from trainruns.players.policies import play_one

RESULTS = ROOT / "benchmarks" / "results"
MAX_ACTIONS = 4000


def record_path(title: str, policy: str, players: int) -> Path:
    return RESULTS / f"selfplay-{policy}-{title}-{players}p.jsonl"


def read(path: Path) -> list[dict]:
    """The games a record holds (a line cut short by a stopped writer is skipped)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def _commit() -> str:
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def play(title: str, policy: str, players: int, seed: int, corpus: Path | None = None) -> dict:
    """One game as its record line. With ``corpus`` a folder, the position of each of
    the game's operating turns is also kept and proven, and the game's corpus file is
    written there as tools/make_corpus.py writes it (the same game: a seed plays the
    same actions whatever the seats are called), so one play serves both; the line's
    ``cpu_s`` is the play's, ``corpus`` counts the positions written and left out."""
    job = {"title": title, "players": [chr(ord("A") + i) for i in range(players)], "seed": seed,
           "max_actions": MAX_ACTIONS, "policy": policy}
    keep = make_corpus.keeper(policy) if corpus else None
    before = _cpu()
    out = play_one(job, policy=keep)
    out.update(policy=policy, title=title, cpu_s=round(_cpu() - before, 1))
    if keep is not None:
        left_out: list = []
        lines = make_corpus.proven_lines(title, players, seed, policy, keep.kept, left_out=left_out)
        make_corpus.write_game(corpus / title, make_corpus.game_name(title, players, seed), lines,
                               bool(out["capped"]), MAX_ACTIONS)
        out["corpus"] = {"positions": len(lines), "left_out": len(left_out)}
    return out


def run(args) -> int:
    path = record_path(args.title, args.policy, args.players)
    path.parent.mkdir(parents=True, exist_ok=True)
    done = {g["seed"] for g in read(path)}
    commit = _commit()
    todo = [s for s in range(args.first, args.first + args.games) if s not in done]
    print(f"{path.name}: {len(done)} recorded, {len(todo)} to play", file=sys.stderr)
    for i, seed in enumerate(todo, 1):
        g = dict(play(args.title, args.policy, args.players, seed, args.corpus), commit=commit)
        # a line cut short by a stopped writer is ended first, so the game after it is whole
        cut = path.exists() and path.stat().st_size and not path.read_bytes().endswith(b"\n")
        with open(path, "a") as f:
            f.write(("\n" if cut else "") + json.dumps(g, sort_keys=True, default=str) + "\n")
        print(f"[{i}/{len(todo)}] seed {seed}: {g['end_reason'] or 'unfinished'}, {g['actions']} actions, "
              f"{g['revenue_per_or']} a round, {g['cpu_s']} s CPU", file=sys.stderr)
    return 0


def check(args) -> int:
    path = record_path(args.title, args.policy, args.players)
    games = read(path)
    if not games:
        print(f"{path}: no games recorded", file=sys.stderr)
        return 2
    if args.seeds:
        wanted = set(args.seeds)
        missing = sorted(wanted - {g["seed"] for g in games})
        if missing:
            print(f"{path}: seed {missing[0]} is not recorded", file=sys.stderr)
            return 2
        chosen = [g for g in games if g["seed"] in wanted]
    else:
        chosen = random.Random(args.seed).sample(games, min(args.sample, len(games)))
    bad = 0
    for g in chosen:
        again = play(args.title, args.policy, args.players, g["seed"])
        same = again["state_digest"] == g["state_digest"] and again["actions"] == g["actions"]
        bad += not same
        print(f"seed {g['seed']}: {'same' if same else 'DIFFERS'} (recorded {g['state_digest']} "
              f"by {g.get('commit')}, now {again['state_digest']}, {again['cpu_s']} s CPU)")
    return 1 if bad else 0


def report(_args) -> int:
    print("| title | policy | players | games | ended by | stalled / capped / problems "
          "| revenue per operating round, mean (min-max) | CPU s a game |")
    print("|---|---|---:|---:|---|---|---|---:|")
    for path in sorted(RESULTS.glob("selfplay-*.jsonl")):
        games = read(path)
        if not games:
            continue
        ends: dict = {}
        for g in games:
            ends[g["end_reason"] or "unfinished"] = ends.get(g["end_reason"] or "unfinished", 0) + 1
        revenue = [g["revenue_per_or"] for g in games]
        bad = (sum(g["end_reason"] == "stalled" for g in games), sum(bool(g["capped"]) for g in games),
               sum(bool(g["problems"]) for g in games))
        print(f"| {games[0]['title']} | {games[0]['policy']} | {games[0]['players']} | {len(games)} "
              f"| {', '.join(f'{k} {v}' for k, v in sorted(ends.items()))} | {' / '.join(map(str, bad))} "
              f"| {sum(revenue) / len(revenue):,.1f} ({min(revenue):,.1f}-{max(revenue):,.1f}) "
              f"| {sum(g['cpu_s'] for g in games) / len(games):,.1f} |")
    return 0


def merge(args) -> int:
    path = record_path(args.title, args.policy, args.players)
    if args.corpus is not None and not args.corpus.resolve().is_relative_to(ROOT):
        print(f"--corpus {args.corpus}: not a folder of this project ({ROOT}); the clones hold it at the same place",
              file=sys.stderr)
        return 2
    games = {g["seed"]: g for g in read(path)}
    corpus = args.corpus.resolve().relative_to(ROOT) / args.title if args.corpus is not None else None
    added = []
    for clone in args.clones:
        for g in read(clone / path.relative_to(ROOT)):
            if g["seed"] in games:
                continue
            games[g["seed"]] = g
            added.append(g["seed"])
            if corpus is not None:
                name = make_corpus.game_name(args.title, args.players, g["seed"])
                folder = clone / corpus
                files = [*folder.glob(f"{name}.jsonl.gz"), *folder.glob(f"{name}-first*.jsonl.gz")]
                if not files and (g.get("corpus") or {}).get("positions"):
                    print(f"{folder}: no corpus file of seed {g['seed']}", file=sys.stderr)
                    return 2
                (args.corpus / args.title).mkdir(parents=True, exist_ok=True)
                for src in files:
                    (args.corpus / args.title / src.name).write_bytes(src.read_bytes())
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(games[s], sort_keys=True, default=str) + "\n" for s in sorted(games))
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)   # whole or not at all
    print(f"{path.name}: {len(added)} added ({', '.join(map(str, sorted(added))) or 'none'}), "
          f"{len(games)} recorded", file=sys.stderr)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("run", "check"):
        p = sub.add_parser(name)
        p.add_argument("title", choices=["1831", "1832", "1833NE"])
        p.add_argument("--policy", choices=["advisor", "random"], default="advisor")
        p.add_argument("--players", type=int, default=4)
        if name == "run":
            p.add_argument("--games", type=int, default=100)
            p.add_argument("--first", type=int, default=100)
            p.add_argument("--corpus", nargs="?", type=Path, const=make_corpus.OUT["advisor"], default=None,
                           metavar="DIR", help="also write each game's positions to the corpus "
                                               "(default folder: benchmarks/corpus)")
        else:
            p.add_argument("--sample", type=int, default=2)
            p.add_argument("--seed", type=int, default=0, help="which recorded games are sampled")
            p.add_argument("--seeds", type=int, nargs="+", metavar="N",
                           help="replay these recorded games' seeds instead of a sample")
    p = sub.add_parser("merge")
    p.add_argument("title", choices=["1831", "1832", "1833NE"])
    p.add_argument("clones", nargs="+", type=Path, metavar="CLONE", help="another clone's root")
    p.add_argument("--policy", choices=["advisor", "random"], default="advisor")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--corpus", nargs="?", type=Path, const=make_corpus.OUT["advisor"], default=None,
                   metavar="DIR", help="also copy the games' corpus files (default folder: benchmarks/corpus)")
    sub.add_parser("report")
    args = ap.parse_args(argv)
    return {"run": run, "check": check, "merge": merge, "report": report}[args.cmd](args)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:   # the reader (`report | head`) closed the pipe: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)

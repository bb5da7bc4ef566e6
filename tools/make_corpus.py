"""Write benchmarks/corpus/<title>/*.jsonl.gz: the position of every operating turn of
seeded self-play games, each with its proven best revenue.

    python tools/make_corpus.py                          # the shipped corpus (below)
    python tools/make_corpus.py --titles 1832 --games 5  # 5 games of 1832 only
    python tools/make_corpus.py --policy advisor         # from another selfplay policy

For each title, ``--games`` seeded games from seed ``--seed`` on (the shipped corpus:
``GAMES``), the game of seed ``S`` with the ``(S - 1) % n``-th of the title's ``n``
player counts from 3 to 6 (1833NE seats 3 to 5), are played by
``trainruns.game.selfplay.play`` (the same seeded play as ``trainruns play selfplay``,
its guarantees checked after every action; ``--policy`` is handed to it), to their end
or ``--max-actions`` (``MAX_ACTIONS``). Whenever the game lists ``run_routes``, the
operating company's position (the one the game hands the route core for its run:
docs/position-format.md) is kept, once per distinct position in a game.

Each kept position is solved by the route core, within ``--solve-seconds`` (30 s; one
not proven by then is left out, and named with its bound on stderr), and written with
its proven best revenue as ``expected_revenue`` (the field ``trainruns bench``
compares against, as in fixtures/) and a ``notes`` naming the game and the action it
came before, one JSON object per line, one gzip file per game
(``<title>-<n>p-seed<S>.jsonl.gz``, written with no timestamp so that a regenerated
file is byte for byte the same, as long as every position is proven well within the
limit). A game that breaks a guarantee stops the script (exit 1): the corpus holds
proven answers of correct games only.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from trainruns.errors import InputError  # noqa: E402

OUT = ROOT / "benchmarks" / "corpus"
# the player counts each title seats, from 3 to 6 (1833NE: Starting cash by player count)
SIZES = {"1832": (3, 4, 5, 6), "1833NE": (3, 4, 5), "1831": (3, 4, 5, 6)}
# the shipped corpus: games per title, so that each title holds several hundred positions
GAMES = {"1832": 42, "1833NE": 60, "1831": 16}
# actions after which a game stops (unfinished games give their positions up to there),
# the same for every title: the run walk that lists 1832's tile lays (trainruns.route.reach)
# works within a budget that bounds its time, and a 5-player 1832 game played to its end
# (seed 3050, phase 6 its longest: 2,367 actions) took 62 s of CPU, no action above 3 s
MAX_ACTIONS = {"1832": 3000, "1833NE": 3000, "1831": 3000}
# a position not proven in this time is left out (and named): a benchmark of thousands
# of positions must run in minutes; the hard boards have benchmarks of their own
SOLVE_SECONDS = 30.0


def game_name(title: str, players: int, seed: int) -> str:
    return f"{title}-{players}p-seed{seed}"


def policy_for(name: str):
    """The chooser ``play`` takes for policy ``name``: None for its own random play; an
    advisor's player (``trainruns.players.policies.Advisor``, one per game) for
    ``advisor``, where this trainruns has it."""
    if name == "random":
        return None
    try:
        from trainruns.players.policies import Advisor
    except ImportError:
        raise InputError("this trainruns has no advisor policy (trainruns.players.policies)", "--policy") from None
    return Advisor()


def play_positions(title: str, players: int, seed: int, policy: str = "random",
                   max_actions: int = 3000) -> list[tuple[int, dict]]:
    """``(action index, position)`` of every operating turn's run of one seeded game,
    the first of equal positions only. The position is taken while ``run_routes`` is
    listed, before the run: a run may change what the next one sees (1832's first run
    to Miami, [8])."""
    from trainruns.game.selfplay import play

    kept, seen = [], set()

    def on_state(game, _state):
        if game.finished or not any(a["type"] == "run_routes" for a in game.actions()):
            return []
        position = game.position()
        key = json.dumps(position, sort_keys=True)
        if key not in seen:
            seen.add(key)
            kept.append((len(game.entries), position))
        return []

    chooser = policy_for(policy)
    kwargs = {} if chooser is None else {"policy": chooser}
    names = [f"P{i + 1}" for i in range(players)]
    _game, problems, _n = play(title, names, seed, max_actions, on_state=on_state, **kwargs)
    if problems:
        raise RuntimeError(f"{game_name(title, players, seed)} broke a guarantee: {problems[0]}")
    return kept


def corpus_lines(title: str, players: int, seed: int, policy: str = "random",
                 max_actions: int = 3000, solve_seconds: float = SOLVE_SECONDS, left_out=None) -> list[str]:
    """One game's corpus: each position with its proven best revenue and its origin,
    as compact JSON lines. A position not proven within ``solve_seconds`` is left out
    (and, with ``left_out`` a list, appended to it with its action index and bound)."""
    from trainruns import solve

    lines = []
    for index, position in play_positions(title, players, seed, policy, max_actions):
        run = solve(position, time_limit=solve_seconds)
        if not run.optimal:
            if left_out is not None:
                left_out.append((index, position, run.revenue, run.bound))
            continue
        entry = dict(position)
        entry["expected_revenue"] = run.revenue
        entry["notes"] = (f"{title}, {players} players, seed {seed}, {policy} play: "
                          f"{position['corporation']}'s run before action {index}")
        lines.append(json.dumps(entry, separators=(",", ":")))
    return lines


def write_gz(path: Path, lines: list[str]) -> int:
    """Write the lines gzipped with no name or time in the header (the same bytes on
    every run); the compressed size."""
    data = gzip.compress("".join(line + "\n" for line in lines).encode(), compresslevel=9, mtime=0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return len(data)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT, help="the corpus folder (default benchmarks/corpus)")
    ap.add_argument("--titles", nargs="+", default=list(SIZES), choices=list(SIZES))
    ap.add_argument("--games", type=int, default=None, metavar="G",
                    help="games per title (default: 42 of 1832, 60 of 1833NE, 16 of 1831)")
    ap.add_argument("--seed", type=int, default=1, metavar="S", help="seed of each title's first game")
    ap.add_argument("--policy", default="random", choices=("random", "advisor"),
                    help="selfplay's policy (default random)")
    ap.add_argument("--solve-seconds", type=float, default=SOLVE_SECONDS, metavar="T",
                    help="leave out a position not proven in T seconds (default 30)")
    ap.add_argument("--save-left-out", type=Path, default=None, metavar="DIR",
                    help="write each position left out to DIR, for a look at why it is hard")
    ap.add_argument("--max-actions", type=int, default=None, metavar="K",
                    help="stop each game after K actions (default: 3,000)")
    args = ap.parse_args(argv)
    if (args.games is not None and args.games < 1) or (args.max_actions is not None and args.max_actions < 1):
        print("make_corpus: --games and --max-actions must be at least 1", file=sys.stderr)
        return 2
    total_positions = total_bytes = 0
    try:
        policy_for(args.policy)   # a policy this trainruns lacks is refused before a file is touched
        for title in args.titles:
            folder = args.out / title
            for old in folder.glob("*.jsonl.gz"):
                old.unlink()   # a smaller regeneration leaves no stale game behind
            sizes = SIZES[title]
            n_pos = n_bytes = 0
            t0 = time.perf_counter()
            for i in range(args.games or GAMES[title]):
                seed = args.seed + i
                players = sizes[(seed - 1) % len(sizes)]
                left_out = []
                lines = corpus_lines(title, players, seed, args.policy, args.max_actions or MAX_ACTIONS[title],
                                     args.solve_seconds, left_out)
                for index, position, revenue, bound in left_out:
                    name = f"{game_name(title, players, seed)}-action{index}"
                    print(f"{name}: left out, not proven in {args.solve_seconds:g} s ({revenue}, bound {bound})",
                          file=sys.stderr)
                    if args.save_left_out:
                        args.save_left_out.mkdir(parents=True, exist_ok=True)
                        (args.save_left_out / f"{name}.json").write_text(json.dumps(position, indent=1))
                if lines:
                    n_bytes += write_gz(folder / f"{game_name(title, players, seed)}.jsonl.gz", lines)
                n_pos += len(lines)
            print(f"{title}: {n_pos} positions, {n_bytes:,} bytes, {time.perf_counter() - t0:.0f} s")
            total_positions += n_pos
            total_bytes += n_bytes
    except InputError as e:
        print(f"make_corpus: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:
        print(f"make_corpus: {e}", file=sys.stderr)
        return 1
    print(f"all: {total_positions} positions, {total_bytes:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

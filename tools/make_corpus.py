"""Write the corpus of game positions: the position of every operating turn of seeded
self-play games, each with its proven best revenue, one gzipped JSON-lines file a game.

    python tools/make_corpus.py --titles 1833NE --seeds 1-30      # 30 advisor games of 1833NE
    python tools/make_corpus.py --titles 1832 --seeds 1-4 --players 4
    python tools/make_corpus.py --policy random                   # the random-policy corpus

Where: the advisor's games (``--policy advisor``, the default: the players of
``trainruns.players.policies``) are the corpus, ``benchmarks/corpus/<title>/``; the
random policy's games (``trainruns play selfplay``'s own play, for wider and rougher
boards) go to ``benchmarks/corpus-random/<title>/``. ``--out`` names another folder.

Which games: for each title of ``--titles``, the seeds of ``--seeds`` (``1-30``,
``5,9,12-14``; default: the title's ``GAMES`` from seed 1). A game of seed ``S`` is
played with the ``(S - 1) % n``-th of the title's ``n`` player counts from 3 to 6
(1833NE seats 3 to 5), or, with ``--players``, once with each count listed. Each game
is played by ``trainruns.game.selfplay.play`` (its guarantees checked after every
action; ``--policy`` is handed to it) to its end or ``--max-actions``
(``MAX_ACTIONS``; a game stopped there is written as ``<name>-first<K>.jsonl.gz``, which
the whole game's file replaces when it is written). Whenever the game lists ``run_routes``, the operating company's
position (the one the game hands the route core for its run: docs/position-format.md)
is kept, once per distinct position in a game.

Resumable: a game whose file exists is skipped (``--overwrite`` plays it again), and a
file is written whole or not at all (renamed into place), so a run stopped at any point
is completed by running the same command again. A game with no position proven writes
no file, and is played again by the next run. Each game prints one progress line on
stderr: its name, its positions, those left out, its actions and how it ended, and the
CPU seconds of the game (play and solving).

Bounded: each kept position is solved by the route core within ``--solve-seconds``
(30 s; one not proven by then is left out, and named with its bound on stderr), and
written with its proven best revenue as ``expected_revenue`` (the field ``trainruns
bench`` compares against, as in fixtures/) and a ``notes`` naming the game and the
action it came before, one compact JSON object per line, in
``<title>-<n>p-seed<S>.jsonl.gz``, gzipped with no timestamp so that a regenerated file
is byte for byte the same (as long as every position is proven well within the limit).
A game that breaks a guarantee stops the script (exit 1): the corpus holds proven
answers of correct games only.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from trainruns.errors import InputError  # noqa: E402

# the advisor's games are the corpus (issue 32); the random policy's are kept apart
OUT = {"advisor": ROOT / "benchmarks" / "corpus", "random": ROOT / "benchmarks" / "corpus-random"}
# the player counts each title seats, from 3 to 6 (1833NE: Starting cash by player count)
SIZES = {"1832": (3, 4, 5, 6), "1833NE": (3, 4, 5), "1831": (3, 4, 5, 6)}
# games per title when no --seeds is given: the random corpus as shipped
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


def parse_seeds(text: str) -> list[int]:
    """``1-30`` or ``5,9,12-14``: the seeds in the order given, each at least 1; bad
    input raises InputError."""
    seeds = []
    for part in text.split(","):
        lo, sep, hi = part.strip().partition("-")
        try:
            first, last = int(lo), int(hi if sep else lo)
        except ValueError:
            raise InputError(f"not a seed or a range of seeds: {part!r}", "--seeds") from None
        if first < 1 or last < first:
            raise InputError(f"seeds run from 1 up: {part!r}", "--seeds")
        seeds += [s for s in range(first, last + 1) if s not in seeds]
    return seeds


def jobs(titles, seeds=None, players=None) -> list[tuple[str, int, int]]:
    """``(title, players, seed)`` of every game asked for, in order: each seed with the
    title's rotation of player counts, or with each of ``players``; a count the title
    does not seat raises InputError."""
    out = []
    for title in titles:
        sizes = SIZES[title]
        for n in players or ():
            if n not in sizes:
                raise InputError(f"{title} seats {sizes[0]} to {sizes[-1]} players, not {n}", "--players")
        for seed in seeds or range(1, GAMES[title] + 1):
            for n in players or (sizes[(seed - 1) % len(sizes)],):
                out.append((title, n, seed))
    return out


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


class Keeper:
    """A chooser for ``play`` that keeps the operating company's position whenever the
    game lists ``run_routes`` (taken before the run: a run may change what the next one
    sees, 1832's first run to Miami, [8]), the first of equal positions only, as
    ``(action index, position)`` in ``kept``; then ``chooser`` picks the action."""

    def __init__(self, chooser):
        self.chooser, self.kept, self._seen = chooser, [], set()

    def __call__(self, game, listed, rng):
        # the actions play lists anyway: listing them again after every action would cost
        # as much as the play (an 1832 track step lists every legal lay)
        if any(a["type"] == "run_routes" for a in listed):
            position = game.position()
            key = json.dumps(position, sort_keys=True)
            if key not in self._seen:
                self._seen.add(key)
                self.kept.append((len(game.entries), position))
        return self.chooser(game, listed, rng)


def keeper(policy: str) -> Keeper:
    """A Keeper around ``policy``'s chooser (the random policy's own draw for ``random``)."""
    from trainruns.game.selfplay import random_choice

    return Keeper(policy_for(policy) or (lambda _game, listed, rng: random_choice(listed, rng)))


def play_positions(title: str, players: int, seed: int, policy: str = "random",
                   max_actions: int = 3000, ending=None) -> list[tuple[int, dict]]:
    """``(action index, position)`` of every operating turn's run of one seeded game
    (a :class:`Keeper`'s). With ``ending`` a dict, the game's actions and how it ended
    (``end_reason``, or ``capped``) are put in it."""
    from trainruns.game.selfplay import play

    keep = keeper(policy)
    names = [f"P{i + 1}" for i in range(players)]
    game, problems, n = play(title, names, seed, max_actions, policy=keep)
    if problems:
        raise RuntimeError(f"{game_name(title, players, seed)} broke a guarantee: {problems[0]}")
    if ending is not None:
        ending.update(actions=n, end=game.end_reason if game.finished else "capped")
    return keep.kept


def proven_lines(title: str, players: int, seed: int, policy: str, kept,
                 solve_seconds: float = SOLVE_SECONDS, left_out=None) -> list[str]:
    """The kept positions of one game, each with its proven best revenue and its origin,
    as compact JSON lines. A position not proven within ``solve_seconds`` is left out
    (and, with ``left_out`` a list, appended to it with its action index and bound)."""
    from trainruns import solve

    lines = []
    for index, position in kept:
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


def corpus_lines(title: str, players: int, seed: int, policy: str = "random",
                 max_actions: int = 3000, solve_seconds: float = SOLVE_SECONDS, left_out=None,
                 ending=None) -> list[str]:
    """One game played and its positions proven (:func:`proven_lines`)."""
    kept = play_positions(title, players, seed, policy, max_actions, ending)
    return proven_lines(title, players, seed, policy, kept, solve_seconds, left_out)


def write_gz(path: Path, lines: list[str]) -> int:
    """Write the lines gzipped with no name or time in the header (the same bytes on
    every run), whole or not at all (a file beside it renamed into place: an
    interrupted run leaves no half file to be taken for a finished game); the
    compressed size."""
    data = gzip.compress("".join(line + "\n" for line in lines).encode(), compresslevel=9, mtime=0)
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    part.write_bytes(data)
    os.replace(part, path)
    return len(data)


def write_game(folder: Path, name: str, lines: list[str], capped: bool, max_actions: int) -> tuple[Path, int]:
    """Write one game's file, ``<name>.jsonl.gz``, or ``<name>-first<K>.jsonl.gz`` for a
    game stopped by the action cap K (a whole game's file replaces its parts); nothing
    when no position was proven. ``(path, compressed size)``."""
    path = folder / (f"{name}-first{max_actions}.jsonl.gz" if capped else f"{name}.jsonl.gz")
    size = write_gz(path, lines) if lines else 0
    if lines and not capped:
        for stale in folder.glob(f"{name}-first*.jsonl.gz"):
            stale.unlink()
    return path, size


def cpu_seconds() -> float:
    """CPU seconds (user and system) of this process so far: the load on a shared
    machine makes wall time say little."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def make_game(out: Path, title: str, players: int, seed: int, args) -> tuple[int, int]:
    """Play, solve and write one game's file; ``(positions, bytes)``; one progress
    line on stderr, and one line for each position left out.

    A game stopped by ``--max-actions K`` is written as ``<name>-first<K>.jsonl.gz``:
    the first K actions of the game, kept apart from the whole game's file, which
    replaces every such part when it is written (the same seed plays the same actions,
    so a part's positions are the whole game's first ones)."""
    name = game_name(title, players, seed)
    folder = out / title
    max_actions = args.max_actions or MAX_ACTIONS[title]
    whole, part = folder / f"{name}.jsonl.gz", folder / f"{name}-first{max_actions}.jsonl.gz"
    done = next((p for p in (whole, part) if p.exists()), None)
    if done and not args.overwrite:
        n = len(gzip.decompress(done.read_bytes()).splitlines())
        print(f"{done.name[:-len('.jsonl.gz')]}: {n} positions, kept (its file exists)", file=sys.stderr, flush=True)
        return 0, 0
    cpu0 = cpu_seconds()
    left_out, ending = [], {}
    lines = corpus_lines(title, players, seed, args.policy, max_actions, args.solve_seconds, left_out, ending)
    for index, position, revenue, bound in left_out:
        lost = f"{name}-action{index}"
        print(f"{lost}: left out, not proven in {args.solve_seconds:g} s ({revenue}, bound {bound})",
              file=sys.stderr, flush=True)
        if args.save_left_out:
            args.save_left_out.mkdir(parents=True, exist_ok=True)
            (args.save_left_out / f"{lost}.json").write_text(json.dumps(position, indent=1))
    path, size = write_game(folder, name, lines, ending["end"] == "capped", max_actions)
    print(f"{path.name[:-len('.jsonl.gz')]}: {len(lines)} positions, {len(left_out)} left out, "
          f"{ending['actions']} actions ({ending['end']}), {size:,} bytes, {cpu_seconds() - cpu0:.1f} s CPU",
          file=sys.stderr, flush=True)
    return len(lines), size


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None,
                    help="the corpus folder (default benchmarks/corpus, or benchmarks/corpus-random for "
                         "--policy random)")
    ap.add_argument("--titles", nargs="+", default=list(SIZES), choices=list(SIZES))
    ap.add_argument("--seeds", default=None, metavar="SEEDS",
                    help="the seeds, as 1-30 or 5,9,12-14 (default: 42 of 1832, 60 of 1833NE, 16 of 1831, from 1)")
    ap.add_argument("--players", type=int, nargs="+", default=None, metavar="N",
                    help="play each seed with each of these player counts (default: the seed's turn in 3-6)")
    ap.add_argument("--policy", default="advisor", choices=("advisor", "random"),
                    help="selfplay's policy (default advisor)")
    ap.add_argument("--overwrite", action="store_true", help="play again a game whose file exists")
    ap.add_argument("--solve-seconds", type=float, default=SOLVE_SECONDS, metavar="T",
                    help="leave out a position not proven in T seconds (default 30)")
    ap.add_argument("--save-left-out", type=Path, default=None, metavar="DIR",
                    help="write each position left out to DIR, for a look at why it is hard")
    ap.add_argument("--max-actions", type=int, default=None, metavar="K",
                    help="stop each game after K actions (default: 3,000)")
    args = ap.parse_args(argv)
    if (args.max_actions is not None and args.max_actions < 1) or args.solve_seconds <= 0:
        print("make_corpus: --max-actions and --solve-seconds must be above 0", file=sys.stderr)
        return 2
    out = args.out or OUT[args.policy]
    total_positions = total_bytes = 0
    try:
        todo = jobs(args.titles, parse_seeds(args.seeds) if args.seeds else None, args.players)
        policy_for(args.policy)   # a policy this trainruns lacks is refused before a game is played
        for title, players, seed in todo:
            n, size = make_game(out, title, players, seed, args)
            total_positions += n
            total_bytes += size
    except InputError as e:
        print(f"make_corpus: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:
        print(f"make_corpus: {e}", file=sys.stderr)
        return 1
    print(f"written: {total_positions} positions, {total_bytes:,} bytes in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The game engine's speed: actions per second in seeded random 1832 self-play
and the time to replay a finished game, each with the route core's share (the time
spent in game/core.py, the one adapter through which the game asks the
route core for tile lays, token cities, best runs and audits); and the
in-process solve of each position the kept games ask the core to solve, by the game's
call path now and by the one it had before, in the same run.

    pytest benchmarks/test_bench_game.py --benchmark-only
"""

import contextlib
import json
import os
import statistics
import sys
import time
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from game_selfplay import play  # noqa: E402

from trainruns.game import route_adapter  # noqa: E402
from trainruns.game.game import Game  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "games")
CALLS = ("tile_lays", "token_cities", "best_run", "audit_run", "has_route")


@contextlib.contextmanager
def route_core_clock():
    """Time spent in the adapter's calls, with its caches emptied first."""
    spent = {"s": 0.0}
    saved = {n: getattr(route_adapter, n) for n in CALLS}
    route_adapter.clear()

    def timed(f):
        def wrapper(*a, **k):
            t = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                spent["s"] += time.perf_counter() - t
        return wrapper

    for n, f in saved.items():
        setattr(route_adapter, n, timed(f))
    try:
        yield spent
    finally:
        for n, f in saved.items():
            setattr(route_adapter, n, f)


def test_selfplay_actions_per_second(benchmark):
    def run():
        with route_core_clock() as core:
            t = time.perf_counter()
            total = 0
            for players, seed in ((["A", "B", "C", "D"], 1001), (["A", "B", "C"], 1002)):
                _game, problems, n = play(players, seed)
                assert problems == []
                total += n
            wall = time.perf_counter() - t
        benchmark.extra_info.update({"actions": total, "actions_per_s": round(total / wall, 1),
                                     "route_core_share": round(core["s"] / wall, 3)})
    benchmark.pedantic(run, rounds=1, iterations=1)


def test_replay_a_finished_game(benchmark):
    name = sorted(f for f in os.listdir(FIXTURES) if f.endswith(".game"))[0]
    with open(os.path.join(FIXTURES, name)) as fh:
        log = json.load(fh)["log"]

    def run():
        with route_core_clock() as core:
            t = time.perf_counter()
            game = Game.replay(log)
            wall = time.perf_counter() - t
        assert game.finished
        benchmark.extra_info.update({"game": name, "actions": len(log["actions"]), "replay_s": round(wall, 3),
                                     "route_core_share": round(core["s"] / wall, 3)})
    benchmark.pedantic(run, rounds=1, iterations=1)


def _kept_game_positions():
    """Every position the kept games of fixtures/games (1832 and 1833NE, both through
    the 1832 adapter) ask the core to solve while they replay, in order."""
    keys = []
    real = route_adapter._solved

    def spy(position):
        key = json.dumps(position, sort_keys=True)
        if key not in keys:
            keys.append(key)
        return real(position)

    route_adapter.clear()
    saved = route_adapter._solved
    route_adapter._solved = spy
    try:
        for name in sorted(os.listdir(FIXTURES)):
            if name.endswith(".game") or (name.startswith("1833NE") and name.endswith(".json")):
                with open(os.path.join(FIXTURES, name)) as fh:
                    data = json.load(fh)
                Game.replay(data.get("log", data))
    finally:
        route_adapter._solved = saved
    return keys


def _as_before(data):
    """The game's former solve path, the baseline of these rows: the whole JSON-Schema walk, a
    thread started per root of the enumeration, every hex face parsed from the title's
    data again."""
    from trainruns import load_position, titles
    from trainruns.errors import InputWarning
    from trainruns.route import enumeration
    from trainruns.route.search import solve

    title = titles.of_position(data)
    title.facts.tiled.__dict__.pop("_faces", None)
    inline, enumeration.INLINE_ROUTES = enumeration.INLINE_ROUTES, 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InputWarning)
            return solve(load_position(data))
    finally:
        enumeration.INLINE_ROUTES = inline


def _as_now(data):
    """The game's solve now (titles/g1832/route_adapter.py: ``_run`` on ``_board_of``)."""
    from trainruns.route.search import solve
    from trainruns.titles.load import load_engine_position

    return solve(load_engine_position(data))


def test_solve_per_game_action(benchmark):
    """Reading (title rules), building, compiling and solving each position the kept
    games ask for, in-process: median and p90 per position of wall and CPU time, now
    and by the former call path, alternated position by position so both see the same
    machine load; the answers must agree."""
    from trainruns.route.kernels import warm_up

    warm_up()
    keys = _kept_game_positions()
    out = {}

    def one_pass():
        times = {"now": ([], []), "before": ([], [])}
        for key in keys:
            answers = []
            for label, path in (("before", _as_before), ("now", _as_now)):
                wall, cpu = times[label]
                data = json.loads(key)
                t, c = time.perf_counter(), time.process_time()
                run = path(data)
                wall.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)  # (all threads: steadier on a busy machine)
                answers.append((run.revenue, run.optimal, run.bound,
                                [(r.train, r.stop_labels()) for r in run.routes]))
            assert answers[0] == answers[1]
        out.update(times)

    benchmark.pedantic(one_pass, rounds=3, iterations=1, warmup_rounds=1)

    def ms(xs, q):
        return round(1000 * (statistics.median(xs) if q == 50 else sorted(xs)[int(q / 100 * len(xs))]), 2)

    info = {"positions": len(keys)}
    for label, (wall, cpu) in out.items():
        info.update({f"{label}_median_ms": ms(wall, 50), f"{label}_p90_ms": ms(wall, 90),
                     f"{label}_cpu_median_ms": ms(cpu, 50), f"{label}_cpu_p90_ms": ms(cpu, 90)})
    benchmark.extra_info.update(info)

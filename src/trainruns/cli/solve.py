"""``trainruns solve POSITION``: the best run, as a table or as the JSON of docs/position-format.md."""

import json
import os
import stat
import sys
import time

from trainruns.cli import add_memory, add_time_limit, on_interrupt


def stop_name(board, ref):
    """:func:`trainruns.route.board.stop_name` (loaded when a run is printed, not when the
    parser is built: ``--help`` stays fast)."""
    from trainruns.route.board import stop_name as name

    return name(board, ref)

# The search (numba, ortools) is imported when a command runs, not when the parser is
# built: `trainruns --help` stays fast.


def register(sub):
    p = sub.add_parser("solve", help="find the proven best run of a position")
    p.add_argument("position", help="position file (JSON)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_time_limit(p, "stop after this long (counted from the command's start, kept within 10%% or "
                      "0.5 s) with the best run found and an upper bound; Ctrl-C then prints the best "
                      "run found so far")
    add_memory(p)
    p.add_argument("--engine", choices=["auto", "search", "cpsat", "flow"], default="auto",
                   help="train assignment: numba branch and bound (search), the CP-SAT 0-1 program "
                        "(cpsat), the CP-SAT model over the track graph with no routes listed (flow) "
                        "or auto: branch and bound, CP-SAT if it explodes, flow when the routes are too many (default)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--daemon", action="store_true",
                   help="have the warm daemon answer even when TRAINRUNS_DAEMON=0 (by default a solve "
                        "goes to the daemon, started on demand, and runs in-process while none answers "
                        "yet; same output either way; docs/daemon.md)")
    p.set_defaults(func=run)


def run(args):
    from trainruns.cli.progress import TerminalProgress
    from trainruns.route.limits import Limits
    from trainruns.route.search import solve
    from trainruns.titles.load import load_position

    limits = Limits(args.time_limit, args.memory, start=getattr(args, "started", None))
    board, compiled = _read_ahead_board(args.position) or (load_position(args.position), None)
    if args.time_limit is not None or args.memory is not None:
        compiled = None  # (compiled ahead under no deadline and the default budget only)
    # the kernels are loaded by solve, after its quick run (a short limit may need no
    # kernel at all); the progress reports a first-time compilation
    progress = None if args.quiet else TerminalProgress(start=limits.start)

    def last_words():
        # with a time limit the user asked for the best run in bounded time: Ctrl-C
        # gives the best found so far (proven only if its bound says so)
        if progress:
            progress.close()
        if args.time_limit is not None and limits.best is not None:
            best = limits.best
            best.optimal = best.bound == best.revenue
            best.seconds = time.perf_counter() - limits.start
            show(args, board, best)

    on_interrupt(last_words)
    result = solve(board, progress=progress, engine=args.engine, limits=limits, compiled=compiled)
    if progress:
        progress.close()
    show(args, board, result)
    return 0


# A position read ahead by the daemon's spare child (trainruns.daemon.server.prepare):
# the previous command's, for a next command of the same file. (path as the command
# gave it, the file's bytes then, its board, the board compiled or None); empty outside
# the daemon.
_READ_AHEAD = []
# a board is compiled ahead only if its walk kept fewer chains than this: the fewest a
# command's memory budget keeps (compile.py's max_chains), so that no budget of the
# command's would have cut it
COMPILE_AHEAD_CHAINS = 1000
# the compile ahead stops after this long (and is dropped, cut): a next command, maybe
# of another position, must not wait for a large board's walk
COMPILE_AHEAD_SECONDS = 0.05
# positions larger than this are not read ahead: reading one must not keep a spare
# from its next command for long (a real game's position is 5-20 kB)
READ_AHEAD_BYTES = 256 * 1024
# how long a spare waits for the file (one on a network mount may not answer): it
# gives up, and the command reads the file itself
READ_AHEAD_SECONDS = 0.05


def read_ahead(argv, cwd, waiting=lambda: False):
    """In the daemon's spare: read ahead the position of command ``argv`` (a ``solve``
    run in folder ``cwd``), for a next command of the same position. Kept only when it
    is a small regular file read at once and loads without a warning (the command
    reading it itself would say the warning); anything else is left for the command to
    read (and refuse). Then, unless ``waiting()`` says a command has come, the board
    compiled ahead (:func:`_compile_ahead`)."""
    import threading
    import warnings

    from trainruns.cli.main import build_parser
    from trainruns.position.reader import parse_json
    from trainruns.titles.load import load_position

    if argv[:1] != ["solve"] or "-h" in argv or "--help" in argv:
        return
    path = build_parser("solve").parse_args(argv).position
    got = []
    reader = threading.Thread(target=lambda: got.append(_small_file(os.path.join(cwd, path))), daemon=True)
    reader.start()
    reader.join(READ_AHEAD_SECONDS)
    raw = got[0] if got else None
    if raw is None:
        return
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        # (what load_position(path) does with the file, its bytes read here)
        board = load_position(parse_json(raw, path), path)
    if not said:
        _READ_AHEAD[:] = [path, raw, board, None]
        if not waiting():
            _READ_AHEAD[3] = _compile_ahead(board)


class _Heard:
    """A progress that only notes whether it was told anything."""

    told = False

    def update(self, *args, **kwargs):
        self.told = True


def _compile_ahead(board):
    """``board`` compiled as a solve with no time limit, the default memory budget
    and ``--quiet`` or not compiles it (:func:`trainruns.route.search.solve`), or None
    when that compile would depend on them: a walk cut short (here within
    ``COMPILE_AHEAD_SECONDS``: limits only ever cut the walk, so one they did not cut
    is the walk without them), one with ``COMPILE_AHEAD_CHAINS`` chains or more, or
    one long enough to report its progress."""
    from trainruns.route.compile import compile_board
    from trainruns.route.limits import Limits

    heard = _Heard()
    compiled = compile_board(board, Limits(COMPILE_AHEAD_SECONDS), own_only=board.route_model is None, progress=heard)
    if not compiled.complete or heard.told or len(compiled.chain_from) >= COMPILE_AHEAD_CHAINS:
        return None
    return compiled


def _small_file(path):
    """The bytes of ``path`` if it is a regular file of at most READ_AHEAD_BYTES, else
    None. Opened without blocking and checked before any read: a named pipe or a device
    is neither waited on nor drained (the command reads it itself). The path is looked
    at before it is opened: opening a named pipe, even without blocking, lets a writer
    waiting on it go on and write to a reader that then leaves, and the pipe's data is
    lost to the command."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, size = [], 0
        while size <= READ_AHEAD_BYTES:
            chunk = os.read(fd, READ_AHEAD_BYTES + 1 - size)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
        return None
    except OSError:
        return None
    finally:
        os.close(fd)


def _read_ahead_board(path):
    """The board read ahead for position ``path`` and its compile (or None) if the file
    still holds the same bytes (compared whole: a file rewritten within the clock's tick
    keeps its time), else None."""
    if not _READ_AHEAD or _READ_AHEAD[0] != path:
        return None
    raw = _small_file(path)
    return (_READ_AHEAD[2], _READ_AHEAD[3]) if raw is not None and raw == _READ_AHEAD[1] else None


def show(args, board, result):
    if args.json:
        print(json.dumps(result.to_json()), flush=True)
    else:
        print(format_run(board, result), flush=True)


def compile_notice(quiet):
    """Load the kernels before any clock starts; the first run on a machine compiles
    them, which takes a while, so say what is happening."""
    from trainruns.route.kernels import warm_up

    t0 = time.perf_counter()
    warm_up()
    took = time.perf_counter() - t0
    if not quiet:
        from trainruns.cli.progress import kernels_notice

        kernels_notice(sys.stderr, took)


def earned_text(board, ref, route, i):
    """What stop ``i`` of ``route`` earns, as its parts: "50", or "50 + 20 station" when
    a token adds to the city (1831), or "not counted"."""
    if i < len(route.earned):
        parts = route.earned[i]
        if not parts:
            return "not counted"
        return " + ".join([str(parts[0][1])] + [f"{amount} {name}" for name, amount in parts[1:]])
    return str(board.stop(ref).value) if route.counted[i] else "not counted"


def format_run(board, result):
    """A table a player reads at the table: each train's stops with what each earns, so
    that the parts shown add up to the route's revenue and the routes to the total."""
    lines = [f"{board.corporation} in phase {board.phase}" if board.phase else board.corporation]
    width = max([len(r.train) for r in result.routes] + [5])
    for r in result.routes:
        parts = [f"{stop_name(board, ref)} ({earned_text(board, ref, r, i)})" for i, ref in enumerate(r.stops)]
        extra = "".join(f" + {name} {amount}" for name, amount in r.bonuses)
        lines.append(f"  {r.train:<{width}}  {r.revenue:>5}  " + " - ".join(parts) + extra)
    for name in result.idle:
        lines.append(f"  {name:<{width}}  {0:>5}  (no route)")
    verdict = "proven optimal" if result.optimal else f"not proven optimal: upper bound {result.bound}"
    lines.append(f"  {'total':<{width}}  {result.revenue:>5}  {verdict}")
    lines.append(f"  {result.candidates} candidate routes, {result.nodes} search nodes, "
                 f"{result.seconds * 1000:.1f} ms")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(1)

"""Where a whole `trainruns solve POSITION` answered by the daemon spends its time.

    python benchmarks/client_split.py [--rounds N] [--before SCRIPT [--before-path SRC]] [POSITION ...]

Starts a daemon of its own (a private runtime folder), then runs, interleaved round by
round so that the machine's load falls on every row alike:

- ``python -c pass``: the interpreter's start and end (site and the venv's .pth files
  included); ``python -S -c pass`` beside it gives site's share;
- the installed console script's own lines without the command (``import re, sys``
  for pip's wrapper; whatever the script imports, read from the script);
- the client's imports: ``trainruns --version``, the installed script's whole start
  (its modules loaded as a solve loads them, from the bytecode the daemon compiled for
  it) up to its first line of output; without a script, ``trainruns.cli.main`` and
  ``trainruns.daemon.client`` imported by ``-c``;
- the whole call, ``trainruns solve --quiet POSITION`` (the default: the daemon);

- with ``--before``, the whole call of another installation's script (its package
  on ``--before-path``, put first on PYTHONPATH), answered by a daemon of its own;

each as medians of wall and CPU time (the kernel's accounting of the finished child),
and the CPU each daemon spent a whole call over those rounds (its own, and its
children's: the fork's return, preparing the spare, the command and its exit).
In this process, with the client's modules loaded: the interpreter's identity, the connect,
the request up to the daemon's first reply (its child's pid), the command up to its
exit status, and the child's own CPU as it reports it; the last three for every position
too, this tree's and (in a process of its own) the other's, interleaved round by round. And the daemon's share in a
warm interpreter (this one, the modules loaded and the position read once): parsing
the command line, reading the position, the search, formatting. Prints a table in ms.
Times nothing in a test: this is a measuring tool.
"""

import argparse
import contextlib
import glob
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from test_bench_startup import SCRIPT, _wall  # (this environment's script or None; wall and CPU seconds of a process)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _script_imports(package=False):
    """The import lines of the installed script (what it costs before its main), the
    package's own with ``package``."""
    if not SCRIPT:
        return "import sys; import trainruns.cli.main" if package else "import sys"
    with open(SCRIPT) as fh:
        lines = [ln.strip() for ln in fh if ln.startswith(("import ", "from "))]
    return "; ".join(ln for ln in lines if package or "trainruns" not in ln) or "pass"


def _children(positions, env):
    """The daemon's child of each position's command, as :func:`_forward_split` times it,
    in a process of ``env`` (another installation's client, with its daemon): JSON."""
    import json

    argv = [sys.executable, os.path.abspath(__file__), "--children"] + positions
    out = subprocess.run(argv, env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
    return json.loads(out.splitlines()[-1])


def _daemon_cpu(command, env):
    """CPU seconds the daemon of ``command`` has used so far: its own (accepting,
    handing over, forking) and its reaped children's (each command's child: the fork's
    return, preparing as the spare, the command, its exit), from /proc; None without
    one."""
    import json

    try:
        out = subprocess.run(command + ["daemon", "status", "--json"], env=env, check=True,
                             stdout=subprocess.PIPE, text=True).stdout
        with open(f"/proc/{json.loads(out)['pid']}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except (OSError, ValueError, KeyError, subprocess.CalledProcessError):
        return None
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, (int(fields[13]) + int(fields[14])) / tick


def _forward_split(argv, rounds, argvs=None):
    """In this process, the client's modules loaded: its identity, connect, the request
    up to the daemon's first reply, the command up to its exit status, the child's CPU
    (``argvs``: each command once a round, instead of ``argv``)."""
    import _socket

    from trainruns.daemon import interpreter, receive, send, socket_path

    rows = {"interpreter's identity": [], "connect": [], "request to first reply": [], "command to exit status": [],
            "daemon child's CPU (its report)": []}
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for argv in [a for _ in range(rounds) for a in (argvs or [argv])]:
            t0 = time.perf_counter()
            code = interpreter()
            t1 = time.perf_counter()
            sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
            sock.connect(socket_path())
            t2 = time.perf_counter()
            header = {"op": "run", "argv": argv, "cwd": os.getcwd(), "env": dict(os.environ), "started": t0,
                      "fingerprint": code, "encoding": ["utf-8"] * 3}
            send(sock, header, [null, null, null])
            first, _ = receive(sock)
            t3 = time.perf_counter()
            last, _ = receive(sock)
            t4 = time.perf_counter()
            sock.close()
            if not first or "pid" not in first or not last or "exit" not in last:
                raise SystemExit(f"the daemon did not run {argv}: {first} {last}")
            for key, value in zip(rows, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, last.get("cpu", 0.0))):
                rows[key].append(value)
    finally:
        os.close(null)
    return rows


def _daemon_share(path, rounds):
    """The command's parts in a warm interpreter: parse, read, search, format."""
    from trainruns.cli.main import build_parser
    from trainruns.cli.solve import format_run
    from trainruns.route.limits import Limits
    from trainruns.route.search import solve
    from trainruns.titles.load import load_position

    rows = {"parse the command line": [], "read the position": [], "search": [], "format": []}
    parser = build_parser("solve")
    for _ in range(rounds + 1):
        t0 = time.perf_counter()
        args = parser.parse_args(["solve", "--quiet", path])
        t1 = time.perf_counter()
        board = load_position(args.position)
        t2 = time.perf_counter()
        result = solve(board, limits=Limits(None, None, start=t0))
        t3 = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            print(format_run(board, result), flush=True)
        t4 = time.perf_counter()
        for key, value in zip(rows, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
            rows[key].append(value)
    return {k: v[1:] for k, v in rows.items()}  # (the first round reads the title's data)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("positions", nargs="*", help="positions (default: fixtures/real/*.json)")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=1,
                    help="each position this many times in a row a round (test_bench_startup asks each "
                         "10 times in a row: the daemon's spare has it read ahead from the second on)")
    ap.add_argument("--before", help="another installation's trainruns script, timed beside")
    ap.add_argument("--before-path", help="its package's folder (put first on PYTHONPATH)")
    ap.add_argument("--children", action="store_true",
                    help="only the daemon's child of each position's command, once (JSON on stdout)")
    opts = ap.parse_args(argv)
    if opts.children:
        import json

        rows = _forward_split(None, 1, [["solve", "--quiet", p] for p in opts.positions])
        print(json.dumps(rows))
        return 0
    positions = opts.positions or sorted(glob.glob(os.path.join(ROOT, "fixtures", "real", "*.json")))
    runtime = tempfile.mkdtemp(prefix="trainruns-split-")
    os.chmod(runtime, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, TRAINRUNS_DAEMON_IDLE="600")
    env.pop("TRAINRUNS_DAEMON", None)
    os.environ.update(XDG_RUNTIME_DIR=runtime)
    os.environ.pop("TRAINRUNS_DAEMON", None)
    command = [SCRIPT] if SCRIPT else [sys.executable, "-m", "trainruns"]
    py = sys.executable
    load = [os.getloadavg()[0]]
    subprocess.run(command + ["daemon", "start"], env=env, check=True, stdout=subprocess.DEVNULL)
    before_env = None
    if opts.before:
        folder = tempfile.mkdtemp(prefix="trainruns-split-before-")
        os.chmod(folder, 0o700)
        before_env = dict(env, XDG_RUNTIME_DIR=folder)
        if opts.before_path:
            before_env["PYTHONPATH"] = os.pathsep.join([opts.before_path] + [
                p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
        subprocess.run([opts.before, "daemon", "start"], env=before_env, check=True, stdout=subprocess.DEVNULL)
    try:
        for p in positions:
            _wall(command + ["solve", "--quiet", p], env)  # (the daemon has read each title)
            if before_env:
                _wall([opts.before, "solve", "--quiet", p], before_env)
        procs = {
            "python -c pass": [py, "-c", "pass"],
            "python -S -c pass": [py, "-S", "-c", "pass"],
            "console script's imports": [py, "-c", _script_imports()],
            "client's imports": [SCRIPT, "--version"] if SCRIPT else
            [py, "-c", _script_imports(package=True) + "; import trainruns.daemon.client"],
        }
        got = {k: [] for k in list(procs) + (["client's imports, before"] if before_env else [])
               + ["whole call"] + (["whole call, before"] if before_env else [])}
        daemon_cpu = {"": [_daemon_cpu(command, env)], ", before": [_daemon_cpu([opts.before], before_env)
                                                                   if before_env else None]}
        for r in range(opts.rounds):
            for key, args in procs.items():
                got[key].append(_wall(args, env))
            if before_env:
                got["client's imports, before"].append(_wall([opts.before, "--version"], before_env))
            for p in positions:
                for _ in range(opts.repeat):
                    got["whole call"].append(_wall(command + ["solve", "--quiet", p], env))
                for _ in range(opts.repeat if before_env else 0):
                    got["whole call, before"].append(_wall([opts.before, "solve", "--quiet", p], before_env))
        load.append(os.getloadavg()[0])
        daemon_cpu[""].append(_daemon_cpu(command, env))
        daemon_cpu[", before"].append(_daemon_cpu([opts.before], before_env) if before_env else None)
        fwd = _forward_split(["solve", "--quiet", positions[0]], opts.rounds * 3)
        # each position's child, this tree's and the other's interleaved round by round
        # (``--repeat`` times in a row: from the second on the spare has it read ahead)
        children = {"": {}, ", before": {}}
        for r in range(opts.rounds):
            for tag, e in [("", env)] + ([(", before", before_env)] if before_env else []):
                for k, v in _children([p for p in positions for _ in range(opts.repeat)], e).items():
                    children[tag].setdefault(k, []).extend(v)
        share = {}
        for p in positions:
            for k, v in _daemon_share(p, max(3, opts.rounds // 2)).items():
                share.setdefault(k, []).extend(v)
    finally:
        subprocess.run(command + ["daemon", "stop"], env=env, check=False, stdout=subprocess.DEVNULL)
        shutil.rmtree(runtime, ignore_errors=True)
        if before_env:
            subprocess.run([opts.before, "daemon", "stop"], env=before_env, check=False, stdout=subprocess.DEVNULL)
            shutil.rmtree(before_env["XDG_RUNTIME_DIR"], ignore_errors=True)
    ms = lambda xs: 1000 * statistics.median(xs)  # noqa: E731
    print(f"{len(positions)} positions x {opts.repeat} in a row, {opts.rounds} rounds, "
          f"load {load[0]:.1f} -> {load[-1]:.1f}; "
          f"script {command[0]}")
    print(f"{'whole processes':<40} {'wall ms':>8} {'CPU ms':>8}")
    for key, runs in got.items():
        print(f"{key:<40} {ms([w for w, _ in runs]):8.1f} {ms([c for _, c in runs]):8.1f}")
    for key in [k for k in got if k.startswith("whole call")]:
        walls = sorted(w for w, _ in got[key])
        print(f"{key + ': 90th percentile, max wall':<40} {1000 * walls[int(0.9 * len(walls))]:8.1f} "
              f"{1000 * walls[-1]:8.1f}")
    for tag, (first, last) in daemon_cpu.items():
        calls = len(got.get("whole call" + tag, []))
        if first and last and calls:
            print(f"{'daemon CPU a whole call, its own' + tag:<40} {1000 * (last[0] - first[0]) / calls:8.1f}")
            print(f"{'daemon CPU a whole call, its children' + tag:<40} {1000 * (last[1] - first[1]) / calls:8.1f}")
    print(f"{'in the client (its modules loaded)':<40} {'ms':>8}")
    for key, values in fwd.items():
        print(f"{key:<40} {ms(values):8.2f}")
    print(f"{'each position, its own process':<40} {'ms':>8}")
    for tag, rows in children.items():
        for key in ("request to first reply", "command to exit status", "daemon child's CPU (its report)"):
            if rows:
                print(f"{key + tag:<40} {ms(rows[key]):8.2f}")
    print(f"{'the daemon share, warm (all positions)':<40} {'ms':>8}")
    for key, values in share.items():
        print(f"{key:<40} {ms(values):8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

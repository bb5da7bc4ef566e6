"""What one fork costs the daemon: its own CPU in ``os.fork()`` and a child's that
ends at once (the fork's return in the child and its exit: the kernel copies the page
tables of every anonymous page the parent has, and tears them down again at the
child's exit), for a process loaded as the daemon warms up and for lighter ones.

    python benchmarks/fork_cost.py [--forks N]

Each line is one fresh interpreter: nothing loaded; numpy; the route core and the
solve command without numba; numba; the daemon's warm-up
(:func:`trainruns.daemon.server.warm`, then ``gc.freeze`` as the daemon does). Prints
the medians in ms with the process's anonymous and file-backed resident memory.
Times nothing in a test: this is a measuring tool.
"""

import argparse
import json
import os
import subprocess
import sys

LOADS = {
    "nothing": [],
    "numpy": ["numpy"],
    "route core, no numba": ["trainruns.route.search", "trainruns.titles.load", "trainruns.cli.solve"],
    "numba": ["numba"],
    "the daemon's warm-up": ["warm"],
}


def _probe(modules, forks):
    """In this process: load ``modules``, then fork ``forks`` children that end at once."""
    import gc
    import importlib
    import statistics
    import time

    for name in modules:
        if name == "warm":
            from trainruns.daemon.server import warm

            warm()
        else:
            importlib.import_module(name)
    gc.collect()
    gc.freeze()
    own, child = [], []
    for _ in range(forks):
        t = time.process_time()
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        own.append(time.process_time() - t)
        _, _, usage = os.wait4(pid, 0)
        child.append(usage.ru_utime + usage.ru_stime)
    with open("/proc/self/status") as fh:
        status = dict(line.split(":", 1) for line in fh if ":" in line)
    print(json.dumps({"fork": 1000 * statistics.median(own), "child": 1000 * statistics.median(child),
                      "anon": status["RssAnon"].strip(), "file": status["RssFile"].strip(),
                      "numba": "numba" in sys.modules}))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--forks", type=int, default=30)
    ap.add_argument("--probe", nargs="*", help=argparse.SUPPRESS)
    opts = ap.parse_args(argv)
    if opts.probe is not None:
        _probe(opts.probe, opts.forks)
        return 0
    print(f"{'loaded':<24} {'fork ms':>8} {'child ms':>9} {'anon':>10} {'file':>10}  load {os.getloadavg()[0]:.1f}")
    for label, modules in LOADS.items():
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--forks", str(opts.forks), "--probe"]
                             + modules, check=True, stdout=subprocess.PIPE, text=True).stdout
        row = json.loads(out.splitlines()[-1])
        print(f"{label:<24} {row['fork']:8.2f} {row['child']:9.2f} {row['anon']:>10} {row['file']:>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

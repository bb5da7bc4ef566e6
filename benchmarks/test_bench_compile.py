"""numba compile time, apart: a fresh interpreter with an empty NUMBA_CACHE_DIR runs
``warm_up`` (compiling every kernel), then a second one loads them from that cache."""

import os
import subprocess
import sys
import tempfile

CODE = ("import time; t = time.perf_counter(); from trainruns.route.kernels import warm_up; warm_up(); "
        "print(time.perf_counter() - t)")


def run_fresh(cache):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def test_compile_time(benchmark):
    with tempfile.TemporaryDirectory() as cache:
        cold = run_fresh(cache)
        warm = run_fresh(cache)
    benchmark.extra_info.update({"compile_s": cold, "cached_load_s": warm})
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)

"""Benchmarks (pytest-benchmark): ``pytest benchmarks --benchmark-only``.

Not collected by the plain ``pytest`` run (pyproject's testpaths is ``tests``). Every
benchmark warms the numba kernels first, so compile time is never in a timing; it is
measured on its own in test_bench_compile.py.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def pytest_benchmark_update_machine_info(config, machine_info):
    """The load average at the start of the run, in the JSON beside the machine: on a
    shared machine it says how far a wall time can be trusted (report_tables.py)."""
    if hasattr(os, "getloadavg"):
        machine_info["loadavg"] = list(os.getloadavg())


@pytest.fixture(scope="session", autouse=True)
def warm():
    from trainruns.route.kernels import warm_up

    warm_up()


@pytest.fixture
def record(benchmark):
    """Run ``measure`` once (figures into extra_info), then time ``solve`` itself."""
    from measure import measure

    def go(position, time_limit=30.0, engine="auto"):
        from trainruns import solve  # (a position dict: search.solve takes a Board only)

        row = measure(position, time_limit=time_limit)
        benchmark.extra_info.update(row)
        result = benchmark.pedantic(solve, args=(position,), kwargs={"time_limit": time_limit, "engine": engine},
                                    rounds=3 if row["proof_ms"] < 500 else 1, iterations=1, warmup_rounds=0)
        return row, result

    return go

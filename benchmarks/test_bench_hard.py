"""The hard late-game family (trainruns.services.generate.hard_board): 10^4 to 10^8 routes.

60 s per board (the boards beyond the route cut are to be proven within
60 s; they are, by the prices on the track of :mod:`trainruns.route.lagrange`, benchmarks/README.md).
``measure`` times the route search's stages over the routes listed (all of them, or
the cut: it always lists); the whole ``solve`` is timed by pytest-benchmark and its
answer kept beside them (``solve_revenue``, ``solve_bound``, ``solve_proven``). ``solve``
lists no route on a board estimated at more than a million (the estimate of
:mod:`trainruns.route.kernels.estimate`): :mod:`trainruns.route.proof` lists only those that may
beat the quick run (then the flow model if unproven; the full listing if it would fit)."""

import pytest
from boards import hard


@pytest.mark.parametrize("name,pos", hard(), ids=[n for n, _ in hard()])
def test_hard(benchmark, record, name, pos):
    _, result = record(pos, time_limit=60.0)
    benchmark.extra_info.update(solve_revenue=result.revenue, solve_bound=result.bound,
                                solve_proven=result.optimal)

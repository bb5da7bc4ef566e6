"""1831 at full size: invented boards the size of the printed map
(``trainruns.generate.board_1831``: 40-54 hexes of dense brown track, New York,
Cleveland and Buffalo with red hexes, the Delaware, both commuter runs, 11-13 tokens,
phase 9, trains 9S 12MX 7YD 7S). Most have 10^7 token-to-token paths or more: the
route model lists paths only while their arrays fit the memory budget (a counting walk
decides first), else it hands the board to its flow model (titles/g1831/flow.py).

Three groups:

- ``full``: the full-size boards, each solved with a 30 s time limit; extra_info has
  the revenue, its bound and whether it is proven. The bound is the track prices'
  (titles/g1831/bound.py: the Lagrangian relaxation of "no track twice", each train's
  priced route over its tokens): 1,616-2,164 where each train's best tokens said
  3,500-4,040; the flow model is held to it. With CP-SAT's 8 workers (flow.WORKERS) it
  proves every one of these at --time-limit 60 (whole processes: 4.5-38.5 s; the 30 s
  limit here may be short for 48hex-s2); a commuter city walked round within itself
  (54hex-s0) is run with the paths alone, and runs with a commuter run are bounded by
  bound.commuting_bound. With 20 s or more an unproven run goes to the priced proof
  (model._priced_proof). The limit holds in every stage (the
  flow model's Python build looks at the clock): before it did, 40hex-s0 answered after
  131 s and 54hex-s0 was stopped by hand after 22 minutes at 2.5 GB, on a 60 s limit.
- ``listed``: a full-size board of 1.8 million token-to-token paths, few enough to
  list within the default budget; but its commuter runs' walk (commuter.py, plain
  Python) passes ``COMMUTER_STEPS``, so the flow model takes it over, unproven. Its
  paths alone (commuter runs left out) fall into 368 classes of equal value: passing
  cities freely multiplies track, not values (model._assign_by_value).
- ``small``: the same generator cut to 20 hexes, where listing does prove: listing
  (the baseline) and the flow model timed one after the other in the same process,
  their ratio and whether they agree in extra_info.
"""

import time

import pytest

from trainruns.generate import board_1831
from trainruns.load import load_position
from trainruns.search import solve
from trainruns.titles.g1831 import model as model_1831

FULL = [(48, 0), (48, 1), (48, 2), (40, 0), (54, 0)]
SMALL = [(20, 0), (20, 1), (20, 2)]
LISTED = [(52, 4)]


@pytest.mark.parametrize("n,seed", FULL, ids=[f"1831-{n}hex-s{s}" for n, s in FULL])
def test_full(benchmark, n, seed):
    benchmark.group = "1831 full size"
    pos = board_1831(seed, n_hexes=n)
    run = benchmark.pedantic(lambda: solve(load_position(pos), time_limit=30.0), rounds=1, iterations=1)
    benchmark.extra_info.update(revenue=run.revenue, bound=run.bound, proven=run.optimal,
                                tokens=sum(t["corporation"] == "A" for t in pos["tokens"]),
                                rights=len(pos["track_rights"]))


@pytest.mark.parametrize("n,seed", LISTED, ids=[f"1831-{n}hex-s{s}" for n, s in LISTED])
def test_listed(benchmark, n, seed):
    benchmark.group = "1831 full size, listed"
    pos = board_1831(seed, n_hexes=n)
    run = benchmark.pedantic(lambda: solve(load_position(pos), time_limit=600.0), rounds=1, iterations=1)
    benchmark.extra_info.update(revenue=run.revenue, bound=run.bound, proven=run.optimal)


@pytest.mark.parametrize("n,seed", SMALL, ids=[f"1831-{n}hex-s{s}" for n, s in SMALL])
def test_small(benchmark, monkeypatch, n, seed):
    benchmark.group = "1831 cut down: listing against flow"
    pos = board_1831(seed, n_hexes=n, own_tokens=8)
    t0 = time.perf_counter()
    listed = solve(load_position(pos))
    listing_s = time.perf_counter() - t0
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)
    run = benchmark.pedantic(lambda: solve(load_position(pos), time_limit=60.0), rounds=1, iterations=1)
    flow_s = benchmark.stats.stats.max
    benchmark.extra_info.update(listing_revenue=listed.revenue, listing_s=listing_s, flow_revenue=run.revenue,
                                flow_bound=run.bound, flow_proven=run.optimal, flow_over_listing=flow_s / listing_s)

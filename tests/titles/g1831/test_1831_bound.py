"""The track prices' bound of an 1831 run (titles/g1831/route/bound.py): the Lagrangian
relaxation of "no track twice" (5.6.2), each train's priced route over the tokens it
runs to (5.6.2.3, 5.6.2.5, 5.6.3), the Delaware's second visit (5.6.2.1) and the
commuter runs (5.6.7). A bound must never be below the best run: checked against the
plain-Python brute force of tests/boards1831.py on seeded random typed boards (every
rule of 5.6.2-5.6.7), and against the proven listing on the full-size generator cut
down to 16-20 hexes."""

import numpy as np
import pytest
from boards1831 import brute_force, line, random_commuter_position, random_position, random_two_commuter_position

from trainruns import solve
from trainruns.route.compile import compile_board
from trainruns.services.generate import board_1831
from trainruns.titles.g1831.route import bound
from trainruns.titles.load import load_position


def _bound(pos):
    board = load_position(pos)
    model = board.route_model
    compiled = compile_board(board)
    return bound.lagrangian_bound(model._arrays(compiled)), model.token_bound(compiled)


@pytest.mark.parametrize("chunk", range(2))
def test_5_6_the_priced_bound_is_never_below_the_brute_force_best(chunk):
    checked = tight = rounded = 0
    boards = [random_position(s) for s in range(chunk, 160, 2)]
    boards += [random_commuter_position(s) for s in range(500 + chunk, 600, 2)]
    for pos in boards:
        expected = brute_force(pos)
        if expected is None:
            continue  # 5.6.5: no run uses every bought right
        priced, _ = _bound(pos)
        if priced is None:
            continue  # no track
        assert priced >= expected, pos
        # the route model's bound (these prices, refined, bound.refined) is rounded down
        # to the revenue step (5.6.3: a run earns a sum of token values): still at or
        # above the best
        board = load_position(pos)
        compiled = compile_board(board)
        step = bound.revenue_step(board.route_model._arrays(compiled))
        model_bound = board.route_model.priced_bound(compiled)
        assert expected <= model_bound <= priced - priced % step and model_bound % step == 0, pos
        checked += 1
        tight += priced == expected
        rounded += priced % step != 0
    # (and it is no mere restatement of the best run: on most of them it is the best)
    assert checked > 60 and tight > checked // 2 and rounded > 0


def test_5_2_3_10_one_token_a_city_in_the_priced_line_never_below_the_brute_force(monkeypatch):
    # the random boards on which the corporation has two tokens in one city (a city and
    # its red extension, 5.2.3.10): a route runs to one of them (5.6.2.3), and the
    # priced line may take only one (bound.Pricing1831.clash); the bound stays at or
    # above the brute force's best, and is lower than with both allowed on some
    clashing = [4, 24, 30, 88, 113, 117, 144, 264, 274, 382]
    with_rule, without = [], []
    for seed in clashing:
        pos = random_position(seed)
        expected = brute_force(pos)
        if expected is None:
            continue
        priced, _ = _bound(pos)
        assert priced >= expected, seed
        with_rule.append(priced)
    monkeypatch.setattr(bound.Pricing1831, "clash", lambda self, tokens: np.zeros(len(tokens), np.int64))
    for seed in clashing:
        pos = random_position(seed)
        if brute_force(pos) is not None:
            without.append(_bound(pos)[0])
    assert len(with_rule) >= 6 and all(a <= b for a, b in zip(with_rule, without)) and with_rule != without


def test_5_6_2_3_a_mixed_train_s_priced_line_holds_a_station_and_a_rail_yard(monkeypatch):
    # 5.6.2.3: a mixed train runs to at least one Station and one Rail Yard. With two
    # Station tokens only, no 3MX route exists (the brute force: 0) and its priced line
    # is none (bound.Pricing1831.need); a Rail Yard at one end makes a run, bounded
    pos = line([(30, ["station", "yard"]), (20, ["station", "yard"]), (40, ["station", "yard"])],
               trains=("3MX",), tokens=(("A1", 0, "A"), ("C3", 0, "A")))
    assert brute_force(pos) == 0 and _bound(pos)[0] == 0
    pos["tokens"][1]["slot"] = 1
    assert 0 < brute_force(pos) <= _bound(pos)[0]
    # (without the rule the first board's line would earn its two Stations)
    monkeypatch.setattr(bound.Pricing1831, "need", lambda self, kind, tokens: (0, 0))
    pos["tokens"][1]["slot"] = 0
    assert _bound(pos)[0] > 0


def test_5_6_2_3_mixed_trains_on_the_random_boards_never_below_the_brute_force():
    # the random typed boards that run a mixed train (2MX, 3MX, 4MX): with the rule the
    # bound stays at or above the brute force's best, and is lower than without on some
    seeds = [s for s in range(160) if any("MX" in str(t) for t in random_position(s)["trains"])][:40]
    with_rule = {}
    for seed in seeds:
        pos = random_position(seed)
        expected = brute_force(pos)
        priced = _bound(pos)[0]
        if expected is None or priced is None:
            continue
        assert priced >= expected, seed
        with_rule[seed] = priced
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bound.Pricing1831, "need", lambda self, kind, tokens: (0, 0))
        without = {seed: _bound(random_position(seed))[0] for seed in with_rule}
    assert len(with_rule) >= 20 and all(with_rule[s] <= without[s] for s in with_rule)
    assert any(with_rule[s] < without[s] for s in with_rule)


@pytest.mark.parametrize("seed", range(4))
def test_5_6_the_priced_bound_holds_on_cut_down_full_size_maps(seed):
    # board_1831 cut to 16-20 hexes: dense brown track, passing cities freely, red
    # extensions, the Delaware, commuter runs, track rights; the listing proves them
    pos = board_1831(seed, n_hexes=16 + seed, own_tokens=6 + seed % 3)
    run = solve(pos)
    assert run.optimal
    priced, tokens = _bound(pos)
    assert run.revenue <= priced < tokens


def test_the_priced_bound_is_far_below_the_token_bound_on_a_full_size_map():
    # 48 hexes: each train its best tokens says 3,690; the prices on track,
    # where the trains' best routes fight over it, bring the bound near the best run
    # found (1,680, with no proof, by the flow model)
    priced, tokens = _bound(board_1831(0, n_hexes=48))
    assert tokens == 3690
    assert 1680 <= priced < 2000


# --- the priced proof of the flow model's run (model._priced_proof) --------------------

@pytest.fixture
def flow_weakened(monkeypatch):
    """Every board to the flow model, whose run is cut to its first train's route and
    reported unproven, with no bound given to it: what is proven (or bettered) is the
    priced proof's doing. Counts the proofs that answered."""
    from trainruns.titles.g1831.route import flow
    from trainruns.titles.g1831.route import model as model_1831

    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)
    orig_solve = flow.solve

    def weakened(arrays, trains, *args, upper=None, **kwargs):
        out = orig_solve(arrays, trains, *args, **kwargs)
        if out is None:
            return None
        chosen, proven, bound = out
        return chosen[:1], False, None

    monkeypatch.setattr(flow, "solve", weakened)
    answered = []
    orig_proof = model_1831.Model1831._priced_proof

    def counted(*args, **kwargs):
        out = orig_proof(*args, **kwargs)
        answered.append(out is not None)
        return out

    monkeypatch.setattr(model_1831.Model1831, "_priced_proof", counted)
    return answered


@pytest.mark.parametrize("chunk", range(2))
def test_5_6_the_priced_proof_finds_and_proves_the_brute_force_best(flow_weakened, chunk):
    # random typed boards without bought rights (5.6.5 goes to the flow model alone),
    # commuter runs among them (5.6.7): the weakened flow run is bettered by the priced
    # search to the brute force's best, proven
    checked = 0
    boards = [random_position(s) for s in range(chunk, 120, 2)]
    boards += [random_commuter_position(s) for s in range(500 + chunk, 560, 2)]
    for pos in boards:
        pos = dict(pos, track_rights=[])
        expected = brute_force(pos)
        asked = len(flow_weakened)
        run = solve(pos)
        assert run.revenue == expected
        if len(flow_weakened) > asked and flow_weakened[-1]:
            assert run.optimal
        checked += 1
    # (not asked: the flow model declines the board, a Delaware of two stops or a
    # commuter city walkable round within itself, or proves it, or no train runs)
    assert checked == len(boards) and sum(flow_weakened) > 10


@pytest.mark.parametrize("seed", range(3))
def test_the_priced_proof_proves_cut_down_full_size_maps(flow_weakened, monkeypatch, seed):
    # board_1831 cut to 20 hexes, 8 tokens (benchmarks' "small"): listing proves them;
    # the flow model's run cut to one train is bettered to the same revenue, proven
    from trainruns.titles.g1831.route import model as model_1831

    pos = board_1831(seed, n_hexes=20, own_tokens=8, rights=False)
    monkeypatch.setattr(model_1831, "PATH_LIMIT", None)
    listed = solve(pos)
    assert listed.optimal and flow_weakened == []
    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)
    run = solve(pos)
    assert flow_weakened == [True]
    assert run.optimal and run.revenue == listed.revenue


@pytest.fixture
def targets(monkeypatch):
    """Each target the priced proof's descent searched, and what it found there: the
    route set of a run above it, True (no run above it) or None (not ended)."""
    from trainruns.titles.g1831.route import model as model_1831

    seen = []
    orig = model_1831.Model1831._priced_search

    def recorded(self, *args, **kwargs):
        out = orig(self, *args, **kwargs)
        seen.append((args[9], out))  # (target, outcome)
        return out

    monkeypatch.setattr(model_1831.Model1831, "_priced_search", recorded)
    return seen


@pytest.mark.parametrize("chunk", range(2))
def test_5_6_each_target_the_descent_rules_out_is_above_the_brute_force_best(flow_weakened, targets, chunk):
    # the priced proof's targets step down from the bound (model._priced_proof): a target
    # it rules out must be at or above the best run of the brute force (5.6.2-5.6.7), a run
    # it finds above a target must be that best, and the bound it leaves (upper_bound)
    # never below it
    ruled_out = found = 0
    boards = [random_position(s) for s in range(chunk, 80, 2)]
    boards += [random_commuter_position(s) for s in range(600 + chunk, 640, 2)]
    for pos in boards:
        pos = dict(pos, track_rights=[])
        expected = brute_force(pos)
        del targets[:]
        run = solve(pos)
        assert run.revenue == expected and run.bound >= expected
        for target, outcome in targets:
            if outcome is True:
                assert expected <= target, (pos, target)
                ruled_out += 1
            elif outcome is not None:
                assert target < expected
                found += 1
    assert ruled_out > 0 and found > 0


@pytest.mark.parametrize("chunk", range(2))
def test_5_6_5_with_bought_rights_the_priced_proof_rules_out_only_targets_above_the_best(monkeypatch, targets, chunk):
    # 5.6.5: a run runs to every token bought as a track right. The track prices, the
    # paths the priced proof lists and its search leave that out (they bound more runs
    # than the legal ones), so each target they rule out is at or above the brute
    # force's best, the bound left is never below it, and a run they find above a target
    # (maybe leaving a right out) is not taken: the flow model's run, unproven here
    # (CP-SAT's proof taken away), is the answer, proven where the descent reaches it
    from trainruns.titles.g1831.route import flow
    from trainruns.titles.g1831.route import model as model_1831

    monkeypatch.setattr(model_1831, "PATH_LIMIT", 0)
    orig_solve = flow.solve

    def unproven(arrays, trains, *args, upper=None, **kwargs):
        out = orig_solve(arrays, trains, *args, **kwargs)
        return None if out is None else (out[0], False, None)

    monkeypatch.setattr(flow, "solve", unproven)
    checked = descended = ruled_out = 0
    for seed in range(chunk, 400, 2):
        pos = random_position(seed)
        if not pos["track_rights"]:
            continue
        expected = brute_force(pos)
        if expected is None:
            continue  # no run uses every right: refused, as test_1831_flow checks
        del targets[:]
        run = solve(pos)
        assert run.revenue == expected and run.bound >= expected, seed
        for target, outcome in targets:
            if outcome is True:
                assert expected <= target, (seed, target)
                ruled_out += 1
        descended += bool(targets)
        checked += 1
    # (a board whose run reaches the track prices' bound is proven without a descent)
    assert checked > 20 and descended > 10 and ruled_out > 10


@pytest.mark.parametrize("chunk", range(2))
def test_5_6_7_the_descent_stops_where_an_unwalked_commuter_run_could_beat_it(flow_weakened, targets, monkeypatch,
                                                                               chunk):
    # the commuter runs' walk cut at once (as on full-size maps, commuter.py past its
    # cap): the descent goes down only while no commuter run (5.6.7), by its priced best,
    # could be in a better run; every target it rules out is still at or above the brute
    # force's best, a run it finds is that best, and a run left unproven keeps a bound
    # at or above it
    from trainruns.titles.g1831.route import model as model_1831

    monkeypatch.setattr(model_1831, "COMMUTER_STEPS", 1)
    ruled_out = 0
    for pos in [random_commuter_position(s) for s in range(700 + chunk, 760, 2)]:
        pos = dict(pos, track_rights=[])
        expected = brute_force(pos)
        del targets[:]
        run = solve(pos)
        assert run.revenue <= expected <= run.bound
        if run.optimal:
            assert run.revenue == expected
        for target, outcome in targets:
            if outcome is True:
                assert expected <= target, (pos, target)
                ruled_out += 1
            elif outcome is not None:
                assert target < expected and run.revenue == expected
    assert ruled_out > 0


# --- the priced listing's cut (kernels.token_paths with kernels.token_reach) -------------

def _priced_listing(pos, n_bits_budget):
    """(listed by the priced cut, every path kept by the filter alone) as sets of stop
    tuples, at the bound's prices and floors a quarter of the way down each kind's
    worths; ``n_bits_budget``: the reach tables' bytes (0: no token bits)."""
    import numpy as np

    from trainruns.route.lagrange import SCALE
    from trainruns.route.routeset import train_kinds
    from trainruns.titles.g1831.route.trains import parse_train_name

    board = load_position(pos)
    model = board.route_model
    compiled = compile_board(board)
    arrays = model._arrays(compiled)
    b, pricing = bound.priced(arrays)
    names = [k.name for k in train_kinds(board)]
    types = [parse_train_name(n) for n in names]
    valuer = model._valuer(arrays, types, 1)
    chain_price, gains, reaches, caps, _, bit = bound.priced_cut(pricing, b.price, names, n_bits_budget)
    n_bits = reaches.shape[2].bit_length() - 1
    # every path, and each kind's worth on it: its gains (at most the cap) less its price
    ptr, stops, chains, *_ = model._paths(arrays, valuer, None, None)
    paths = [tuple(stops[ptr[i]:ptr[i + 1]]) for i in range(len(ptr) - 1)]
    paid = [int(sum(chain_price[c] for c in chains[ptr[i]:ptr[i + 1] - 1])) for i in range(len(ptr) - 1)]
    worth = np.array([[min(caps[k], int(gains[k][list(p)].sum())) - paid[i] for k in range(len(names))]
                      for i, p in enumerate(paths)])
    floor = np.array([int(np.quantile(worth[:, k], 0.75)) for k in range(len(names))], np.int64)
    kept = {p for p, w in zip(paths, worth) if (w > floor).any()}
    prices = (chain_price, gains, reaches, caps, floor, bit)
    ptr, stops, *_ = model._paths(arrays, valuer, None, None, prices=prices)
    listed = {tuple(stops[ptr[i]:ptr[i + 1]]) for i in range(len(ptr) - 1)}
    assert SCALE > 0 and len(kept) < len(paths)
    return listed, kept, n_bits


@pytest.mark.parametrize("seed", [1, 2, 22])
def test_5_6_2_the_priced_cut_lists_every_path_above_a_floor_and_no_other(seed):
    # 5.6.2: a path enters a city once, so the reach looked up at the tokens it has not
    # entered (kernels.token_reach's bits) is still a bound on what it can add: with and
    # without the bits, the priced listing gives exactly the paths the filter keeps
    pos = board_1831(seed, n_hexes=16, own_tokens=6)
    pos["track_rights"] = []
    with_bits, kept, n_bits = _priced_listing(pos, 64 << 20)
    assert n_bits >= 4
    assert with_bits == kept
    without, kept_again, none = _priced_listing(pos, 0)
    assert none == 0 and without == kept_again == kept


# --- runs with a commuter run (bound.commuting_bound) ------------------------------------

def test_5_6_7_the_commuting_bound_holds_where_the_best_run_has_a_commuter_run():
    # the track prices' bound with one train held to commuter runs bounds every run in
    # which it runs one, its prices from 0 alone or, by turns, from the board's own too
    # (as Model1831._commuters_bounded asks): checked on the boards whose best run
    # (listing, proven; the brute force agrees, test_1831_flow.py) has a commuter run (a
    # city run to twice)
    checked = 0
    for seed in range(120):
        pos = random_commuter_position(seed)
        pos["track_rights"] = []
        if brute_force(pos) is None:
            continue
        run = solve(pos)
        names = [t if isinstance(t, str) else t["name"] for t in pos["trains"]]
        for r in run.routes:
            cities = [h for h, _ in r.stops]
            if len(set(cities)) < len(cities) and names.count(r.train) == 1:
                board = load_position(pos)
                arrays = board.route_model._arrays(compile_board(board))
                board_prices, pricing = bound.priced(arrays)
                for start in (None, board_prices.price):
                    found = bound.commuting_bound(pricing, (r.train.upper(),), 0, board_prices=start)
                    assert found >= run.revenue, seed
                checked += 1
    assert checked >= 2


def test_5_6_7_the_commuting_bound_of_two_trains_holds_where_both_run_a_commuter_run():
    # with two trains held to commuter runs the track prices bound every run in which
    # both run one (Model1831._part_bounded's question for the runs with two commuter
    # runs, 5.6.7): checked against the brute force held to such runs on the random
    # boards where two may run at once, the two of one kind or of two; each bound is a
    # multiple of the board's revenue step (5.6.3: a run earns a sum of token values),
    # and holding both trains gives a lower bound than holding either alone on some
    # boards
    checked = tighter = same = 0
    for seed in range(300):
        pos = random_two_commuter_position(seed)
        board = load_position(pos)
        names = [t.name for t in board.trains]   # (a train rusted in the phase is gone)
        if len(names) < 2 or "commuter_runs" not in pos["map"]:
            continue
        both = brute_force(pos, commuting=names)
        if both is None:
            continue
        arrays = board.route_model._arrays(compile_board(board))
        board_prices, pricing = bound.priced(arrays)
        step = bound.revenue_step(arrays)
        assert step >= 10 and all(v % step == 0 for v in (*arrays.st_val, *arrays.yd_val) if v > 0)
        for start in (None, board_prices.price):
            held = bound.commuting_bound(pricing, names, 0, board_prices=start)
            assert held >= both and held % step == 0, seed
            if names[0] != names[1]:
                alone = max(bound.commuting_bound(pricing, (n,), 0, board_prices=start) for n in names)
                tighter += held < alone
            else:   # a kind's trains share one best: one of two held is no bound
                assert bound.commuting_bound(pricing, names[:1], 0, board_prices=start) is None
        checked += 1
        same += names[0] == names[1]
    assert checked >= 10 and tighter > 0 and same > 0


def _reach_by_hand(dist_from, dist, gain, size, token_of, bit_of, n_bits, clash):
    """kernels.token_reach's table by enumeration: for every node and set of allowed
    bits, every line of distinct tokens (5.6.2: a city once; 5.6.2.3: at most ``size``;
    one token of a city) tried in every order."""
    import itertools

    inf = 1 << 50
    t, n = len(gain), len(dist_from)
    out = np.zeros((n, 1 << n_bits), np.int64)
    for x in range(n):
        for allowed in range(1 << n_bits):
            ok = [j for j in range(t) if token_of[x] != j and (bit_of[j] < 0 or allowed >> bit_of[j] & 1)]
            for m in range(1, min(size, len(ok)) + 1):
                for seq in itertools.permutations(ok, m):
                    if any(clash[a] >> b & 1 for a, b in itertools.combinations(seq, 2)):
                        continue
                    legs = [dist_from[x][seq[0]]] + [dist[a][b] for a, b in zip(seq, seq[1:])]
                    if all(d < inf for d in legs):
                        out[x, allowed] = max(out[x, allowed], sum(gain[j] for j in seq) - sum(legs))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_5_6_2_the_priced_cut_reach_table_is_the_best_line_from_each_node(seed):
    # the reach table (the cut of the first run's and the priced listing's walk) against
    # every line of tokens enumerated by hand, on small random walks with some tokens
    # in one city and some without a bit
    from trainruns.titles.g1831.route import kernels, numba_kernels

    rng = np.random.default_rng(seed)
    inf = np.int64(1) << 50
    t, n, n_bits = 5, 8, 3
    dist = rng.integers(0, 90, (t, t)).astype(np.int64)
    dist = np.minimum(dist, dist.T)
    np.fill_diagonal(dist, 0)
    dist[0, 4] = dist[4, 0] = inf
    dist_from = rng.integers(0, 90, (n, t)).astype(np.int64)
    dist_from[rng.random((n, t)) < 0.15] = inf
    token_of = np.full(n, -1, np.int64)
    token_of[:t] = np.arange(t)
    for j in range(t):
        dist_from[j, j] = 0
    gain = rng.integers(20, 120, t).astype(np.int64)
    bit_of = np.array([0, 1, -1, 2, 0], np.int64)
    clash = np.zeros(t, np.int64)
    clash[1], clash[3] = 1 << 3, 1 << 1
    args = (dist_from, dist, gain, 3, token_of, bit_of, n_bits, clash)
    want = _reach_by_hand(*args)
    assert want.max() > 0 and (want[:, 0] < want[:, -1]).any()
    assert (numba_kernels.token_reach(*args) == want).all()
    assert (kernels.token_reach(*args) == want).all()


def _walks_by_hand(dist, via):
    """Each node's cheapest walk to each other (Dijkstra), its inner nodes all in ``via``."""
    import heapq

    inf = np.int64(1) << 50
    n = len(dist)
    out = np.full((n, n), inf, np.int64)
    for u in range(n):
        out[u, u] = 0
        heap = [(0, u)]
        while heap:
            d, x = heapq.heappop(heap)
            if d > out[u, x] or (x != u and x not in via):
                continue  # (a node outside ``via`` ends a walk: no walk passes it)
            for y in range(n):
                if y != x and dist[x, y] < inf and d + dist[x, y] < out[u, y]:
                    out[u, y] = d + dist[x, y]
                    heapq.heappush(heap, (out[u, y], y))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_5_6_2_3_the_cheapest_walks_pass_only_passable_stops(seed):
    # kernels.cheapest_walks (the priced line's walks between tokens, bound.py) against
    # Dijkstra from every node, on small random stop graphs with missing arcs and some
    # stops not passable (5.6.2.3: a city a route cannot pass ends its walks); nxt
    # followed from u reaches v at that price
    from trainruns.titles.g1831.route import kernels, numba_kernels

    rng = np.random.default_rng(seed)
    inf = np.int64(1) << 50
    n = 9
    arcs = rng.integers(0, 60, (n, n)).astype(np.int64)
    arcs[rng.random((n, n)) < 0.55] = inf
    np.fill_diagonal(arcs, 0)
    passable = rng.random(n) < 0.6
    via = np.flatnonzero(passable).astype(np.int64)
    want = _walks_by_hand(arcs, set(via.tolist()))
    for kernel in (numba_kernels.cheapest_walks, kernels.cheapest_walks):  # (numba's and compiled ahead)
        dist = arcs.copy()
        nxt = np.where(arcs < inf, np.arange(n)[None, :], -1).astype(np.int64)
        kernel(dist, nxt, via)
        assert (dist == want).all()
    assert (want <= arcs).all() and (want < arcs).any()  # (some walks pass a stop)
    for u in range(n):
        for v in range(n):
            if u != v and dist[u, v] < inf:
                x, price = u, 0
                while x != v:
                    y = int(nxt[x, v])
                    price += int(arcs[x, y])
                    assert y == v or passable[y]
                    x = y
                assert price == dist[u, v]


@pytest.mark.parametrize("seed", range(6))
def test_5_6_7_the_best_priced_commuter_run_is_the_best_of_every_visit_sequence(seed):
    # kernels.best_commuter_run (bound.py's priced commuter run) against every choice of
    # a Station at each visit enumerated by hand: 2 to ``size`` visits round each
    # sequence of cities, Station values less the walks' prices between visits (5.6.7)
    import itertools

    from trainruns.titles.g1831.route import kernels, numba_kernels

    rng = np.random.default_rng(seed)
    inf = np.int64(1) << 50
    n, size = 7, 5
    st = rng.integers(10, 90, n).astype(np.int64)
    dist = rng.integers(5, 80, (n, n)).astype(np.int64)
    dist[rng.random((n, n)) < 0.2] = inf
    np.fill_diagonal(dist, 0)
    # two sequences: cities {0, 1} -> {2} -> {3, 4} -> {2}, and {5} -> {6}
    sequences = [[np.array([0, 1]), np.array([2]), np.array([3, 4]), np.array([2])],
                 [np.array([5]), np.array([6])]]
    want = -inf
    for seq in sequences:
        for visits in range(2, size + 1):
            for nodes in itertools.product(*(seq[i % len(seq)] for i in range(visits))):
                legs = [dist[a, b] for a, b in zip(nodes, nodes[1:])]
                if max(legs) < inf:
                    want = max(want, int(st[list(nodes)].sum() - sum(legs)))
    seq_len = np.array([len(q) for q in sequences], np.int64)
    seq_start = np.array([0, len(sequences[0])], np.int64)
    positions = [p for q in sequences for p in q]
    pos_ptr = np.cumsum([0] + [len(p) for p in positions]).astype(np.int64)
    pos_nodes = np.concatenate(positions).astype(np.int64)
    for kernel in (numba_kernels.best_commuter_run, kernels.best_commuter_run):  # (numba's and compiled ahead)
        stations = np.zeros(size, np.int64)
        value, length = kernel(st, dist, seq_start, seq_len, pos_ptr, pos_nodes, size, stations)
        assert value == want and 2 <= length <= size
        run = stations[:length].tolist()
        assert value == st[run].sum() - sum(int(dist[a, b]) for a, b in zip(run, run[1:]))


@pytest.mark.parametrize("seed", range(8))
def test_5_6_2_3_the_best_priced_token_line_is_the_best_of_every_order(seed):
    # kernels.best_token_line (each kind's priced line in bound.py) against every order of
    # every set of 2 to ``size`` distinct tokens enumerated by hand: gains at most ``cap``
    # (5.6.2.3: the train's size), less the walks between consecutive tokens; no two
    # tokens of one city (5.6.2.1); a mixed train's line holds a Station and a Rail Yard
    # at two tokens (5.6.2.3)
    import itertools

    from trainruns.titles.g1831.route import kernels, numba_kernels

    rng = np.random.default_rng(seed)
    inf = np.int64(1) << 50
    t, size = 7, 3 + seed % 3
    dist = rng.integers(0, 70, (t, t)).astype(np.int64)
    dist = np.minimum(dist, dist.T)
    np.fill_diagonal(dist, 0)
    dist[1, 5] = dist[5, 1] = inf
    gain = rng.integers(10, 60, t).astype(np.int64)
    cap = int(np.sort(gain)[::-1][:size].sum()) - 15
    clash = np.zeros(t, np.int64)
    clash[2], clash[4] = 1 << 4, 1 << 2  # tokens 2 and 4 in one city
    need_a, need_b = (0b0010011, 0b1101100) if seed % 2 else (0, 0)

    def allowed(tokens):
        bits = sum(1 << x for x in tokens)
        if any(bits & clash[x] for x in tokens):
            return False
        if need_a or need_b:
            sa, sb = bits & need_a, bits & need_b
            return sa and sb and not (sa == sb and sa & (sa - 1) == 0)
        return True

    want = 0
    for k in range(2, size + 1):
        for tokens in itertools.permutations(range(t), k):
            legs = [int(dist[a, b]) for a, b in zip(tokens, tokens[1:])]
            if max(legs) < inf and allowed(tokens):
                want = max(want, min(int(gain[list(tokens)].sum()), cap) - sum(legs))
    assert want > 0
    for kernel in (numba_kernels.best_token_line, kernels.best_token_line):  # (numba's and compiled ahead)
        order = np.zeros(t, np.int64)
        value, length = kernel(dist, gain, size, cap, order, clash, need_a, need_b)
        found = order[:length].tolist()
        assert value == want and 2 <= length <= size and allowed(found)
        assert value == min(int(gain[found].sum()), cap) - sum(int(dist[a, b]) for a, b in zip(found, found[1:]))

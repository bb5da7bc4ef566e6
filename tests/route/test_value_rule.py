"""One revenue rule: trainruns.route.value in Python and the numba values kernel
(kernels/values.py) agree on every route of many random boards, every train kind, with
stop and connection bonuses, some for one train only (docs/custom-map.md, plain rules)."""

import random

import pytest
from boards import random_position
from test_bruteforce import random_bonuses

from trainruns import Bonus, InputError, load_position, solve
from trainruns.route.compile import compile_board
from trainruns.route.enumeration import enumerate_all
from trainruns.route.routeset import train_kinds
from trainruns.route.value import counted, route_revenue


def bits_of(mask):
    return {i for i in range(64) if int(mask) >> i & 1}


@pytest.mark.parametrize("seed", range(60))
def test_python_rule_equals_the_kernel_on_every_route(seed):
    rng = random.Random(seed)
    trains = rng.sample(["2", "3", "4", "99", "3/5", "2+1", "4/6", "2+2"], rng.randint(1, 3))
    pos = random_position(seed, trains=trains, size=(4, 4))
    board = load_position(pos)
    board.bonuses = [Bonus(f"b{i}", amount, tuple(groups), names)
                     for i, (amount, groups, names) in enumerate(random_bonuses(pos, seed))]
    comp = compile_board(board)
    rs = enumerate_all(comp)
    # each bonus group as the set of stops in it (route/compile.py numbers the groups)
    members = {}
    for s in range(comp.n_stops):
        for g in bits_of(comp.stop_groups[s]):
            members.setdefault(g, set()).add(s)
    bonuses = [(name, int(amount), [members.get(g, set()) for g in bits_of(req)], names) for name, amount, req, names
               in zip(comp.bonus_names, comp.bonus_amount, comp.bonus_required, comp.bonus_trains)]
    kinds = train_kinds(board)
    assert len(rs) > 0
    for r in range(len(rs)):
        stops = rs.stops[rs.ptr[r]:rs.ptr[r + 1]].tolist()
        values = [int(comp.stop_value[s]) for s in stops]
        own = [bool(comp.stop_own[s]) for s in stops]
        towns = [bool(comp.stop_town[s]) for s in stops]
        for k, kind in enumerate(kinds):
            expected = route_revenue(stops, values, own, towns, kind, bonuses)
            assert int(rs.values[r, k]) == (-1 if expected is None else expected), (r, kind.name)


def test_counted_takes_the_best_token_city_when_none_is_among_the_best():
    """A 2-train on 50 - 40 - 10(token): the token city must count, so 50 + 10."""
    assert counted([50, 40, 10], [False, False, True], 2) == [True, False, True]
    assert counted([50, 40, 10], [False, True, False], 2) == [True, True, False]


def test_more_than_63_bonus_groups_is_bad_input():
    """Bonuses naming more than 63 distinct stop groups are refused as bad
    input (InputError: one line, exit 2 from the command line), not an internal error
    (a ValueError, exit 3): here 70 stop bonuses, each on its own pair of stops."""
    import itertools

    pos = random_position(5, trains=["3"], size=(6, 6), density=0.9)
    board = load_position(pos)
    stops = [(h, k) for h, hx in board.hexes.items() for k in range(len(hx.stops))]
    pairs = list(itertools.combinations(stops, 2))[:70]
    board.bonuses = [Bonus(f"x{i}", 10, (frozenset(p),)) for i, p in enumerate(pairs)]
    with pytest.raises(InputError, match="more than 63 distinct groups"):
        compile_board(board)
    with pytest.raises(InputError):
        solve(board)
    board.bonuses = board.bonuses[:63]  # at the limit: solved
    assert solve(board).revenue >= 0

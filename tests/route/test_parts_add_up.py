"""What a player reads must add up: for every fixture of every title, the
parts of each route's revenue shown (each stop's value, an 1831 token's value, each
bonus) sum to the route's revenue, and the routes to the total, in the Run, in the JSON
and in the text table. 1831 5.6.3: a train earns "the value of the city ... plus the
value of the token in the city"; the 7S of fixtures/1831/example.json showed only the
cities (220 against 360)."""

import re
from pathlib import Path

import pytest
from boards1831 import random_position

from trainruns import load_position, solve
from trainruns.cli.solve import format_run
from trainruns.errors import InputError

FIXTURES = sorted(p for p in (Path(__file__).parents[2] / "fixtures").rglob("*.json")
                  if "games" not in p.parts)  # fixtures/games: game logs, not positions


def check_adds_up(board, run):
    assert sum(r.revenue for r in run.routes) == run.revenue
    for r in run.routes:
        assert len(r.earned) == len(r.stops)
        assert sum(amount for _, _, amount in r.parts()) == r.revenue, (r.train, r.parts())
        # a stop earns only where it is counted
        assert [bool(e) for e in r.earned] == [bool(c) for c in r.counted]
    out = run.to_json()
    assert sum(x["revenue"] for x in out["routes"]) == out["revenue"]
    for x in out["routes"]:
        assert sum(p["amount"] for p in x["parts"]) == x["revenue"]
    # the text table: the numbers in each stop's brackets and each bonus add up
    lines = format_run(board, run).splitlines()[1:1 + len(run.routes)]
    for r, line in zip(run.routes, lines):
        shown = [int(n) for group in re.findall(r"\(([^()]*)\)", line) for n in re.findall(r"\b(\d+)\b", group)
                 if "not counted" not in group]
        tail = line[line.rindex(")") + 1:]  # " + <bonus name> <amount>" each
        shown += [int(a) for a in re.findall(r" (-?\d+)(?= \+ |$)", tail)]
        assert sum(shown) == r.revenue, line


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fixture_adds_up(path):
    board = load_position(str(path))
    check_adds_up(board, solve(board))


def test_1831_example_shows_token_values():
    board = load_position("fixtures/1831/example.json")
    run = solve(board)
    seven = next(r for r in run.routes if r.train == "7S")
    # 5.6.3 and 5.2.7.5 (phase 7: a Station adds $20): 7 Stations run to, 220 + 7 x 20
    assert seven.revenue == 360
    assert sum(a for _, name, a in seven.parts() if name == "city") == 220
    assert sum(a for _, name, a in seven.parts() if name == "station") == 140


def test_1831_random_boards_add_up():
    # seeded typed boards (tests/boards1831.py): S / MX / YD trains, track rights, red
    # extensions, a Delaware revisit, the strict option
    checked = 0
    for seed in range(200):
        board = load_position(random_position(seed))
        try:
            run = solve(board)
        except InputError:  # a bought right no train can use (5.6.5): no run to show
            continue
        check_adds_up(board, run)
        checked += len(run.routes)
    assert checked > 80


@pytest.mark.parametrize("path", [p for p in FIXTURES if p.parent.name in ("1831", "1833NE")],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_audit_of_the_best_run_adds_up(path):
    """An audit's declared routes show what each counted stop earns (1831: its city and
    its token, 5.6.3; 1833NE: A12 with Montreal), adding up to each route's revenue."""
    from trainruns.services.audit import audit

    board = load_position(str(path))
    run = solve(board)
    declared = {"routes": [{"train": r.train, "stops": r.stop_labels()} for r in run.routes]}
    result = audit(board, declared)
    assert result.legal and result.declared_revenue == run.revenue
    for r in result.routes:
        assert sum(v for v, c in zip(r.values, r.counted) if c) + sum(a for _, a in r.bonuses) == r.revenue

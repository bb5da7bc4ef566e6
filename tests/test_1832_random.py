"""Random 1832 boards grown from the manifest by legal tile lays (trainruns.whatif
finds them), solved and compared with the independent brute force of
tests/bruteforce.py run on the same board written out as a custom map: the real map's
geometry (pointy hexes, swapped axes, Atlanta's cities, the preprinted track and
off-boards), with every 1832 value rule already applied by the title."""

import random

import pytest

from bruteforce import best_run
from trainruns import load_position, solve
from trainruns.whatif import tile_candidates

START = {"title": "1832", "corporation": "SALR", "tiles": [],
         "tokens": [{"hex": "D20", "stop": 0, "corporation": "SALR"}]}


def grown(seed):
    rng = random.Random(seed)
    phase = rng.choice(["3", "4", "5"])
    alive = {"3": ["2", "3"], "4": ["3", "4"], "5": ["3", "4", "5"]}[phase]  # Table 1 rusting
    data = dict(START, phase=phase, trains=[rng.choice(alive) for _ in range(rng.randint(1, 2))])
    for _ in range(rng.randint(6, 18)):
        cands = tile_candidates(data)
        if not cands:
            break
        _, data = rng.choice(cands)
    return data


def as_custom_map(board):
    """The board as CONTRACT.md's custom map: values already those of the phase and
    the corporation; stops it may not enter are cut off from the track."""
    hexes, tokens = [], []
    for hex_id, hx in board.hexes.items():
        closed = {k for k, s in enumerate(hx.stops) if not s.enterable}
        # a title override of passability must agree with the plain rules here (the
        # Coal Fields: a town, passable with a coal token, closed without)
        assert all(s.passable is None or not s.enterable or (s.passable and s.kind == "town") for s in hx.stops)

        def end(e):
            return e[1] if e[0] == "side" else f"s{e[1]}"

        paths = [[end(a), end(b)] for a, b in hx.paths
                 if not any(e[0] == "stop" and e[1] in closed for e in (a, b))]
        stops = [{"kind": s.kind, "value": s.value} | ({"slots": s.slots} if s.kind == "city" else {})
                 for s in hx.stops]
        hexes.append({"id": hex_id, "stops": stops, "paths": paths})
        for k, s in enumerate(hx.stops):
            tokens += [{"hex": hex_id, "stop": k, "corporation": c} for c in s.tokens]
    return {"map": {"layout": board.layout, "axes": board.axes, "hexes": hexes},
            "corporation": board.corporation, "trains": [t.name for t in board.trains], "tokens": tokens}


@pytest.mark.parametrize("seed", range(25))
def test_random_1832_board_matches_brute_force(seed):
    data = grown(seed)
    board = load_position(data)
    custom = as_custom_map(board)
    best, _ = best_run(custom, max_stops=max(int(t) for t in custom["trains"]))
    run = solve(board)
    assert run.optimal and run.revenue == best
    assert solve(custom).revenue == best

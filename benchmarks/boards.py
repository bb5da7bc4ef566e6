"""The benchmark boards: shipped positions, a scaling series and the hard family.

Each entry is ``(name, position dict or path)``. Generated boards come from the seeded
:mod:`trainruns.generate`, so every run measures the same boards.
"""

import glob
import os

from trainruns.generate import hard_board, random_board

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")


def shipped():
    """The boards from real play (fixtures/real), then the other fixtures (titles and
    custom maps)."""
    real = sorted(glob.glob(os.path.join(FIXTURES, "real", "*.json")))
    others = sorted(p for p in glob.glob(os.path.join(FIXTURES, "**", "*.json"), recursive=True)
                    if os.path.basename(os.path.dirname(p)) != "real")
    # name: a real board by its file; a fixture with its folder (two titles have an example.json)
    return ([(os.path.basename(p)[:-5], p) for p in real]
            + [(os.path.basename(os.path.dirname(p)) + "/" + os.path.basename(p)[:-5], p) for p in others])


# (track hexes, trains): real-game sizes first, then beyond. Dense track (several
# lines per hex, 65% of hex sides carry track): busier than most real maps.
SCALING = [(h, t) for h in (10, 30, 50, 70, 90)
           for t in (("4",), ("4", "3"), ("5", "4", "3"), ("6", "5", "4", "3"))]
TRAIN_SIZES = [(40, (s,)) for s in ("2", "3", "4", "6", "8", "12", "99")]


def scaling():
    out = []
    for h, trains in SCALING + TRAIN_SIZES:
        name = f"scale-{h}hex-{'+'.join(trains)}"
        out.append((name, random_board(h, n_hexes=h, trains=trains, own_tokens=2 + h // 30, dense=True,
                                       edge_share=0.65)))
    # the routes-18xx comparison: a 33-tile board with two unlimited trains (diesels)
    for seed in range(3):
        out.append((f"diesels-33hex-s{seed}", random_board(100 + seed, n_hexes=33, trains=("99", "99"),
                                                           own_tokens=2, dense=True, edge_share=0.7)))
    return out


HARD = [(h, s) for h in (30, 40, 50, 60, 70, 80) for s in range(3)]


def hard():
    return [(f"hard-{h}hex-s{s}", hard_board(s, n_hexes=h)) for h, s in HARD]

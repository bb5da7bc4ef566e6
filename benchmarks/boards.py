"""The benchmark boards: shipped positions, a scaling series and the hard family.

Each entry is ``(name, position dict or path)``. Generated boards come from the seeded
:mod:`trainruns.services.generate`, so every run measures the same boards.
"""

import glob
import os

from trainruns.services.generate import hard_board, random_board

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


# The 1831 family at the printed map's size: (name, n_hexes, seed, board_1831's options).
# Each group varies one thing against the first (the boards, 11-13 tokens,
# 9S 12MX 7YD 7S, both commuter runs, the Delaware twice, a right half the time).
_MIXED = {"12MX": {"station": 7, "yard": 5}}
FAMILY_1831 = [
    *[(f"1831-{n}hex-s{s}", n, s, {}) for n, s in [(48, 0), (48, 1), (48, 2), (40, 0), (54, 0), (52, 4)]],
    *[(f"1831-nocommute-{n}hex-s{s}", n, s, {"commuter": False}) for n, s in [(48, 3), (44, 5), (50, 6)]],
    *[(f"1831-rights{k}-{n}hex-s{s}", n, s, {"n_rights": k}) for k, n, s in [(1, 46, 7), (1, 48, 8), (2, 50, 9)]],
    *[(f"1831-nodelaware-{n}hex-s{s}", n, s, {"delaware": False}) for n, s in [(44, 10), (48, 11)]],
    *[(f"1831-redtokens-{n}hex-s{s}", n, s, {"red_tokens": True}) for n, s in [(48, 12), (52, 13), (40, 14)]],
    ("1831-receivership-48hex-s15", 48, 15, {"receivership": True, "trains": ("7S", "5MX", "4YD")}),
    ("1831-receivership-44hex-s16", 44, 16, {"receivership": True, "trains": ("8S", "5S", "4MX", "3YD")}),
    ("1831-mx-yd-48hex-s17", 48, 17, {"trains": ("8MX", "6YD", "6YD")}),
    ("1831-2x12mx-46hex-s18", 46, 18, {"trains": ("12MX", "12MX")}),
    ("1831-yd-50hex-s19", 50, 19, {"trains": ("7YD", "7YD", "9S")}),
    *[(f"1831-density{int(d * 100)}-{n}hex-s{s}", n, s, {"density": d})
      for d, n, s in [(0.6, 48, 20), (0.6, 54, 21), (0.9, 42, 22), (0.9, 48, 23)]],
    *[(f"1831-cities{int(c * 100)}-{n}hex-s{s}", n, s, {"city_share": c}) for c, n, s in [(0.3, 48, 24), (0.55, 46, 25)]],
    ("1831-runto-48hex-s26", 48, 26, {"rules": {"delaware_south": "run_to"}}),
    ("1831-mixedcounts-48hex-s27", 48, 27, {"rules": {"mixed_counts": _MIXED}}),
    ("1831-stricttokens-48hex-s28", 48, 28, {"rules": {"pass_own_tokens": False}}),
    ("1831-phase7-44hex-s29", 44, 29, {"phase": "7", "trains": ("7S", "6MX", "5YD")}),
    ("1831-phase7-48hex-s30", 48, 30, {"phase": "7", "trains": ("7S", "7S", "6MX")}),
]


def family_1831():
    """The 1831 family (FAMILY_1831) as (name, position)."""
    from trainruns.services.generate import board_1831

    return [(name, board_1831(seed, n_hexes=n, **options)) for name, n, seed, options in FAMILY_1831]

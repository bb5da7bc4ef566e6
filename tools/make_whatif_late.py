"""Grow a late-game 1832 position for timing ``trainruns whatif --tiles``.

Starts from the worked example's SALR (token at D20), moves it to phase 8 with an 8- and
a 6-train, and lays tiles one at a time: each step picks, with a fixed seed, among the
legal lays that whatif finds (so every lay is legal by construction). Writes
fixtures/1832/whatif_late.json.
"""

import json
import random
import sys
from pathlib import Path

from trainruns.services.whatif import tile_candidates

ROOT = Path(__file__).resolve().parents[1]


def main(steps=60, seed=7):
    rng = random.Random(seed)
    data = json.loads((ROOT / "fixtures/1832/worked_example.json").read_text())
    data = {"title": "1832", "phase": "8", "corporation": "SALR", "trains": ["8", "6"],
            "tiles": data["tiles"], "tokens": data["tokens"]}
    for _ in range(steps):
        cands = tile_candidates(data)
        if not cands:
            break
        _, data = rng.choice(cands)
    data["notes"] = f"grown by tools/make_whatif_late.py ({steps} random legal lays, seed {seed})"
    out = ROOT / "fixtures/1832/whatif_late.json"
    out.write_text(json.dumps(data, indent=1) + "\n")
    print(out, len(data["tiles"]), "tiles")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:]))

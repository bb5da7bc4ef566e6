"""Hostile actions at states deep in seeded random games: every listed action mutated,
each mutation tried on a copy of the game.

    python tools/fuzz_actions.py 1832 --players 4 --first 900 --games 3 --every 5

tests/game/test_play_strict.py mutates each action type at the first state that lists
it; the steps met later (mergers, receivership, protection, offers between companies,
the emergency sequence) see other actions. Here a random game (the random policy of
``play selfplay``) is played on, and at every ``--every``-th state each listed action
type is filled in and mutated: a field left out, set to a value of the wrong type, to
a number far out of range, to another id the game uses (a player, a company, a private,
a train), a number one off or doubled, a list reversed, shortened or doubled, a field
of its first element changed. For each mutation, on a copy of the game (Game.copy, as
the advisor and the page use it):

- anything but bad input (``InputError``) or a refusal with a rule id (``Refusal``) is a
  problem (a crash);
- a refusal must leave the copy as it was (``act``: "the game is unchanged") and be one
  line;
- an accepted mutation must give a log that replays (``play act`` would have written it).

Beside the game, a shadow game is given the same decisions without the mutations: the
two must stay equal, so nothing done to a copy reaches the game it was copied from.
Exit 1 when a problem is found (each printed on one line), else 0.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from trainruns.errors import InputError
from trainruns.game.errors import Refusal
from trainruns.game.game import Game
from trainruns.game.selfplay import fill, random_choice

WRONG = [[], {}, "x", 1.5, None, True, -1, 0, 2 ** 63, 10 ** 9, "", [1]]


def game_ids(state: dict) -> list[str]:
    """Ids a game uses: players, companies, privates and trains (another id of the
    right shape is the likeliest wrong value)."""
    out = set()
    for c in state.get("corporations", []):
        out.add(c["id"])
        out.update(t for t in c.get("trains") or [] if isinstance(t, str))
    out.update(p["name"] for p in state.get("players", []))
    for x in state.get("privates") or state.get("companies") or []:
        if isinstance(x, dict) and isinstance(x.get("id"), str):
            out.add(x["id"])
    return sorted(out)


def mutations(action: dict, ids: list[str], rng: random.Random):
    """(label, mutated action) for every field of ``action`` (see the module)."""
    for key in [k for k in action if k != "type"]:
        value = action[key]
        yield f"{key} missing", {k: v for k, v in action.items() if k != key}
        others = rng.sample(ids, min(6, len(ids)))
        numbers = ([value + 1, value - 1, 2 * value, -value, value + 1000]
                   if isinstance(value, int) and not isinstance(value, bool) else [])
        for wrong in WRONG + others + numbers:
            yield f"{key} = {wrong!r}"[:60], dict(action, **{key: wrong})
        if isinstance(value, list) and value:
            for label, wrong in (("reversed", value[::-1]), ("doubled", value + value), ("shortened", value[:-1])):
                yield f"{key} {label}", dict(action, **{key: wrong})
            if isinstance(value[0], dict):
                for field in value[0]:
                    first = {k: v for k, v in value[0].items() if k != field}
                    yield f"{key}[0].{field} missing", dict(action, **{key: [first] + value[1:]})
                    for wrong in ("x", -1, None, [], 99):
                        yield (f"{key}[0].{field} = {wrong!r}",
                               dict(action, **{key: [dict(value[0], **{field: wrong})] + value[1:]}))
    yield "unknown field", dict(action, note=1)
    yield "type misspelled", dict(action, type=action["type"] + "s")


def _text(game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def try_state(game: Game, rng: random.Random, where: str) -> tuple[list[str], int]:
    """Every listed action type of ``game``'s state, mutated, each on a copy:
    (problems, mutations tried)."""
    problems, tried = [], 0
    state = game.to_json()
    before = json.dumps(state, sort_keys=True)   # as _text(game)
    ids = game_ids(state)
    seen = set()
    for listed in game.actions():
        if listed["type"] in seen:
            continue
        seen.add(listed["type"])
        for label, mutated in mutations(fill(listed, rng), ids, rng):
            tried += 1
            what = f"{where} {listed['type']}: {label}"
            copy = game.copy()
            try:
                copy.act(mutated)
            except (InputError, Refusal) as e:
                if "\n" in str(e):
                    problems.append(f"{what}: a refusal of more than one line")
                if _text(copy) != before:
                    problems.append(f"{what}: refused, but the game changed")
                continue
            except Exception as e:   # what the tool looks for: anything else is a crash
                problems.append(f"{what}: {type(e).__name__}: {str(e)[:200]} ({json.dumps(mutated)[:200]})")
                continue
            try:
                Game.replay(json.loads(json.dumps(copy.log(), allow_nan=False)))
            except Exception as e:
                problems.append(f"{what}: accepted, but its log does not replay: {str(e)[:200]}")
    return problems, tried


def fuzz_game(title: str, players: int, seed: int, every: int, most: int = 3000,
              variants=()) -> tuple[list[str], int, int]:
    """One seeded random game (with the title's ``variants``) with its states fuzzed:
    (problems, actions played, mutations tried)."""
    names = [chr(65 + i) for i in range(players)]
    rng = random.Random(seed)
    game, shadow = Game(title, names, seed, variants), Game(title, names, seed, variants)
    problems, tried, n = [], 0, 0
    while not game.finished and n < most:
        listed = game.actions()
        if not listed:
            problems.append(f"{title} seed {seed} action {n}: an unfinished game lists no action")
            break
        if n % every == 0:
            found, k = try_state(game, rng, f"{title} seed {seed} action {n}")
            problems += found
            tried += k
        decision = random_choice(listed, rng)
        game.act(decision)
        shadow.act(decision)
        n += 1
        if _text(game) != _text(shadow) or game.active() != shadow.active():
            problems.append(f"{title} seed {seed} action {n}: the game is no longer what its decisions "
                            f"make (something done to a copy reached it)")
            break
    return problems, n, tried


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("title")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--first", type=int, default=1, help="the first seed")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--every", type=int, default=5, help="fuzz every N-th state")
    ap.add_argument("--most", type=int, default=3000, help="actions of a game at most")
    ap.add_argument("--variants", default="", help="the title's variants, comma-separated")
    args = ap.parse_args(argv)
    bad = 0
    for seed in range(args.first, args.first + args.games):
        start = time.process_time()
        problems, n, tried = fuzz_game(args.title, args.players, seed, args.every, args.most,
                                           [v for v in args.variants.split(",") if v])
        for p in problems:
            print(p)
        bad += len(problems)
        print(f"{args.title} seed {seed}: {n} actions, {tried} mutations, {len(problems)} problems, "
              f"{time.process_time() - start:.0f} s CPU", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

"""The action log (docs/game-log.md): format ``trainruns-game/1``.

A log is ``{"format", "title", "players", "seed", "variants", "config", "actions"}``;
a game is the log replayed from the title's setup (deterministic: randomness, if a title
needs any, comes from ``seed`` only). ``undo`` is an entry of the log too: it takes back
the last decision still standing, so the game after ``log + undo`` is the game of the
log without that decision (:func:`effective`).

A run made by a bounded search records what the search proved (``"proven"``, and
``"bound"``, an upper bound on the best revenue); a replay audits the logged routes
instead of searching again, so it takes that proof from the log (:func:`recorded_proof`).
"""

from __future__ import annotations

import unicodedata

from trainruns.errors import InputError

FORMAT = "trainruns-game/1"
MAX_SEED = 2 ** 63      # a seed is a whole number the strict JSON reader reads back
MAX_NAME = 200          # characters of a player's name
# What a log may hold, so that every log the tool writes is one it reads back (the
# reader's limit is 8 MB, position.MAX_FILE_BYTES; a log is written indented, and a
# whole game's log is about 200 kB): one action as compact JSON, and the whole log.
MAX_ACTION_BYTES = 64 * 1024
MAX_LOG_BYTES = 4 * 1024 * 1024
# a run's proof as its record keeps it: whether the run is the best, and an upper bound
PROOF_FIELDS = ("proven", "bound")


def new_log(title: str, players: list[str], seed=None, variants=None, config=None, where="game") -> dict:
    """A log with no action yet; its frame checked as :func:`read_log` will check it,
    so the tool never writes a log it then refuses."""
    check_frame(title, players, seed, variants, where)
    # a variant named twice (``--variant X --variant X``) is the variant, kept once
    return {"format": FORMAT, "title": title, "players": list(players), "seed": seed,
            "variants": list(dict.fromkeys(variants or [])), "config": config, "actions": []}


def printable(name: str) -> bool:
    """No control, format or line-separating character (a newline, an escape, a
    right-to-left override): a name is quoted in one-line messages and on terminals."""
    return not any(unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp") for ch in name)


def check_frame(title, players, seed, variants, where="log"):
    """The fields of a log besides its actions: bad input (exit 2) when wrong."""
    if not isinstance(title, str):
        raise InputError("field 'title' must be a string", where)
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) and p for p in players):
        raise InputError("field 'players' must be a list of player names", where)
    for p in players:
        if len(p) > MAX_NAME or not printable(p) or p != p.strip():
            raise InputError(f"a player's name is 1 to {MAX_NAME} printable characters, no control character "
                             f"nor space at either end: not {p[:40]!r}", where)
    if len(set(players)) != len(players):
        raise InputError("player names must be distinct", where)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not -MAX_SEED < seed < MAX_SEED):
        raise InputError("field 'seed' must be null or a whole number below 2^63 in size", where)
    variants = [] if variants is None else variants
    if not isinstance(variants, (list, tuple)) or not all(isinstance(v, str) for v in variants):
        raise InputError("field 'variants' must be a list of strings", where)


def read_log(data, where="log") -> dict:
    """Check a log's frame (bad input: exit 2); actions are checked as they replay."""
    if not isinstance(data, dict):
        raise InputError("a game log must be a JSON object", where)
    if data.get("format") != FORMAT:
        raise InputError(f"field 'format' must be {FORMAT!r}, not {data.get('format')!r}", where)
    players, seed, variants = data.get("players"), data.get("seed"), data.get("variants") or []
    if not isinstance(players, list) or not isinstance(variants, list):
        raise InputError(f"field '{'players' if not isinstance(players, list) else 'variants'}' must be a list",
                         where)
    check_frame(data.get("title"), players, seed, variants, where)
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise InputError("field 'actions' must be a list", where)
    return {"format": FORMAT, "title": data["title"], "players": list(players), "seed": seed,
            "variants": list(variants), "config": data.get("config"), "actions": list(actions)}


def effective(actions: list, where: str = "log") -> list:
    """The decisions that stand once every ``undo`` has taken back the one before it.
    An undo with nothing left to take back is refused when played (``undo.nothing``), so
    a log that holds one is bad input, as any other decision the game refuses."""
    out = []
    for i, a in enumerate(actions):
        if isinstance(a, dict) and a.get("type") == "undo":
            if not out:
                raise InputError(f"the log's entry {i} is illegal: undo.nothing: there is no decision to take "
                                 "back", f"{where}: actions")
            out.pop()
        else:
            out.append(a)
    return out


def without_proof(record: dict) -> dict:
    """A run's record as an action to take again: its routes declared, without the
    proof the game recorded (:data:`PROOF_FIELDS`). The proof is the game's to record:
    a title that makes every run the best (1832 [8], 1833NE) searches a declared run and
    records the same proof; 1831 does not search one (5.6.6: any legal run may be
    declared), and a new run that says a proof the game did not make is refused
    (``run.proof``)."""
    return {k: v for k, v in record.items() if k not in PROOF_FIELDS}


def recorded_proof(logged: dict, recorded: dict, where: str) -> dict:
    """The record of a replayed ``run_routes``: the step's own (``recorded``), with the
    proof the log recorded for it (``proven``, ``bound``) when the step, auditing a
    declared run, proved nothing itself, so that the replayed game is the game that was
    logged (docs/game-log.md guarantee 9). A proof that cannot be the search's (one
    field without the other, a bound below the run's revenue, a proven run whose bound
    is not its revenue) is bad input."""
    if recorded.get("type") != "run_routes" or "proven" in recorded or "proven" not in logged and "bound" not in logged:
        return recorded
    if "proven" not in logged or "bound" not in logged:
        raise InputError("a run's proof needs both 'proven' and 'bound'", where)
    proven, bound, revenue = logged["proven"], logged["bound"], recorded.get("revenue", 0)
    if bound < revenue or (proven and bound != revenue):
        raise InputError(f"the run earns {revenue}: its bound {bound} must be at least that, and equal to it "
                         f"when proven (proven: {str(proven).lower()})", where)
    return dict(recorded, proven=proven, bound=bound)

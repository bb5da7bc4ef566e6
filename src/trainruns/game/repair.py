"""A log recorded before a rules fix, carried over (``trainruns play repair``,
docs/game-log.md "A log from before a rules fix").

A fix that makes the rules offer a choice they did not offer before (1832 [6.5.2]: the
West Virginia Coal Fields token in place of a yellow lay even when no tile may be laid;
[16.2]: the Cotton and Port tokens after the station token) leaves an older log one
decision short: the player never saw the choice, so the log holds no answer to it, and
its next decision is refused there. The answer the player gave by not seeing it is
``pass``. :func:`repair` replays the log and, where a recorded decision is refused, tries
passing the step of that decision's company that stands in its way (at most
:data:`MOST_PASSES` in a row, each one the step lists): when the decision is legal
after them, the passes go into the log before it. Anything else refused stays bad
input, as :meth:`Game.replay` says. Nothing is guessed that the game does not list,
and every inserted pass is reported.
"""

from __future__ import annotations

from trainruns.errors import InputError
from trainruns.game.errors import Refusal

# newly offered choices in a row that one decision may need passed (a company's step
# and the step after it): more than this is a log of another game, not an older one
MOST_PASSES = 3


def repair(game, decisions: list, where: str = "log") -> list[dict]:
    """Replay ``decisions`` (a log's, undone ones dropped) into ``game``, fresh from the
    log's header, inserting the passes an older log lacks; the game's entries become the
    repaired log's actions. Returns the passes inserted, each ``{"before": i, "pass":
    action, "refused": rule}``, ``i`` the index in the repaired actions of the decision
    it precedes. Raises :class:`InputError` when a decision is refused and no pass makes
    it legal."""
    kept, inserted = [], []
    for i, a in enumerate(decisions):
        w = f"{where}: actions[{i}]"
        try:
            game.apply_recorded(a, w)
        except Refusal as r:
            passes = passes_before(game, a, w)
            if passes is None:
                raise illegal(i, r, where) from None
            for p in passes:
                game.apply_recorded(p, w)
            kept += passes
            inserted += [{"before": len(kept), "pass": p, "refused": r.rule} for p in passes]
            game.apply_recorded(a, w)
        kept.append(a)
    game.entries = kept
    game._size = None
    return inserted


def illegal(i: int, r: Refusal, where: str, hint: str = "") -> InputError:
    """The bad input a log is when its decision ``i`` is refused (``r``)."""
    return InputError(f"the log's decision {i} is illegal: {r.rule}: {r.message}{hint}", f"{where}: actions")


def passes_before(game, a: dict, where: str) -> list[dict] | None:
    """The passes after which the refused decision ``a`` is legal, tried on a copy; None
    when there are none. Each is listed by the step it answers and is the pass of the
    company ``a`` is a decision of, so it declines a choice within that company's turn
    (a player's pass, or another company's, would be a decision of its own, never a
    choice the older rules did not offer); at most :data:`MOST_PASSES`."""
    ids = game.rules.corporation_id
    corp = ids(a.get("corporation"))
    if corp is None:
        return None
    trial, passes = game.copy(), []
    for _ in range(MOST_PASSES):
        listed = next((x for x in trial.actions() if x.get("type") == "pass"), None)
        if listed is None or "player" in listed or ids(listed.get("corporation")) != corp:
            return None
        try:
            trial.apply_recorded(listed, where)
        except (Refusal, InputError):
            return None
        passes.append(listed)
        try:
            trial.copy().apply_recorded(a, where)
        except (Refusal, InputError):   # refused after this pass too (or bad there): one more
            continue
        return passes
    return None

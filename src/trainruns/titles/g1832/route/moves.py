"""1832's rules for the moves a company may make next (``trainruns whatif``): the home
spots kept for companies that have not started ([7.3] "Placing a Token"), the Cotton
token carried across an upgrade ([7.3] tokens never move), and train purchases ([10],
[4.2] phases, [10.2.1] "Exceeding Train Limits")."""

from __future__ import annotations

from trainruns.titles import moves
from trainruns.titles.moves import keep_choices, started


def home_refusal(facts, data, board, ref):
    """[7.3] "A company cannot use the last token space in a starting city for a railway
    that has not yet started"."""
    homes = [(c["id"], c["home"], c.get("home_stop", 0)) for c in facts.corporations.values() if c.get("home")]
    going = started(lambda name: facts.corporation_id(name, "position: tokens"), data) | {board.corporation}
    return moves.home_refusal(facts.tiled, data, board, ref, homes, going,
                              "a company cannot use the last token space in a starting city for a railway "
                              "that has not yet started [7.3]")


def moved_cotton(data, hex_id, mapping):
    """The Cotton token ({hex, stop}) stays on its city when the hex is upgraded."""
    cotton = data.get("cotton")
    if isinstance(cotton, dict) and cotton.get("hex") == hex_id and cotton.get("stop", 0) in mapping:
        return {"cotton": dict(cotton, stop=mapping[cotton.get("stop", 0)])}
    return {}


def train_purchases(facts, data):
    """Every train type of the game, as a purchase (the loader keeps those that exist in
    the phase, within its limit [10.2]); then the first train of the next type, which
    starts its phase [4.2] if the company is below the current limit [10.2]: older
    trains are scrapped (Table 1) and, when the new phase's lower limit leaves too
    many, the president "decides which train is discarded" [10.2.1]: one variant per
    choice."""
    if data.get("must_discard") is True:
        return []   # [10.2.1] the excess is discarded "immediately": nothing is bought before
    trains = list(data.get("trains", []) or [])
    diesels = data.get("diesels") is True   # [17.2]: the loader refuses any other value
    phases = facts.phases_of(diesels)
    out = [({"train": str(name)}, dict(data, trains=trains + [name])) for name in facts.trains if name in phases]
    if data.get("phase") not in phases:
        return out
    i = phases.index(str(data["phase"]))
    if i + 1 >= len(phases) or phases[i + 1] not in facts.trains:
        return out
    nxt = phases[i + 1]
    keep, scrapped = [], []
    for t in trains:
        gone = facts.rusts_on(str(t), diesels) if str(t) in facts.trains else None
        if gone is not None and phases.index(gone) <= i + 1:
            scrapped.append(str(t))
        else:
            keep.append(t)
    corp = facts.corporation_id(data.get("corporation"), "position: corporation")
    shells = facts.corporations[corp].get("shells", 1)
    if len(trains) + 1 > facts.phase_table[phases[i]]["train_limit"] * shells:
        return out  # [10.2] "provided that it does not cause it to exceed the current train limits"
    limit = facts.phase_table[nxt]["train_limit"] * shells
    for kept, discarded in keep_choices(keep, limit - 1):
        move = {"train": nxt, "starts_phase": nxt}
        if scrapped:
            move["scrapped"] = scrapped
        if discarded:
            move["discarded"] = [str(t) for t in discarded]
        out.append((move, dict(data, phase=nxt, trains=kept + [nxt])))
    return out

"""1832's rules for the moves a company may make next (``trainruns whatif``): the home
spots kept for companies that have not started ([7.3] "Placing a Token"), the Cotton
token carried across an upgrade ([7] tokens never move), and train purchases ([10],
[4.2] phases, [10.2.1] "Exceeding Train Limits")."""

from __future__ import annotations

from ..moves import current_stop, keep_choices


def started(facts, data):
    """Companies with a token on the map. A company places its home token "at the
    beginning of its first operating round" [7.1], so one without any has not started
    (docs/gaps.md)."""
    out = set()
    for t in data.get("tokens", []) or []:
        if isinstance(t, dict) and isinstance(t.get("corporation"), str):
            out.add(facts.corporation_id(t["corporation"], "position: tokens"))
    return out


def home_refusal(facts, data, board, ref):
    """[7.3] "A company cannot use the last token space in a starting city for a railway
    that has not yet started": the city keeps a free space for each such company whose
    home it is (its printed home city followed through upgrades by its track)."""
    hex_id, k = ref
    laid = facts.tiled.lay(data.get("tiles", []), board.phase, "position")
    going = started(facts, data) | {board.corporation}
    waiting = sorted(c["id"] for c in facts.corporations.values()
                     if c.get("home") == hex_id and c["id"] not in going
                     and current_stop(facts.tiled, laid, hex_id, c.get("home_stop", 0)) == k)
    stop = board.stop(ref)
    if waiting and stop.slots - len(stop.tokens) <= len(waiting):
        return (f"{hex_id}.{k} is the home city of {', '.join(waiting)}, not yet started: "
                "a company cannot use the last token space in a starting city for a railway "
                "that has not yet started [7.3]")
    return None


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
    trains = list(data.get("trains", []) or [])
    out = [({"train": str(name)}, dict(data, trains=trains + [name])) for name in facts.trains]
    phases = facts.phase_names
    if data.get("phase") not in phases:
        return out
    i = phases.index(str(data["phase"]))
    if i + 1 >= len(phases) or phases[i + 1] not in facts.trains:
        return out
    nxt = phases[i + 1]
    keep, scrapped = [], []
    for t in trains:
        gone = facts.trains.get(str(t), {}).get("scrapped_in")
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

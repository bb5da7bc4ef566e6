"""1833NE's rules for the moves a corporation may make next (``trainruns whatif``):
the B&L's wait for P2, reserved city spots and the two-station limit, position fields
naming a stop carried across an upgrade, and train purchases ("Train list and
prices", "Number of phases")."""

from __future__ import annotations

from trainruns.errors import InputError
from trainruns.position.reader import read_bool
from trainruns.titles import moves
from trainruns.titles.g1833ne.route.hooks import bought_privates, reservation_filled
from trainruns.titles.moves import keep_choices, started, track_sides


def lowell_lay_refusal(facts, data, board):
    """P2 Lowell Merchants: "until a corporation buys it, the Boston & Lowell can't lay
    track in phase I"."""
    if board.corporation == "B&L" and board.phase == "I" and "P2" not in bought_privates(facts, data, "position"):
        return "until a corporation buys P2 Lowell Merchants, the Boston & Lowell can't lay track in phase I"
    return None


def p3_lays(title, data, board):
    """P3 Champlain & St. Lawrence "lets its corporation lay two extra free tiles there
    [C4 and C6], connected to each other and with the C4 tile connected to Montreal,
    without needing to reach them from its own tokens" (until P3 is removed in phase
    IV). A C4 tile needs track on its Montreal edge; with a tile on the other hex, the
    two must meet at their common side. Returns the moves (first tiles, no ``replaces``)."""
    facts = title.facts
    privates = data.get("privates", [])
    if not isinstance(privates, list) or "P3" not in privates:
        return []
    rule = facts.privates["P3"]["free_lays"]
    if facts.phase_index(board.phase) >= facts.phase_index(rule["until_phase"]):
        return []
    tiled = facts.tiled
    laid = tiled.lay(data.get("tiles", []), board.phase, "position")
    a, b = rule["hexes"]
    common = {a: tiled.side_towards(a, b), b: tiled.side_towards(b, a)}
    out = []
    for hex_id in rule["hexes"]:
        if hex_id in laid:
            continue  # the free lays are first tiles
        other = b if hex_id == a else a
        for tile in tiled.manifest["first_tiles"].get(tiled.hexes[hex_id].get("kind", "clear"), []):
            for rot in range(6):
                sides = track_sides(tiled.tiles[tile], rot)
                if hex_id == rule["anchor"]["hex"] and rule["anchor"]["edge"] not in sides:
                    continue
                if other in laid and not (common[hex_id] in sides and
                                          common[other] in track_sides(tiled.tiles[laid[other][0]], laid[other][1])):
                    continue
                try:
                    tiled.check_lay(hex_id, tile, rot, None, board.phase, "lay")
                    title.check_map(data, {hex_id: (tile, rot)}, board.phase, "lay")
                except InputError:
                    continue
                move = {"hex": hex_id, "tile": tile, "rotation": rot, "private": "P3"}
                out.append(move)
    return out


def token_refusal(facts, data, board, ref):
    """"List of corporations": each corporation "only has 2 stations, its home and one
    more"; the home spot of a corporation not yet launched is kept for it; the B&W's
    Worcester spot and (once Boston is green) the B&P's Boston spot are reserved until
    phase IV: a token that would fill the last spot there is refused."""
    corp = board.corporation
    takeover = read_bool(data, "takeover_game", "position")
    mine = [t for t in data.get("tokens", []) or [] if isinstance(t, dict) and
            facts.corporation_id(t.get("corporation"), "position: tokens", takeover) == corp]
    if len(mine) >= 2:
        return f"{corp} has both its stations on the map (its home and one more)"
    homes = [(c["id"], c["home"], c.get("home_city", 0)) for c in facts.corporations.values()]
    going = started(lambda name: facts.corporation_id(name, "position: tokens", takeover), data) | {corp}
    home = moves.home_refusal(facts.tiled, data, board, ref, homes, going,
                              "its home spot is kept for it until it launches (docs/gaps.md)")
    if home is not None:
        return home
    filled = reservation_filled(facts, board, ref[0], placing=corp)
    if filled is not None:
        return f"the {filled[0]} {filled[1]['rule']}"
    return None


def moved_bonus_stops(data, hex_id, mapping):
    """Bonus ends written "HEX.K" stay on their stop when the hex is upgraded."""
    raw = data.get("bonuses")
    if not isinstance(raw, list):
        return {}

    def move(end):
        if isinstance(end, list):
            return [move(e) for e in end]
        if isinstance(end, str) and end.startswith(hex_id + "."):
            k = end[len(hex_id) + 1:]
            if k.isdigit() and int(k) in mapping:
                return f"{hex_id}.{mapping[int(k)]}"
        return end

    out = [dict(b, between=[move(e) for e in b["between"]])
           if isinstance(b, dict) and isinstance(b.get("between"), list) else b for b in raw]
    return {"bonuses": out} if out != raw else {}


def _limit(facts, data, phase):
    row = facts.phase_table[phase]
    if read_bool(data, "takeover_game", "position"):
        takeovers = data.get("takeovers", 0)
        return row["train_limit_takeover_game"] + (takeovers if isinstance(takeovers, int) else 0)
    return row["train_limit"]


def _live(facts, trains, phase):
    """The trains that count against the limit in ``phase`` (phased-out ones do not)."""
    idx = facts.phase_index(phase)
    out = []
    for t in trains:
        card = facts.sides.get(str(t))
        if card and card["obsolete_on"] and idx >= facts.phase_index(card["obsolete_on"]):
            continue
        out.append(t)
    return out


def train_purchases(facts, data):
    """"Train list and prices": a side of the current phase's card (the buyer picks one
    side), within the limit; then a side of the next phase's card, which starts that
    phase ("triggered by the purchase of the first train of the next phase"): cards it
    removes go, privates and ferries it removes go, and when the new limit leaves too
    many trains counting against it, one variant per choice of discard."""
    phase = data.get("phase")
    if phase not in facts.phase_names or data.get("must_discard") is True:
        return []   # a company over its limit discards before anything else
    trains = list(data.get("trains", []) or [])
    i = facts.phase_index(phase)
    out = []
    if len(_live(facts, trains, phase)) + 1 > _limit(facts, data, phase):
        return out  # over the limit: no purchase at all
    for card in facts.cards:
        if card["available_on"] == phase:
            out += [({"train": s["name"]}, dict(data, trains=trains + [s["name"]])) for s in card["variants"]]
    if i + 1 >= len(facts.phase_names):
        return out
    nxt = facts.phase_names[i + 1]
    row = facts.phase_table[nxt]
    keep, removed = [], []
    for t in trains:
        card = facts.sides.get(str(t))
        if card and card["rusts_on"] and i + 1 >= facts.phase_index(card["rusts_on"]):
            removed.append(str(t))
        else:
            keep.append(t)
    changes = {"phase": nxt}
    if isinstance(data.get("privates"), list):
        changes["privates"] = [p for p in data["privates"] if p not in row["privates_removed"]]
    if not row["ferries"] and data.get("ferries"):
        changes["ferries"] = []
    live = _live(facts, keep, nxt)
    out_live = [t for t in keep if t not in live]
    for card in facts.cards:
        if card["available_on"] != nxt:
            continue
        for side in card["variants"]:
            for kept, discarded in keep_choices(live, _limit(facts, data, nxt) - 1):
                move = {"train": side["name"], "starts_phase": nxt}
                if removed:
                    move["scrapped"] = removed
                if discarded:
                    move["discarded"] = [str(t) for t in discarded]
                out.append((move, dict(data, **changes, trains=out_live + kept + [side["name"]])))
    return out


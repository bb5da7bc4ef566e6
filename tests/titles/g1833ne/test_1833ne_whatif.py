"""whatif for 1833NE ("whatif --tiles/--tokens/--trains works for every title
that has the data"): the title's own moves, rule by rule of the 1833NE rules summary."""

import pytest
from _1833ne import fixture

from trainruns import InputError, load_position, solve
from trainruns.services.whatif import rank_trains_full, tile_candidates, token_candidates, train_candidates


def test_train_purchases_are_the_card_sides_of_the_phase_and_the_next():
    """"Train list and prices": "the buyer picks one side"; "5 phases ... triggered by
    the purchase of the first train of the next phase". Phase II: a 3/5 or 2+2 card,
    or the first phase III card (4/7 or 3+3), which starts phase III."""
    moves = [m for m, _ in train_candidates(fixture("boston_montreal"))]
    assert moves == [{"train": "3/5"}, {"train": "2+2"}, {"train": "4/7", "starts_phase": "III"},
                     {"train": "3+3", "starts_phase": "III"}]


def test_next_phase_removes_cards_privates_and_ferries():
    """"Phase IV: ... phase II trains are phased out and phase I trains removed;
    privates P3-P5 and all ferries are removed": the first 6/9 bought in phase III
    takes the 2-train, P4 and the ferry with it, and the variant is a legal phase IV
    position."""
    pos = fixture("ogdensburg_boston", trains=["4/7", "2"], ferries=[{"hex": "G22", "value": 20}])
    first = [(m, v) for m, v in train_candidates(pos) if m.get("starts_phase") == "IV"]
    assert [m["train"] for m, _ in first] == ["6/9", "5+3"]
    move, variant = first[0]
    assert move["scrapped"] == ["2"] and variant["trains"] == ["4/7", "6/9"]
    assert variant["privates"] == [] and variant["ferries"] == []
    load_position(variant)


def test_lower_limit_forces_a_discard_and_phased_out_trains_do_not_count():
    """"Train limit ... 3 in phases I-III and 2 in phases IV-V"; "A phased-out train
    doesn't count against the train limit". Phase III with three cards that count: no
    purchase. A phase I card (phased out in III, so not counted) and two phase III
    cards: the first 6/9 starts phase IV, which removes the I card and leaves three
    where two may count: one III card is discarded, the president's choice. A II card
    and a III card: in phase IV the II card is phased out, kept and not counted."""
    assert train_candidates(fixture("ogdensburg_boston", trains=["3/5", "4/7", "3+3"])) == []
    pos = fixture("ogdensburg_boston", trains=["2", "4/7", "3+3"])
    first = [(m, v) for m, v in train_candidates(pos) if m.get("starts_phase") == "IV" and m["train"] == "6/9"]
    assert sorted((m["scrapped"], m["discarded"], v["trains"]) for m, v in first) == [
        (["2"], ["3+3"], ["4/7", "6/9"]), (["2"], ["4/7"], ["3+3", "6/9"])]
    best = rank_trains_full(pos)
    assert best.moves[0].revenue == max(solve(v).revenue for _, v in train_candidates(pos))
    kept = [(m, v) for m, v in train_candidates(fixture("ogdensburg_boston", trains=["3/5", "4/7"]))
            if m.get("starts_phase") == "IV" and m["train"] == "6/9"]
    assert [("discarded" in m, v["trains"]) for m, v in kept] == [(False, ["3/5", "4/7", "6/9"])]


def test_tokens_respect_two_stations_and_home_spots():
    """"List of corporations": "it only has 2 stations, its home and one more"; a home
    spot of a corporation not yet launched is kept for it (docs/gaps.md). The RR
    (delaware_hudson) reaches Lowell, Montreal and Boston: Boston's B&L city is the
    B&L's home. With two stations it may place none."""
    pos = fixture("delaware_hudson")
    assert sorted(m["hex"] for m, _ in token_candidates(pos)) == ["B3", "G20"]
    two = dict(pos, tokens=[{"hex": "C12", "stop": 0, "corporation": "RR"},
                            {"hex": "G20", "stop": 0, "corporation": "RR"}])
    with pytest.raises(InputError):
        load_position(dict(two, tokens=two["tokens"] + [{"hex": "B3", "stop": 0, "corporation": "RR"}]))
    assert token_candidates(two) == []


def test_worcester_spot_is_not_offered_before_phase_iv():
    """The B&W "has a reserved spot in Worcester until phase IV": the CV reaches
    Worcester (E22, one spot) on the Ogdensburg line but may not take it in phase III."""
    from trainruns.route.reach import reach

    pos = fixture("ogdensburg_boston")
    board = load_position(pos)
    assert ("E22", 0) in reach(board).stops and board.stop(("E22", 0)).tokens == []
    assert "E22" not in [m["hex"] for m, _ in token_candidates(pos)]
    # the B&W itself may
    bw = dict(pos, corporation="BW", privates=[], tokens=[{"hex": "G22", "stop": 0, "corporation": "BW"}])
    assert "E22" in [m["hex"] for m, _ in token_candidates(bw)]


def test_boston_and_lowell_lays_nothing_in_phase_one_without_p2():
    """P2: "Until a corporation buys it, the Boston & Lowell can't lay track in phase I"."""
    pos = {"title": "1833NE", "phase": "I", "corporation": "B&L", "trains": ["2"], "tiles": [],
           "tokens": [{"hex": "G22", "stop": 1, "corporation": "B&L"}]}
    assert tile_candidates(pos) == []
    assert tile_candidates(dict(pos, lowell_merchants_bought=True))


def test_no_lay_on_a_blocked_hex():
    """A player's private blocks its hex: with P2 unbought, the B&L's lays from green
    Boston's city toward Lowell never include Lowell (G20); once a corporation has
    bought P2, they do."""
    pos = {"title": "1833NE", "phase": "II", "corporation": "B&L", "trains": ["3/5"],
           "tiles": [{"hex": "G22", "tile": "N23", "rotation": 4}],
           "tokens": [{"hex": "G22", "stop": 0, "corporation": "B&L"}]}
    assert "G20" not in {m["hex"] for m, _ in tile_candidates(pos)}
    assert "G20" in {m["hex"] for m, _ in tile_candidates(dict(pos, privates_bought=["P2"]))}


def test_green_boston_keeps_the_tokens_on_their_cities():
    """Upgrading Boston to N23 (its one legal rotation) keeps the B&L's token on the city
    toward Lowell (printed G22.1, side 3), which N23 numbers G22.0."""
    pos = fixture("boston_montreal")
    ups = [(m, v) for m, v in tile_candidates(pos) if m["hex"] == "G22"]
    assert [(m["tile"], m["rotation"]) for m, _ in ups] == [("N23", 4)]
    assert ups[0][1]["tokens"] == [{"hex": "G22", "stop": 0, "corporation": "B&L"}]
    assert solve(ups[0][1]).revenue >= solve(pos).revenue
    # a bonus end named "HEX.K" follows its stop too
    bonus = {"name": "Lowell side", "between": ["G22.1", "B3"], "amount": 10}
    ups = [v for m, v in tile_candidates(dict(pos, bonuses=[bonus])) if m["hex"] == "G22"]
    assert ups[0]["bonuses"] == [dict(bonus, between=["G22.0", "B3"])]


def test_whatif_command_ranks_1833ne_moves(capsys):
    """`trainruns whatif fixtures/1833NE/boston_montreal.json --trains` used to exit 2
    ("no train data for this position"). The first phase III card starts phase III,
    where Boston-Montreal pays $200 instead of $150 (and the 4/7 counts Lowell too)."""
    import json

    from _1833ne import FIXTURES

    from trainruns.cli.main import main

    path = f"{FIXTURES}/boston_montreal.json"
    for kind in ("--tiles", "--tokens", "--trains"):
        assert main(["whatif", path, kind, "--json", "--quiet"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["moves"] and out["rejected"] == 0
        if kind == "--trains":
            best = out["moves"][0]
            assert best["move"] == {"train": "4/7", "starts_phase": "III"}
            pos = fixture("boston_montreal", phase="III", trains=["3/5", "4/7"])
            assert best["revenue"] == solve(pos).revenue > out["current_revenue"]


def test_champlain_and_st_lawrence_lays_c4_and_c6_without_reaching_them():
    """P3 "lets its corporation lay two extra free tiles there [C4, C6], connected to
    each other and with the C4 tile connected to Montreal, without needing to reach
    them from its own tokens". The RR (Montreal line, no C4/C6 tiles) reaches no C6 lay
    by itself; with P3 it may lay C6, and every C4 tile runs track on its Montreal edge
    (2). With a tile on C4 a P3 lay on C6 meets it at their common side."""
    from trainruns.titles.g1833ne import TITLE
    from trainruns.titles.moves import track_sides

    pos = fixture("delaware_hudson", privates_bought=["P2"])
    pos["tiles"] = [t for t in pos["tiles"] if t["hex"] not in ("C4", "C6")]
    assert not [m for m, _ in tile_candidates(pos) if m["hex"] == "C6"]
    p3 = dict(pos, privates=["P6", "P3"])
    lays = [m for m, _ in tile_candidates(p3)]
    assert [m for m in lays if m["hex"] == "C6"] and all(m.get("private") == "P3" for m in lays if m["hex"] == "C6")
    tiles = TITLE.facts.tiled.tiles
    assert all(2 in track_sides(tiles[m["tile"]], m["rotation"]) for m in lays if m["hex"] == "C4")
    with_c4 = dict(p3, tiles=p3["tiles"] + [{"hex": "C4", "tile": "58", "rotation": 0}])
    assert 0 in track_sides(tiles["58"], 0)  # C4's side 0 faces C6 (whose side 3 faces C4)
    c6 = [m for m, _ in tile_candidates(with_c4) if m["hex"] == "C6"]
    assert c6 and all(3 in track_sides(tiles[m["tile"]], m["rotation"]) for m in c6)

"""1833NE rules summary positions the rules make impossible are refused (exit 2, one line, in
the rule's words), and the B&L without P2 earns 0 even where an interconnection bonus
is on offer."""

import json

import pytest
from _1833ne import fixture, run

from trainruns import InputError, load_position
from trainruns.cli.main import main


def refused(pos, *words):
    with pytest.raises(InputError) as e:
        load_position(pos)
    text = str(e.value)
    assert "\n" not in text
    for w in words:
        assert w in text, text
    return text


# --- P2 Lowell Merchants -----------------------------------------------------------------

INTERCONNECTION = [{"name": "Boston-Montreal", "between": ["G22", "B3"], "amount": {"II": 150},
                    "interconnection": True}]


def test_boston_and_lowell_without_p2_earns_nothing_with_an_interconnection_bonus(tmp_path, capsys):
    """"List of private companies", P2: "until a corporation buys it, the Boston & Lowell
    ... can't run routes in phase I or afterwards while Boston hasn't been upgraded". An
    interconnection bonus on the board does not change that: revenue 0 (solve, audit and
    draw exited 3 on "max() arg is an empty sequence")."""
    pos = fixture("boston_montreal", phase="III", trains=["3/5"], lowell_merchants_bought=False,
                  bonuses=[dict(INTERCONNECTION[0], amount={"III": 200})])
    assert run(pos) == (0, [])
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pos))
    declared = tmp_path / "d.json"
    declared.write_text(json.dumps({"routes": []}))
    assert main(["solve", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["revenue"] == 0
    assert main(["audit", str(path), str(declared)]) == 0
    assert main(["draw", str(path), "--out", str(tmp_path / "d.png")]) == 0
    # bought: the same board pays the bonus on the Boston-Montreal line
    assert run(dict(pos, lowell_merchants_bought=True))[0] > 200


# --- privates that block hexes --------------------------------------------------------------

@pytest.mark.parametrize("hex_id,tile,private", [("H23", "3", "P1"), ("G20", "57", "P2"),
                                                 ("C4", "58", "P3"), ("C6", "8", "P3")])
def test_a_player_held_private_blocks_its_hexes(hex_id, tile, private):
    """"List of private companies": P1 "blocks H23 until bought by a corporation", P2
    "blocks Lowell (G20)", P3 "blocks C4 and C6". A tile there needs the private in a
    corporation's hands; from phase III players hold none ("privates held by players
    ... are removed")."""
    from trainruns.titles.g1833ne import TITLE

    rot = next(r for r in range(6) if _stands(TITLE, hex_id, tile, r))
    base = {"title": "1833NE", "phase": "II", "corporation": "FRR", "trains": ["3/5"],
            "tiles": [{"hex": hex_id, "tile": tile, "rotation": rot}], "tokens": []}
    refused(base, hex_id, private, "blocks it")
    load_position(dict(base, privates_bought=[private]))
    load_position(dict(base, phase="III"))  # the player's private is gone
    if private == "P2":
        load_position(dict(base, lowell_merchants_bought=True))


def _stands(title, hex_id, tile, rot):
    try:
        title.facts.tiled.check_lay(hex_id, tile, rot, None, "II", "t")
        from trainruns.titles.g1833ne.route.hooks import check_borders
        check_borders(title.facts, {hex_id: (tile, rot)}, "t")
        return True
    except InputError:
        return False


# --- reserved city spots --------------------------------------------------------------------

def test_worcester_spot_is_the_boston_and_worcesters_until_phase_iv():
    """"List of corporations": the B&W "has a reserved spot in Worcester until phase IV"
    ("Phase IV: ... city spot reservations end"). Worcester (E22) has one spot."""
    pos = {"title": "1833NE", "phase": "II", "corporation": "FRR", "trains": ["3/5"],
           "tiles": [{"hex": "E22", "tile": "57", "rotation": 0}],
           "tokens": [{"hex": "E22", "stop": 0, "corporation": "FRR"}]}
    refused(pos, "reserved spot in Worcester until phase IV", "tokens[0]")
    load_position(dict(pos, tokens=[{"hex": "E22", "stop": 0, "corporation": "B&W"}]))
    load_position(dict(pos, phase="IV", trains=["6/9"]))


def test_boston_spot_is_the_boston_and_providences_once_green_until_phase_iv():
    """The B&P "has a reserved spot in Boston (once its green tile is laid) until phase
    IV". Green Boston has three spots (2 + 1); with the B&W and the B&L home, a third
    corporation's token there takes the B&P's."""
    homes = [{"hex": "G22", "stop": 1, "corporation": "BW"}, {"hex": "G22", "stop": 0, "corporation": "B&L"}]
    pos = {"title": "1833NE", "phase": "II", "corporation": "FRR", "trains": ["3/5"],
           "tiles": [{"hex": "G22", "tile": "N23", "rotation": 4}],
           "tokens": homes + [{"hex": "G22", "stop": 0, "corporation": "FRR"}]}
    refused(pos, "reserved spot in Boston (once its green tile is laid) until phase IV", "tokens[2]")
    load_position(dict(pos, tokens=homes + [{"hex": "G22", "stop": 0, "corporation": "B&P"}]))
    load_position(dict(pos, tokens=homes))
    brown = dict(pos, phase="IV", trains=["6/9"], tiles=pos["tiles"] + [{"hex": "G22", "tile": "N33", "rotation": 0}],
                 tokens=[dict(t, stop=0) for t in pos["tokens"]])
    load_position(brown)  # reservations end in phase IV


# --- Boston's green tile --------------------------------------------------------------------

@pytest.mark.parametrize("rot", [0, 1, 2, 3, 5])
def test_boston_green_tile_keeps_its_zero_node_an_off_board(rot):
    """Map / upgrades keep existing track: Boston's $0 node (G22.2, the south off-board)
    stays an off-board. In any rotation but one, green N23 would turn it into a city
    (and change which Boston city is the B&W's and which the B&L's)."""
    pos = {"title": "1833NE", "phase": "II", "corporation": "BW", "trains": ["3/5"],
           "tiles": [{"hex": "G22", "tile": "N23", "rotation": rot}], "tokens": []}
    refused(pos, "N23", "off-board")
    load_position(dict(pos, tiles=[{"hex": "G22", "tile": "N23", "rotation": 4}]))


def test_refusals_exit_2_with_one_line(tmp_path, capsys):
    """Bad input: exit 2 and one line on stderr (the BRIEF's standard), for each kind
    of impossible position above."""
    worcester = {"title": "1833NE", "phase": "II", "corporation": "FRR", "trains": ["3/5"],
                 "tiles": [{"hex": "E22", "tile": "57", "rotation": 0}],
                 "tokens": [{"hex": "E22", "stop": 0, "corporation": "FRR"}]}
    from trainruns.titles.g1833ne import TITLE

    rot = next(r for r in range(6) if _stands(TITLE, "H23", "3", r))
    quincy = dict(worcester, tiles=[{"hex": "H23", "tile": "3", "rotation": rot}], tokens=[])
    boston = dict(worcester, tiles=[{"hex": "G22", "tile": "N23", "rotation": 0}], tokens=[])
    for i, (pos, words) in enumerate(((worcester, "reserved spot in Worcester"), (quincy, "P1 Granite Railway"),
                                      (boston, "off-board"))):
        path = tmp_path / f"p{i}.json"
        path.write_text(json.dumps(pos))
        assert main(["solve", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err and words in err

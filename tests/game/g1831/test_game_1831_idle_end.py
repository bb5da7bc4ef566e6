"""1831's optional house rule ``idle_end`` (docs/game-1831.md "How a game ends"): the
rulebook ends the game only by 6.1 (the bank's run-out), and 4.8.2 ("If there are no
active companies or systems to operate, another Stock Round immediately commences")
leaves a game with no company to operate going on. Chosen at ``play new``, the house
rule ends it when a whole set of rounds passes with no company to operate, once the
game has had an operating round."""

from __future__ import annotations

import subprocess
import sys

from _1831 import new
from test_game_1831_end import pass_stock_round


def test_without_the_house_rule_another_stock_round_follows_4_8_2():
    g = new()
    g.rules.or_counter = 1                     # an operating round has been played
    pass_stock_round(g)                        # the players have cash: not stalled
    assert not g.finished and g.round.kind == "stock" and g.rules.stock_round_number == 2


def test_with_the_house_rule_a_set_with_no_company_to_operate_ends_the_game_4_8_2_and_6_5():
    g = new(variants=["idle_end"])
    g.rules.or_counter = 1
    pass_stock_round(g)
    s = g.to_json()
    assert g.finished and s["end_reason"] == "idle"
    assert s["result"] == {p["name"]: p["value"] for p in s["players"]}   # scored by 6.5


def test_the_house_rule_waits_for_the_first_operating_round_4_8_2():
    g = new(variants=["idle_end"])
    pass_stock_round(g)                        # no company active yet: the game goes on
    assert not g.finished and g.rules.stock_round_number == 2


def test_play_new_lists_and_takes_the_house_rule():
    out = subprocess.run([sys.executable, "-m", "trainruns.cli.main", "play", "new", "1831", "--players",
                          "A,B,C", "--variant", "idle_end"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    bad = subprocess.run([sys.executable, "-m", "trainruns.cli.main", "play", "new", "1831", "--players",
                          "A,B,C", "--variant", "idle"], capture_output=True, text=True)
    assert bad.returncode == 2 and "idle_end" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1

"""The Key West token after the FEC merges (the 1832 rulebook): [7.5] "This token
adds $50 the value of Miami for the Florida East Coast Railway only"; [11] "The new
company inherits the ... tokens (including private company tokens) of the predecessor
companies". The standard game takes [7.5]; the ``key_west_inherited`` variant takes [11]
(docs/gaps.md)."""

import pytest
from _1832 import new, operated

from test_1832_rules import best, fixture


@pytest.mark.parametrize("variants,holder,counts", [((), "FECR", False),
                                                    (("key_west_inherited",), "AMTK", True)])
def test_key_west_token_after_the_fec_forms_a_system(variants, holder, counts):
    """FEC (Key West token on Miami) and SALR form System AMTK: the token stays the FEC's
    and counts for nobody ([7.5]), or the System holds it and gets its $50 ([11])."""
    g = new(4, variants)
    s = g.state
    s.phase = "4"
    x = operated(g, "FECR", "A", 100, {"A": 2})
    y = operated(g, "SALR", "B", 100, {})
    s.title_state.key_west = "FECR"
    g.rules.form_system(x, y, "A", "AMTK")
    assert s.title_state.key_west == holder
    pos = g.rules.position("AMTK")
    assert pos["key_west"] is counts
    assert pos.get("key_west_owner") == ("AMTK" if counts else None)


def test_key_west_owner_of_a_position_gets_the_50():
    """[7.5] +$50 on Miami for the token's holder: ACL's run to Miami is worth $60
    without it, $110 with it named the holder (the FEC's own run: $110)."""
    other = fixture("09-phase5-other-company-at-miami")
    assert best(other, port=None) == 60
    assert best(other, port=None, key_west_owner="ACL") == 110
    assert best(other, port=None, corporation="FECR") == 110

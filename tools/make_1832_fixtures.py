"""Write fixtures/1832/*.json: real-map 1832 positions with hand-checked best revenue.

Each position's ``notes`` give the hand check against the rulebook; the test
tests/titles/g1832/test_1832_fixtures.py asserts that the solver finds exactly ``expected_revenue``.
Rotations were chosen by hand from the map's neighbours (map.json ``neighbors``).
"""

import json
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "1832")


def t(hex_id, tile, rotation):
    return {"hex": hex_id, "tile": tile, "rotation": rotation}


def tok(hex_id, corp, stop=0):
    return {"hex": hex_id, "stop": stop, "corporation": corp}


# Raleigh (straight city) with Wilmington to the south-east and a line to Richmond.
RALEIGH_LINE = [t("D20", "57", 0), t("C21", "8", 0), t("B20", "8", 3), t("E19", "7", 3), t("E21", "3", 0)]
# Knoxville - C13 - Coal Fields - B16 - Lynchburg - B20 - Richmond.
COAL_LINE = [t("C11", "57", 1), t("C13", "8", 1), t("B16", "9", 1), t("B18", "4", 1), t("B20", "8", 1)]
# Charlotte - D18 - Raleigh - C21 - B20 - Richmond.
CHARLOTTE_LINE = [t("D16", "57", 1), t("D18", "9", 1), t("D20", "6", 1), t("C21", "8", 0), t("B20", "8", 3)]
# Jacksonville - K15 - L16 - M17 (printed grey track) - Miami.
MIAMI_LINE = [t("J14", "57", 2), t("K15", "9", 2), t("L16", "9", 2)]

FIXTURES = {
    "01-phase2-two-train-exactly-two": dict(
        phase="2", corporation="SAL", trains=["2"], tiles=RALEIGH_LINE, tokens=[tok("D20", "SALR")],
        expected_revenue=50,
        notes="Line Wilmington (town, 10) - Raleigh (#57, 20) - Richmond (red, first value 30). "
              "[8.2] a 2-train runs exactly two stops: Raleigh+Richmond = 50 beats "
              "Wilmington+Raleigh = 30."),
    "02-phase3-town-counts-trains-share-no-track": dict(
        phase="3", corporation="SALR", trains=["3", "2"], tiles=RALEIGH_LINE, tokens=[tok("D20", "SALR")],
        expected_revenue=80,
        notes="Same line. [8.2] towns count toward length and value: one 3-train alone would run "
              "Wilmington 10 + Raleigh 20 + Richmond 30 = 60. [8.1] trains may share a city but "
              "not track, so better: 3-train Raleigh-Richmond 50 and 2-train Wilmington-Raleigh "
              "30 on the other side of the token = 80 (each route holds the token)."),
    "03-phase3-coal-fields-with-token": dict(
        phase="3", corporation="Sou", trains=["3"], tiles=COAL_LINE, tokens=[tok("C11", "SOU")],
        coal_token=True, expected_revenue=70,
        notes="Knoxville (20) - Coal Fields (first value 40) - Lynchburg (town 10) - Richmond (30). "
              "[8.1 c] with a WVCF token the route may run through the Coal Fields; a 3-train must "
              "start at Knoxville (the only token): 20+40+10 = 70."),
    "04-phase5-coal-and-offboard-second-value": dict(
        phase="5", corporation="SOU", trains=["5"], tiles=COAL_LINE, tokens=[tok("C11", "SOU")],
        coal_token=True, expected_revenue=140,
        notes="Same line in phase 5: Table 1 second values, Coal Fields 60, Richmond 50. "
              "5-train: Knoxville 20 + Coal 60 + Lynchburg 10 + Richmond 50 = 140."),
    "05-phase3-city-full-of-other-tokens": dict(
        phase="3", corporation="L&N", trains=["3"], tiles=CHARLOTTE_LINE,
        tokens=[tok("D16", "L&N"), tok("D20", "SALR")], expected_revenue=40,
        notes="Charlotte (20, L&N) - Raleigh (#6, 20, its one slot holds SAL) - Richmond (30). "
              "[8.1 f] L&N may end at Raleigh but not run through it: Charlotte+Raleigh = 40 "
              "(70 if Raleigh were open)."),
    "06-phase3-atlanta-distinct-cities": dict(
        phase="3", corporation="GRR", trains=["3"],
        tiles=[t("F10", "190", 0), t("F8", "7", 4), t("G9", "3", 2)], tokens=[tok("F10", "GRR", 2)],
        expected_revenue=90,
        notes="Green Atlanta #190: three cities of 40. GRR's city (sides F12/F8) - F8 - Columbus "
              "(medium city on a town tile, 10) - back into Atlanta's city toward G9/E11. "
              "Glossary 'Different Cities': green Atlanta's cities are distinct stops: 40+10+40 = 90."),
    "07-phase3-miami-first-run-zero": dict(
        phase="3", corporation="FEC", trains=["3"], tiles=MIAMI_LINE, tokens=[tok("J14", "FECR")],
        miami_run=False, expected_revenue=20,
        notes="Jacksonville (20) - K15 - L16 - M17 (grey track) - Miami. [8.5] before phase five "
              "Miami is worth $0 until some company has run there: 20 + 0 = 20."),
    "08-phase4-key-west-and-port-on-miami": dict(
        phase="4", corporation="FECR", trains=["4"], tiles=MIAMI_LINE, tokens=[tok("J14", "FECR")],
        miami_run=False, key_west=True, port={"hex": "N16"}, port_owner="FEC", expected_revenue=90,
        notes="Same line. Miami still $0 (no earlier run), + $50 Key West for the FEC [7.5, 8.5], "
              "+ $20 Port for its owner [16.2 P3]: Jacksonville 20 + Miami 70 = 90."),
    "09-phase5-other-company-at-miami": dict(
        phase="5", corporation="ACL", trains=["5"],
        tiles=[t("J14", "14", 2), t("K15", "9", 2), t("L16", "9", 2)],
        tokens=[tok("J14", "FECR"), tok("J14", "ACL")], key_west=True, port={"hex": "N16"},
        port_owner="FECR", expected_revenue=70,
        notes="Green Jacksonville (#14, 30, FEC and ACL tokens). Phase 5: Miami's second value 30. "
              "The Key West token pays the FEC only; the FEC's Port pays +10 to others: "
              "ACL earns 30 + (30 + 10) = 70."),
    "10-phase4-cotton-for-its-owner": dict(
        phase="4", corporation="SALR", trains=["4"], tiles=RALEIGH_LINE, tokens=[tok("D20", "SALR")],
        cotton={"hex": "D20", "stop": 0}, cotton_owner="SAL", expected_revenue=70,
        notes="Raleigh line; SAL owns the Cotton token on Raleigh (+10 for the owner only, "
              "[16.2 P2]): Wilmington 10 + Raleigh 30 + Richmond 30 = 70."),
    "11-phase3-medium-city-upgraded": dict(
        phase="3", corporation="L&N", trains=["3"],
        tiles=[t("C7", "57", 2), t("D8", "4", 2), t("D8", "57", 2), t("E9", "9", 2)],
        tokens=[tok("C7", "L&N")], expected_revenue=60,
        notes="Chattanooga, a medium city, first got town #4 and then (phase 3) yellow city #57 "
              "[6.4.2]. Nashville 20 + Chattanooga 20 + Atlanta's printed city toward E9 (20) = 60."),
    "12-phase8-last-values-brown-cities": dict(
        phase="8", corporation="N&W", trains=["8", "5"],
        tiles=[t("B22", "8", 2), t("C23", "9", 0), t("D22", "8", 1), t("D20", "63", 0),
               t("D18", "9", 1), t("D16", "63", 0)],
        tokens=[tok("B24", "N&W")], expected_revenue=230,
        notes="Phase 8, Table 1 last values: Richmond 50 (its last printed value), Norfolk 50. "
              "One train could run Richmond - Norfolk - Raleigh (#63, 40) - Charlotte (#63, 40) = "
              "180, but two trains split at the token do better: 8-train Norfolk - Raleigh - "
              "Charlotte 130 and 5-train Norfolk - Richmond 100 = 230 (4 stops, 180, is the most "
              "any single route can earn)."),
    "13-phase12-two-trains-share-cities": dict(
        phase="12", corporation="GM&O", trains=["12", "6"],
        tiles=[t("I3", "63", 0), t("J4", "146", 1)], tokens=[tok("J2", "GMO")], expected_revenue=220,
        notes="New Orleans (grey, last value 50), Mobile (#63, 40), Pensacola (#146, 20), and the "
              "printed grey track at I1. Each train can visit all three stops (110) on different "
              "track [8.1]: Pensacola-New Orleans-I1-Mobile and New Orleans-Mobile-Pensacola by "
              "the direct sides: 110 + 110 = 220."),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, spec in FIXTURES.items():
        data = {"title": "1832", **spec}
        with open(os.path.join(OUT, f"{name}.json"), "w") as fh:
            json.dump(data, fh, indent=1)
            fh.write("\n")
    print(f"wrote {len(FIXTURES)} fixtures")


if __name__ == "__main__":
    main()

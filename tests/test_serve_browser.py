"""``trainruns serve`` driven in a real headless Chromium, as a player uses the page.

The server is the real command in its own process; the browser is Debian's Chromium
(skipped, saying why, where it is not installed). Each revenue the page shows is
compared with an independent solve of the position built by hand.
"""

import json

import pytest

from conftest import ROOT
from serve_helpers import Server, browser_missing, chromium, click_hex, close, text_of, wait_for
from trainruns.load import solve

pytestmark = pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")

FIXTURE = ROOT / "fixtures" / "1832" / "worked_example.json"


def position():
    return json.loads(FIXTURE.read_text())


@pytest.fixture(scope="module")
def server():
    s = Server(FIXTURE)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def driver():
    d = chromium()
    yield d
    close(d)


def revenue_shown(d):
    """The revenue once the solve of the position on screen is done (else None)."""
    text = text_of(d, "revenue")
    return int(text) if text.isdigit() else None


def open_page(d, server):
    """Load the page; return the revenue once the best run is drawn on the map."""
    d.get(server.url)
    revenue = wait_for(d, revenue_shown, what="the best run's revenue")
    wait_for(d, lambda d: d.find_element("id", "map").get_attribute("data-best") == "1", what="the map")
    return revenue


def test_open_a_fixture_and_see_its_best_run(server, driver):
    best = solve(position())
    assert open_page(driver, server) == best.revenue
    assert "proven best" in text_of(driver, "run-status")
    routes = text_of(driver, "run-routes")
    for r in best.routes:
        assert f"{r.train}-train {r.revenue}" in routes
    # the map is trainruns' drawing, with each train's route in the legend
    wait_for(driver, lambda d: f"Total: {best.revenue} (proven optimal)" in text_of(d, "map"),
             what="the best run drawn on the map")


def test_lay_a_tile_and_see_the_revenue_change(server, driver):
    """rules/1832.md "Laying Track": click E21 (next to SALR's Raleigh track), pick tile 3
    at rotation 1 among the legal lays and confirm it after its preview; the revenue becomes that of the position with
    that tile, solved independently. Undo brings the old revenue back."""
    base = open_page(driver, server)
    click_hex(driver, "E21")
    button = wait_for(driver, lambda d: d.find_elements(
        "css selector", '#lays button[data-tile="3"][data-rotation="1"]'), what="the legal lays of E21")[0]
    by_hand = position()
    by_hand["tiles"].append({"hex": "E21", "tile": "3", "rotation": 1})
    expected = solve(by_hand).revenue
    assert expected != base
    button.click()  # a preview of the lay, then the lay itself
    wait_for(driver, lambda d: d.find_elements("id", "lay-confirm"), what="the lay's preview")[0].click()
    assert wait_for(driver, lambda d: revenue_shown(d) == expected and expected, what="the new revenue")
    wait_for(driver, lambda d: f"Total: {expected} (proven optimal)" in text_of(d, "map"), what="the new run drawn")
    driver.find_element("id", "undo").click()
    assert wait_for(driver, lambda d: revenue_shown(d) == base, what="the revenue after undo")


def test_audit_a_run_by_clicking_its_stops(server, driver):
    """The best run, declared by clicking its stops, is legal and earns the best; a
    2-train given three stops is refused with the rule rules/1832.md "Operate Trains"
    states ("a 2-train must run routes of exactly length two")."""
    best = solve(position())
    open_page(driver, server)
    driver.find_element("css selector", '.tab[data-tool="audit"]').click()
    trains = driver.find_elements("css selector", "#audit-trains .audit-train")
    names = [t.text.split("-train")[0] for t in trains]
    for route in best.routes:
        driver.find_elements("css selector", "#audit-trains .audit-train")[names.index(route.train)].click()
        for hex_id, _ in route.stops:
            click_hex(driver, hex_id)
    driver.find_element("id", "audit-run").click()
    verdict = wait_for(driver, lambda d: "legal" in text_of(d, "audit-verdict") and text_of(d, "audit-verdict"),
                       what="the audit's verdict")
    assert "the declared run is legal and earns the most possible" in verdict
    assert f"Declared {best.revenue}; best {best.revenue}." in verdict

    driver.find_element("id", "audit-clear").click()
    driver.find_elements("css selector", "#audit-trains .audit-train")[names.index("2")].click()
    for hex_id in ("A21", "D20", "B24"):
        click_hex(driver, hex_id)
    driver.find_element("id", "audit-run").click()
    verdict = wait_for(driver, lambda d: "NOT legal" in text_of(d, "audit-verdict") and text_of(d, "audit-verdict"),
                       what="the refusal")
    assert "[too-many-stops]" in verdict


# --- game mode ------------------------------------------------------------------------------


def page_version(d):
    return int(d.find_element("tag name", "body").get_attribute("data-version") or 0)


def choose(d, action):
    """Take ``action`` as a player does: Pass, or pick it in its control (after clicking
    its hex on the map for a tile) and press Do it."""
    from selenium.webdriver.support.ui import Select

    if action["type"] == "pass":
        d.find_element("id", "do-pass").click()
        return
    if action["type"] == "lay_tile":
        wait_for(d, lambda d: d.find_element("id", "map").get_attribute("data-version") == str(page_version(d)),
                 what="the map of this turn")
        click_hex(d, action["hex"])
    select = wait_for(d, lambda d: d.find_elements("id", f"act-{action['type']}"), what="the control")[0]
    options = d.execute_script("return [...arguments[0].options].map((o) => [o.value, o.dataset.action])", select)
    value = next(v for v, text in options if json.loads(text) == action)
    Select(select).select_by_value(value)
    d.find_element("id", f"do-{action['type']}").click()


def players_shown(d):
    rows = d.find_elements("css selector", "#players tr")[1:]
    return {r.find_elements("tag name", "td")[0].text.rstrip(" ★"): int(r.find_elements("tag name", "td")[1].text)
            for r in rows}


def test_play_the_first_rounds_of_1832_by_clicking(driver, tmp_path):
    """The private auction, stock round 1 and operating round 1 of a 2-player 1832 game,
    every decision clicked on the page; a second tab at the same table sees each action;
    the players' cash is the engine's own replay of those decisions; Undo takes back the
    last one; the log on disk holds every decision."""
    from serve_game_script import PLAYERS, SEED, first_rounds

    decisions, final = first_rounds()
    log = tmp_path / "table.json"
    server = Server("--new", "1832", "--players", ",".join(PLAYERS), "--seed", SEED, log)
    try:
        driver.get(server.url)
        wait_for(driver, lambda d: page_version(d) == 1, what="the game")
        first_tab = driver.current_window_handle
        driver.switch_to.new_window("tab")
        other_tab = driver.current_window_handle
        driver.get(server.url)
        wait_for(driver, lambda d: page_version(d) == 1, what="the game in the second tab")
        driver.switch_to.window(first_tab)
        for i, action in enumerate(decisions):
            choose(driver, action)
            wait_for(driver, lambda d: page_version(d) == i + 2, what=f"decision {i}: {action}")
            if i == 5:  # the other player's browser sees it without reloading
                driver.switch_to.window(other_tab)
                wait_for(driver, lambda d: page_version(d) == i + 2, what="the second tab to follow")
                driver.switch_to.window(first_tab)
        expected = {p["name"]: p["cash"] for p in final.to_json()["players"]}
        assert players_shown(driver) == expected
        assert "stock round 2" in driver.find_element("id", "heading").text
        assert json.loads(log.read_text())["actions"] == decisions

        driver.find_element("id", "undo").click()
        wait_for(driver, lambda d: page_version(d) == len(decisions) + 2, what="the undo")
        from trainruns.game.game import Game

        before_last = Game("1832", PLAYERS, seed=SEED)
        for a in decisions[:-1]:
            before_last.act(a)
        assert players_shown(driver) == {p["name"]: p["cash"] for p in before_last.to_json()["players"]}
        assert "operating round 1" in driver.find_element("id", "heading").text
    finally:
        for handle in driver.window_handles[1:]:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(driver.window_handles[0])
        server.stop()


def test_declare_a_run_in_a_game_by_clicking(driver, tmp_path):
    """A president declares a route by clicking its stops; a 2-train given one stop is
    refused with the audit's rule (rules/1832.md "Operate Trains": "A train may not run
    on a route shorter than length two"), shown with its rule id, and nothing changes."""
    from serve_game_script import to_first_run

    decisions, game = to_first_run()
    log = tmp_path / "table.json"
    log.write_text(json.dumps(game.log()))
    corp = game.active()["corporation"]
    home = next(t for t in game.position()["tokens"] if t["corporation"] == corp)
    server = Server(log)
    try:
        driver.get(server.url)
        wait_for(driver, lambda d: page_version(d) == 1, what="the game")
        before = log.read_text()
        wait_for(driver, lambda d: d.find_elements("id", "declare-start"), what="the run controls")[0].click()
        wait_for(driver, lambda d: d.find_element("id", "map").get_attribute("data-version") == "1", what="the map")
        click_hex(driver, home["hex"])
        wait_for(driver, lambda d: f"{home['hex']}.{home['stop']}" in text_of(d, "declare-routes"), what="the stop")
        driver.find_element("id", "declare-run").click()
        toast = wait_for(driver, lambda d: d.find_element("id", "toast").is_displayed() and text_of(d, "toast"),
                         what="the refusal")
        assert "[too-few-stops]" in toast
        assert page_version(driver) == 1 and log.read_text() == before
    finally:
        server.stop()

"""``trainruns serve`` driven in a real headless Chromium, as a player uses the page.

The server is the real command in its own process; the browser is Debian's Chromium
(skipped, saying why, where it is not installed). Each revenue the page shows is
compared with an independent solve of the position built by hand.
"""

import json

import httpx
import pytest
from conftest import ROOT
from serve_helpers import Server, browser_missing, click_hex, open_game, page_report, page_version, text_of, wait_for

from trainruns.titles.load import solve

pytestmark = pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")

FIXTURE = ROOT / "fixtures" / "1832" / "worked_example.json"


def position():
    return json.loads(FIXTURE.read_text())


@pytest.fixture(scope="module")
def server():
    s = Server(FIXTURE)
    yield s
    s.stop()


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
    """1832 rulebook "Laying Track": click E21 (next to SALR's Raleigh track), pick tile 3
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
    2-train given three stops is refused with the rule 1832 rulebook "Operate Trains"
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


def offered(option, action):
    """Whether an offered action (free amounts as ranges) allows ``action``."""
    return option.keys() == action.keys() and all(
        v == action[k] or isinstance(v, dict) and "min" in v and isinstance(action[k], int)
        and v["min"] <= action[k] <= v["max"] for k, v in option.items())


def choose(d, action):
    """Take ``action`` as a player does: Pass, or pick it in its control (after clicking
    its hex on the map for a tile), type its amount if it has a free one, press Do it."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import Select

    if action["type"] == "pass":
        wait_for(d, lambda d: d.find_elements("id", "do-pass"), what="Pass")[0].click()
        return
    if action["type"] == "par":
        # the par prices offered are buttons on the market's par boxes
        Select(wait_for(d, lambda d: d.find_elements("id", "par-corporation"), what="the par grid")[0]) \
            .select_by_value(action["corporation"])
        # found and clicked in one script: the grid is drawn again when the facts of this
        # version arrive (facts.js), which would leave a button found before it stale
        button = (f'#par-grid button[data-corporation="{action["corporation"]}"]'
                  f'[data-price="{action["price"]}"]')
        wait_for(d, lambda d: d.execute_script(
            "const b = document.querySelector(arguments[0]); if (b) b.click(); return Boolean(b);", button),
            what="the par price")
        return
    if action["type"] == "lay_tile":
        wait_for(d, lambda d: d.find_element("id", "map").get_attribute("data-version") == str(page_version(d)),
                 what="the map of this turn")
        click_hex(d, action["hex"])
    try:
        select = wait_for(d, lambda d: d.find_elements("id", f"act-{action['type']}"), what="the control")[0]
    except TimeoutException:
        raise AssertionError(f"no control for {action} on the page: {page_report(d)}") from None
    options = d.execute_script("return [...arguments[0].options].map((o) => [o.value, o.dataset.action])", select)
    value = next(v for v, text in options if offered(json.loads(text), action))
    Select(select).select_by_value(value)
    amount = d.find_element("id", f"amount-{action['type']}")
    free = next((k for k, v in json.loads(dict(options)[value]).items() if isinstance(v, dict)), None)
    if free:
        wait_for(d, lambda d: amount.is_displayed(), what="the amount box")
        d.execute_script("arguments[0].value = arguments[1]", amount, str(action[free]))
    d.find_element("id", f"do-{action['type']}").click()


def players_shown(d):
    """The players' cash in the Players table (read in one script: a redraw cannot
    split the reading)."""
    rows = d.execute_script('return [...document.querySelectorAll("#players tr")].slice(1)'
                            '.map((r) => [...r.cells].map((c) => c.textContent))')
    return {r[0].rstrip(" ★"): int(r[1]) for r in rows}


def cash(game):
    return {p["name"]: p["cash"] for p in game.to_json()["players"]}


def start_from_the_form(d, title, players, seed, name):
    """Fill the Games dialog's New game form and start."""
    from selenium.webdriver.support.ui import Select

    d.find_element("id", "games-open").click()
    wait_for(d, lambda d: d.find_elements("id", "new-title"), what="the Games dialog")
    Select(d.find_element("id", "new-title")).select_by_value(title)
    d.find_element("id", "new-players").send_keys(", ".join(players))
    d.find_element("id", "new-seed").send_keys(str(seed))
    box = d.find_element("id", "new-name")
    box.clear()
    box.send_keys(name)
    d.find_element("id", "new-start").click()


def test_play_the_first_rounds_of_1832_by_clicking(driver, table):
    """Start an 1832 game from the page's form (a path as its log name is refused there,
    saying so, and nothing is written); then the private auction, stock round 1 and
    operating round 1 of that 2-player game, every decision clicked on the page; a second
    tab at the same table follows each action by the event stream; the players' cash is
    the engine's own replay of those decisions; Undo takes back the last one; the log on
    disk holds every decision."""
    from serve_game_script import PLAYERS, SEED, first_rounds

    decisions, final = first_rounds()
    driver.get(table.url)
    wait_for(driver, lambda d: text_of(d, "heading"), what="the page, its scripts run")
    before = sorted(p.name for p in table.folder.iterdir())
    start_from_the_form(driver, "1832", PLAYERS, SEED, "../t1832")
    error = wait_for(driver, lambda d: text_of(d, "games-error"), what="the refusal")
    assert "plain file name" in error and sorted(p.name for p in table.folder.iterdir()) == before
    # the form names the chosen title's variants ([17] in 1832), as --variant takes them
    assert "historical_order" in text_of(driver, "new-variant-names").split(", ")
    box = driver.find_element("id", "new-name")
    box.clear()
    box.send_keys("t1832")
    driver.find_element("id", "new-start").click()
    wait_for(driver, lambda d: d.find_elements("css selector", "body.game") and page_version(d) == 1,
             what="the new game")
    log = table.folder / "t1832.json"
    first_tab = driver.current_window_handle
    driver.switch_to.new_window("tab")
    other_tab = driver.current_window_handle
    try:
        open_game(driver, table, 1)
        wait_for(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-follow") == "events",
                 what="the second tab's event stream")
        driver.switch_to.window(first_tab)
        for i, action in enumerate(decisions):
            choose(driver, action)
            wait_for(driver, lambda d: page_version(d) == i + 2, what=f"decision {i}: {action}")
            if i == 5:  # the other player's browser sees it without reloading
                driver.switch_to.window(other_tab)
                wait_for(driver, lambda d: page_version(d) == i + 2, what="the second tab to follow")
                driver.switch_to.window(first_tab)
        assert players_shown(driver) == cash(final)
        assert "stock round 2" in driver.find_element("id", "heading").text
        assert json.loads(log.read_text())["actions"] == final.log()["actions"]

        driver.find_element("id", "undo").click()
        wait_for(driver, lambda d: page_version(d) == len(decisions) + 2, what="the undo")
        from trainruns.game.game import Game

        before_last = Game("1832", PLAYERS, seed=SEED)
        for a in decisions[:-1]:
            before_last.act(a)
        assert players_shown(driver) == cash(before_last)
        assert "operating round 1" in driver.find_element("id", "heading").text
    finally:
        for handle in driver.window_handles[1:]:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(driver.window_handles[0])


@pytest.mark.parametrize("title", ["1833NE", "1831"])
def test_an_opening_of_1833NE_and_1831(driver, table, title):
    """A game of ``title`` started on the server; its first stock round (1833NE: after
    the private auction) played by another client over HTTP, which the page follows by
    its event stream; then the first corporation's operating turn clicked on the page
    (tiles on the map, tokens, trains, the run, the dividend); Undo takes back its last
    decision. Kill the server, start it on the log: the page shows the game as it was.
    Each time the players' cash is the engine's own replay of the decisions."""
    from serve_openings import OPENINGS, opening

    from trainruns.game.game import Game

    players, seed = OPENINGS[title]
    decisions, game, turn = opening(title)
    name = f"open-{title}"
    table.post("api/games/new", {"title": title, "players": players, "seed": seed, "name": name})
    open_game(driver, table, 1)
    for a in decisions[:turn]:
        table.post("api/act", {"action": a})
    wait_for(driver, lambda d: page_version(d) == turn + 1, what="the stock round played elsewhere")
    assert "operating round" in driver.find_element("id", "heading").text
    for i, action in enumerate(decisions[turn:], start=turn):
        choose(driver, action)
        wait_for(driver, lambda d: page_version(d) == i + 2, what=f"decision {i}: {action}")
    assert players_shown(driver) == cash(game)
    driver.find_element("id", "undo").click()
    wait_for(driver, lambda d: page_version(d) == len(decisions) + 2, what="the undo")
    before_last = Game(title, players, seed=seed)
    for a in decisions[:-1]:
        before_last.act(a)
    assert players_shown(driver) == cash(before_last)
    heading = driver.find_element("id", "heading").text

    table.restart(table.folder / f"{name}.json")
    open_game(driver, table, 1)
    assert players_shown(driver) == cash(before_last)
    assert driver.find_element("id", "heading").text == heading


def test_a_page_without_event_streams_follows_by_polling(driver, table):
    """The fallback: a browser without EventSource polls the game's version, and still
    sees another client's action."""
    table.post("api/games/new", {"title": "1832", "players": ["Ann", "Bob"], "seed": 5, "name": "polled"})
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.EventSource;"})
    try:
        open_game(driver, table, 1)
        assert driver.find_element("tag name", "body").get_attribute("data-follow") == "poll"
        active = httpx.get(table.url + "api/state", timeout=60).json()["active"]["player"]
        table.post("api/act", {"action": {"type": "pass", "player": active}})
        wait_for(driver, lambda d: page_version(d) == 2, what="the action seen by polling")
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def test_declare_a_run_in_a_game_by_clicking(driver, table):
    """A president declares a route by clicking its stops; a 2-train given one stop is
    refused with the audit's rule (1832 rulebook "Operate Trains": "A train may not run
    on a route shorter than length two"), shown with its rule id, and nothing changes."""
    from serve_game_script import to_first_run

    decisions, game = to_first_run()
    log = table.folder / "declare.json"
    log.write_text(json.dumps(game.log()))
    corp = game.active()["corporation"]
    home = next(t for t in game.position()["tokens"] if t["corporation"] == corp)
    table.post("api/games/load", {"name": "declare.json"})
    open_game(driver, table, 1)
    before = log.read_text()
    wait_for(driver, lambda d: d.find_elements("id", "declare-start"), what="the run controls")[0].click()
    wait_for(driver, lambda d: d.find_element("id", "map").get_attribute("data-version") == "1",
             what="the map of this turn")
    click_hex(driver, home["hex"])
    wait_for(driver, lambda d: f"{home['hex']}.{home['stop']}" in text_of(d, "declare-routes"), what="the stop")
    driver.find_element("id", "declare-run").click()
    toast = wait_for(driver, lambda d: d.find_element("id", "toast").is_displayed() and text_of(d, "toast"),
                     what="the refusal")
    assert "[too-few-stops]" in toast
    assert page_version(driver) == 1 and log.read_text() == before

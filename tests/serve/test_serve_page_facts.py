"""The table page in a real headless Chromium: what each decision costs and does, the
game's facts, whose turn it is for a seated browser, par prices on the market's grid,
the keyboard and a phone's width.

Each amount the page shows is compared with the engine's own answer worked out here:
the action taken on a copy of the game (the actor's cash, the share price), and a
dividend's amount per share by the rule's arithmetic.
"""

import copy
import json
import random
from pathlib import Path

import httpx
import pytest
from serve_helpers import Server, browser_missing, chromium, close, text_of, wait_for

import trainruns
from trainruns.game.game import Game

DATA_1832 = Path(trainruns.__file__).parent / "titles" / "g1832" / "data"
pytestmark = pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")


def open_with_facts(d, table, version):
    """The page of the game, once the facts of ``version`` are on it."""
    d.get(table.url)
    wait_for(d, lambda d: d.find_element("tag name", "body").get_attribute("data-facts") == str(version),
             what="the facts of this version")


def fixed(a):
    return {k: (v["min"] if isinstance(v, dict) and "min" in v else v) for k, v in a.items()}


def random_until(title, players, seed, wanted, limit=2000):
    """A seeded game of random legal decisions (each free amount at its lowest, runs the
    best) until an action of type ``wanted`` is listed; the game then."""
    rng = random.Random(seed)
    game = Game(title, players, seed=seed)
    for _ in range(limit):
        actions = game.actions()
        if any(a["type"] == wanted for a in actions):
            return game
        a = fixed(rng.choice(actions))
        if a["type"] == "run_routes":
            a["routes"] = "best"
        game.act(a)
    raise AssertionError(f"no {wanted} in {limit} decisions")


def engine_answer(game, action):
    """The action taken on a copy: (actor's cash paid, the corporation's price before and
    after)."""
    before = game.to_json()
    trial = copy.deepcopy(game)
    trial.act(action)
    after = trial.to_json()

    def cash(st):
        if "player" in action:
            return next(p["cash"] for p in st["players"] if p["name"] == action["player"])
        return next(c["cash"] for c in st["corporations"] if c["id"] == action["corporation"])

    def price(st):
        return next(c["price"] for c in st["corporations"] if c["id"] == action["corporation"])

    return cash(before) - cash(after), price(before), price(after)


def option_texts(d, type_):
    """Each option of a control: (its action, its text)."""
    select = wait_for(d, lambda d: d.find_elements("id", f"act-{type_}"), what=f"the {type_} control")[0]
    return [(json.loads(a), t) for a, t in d.execute_script(
        "return [...arguments[0].options].map((o) => [o.dataset.action, o.textContent])", select)]


def test_buy_shows_the_share_price(driver, table):
    """1832 [5.2] a share is bought at the price of its place (the initial offering: par;
    the open market: the market price): each "buy" choice names the price the engine
    charges, and the chosen one says who pays it and where the price stands."""
    game = random_until("1832", ["Ann", "Bob", "Cat"], 1, "buy_shares")
    open_with_facts(driver, table, table.load("buy", game))
    texts = option_texts(driver, "buy_shares")
    assert texts
    for action, text in texts:
        paid, p0, p1 = engine_answer(game, action)
        assert paid > 0 and f"— ${paid}" in text, text
    first = texts[0][0]
    paid, p0, p1 = engine_answer(game, first)
    line = text_of(driver, "fact-buy_shares")
    assert f"{first['player']} pays ${paid}" in line
    assert (f"price stays {p0}" if p0 == p1 else f"price {p0} → {p1}") in line


def test_token_shows_its_cost(driver, table):
    """1831 5.2.5 / 1.9: a station or rail yard token costs what the company pays for
    it: each token choice names that amount."""
    game = random_until("1831", ["Ann", "Bob", "Cat"], 1, "place_token")
    open_with_facts(driver, table, table.load("token", game))
    texts = option_texts(driver, "place_token")
    for action, text in texts:
        paid, _, _ = engine_answer(game, action)
        assert f"— ${paid}" in text, text


def test_each_dividend_choice_shows_per_share_and_the_price_move(driver, table):
    """1832 [9.1.1] a full dividend pays each share 10% of the run (rounded to the
    dollar), [9.1.2] a half dividend half of it rounded up per share, [9.1.3] withheld
    pays nothing; [5.8] the price moves right, stays, or moves left: each choice says so."""
    from serve_game_script import to_first_paying_run

    _, game = to_first_paying_run()
    game.act({"type": "run_routes", "corporation": game.active()["corporation"], "routes": "best"})
    revenue = game.log()["actions"][-1]["revenue"]   # the run as the log records it
    open_with_facts(driver, table, table.load("dividend", game))
    texts = dict((a["kind"], t) for a, t in option_texts(driver, "dividend"))
    assert set(texts) == {"payout", "half", "withhold"}
    per = {"payout": (revenue * 2 + 10) // 20, "half": -(-revenue // 20)}
    for kind, text in texts.items():
        _, p0, p1 = engine_answer(game, {"type": "dividend", "corporation": game.active()["corporation"], "kind": kind})
        assert (f"price stays {p0}" if p0 == p1 else f"price {p0} → {p1}") in text, text
        if kind in per:
            assert f"${per[kind]} a share" in text, text
        else:
            assert f"keeps ${revenue}" in text, text
    assert texts["payout"] != texts["withhold"]


def test_protecting_a_price_shows_its_cost(driver, table):
    """1832 [5.9] the president may buy the sold shares back at the price they were sold
    for, and the price returns: the choice says what it costs and where the price goes."""
    game = random_until("1832", ["Ann", "Bob", "Cat"], 0, "protect")
    action = next(a for a in game.actions() if a["type"] == "protect")
    paid, p0, p1 = engine_answer(game, action)
    assert paid > 0 and p1 > p0
    open_with_facts(driver, table, table.load("protect", game))
    [(shown, text)] = option_texts(driver, "protect")
    assert f"— ${paid}; price {p0} → {p1}" in text


def test_the_games_facts(driver, table):
    """1832 [7.2] the home city of every railway without its home token is kept (marked
    on the map with the railway's name; none where the home token stands); [16.2] each
    private's name, ability and revenue; [5.1.1] the market's par boxes and zones with a
    legend. 1833NE: unsold shares lie in the corporation's treasury (shown, not 0/0).
    1831 4.3: a company has a common and a preferred price."""
    from serve_game_script import first_rounds

    _, game = first_rounds()
    st = game.to_json()
    version = table.load("facts1832", game)
    open_with_facts(driver, table, version)
    data = json.loads((DATA_1832 / "companies.json").read_text())
    homes = {c["id"]: c["home"] for c in data["corporations"]}
    waiting = [c["id"] for c in st["corporations"] if not c["tokens"] and not c["closed"]]
    placed = [c["id"] for c in st["corporations"] if c["tokens"]]
    assert waiting and placed
    wait_for(driver, lambda d: d.find_elements("css selector", "#map .home-reserved"), what="the homes on the map")
    marks = driver.execute_script('return [...document.querySelectorAll("#map .home-reserved")]'
                                  '.map((m) => [m.closest("g[id^=hex-]").id.slice(4), m.dataset.corporation])')
    assert sorted(marks) == sorted([homes[c], c] for c in waiting)
    privates = text_of(driver, "privates")
    for p in data["privates"]:
        assert f"{p['id']} {p['name']}" in privates and f"revenue ${p['revenue']}" in privates
    assert "Cotton token" in privates
    # the par boxes ('p' in the grid's data) outlined, and the zones' legend
    market = json.loads((DATA_1832 / "game.json").read_text())["market"]
    par = sorted([r, c] for r, row in enumerate(market) for c, box in enumerate(row) if "p" in box)
    shown = driver.execute_script('return [...document.querySelectorAll("#market td.par")]'
                                  '.map((td) => [td.parentElement.rowIndex, td.cellIndex])')
    assert sorted(shown) == par
    legend = text_of(driver, "market-legend")
    assert "certificate limit [5.1.1]" in legend and "closes [5.1.1]" in legend and "par price" in legend

    game = random_until("1833NE", ["Ann", "Bob", "Cat"], 2, "dividend")
    open_with_facts(driver, table, table.load("facts1833", game))
    launched = [c for c in game.to_json()["corporations"] if c["president"] and c["shares"]["treasury"]]
    assert launched
    rows = {r[0]: r for r in driver.execute_script(
        'return [...document.querySelectorAll("#corporations tr")].slice(1).map((r) => [...r.cells].map((c) => c.textContent))')}
    for c in launched:
        assert f"treasury {c['shares']['treasury']}" in rows[c["id"]][-1]

    game = random_until("1831", ["Ann", "Bob", "Cat"], 1, "place_token")
    open_with_facts(driver, table, table.load("facts1831", game))
    started = [c for c in game.to_json()["corporations"] if c["price"] is not None]
    assert started
    rows = {r[0]: r for r in driver.execute_script(
        'return [...document.querySelectorAll("#corporations tr")].slice(1).map((r) => [...r.cells].map((c) => c.textContent))')}
    for c in started:
        assert rows[c["id"]][2] == f"{c['price']} / pref. {c['preferred_price']}"


@pytest.mark.parametrize("title,count", [("1832", 6), ("1833NE", 11), ("1831", 13)])
def test_par_on_the_markets_grid_by_keyboard(driver, table, title, count):
    """1832 [5.6], 1833NE "Comparison with 1830", 1831 4.7.5: a corporation starts at a
    par price the market offers. The page shows the offered prices as buttons on their
    boxes of the market's grid (no list of every corporation and price), and a player
    using only the keyboard starts one: Tab reaches the button, Enter presses it."""
    from selenium.webdriver.common.keys import Keys

    game = random_until(title, ["Ann", "Bob", "Cat"], 5, "par")
    pars = [a for a in game.actions() if a["type"] == "par"]
    corp = pars[0]["corporation"]
    offered = sorted(a["price"] for a in pars if a["corporation"] == corp)
    assert len(offered) == count
    version = table.load(f"par{title}", game)
    open_with_facts(driver, table, version)
    assert not driver.find_elements("id", "act-par")
    buttons = wait_for(driver, lambda d: d.find_elements("css selector", f'#par-grid button[data-corporation="{corp}"]'),
                       what="the par prices")
    assert sorted(int(b.get_attribute("data-price")) for b in buttons) == offered
    # each on the box the market's own par_cell gives its price
    for b in buttons:
        cell = game.rules.market.par_cell(int(b.get_attribute("data-price")))
        box = game.rules.market.view()["rows"][cell[0]][cell[1]]
        td_price = driver.execute_script("return arguments[0].closest('td').className", b)
        assert f"zone-{box['zone']}" in td_price
    price = offered[len(offered) // 2]
    target = driver.find_element("css selector", f'#par-grid button[data-price="{price}"]')
    body = driver.find_element("tag name", "body")
    body.click()
    for _ in range(400):   # Tab until the button has the focus
        if driver.switch_to.active_element == target:
            break
        driver.switch_to.active_element.send_keys(Keys.TAB)
    assert driver.switch_to.active_element == target
    target.send_keys(Keys.ENTER)
    wait_for(driver, lambda d: int(d.find_element("tag name", "body").get_attribute("data-version")) == version + 1,
             what="the corporation started")
    st = httpx.get(table.url + "api/state", timeout=60).json()["state"]
    assert next(c for c in st["corporations"] if c["id"] == corp)["par"] == price


def test_every_control_by_keyboard(driver, table):
    """Every control of the page is reached by Tab: buttons, choices, links and each hex
    of the map; Enter on a hex does what a click does (1832 [6]: its lays are listed)."""
    from selenium.webdriver.common.keys import Keys
    from serve_game_script import first_rounds

    decisions, game = first_rounds()
    game = Game("1832", ["Ann", "Bob"], seed=1)
    for a in decisions:
        game.act(a)
        if any(x["type"] == "lay_tile" for x in game.actions()):
            break
    lay = next(a for a in game.actions() if a["type"] == "lay_tile")
    open_with_facts(driver, table, table.load("keys", game))
    wait_for(driver, lambda d: d.find_elements("css selector", '#map g[id^="hex-"][tabindex="0"]'), what="the map")
    unreachable = driver.execute_script("""
        return [...document.querySelectorAll('button, select, input, a[href], #map g[id^="hex-"]')]
          .filter((e) => e.getClientRects().length && !e.disabled && e.tabIndex < 0)
          .map((e) => e.id || e.outerHTML.slice(0, 60));""")
    assert unreachable == []
    hexes = driver.execute_script('return [...document.querySelectorAll("#map g[id^=hex-]")]'
                                  '.filter((g) => g.tabIndex === 0).length')
    assert hexes == driver.execute_script('return document.querySelectorAll("#map g[id^=hex-]").length') > 50
    # the first Tab stop skips the header and the map's hexes to "Now"
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.focus()")
    driver.find_element("tag name", "body").send_keys(Keys.TAB)
    assert driver.switch_to.active_element.get_attribute("id") == "skip-to-now"
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    assert driver.execute_script("return document.getElementById('controls').contains(document.activeElement)")
    g = driver.find_element("css selector", f'#map g[id="hex-{lay["hex"]}"]')
    driver.execute_script("arguments[0].focus()", g)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(driver, lambda d: "selected" in (d.find_element("css selector", f'#map g[id="hex-{lay["hex"]}"]')
                                              .get_attribute("class") or ""), what="the hex chosen by Enter")
    options = option_texts(driver, "lay_tile")
    assert options and all(a["hex"] == lay["hex"] for a, _ in options)


def test_a_seat_hears_its_turn(driver, table):
    """A browser sitting as a player: the tab's title and a sound say when that player
    must act (and only then); anyone may still act from it (a shared screen)."""
    from selenium.webdriver.support.ui import Select

    table.post("api/games/new", {"title": "1832", "players": ["Ann", "Bob"], "seed": 3, "name": "seat"})
    st = httpx.get(table.url + "api/state", timeout=60).json()
    first = st["active"]["player"]
    other = next(p for p in ["Ann", "Bob"] if p != first)
    open_with_facts(driver, table, st["version"])
    Select(driver.find_element("id", "seat")).select_by_value(other)
    assert "Your turn" not in driver.title
    assert driver.find_element("tag name", "body").get_attribute("data-chimes") in (None, "0", "")
    # the other player acts elsewhere: now it is this seat's turn
    pass_ = next(a for a in st["actions"] if a["type"] == "pass")
    table.post("api/act", {"action": pass_})
    wait_for(driver, lambda d: f"Your turn, {other}" in d.title, what="the tab's title")
    assert driver.find_element("tag name", "body").get_attribute("data-chimes") == "1"
    # the seat's own decision: its turn is over, no sound
    now = httpx.get(table.url + "api/state", timeout=60).json()
    if now["active"]["player"] == other:
        driver.find_element("id", "do-pass").click()
        wait_for(driver, lambda d: "Your turn" not in d.title, what="the title after the seat's decision")
    # a shared screen: the seat is no restriction (the page acts for whoever acts now)
    now = httpx.get(table.url + "api/state", timeout=60).json()
    assert now["active"]["player"] != other
    before = now["version"]
    driver.find_element("id", "do-pass").click()
    wait_for(driver, lambda d: int(d.find_element("tag name", "body").get_attribute("data-version")) == before + 1,
             what="another player's decision from the seated page")


def test_a_phone_reaches_every_control():
    """At a phone's width (390 px) nothing is wider than the screen: the header wraps,
    Undo, Position and the seat stay on screen, "Now" comes before the market and the
    map, and every control lies within the screen's width."""
    import tempfile

    from serve_game_script import first_rounds

    folder = Path(tempfile.mkdtemp(prefix="trainruns-phone-"))
    _, game = first_rounds()
    (folder / "phone.json").write_text(json.dumps(game.log()))
    server = Server(folder / "phone.json", "--games", folder)
    d = chromium()
    try:
        # a phone's screen (a headless window is at least 500 px wide)
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
        d.get(server.url)
        wait_for(d, lambda d: d.find_element("tag name", "body").get_attribute("data-facts"), what="the game")
        width = d.execute_script("return window.innerWidth")
        assert width <= 400
        assert d.execute_script("return document.documentElement.scrollWidth") <= width
        header = d.execute_script("const h = document.querySelector('header'); return [h.scrollWidth, h.clientWidth]")
        assert header[0] <= header[1]
        for id_ in ("undo", "download-position", "download-log", "games-open", "seat"):
            r = d.execute_script(f"return document.getElementById('{id_}').getBoundingClientRect().toJSON()")
            assert r["left"] >= 0 and r["right"] <= width and r["top"] >= 0 and r["bottom"] <= d.execute_script(
                "return window.innerHeight"), (id_, r)
        top = lambda id_: d.execute_script(f"return document.getElementById('{id_}').getBoundingClientRect().top")  # noqa: E731
        assert top("turn-box") < top("map-pane") and top("turn-box") < top("market")
        outside = d.execute_script("""
            return [...document.querySelectorAll('#controls button, #controls select, #controls input, header button, header a, header select')]
              .filter((e) => e.getClientRects().length)
              .map((e) => [e.id || e.textContent, e.getBoundingClientRect().left, e.getBoundingClientRect().right])
              .filter(([, l, r]) => l < 0 || r > window.innerWidth);""")
        assert outside == []
    finally:
        close(d)
        server.stop()

"""Screenshots of ``trainruns serve`` for docs/ (docs/serve-*.png), in headless Chromium.

    python tools/serve_screenshots.py

Starts the real command on the 1832 worked example, drives the page as a player does
and saves: the best run, a tile lay being picked, an audit refusing a run, a ranking;
then the game screens: the Games dialog (a new game's form, the saved games), an 1832
stock round, a tile lay and an operating round, and an 1833NE game with its best run.
"""

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from serve_game_script import PLAYERS, SEED, first_rounds, to_first_paying_run  # noqa: E402
from serve_helpers import Server, chromium, click_hex, close, text_of, wait_for  # noqa: E402
from serve_openings import OPENINGS, opening  # noqa: E402
from serve_openings import to_first_paying_run as paying_run_of  # noqa: E402

FIXTURE = ROOT / "fixtures" / "1832" / "worked_example.json"
DOCS = ROOT / "docs"


def shot(d, name):
    time.sleep(0.5)
    d.save_screenshot(str(DOCS / f"serve-{name}.png"))
    print(DOCS / f"serve-{name}.png")


def game_log(decisions, path, title="1832", players=PLAYERS, seed=SEED):
    log = {"format": "trainruns-game/1", "title": title, "players": players, "seed": seed, "variants": [],
           "config": None, "actions": decisions}
    path.write_text(json.dumps(log))
    return path


def run_drawn(d):
    """The best run of the version shown is drawn over the map (its layer)."""
    return d.execute_script("return document.getElementById('map').dataset.run === document.body.dataset.version")


def game_screens(folder):
    version = "return Number(document.body.dataset.version || 0)"
    stock = game_log(first_rounds()[0][:9], folder / "stock.json")
    server = Server(stock)
    d = chromium(1400, 1250)
    try:
        d.get(server.url)
        wait_for(d, lambda d: d.execute_script(version) > 0 and d.find_elements("css selector", "#map svg"))
        shot(d, "game-stock")
    finally:
        close(d)
        server.stop()
    decisions = first_rounds()[0]
    first_lay = next(i for i, a in enumerate(decisions) if a["type"] == "lay_tile")
    laying = game_log(decisions[:first_lay], folder / "laying.json")
    server = Server(laying)
    d = chromium(1400, 1000)
    try:
        d.get(server.url)
        wait_for(d, lambda d: d.find_element("id", "map").get_attribute("data-version") == "1", what="the map")
        click_hex(d, decisions[first_lay]["hex"])
        wait_for(d, lambda d: d.find_elements("css selector", "#lay-preview svg"), what="the preview")
        d.execute_script("window.scrollTo(0, 0)")
        shot(d, "game-tile")
    finally:
        close(d)
        server.stop()
    operating = game_log(to_first_paying_run()[0], folder / "operating.json")
    server = Server(operating)
    d = chromium(1400, 1000)
    try:
        d.get(server.url)
        wait_for(d, lambda d: text_of(d, "revenue").isdigit(), what="the operating corporation's best run")
        wait_for(d, run_drawn, what="the run drawn")
        d.find_element("id", "declare-start").click()
        # the first train's route declared by clicking its first stops: drawn as it grows
        first = d.execute_script("return bestRun.routes[0].stops")
        for ref in first[:2]:
            click_hex(d, ref.split(".")[0])
        wait_for(d, lambda d: len(d.find_elements("css selector", "#layer-declared circle")) == 2, what="the stops")
        shot(d, "game-operating")
    finally:
        close(d)
        server.stop()
    history = game_log(first_rounds()[0], folder / "history.json")
    server = Server(history)
    d = chromium(1400, 1000)
    try:
        d.get(server.url)
        wait_for(d, lambda d: d.execute_script(version) > 0 and d.find_elements("css selector", "#history li"))
        item = d.find_element("css selector", '#history li[data-decision="30"]')
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", item)
        item.find_element("css selector", ".undo-here").click()
        d.execute_script("document.getElementById('history-box').scrollIntoView({block: 'start'})")
        shot(d, "game-history")
    finally:
        close(d)
        server.stop()


def start_screens(folder):
    """The Games dialog over the empty page (saved games listed), then an 1833NE game
    opened from it with its operating corporation's best run drawn."""
    from selenium.webdriver.support.ui import Select

    players, seed = OPENINGS["1833NE"]
    game_log(opening("1833NE")[0], folder / "ne-opening.json", "1833NE", players, seed)
    game_log(paying_run_of("1833NE")[0], folder / "ne-table.json", "1833NE", players, seed)
    server = Server("--games", folder)
    d = chromium(1400, 1000)
    try:
        d.get(server.url)
        d.find_element("id", "games-open").click()
        wait_for(d, lambda d: d.find_elements("id", "new-title"), what="the Games dialog")
        Select(d.find_element("id", "new-title")).select_by_value("1831")
        d.find_element("id", "new-players").send_keys("Ann, Bob, Cat, Dan")
        d.find_element("id", "new-variants").send_keys("extended")
        box = d.find_element("id", "new-name")
        box.clear()
        box.send_keys("tuesday-1831")
        shot(d, "games")
        d.find_element("css selector", '#saved-games button[data-name="ne-table.json"]').click()
        wait_for(d, lambda d: d.find_elements("css selector", "body.game"), what="the 1833NE game")
        wait_for(d, lambda d: text_of(d, "revenue").isdigit(), what="the operating corporation's best run")
        wait_for(d, run_drawn, what="the run drawn")
        shot(d, "game-1833ne")
    finally:
        close(d)
        server.stop()


def main():
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        games = Path(folder) / "18xx-games"  # the folder the dialog names
        games.mkdir()
        start_screens(games)

    with tempfile.TemporaryDirectory() as folder:
        game_screens(Path(folder))
    server = Server(FIXTURE)
    d = chromium(1400, 900)
    try:
        d.get(server.url)
        wait_for(d, lambda d: text_of(d, "revenue").isdigit(), what="the revenue")
        wait_for(d, lambda d: d.find_element("id", "map").get_attribute("data-best") == "1", what="the run drawn")
        shot(d, "best-run")

        click_hex(d, "E21")
        wait_for(d, lambda d: d.find_elements("css selector", '#lays button[data-tile="3"]'))[0].click()
        wait_for(d, lambda d: d.find_elements("id", "lay-confirm"))
        shot(d, "tile-lay")

        d.find_element("css selector", '.tab[data-tool="audit"]').click()
        trains = d.find_elements("css selector", "#audit-trains .audit-train")
        trains[1].click()
        for hex_id in ("A21", "D20", "B24"):
            click_hex(d, hex_id)
        d.find_element("id", "audit-run").click()
        wait_for(d, lambda d: "NOT legal" in text_of(d, "audit-verdict"))
        shot(d, "audit")

        d.find_element("css selector", '.tab[data-tool="tiles"]').click()
        d.find_element("id", "rank").click()
        wait_for(d, lambda d: d.find_elements("css selector", "#rank-list li"), timeout=300)
        d.execute_script("document.getElementById('rank-box').scrollIntoView()")
        shot(d, "ranking")
    finally:
        close(d)
        server.stop()


if __name__ == "__main__":
    main()

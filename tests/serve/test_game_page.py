"""The game page of ``trainruns serve`` as players use it, in Debian's headless Chromium:
the server run's id, the guarded Undo and the Redo, the history with "undo to here",
the map as the controls (tokens, declared runs, tile lays), the run and the tokens as
layers over a board drawn once, and the page's words for what happened.

Each game is the engine's own (tests/serve_game_script.py: a seeded 1832 game decided by
a simple policy over the legal actions), loaded onto one server; every number the page
shows is compared with the engine's replay of the same decisions.
"""

import json
import time

import httpx
import pytest
from serve_helpers import browser_missing, click_hex, open_game, page_version, text_of, wait_for

from trainruns.game.game import Game
from trainruns.game.log import effective

pytestmark = pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")

PLAYERS, SEED = ["Ann", "Bob"], 1


def load(table, name, decisions):
    """The 1832 game of ``decisions`` saved as ``name`` on the table and opened."""
    game = Game("1832", PLAYERS, seed=SEED)
    for a in decisions:
        game.act(a)
    return table.load(name, game)


def toast(d):
    return wait_for(d, lambda d: d.find_element("id", "toast").is_displayed() and text_of(d, "toast"), what="a message")


def cash(game):
    return {p["name"]: p["cash"] for p in game.to_json()["players"]}


def players_shown(d):
    rows = d.execute_script('return [...document.querySelectorAll("#players tr")].slice(1)'
                            '.map((r) => [...r.cells].map((c) => c.textContent))')
    return {r[0].rstrip(" ★"): int(r[1]) for r in rows}


def replayed(decisions):
    game = Game("1832", PLAYERS, seed=SEED)
    for a in decisions:
        game.act(a)
    return game


# --- the bugs -----------------------------------------------------------------------------


def test_a_page_of_an_earlier_server_run_reloads(driver, table):
    """Stopped and started again on its log, the server's versions count from 1 again:
    the open page sees the new server run's id and reloads onto the game as it is, instead
    of ignoring it as an old version (docs/serve.md "Several browsers")."""
    from serve_game_script import first_rounds

    decisions, _ = first_rounds()
    load(table, "restart", decisions[:5])
    table.restart(table.folder / "restart.json")   # `trainruns serve restart.json`: its first game
    open_game(driver, table, 1, map_drawn=True)
    table.post("api/act", {"action": decisions[5]})
    table.post("api/act", {"action": decisions[6]})
    wait_for(driver, lambda d: page_version(d) == 3, what="the two actions")
    driver.execute_script("window.beforeRestart = true")
    table.restart(table.folder / "restart.json")
    # the new run is at version 1 with the seven decisions: the page reloads onto it
    wait_for(driver, lambda d: d.execute_script("return window.beforeRestart") is None and page_version(d) == 1,
             what="the page to reload")
    assert players_shown(driver) == cash(replayed(decisions[:7]))
    # a change still carrying the old run's id is refused
    r = httpx.post(table.url + "api/act", json={"action": decisions[7]}, headers={"X-Trainruns-Session": "old:2"},
                   timeout=60)
    assert r.status_code == 409 and "restarted" in r.json()["error"]


def test_undo_takes_back_one_decision_per_version_and_redo_takes_it_again(driver, table):
    """docs/game-log.md: ``undo`` takes back the last decision standing. A double click
    on Undo (or two browsers pressing it at once) names the same version twice: one
    decision is taken back and the second press is refused, saying so. Redo takes it
    again while nothing new was decided."""
    from serve_game_script import first_rounds

    decisions, _ = first_rounds()
    load(table, "undo", decisions[:8])
    open_game(driver, table, 1, map_drawn=True)
    driver.execute_script("const b = document.getElementById('undo'); b.click(); b.click();")
    wait_for(driver, lambda d: page_version(d) == 2, what="the undo")
    assert "moved on" in toast(driver)
    time.sleep(0.5)   # the second press had its answer: nothing more happens
    assert len(effective(table.log("undo")["actions"])) == 7 and table.state()["version"] == 2
    assert players_shown(driver) == cash(replayed(decisions[:7]))
    # another browser pressing Undo on the version both saw: refused, nothing changes
    r = httpx.post(table.url + "api/act", json={"action": {"type": "undo"}, "version": 1}, timeout=60)
    assert r.status_code == 409 and len(effective(table.log("undo")["actions"])) == 7
    redo = driver.find_element("id", "redo")
    assert redo.is_enabled()
    redo.click()
    wait_for(driver, lambda d: page_version(d) == 3, what="the redo")
    assert effective(table.log("undo")["actions"]) == replayed(decisions[:8]).log()["actions"]
    assert players_shown(driver) == cash(replayed(decisions[:8]))
    assert not driver.find_element("id", "redo").is_enabled()


def test_the_last_box_says_every_event_in_words_and_nothing_stale_after_undo(driver, table):
    """The last decision of the first stock round (a pass) is followed by ten events
    (two corporations float, the privates pay, the operating round begins, a home
    token): all of them are listed, in words; after Undo the box says what was taken
    back, not the events of the decision undone."""
    from serve_game_script import first_rounds

    decisions, _ = first_rounds()
    assert decisions[17]["type"] == "pass"
    load(table, "last", decisions[:17])
    open_game(driver, table, 1, map_drawn=True)
    game = replayed(decisions[:18])
    events = game.to_json()["events"]
    assert len(events) == 10
    wait_for(driver, lambda d: d.find_elements("id", "do-pass"), what="Pass")[0].click()
    wait_for(driver, lambda d: page_version(d) == 2, what="the pass")
    shown = [li.text for li in driver.find_elements("css selector", "#last .events li")]
    assert len(shown) == len(events)
    assert not any('"' in t or "{" in t for t in shown), shown
    floated = [e["corporation"] for e in events if e["event"] == "float"]
    assert all(any(t.startswith(f"{c} floats") for t in shown) for c in floated)
    assert "an operating round begins" in shown
    driver.find_element("id", "undo").click()
    wait_for(driver, lambda d: page_version(d) == 3, what="the undo")
    assert text_of(driver, "last").startswith("took back")
    assert not driver.find_elements("css selector", "#last .events li")


def test_sell_ranges_and_amounts_out_of_range_are_said_in_words(driver, table):
    """1832 rulebook "Selling Stock": a player may sell 1 to N shares; the sell list
    says the range, and an amount outside it is refused on the page with the range."""
    from serve_game_script import to_first_run

    decisions, _ = to_first_run()
    load(table, "sell", decisions[:34])
    open_game(driver, table, 1, map_drawn=True)
    option = table.state()["actions"]
    sell = next(a for a in option if a["type"] == "sell_shares")
    low, high = sell["count"]["min"], sell["count"]["max"]
    texts = driver.execute_script("return [...document.querySelectorAll('#act-sell_shares option')].map((o) => o.text)")
    assert texts and not any("object" in t for t in texts)
    # (the amounts of facts.js may follow the words: " — +$64; price 64 → 60")
    assert any(t.startswith(f"sell {low}–{high} shares of {sell['corporation']}") for t in texts)
    box = driver.find_element("id", "amount-sell_shares")
    wait_for(driver, lambda d: box.is_displayed(), what="the amount box")
    driver.execute_script("arguments[0].value = '99999'", box)
    driver.find_element("id", "do-sell_shares").click()
    assert f"from {low} to {high}" in toast(driver)
    assert page_version(driver) == 1 and table.state()["version"] == 1


def test_an_error_names_its_field_once(driver, table):
    """A refused new game (no players) says "players:" once, not twice."""
    driver.get(table.url)
    wait_for(driver, lambda d: text_of(d, "heading"), what="the page")
    driver.find_element("id", "games-open").click()
    wait_for(driver, lambda d: d.find_elements("id", "new-title"), what="the Games dialog")
    driver.find_element("id", "new-start").click()
    error = wait_for(driver, lambda d: text_of(d, "games-error"), what="the refusal")
    assert error.startswith("players: ") and "players: players" not in error
    driver.find_element("id", "games-close").click()


# --- the history ----------------------------------------------------------------------------


def test_history_lists_every_decision_and_undoes_to_one_after_a_confirmation(driver, table):
    """Every decision standing, in words, under its round (the private auction, stock
    round 1, operating round 1.1), in a box that scrolls; "undo to here" asks first,
    then takes back that decision and every one after it; Redo takes them again one by
    one."""
    from serve_game_script import first_rounds

    decisions, _ = first_rounds()
    load(table, "history", decisions)
    open_game(driver, table, 1, map_drawn=True)
    items = driver.find_elements("css selector", "#history li.decision")
    assert len(items) == len(decisions)
    rounds = [li.text for li in driver.find_elements("css selector", "#history li.round")]
    assert rounds[:3] == ["private auction 1", "SR 1", "OR 1.1"]
    assert items[0].text.startswith(f"1. {decisions[0]['player']}: buy {decisions[0]['private']}")
    assert driver.execute_script("const h = document.getElementById('history'); return h.scrollHeight > h.clientHeight")
    target = 30
    item = driver.find_element("css selector", f'#history li[data-decision="{target}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", item)
    item.find_element("css selector", ".undo-here").click()
    confirm = item.find_element("css selector", ".confirm")
    assert f"these {len(decisions) - target} decisions" in confirm.text
    confirm.find_element("css selector", ".confirm-no").click()
    assert not item.find_elements("css selector", ".confirm") and table.state()["version"] == 1
    item.find_element("css selector", ".undo-here").click()
    item.find_element("css selector", ".confirm-yes").click()
    wait_for(driver, lambda d: page_version(d) == 2, what="the undo to here")
    assert effective(table.log("history")["actions"]) == replayed(decisions[:target]).log()["actions"]
    assert players_shown(driver) == cash(replayed(decisions[:target]))
    assert len(driver.find_elements("css selector", "#history li.decision")) == target
    driver.find_element("id", "redo").click()
    wait_for(driver, lambda d: page_version(d) == 3, what="the redo")
    assert effective(table.log("history")["actions"]) == replayed(decisions[:target + 1]).log()["actions"]


# --- the map as the controls ------------------------------------------------------------------


def test_a_token_placed_by_clicking_its_city(driver, table):
    """1832 rulebook "Place a Token": the city where the operating company may place a
    token is marked; clicking it places the token (the engine's own action), drawn as
    a layer on the board, which is not drawn again."""
    from serve_game_script import to_first_token

    decisions, game = to_first_token()
    offer = next(a for a in game.actions() if a["type"] == "place_token")
    load(table, "token", decisions)
    open_game(driver, table, 1, map_drawn=True)
    marked = driver.execute_script("return [...document.querySelectorAll('#map g.can-token')].map((g) => g.id)")
    assert f"hex-{offer['hex']}" in marked
    driver.execute_script("window.board = document.querySelector('#map svg')")
    click_hex(driver, offer["hex"])
    wait_for(driver, lambda d: page_version(d) == 2, what="the token placed")
    assert table.log("token")["actions"][-1] == offer
    ref = f"{offer['corporation']}@{offer['hex']}.{offer.get('stop', 0)}"
    wait_for(driver, lambda d: d.find_elements("css selector", f'#layer-tokens g[data-token="{ref}"]'),
             what="the token drawn")
    assert driver.execute_script("return window.board === document.querySelector('#map svg')")


def test_a_tile_chosen_on_the_map_and_turned_by_clicking_its_preview(driver, table):
    """1832 rulebook "Laying Track": the hexes the operating company may lay on are
    marked; a click lists that hex's lays; the preview says it is drawing, and a click
    on it turns the tile to its next legal rotation; Do it lays that one, drawn over
    the board (that hex alone is drawn again)."""
    from serve_game_script import first_rounds

    decisions, _ = first_rounds()
    assert decisions[18]["type"] == "lay_tile"
    load(table, "tile", decisions[:18])
    open_game(driver, table, 1, map_drawn=True)
    lays = [a for a in table.state()["actions"] if a["type"] == "lay_tile"]
    marked = driver.execute_script("return [...document.querySelectorAll('#map g.can-lay')].map((g) => g.id)")
    assert sorted(marked) == sorted({f"hex-{a['hex']}" for a in lays})
    by_hex = {}
    for a in lays:
        by_hex.setdefault((a["hex"], a["tile"]), []).append(a["rotation"])
    (hex_id, tile), rotations = max(by_hex.items(), key=lambda kv: len(kv[1]))
    assert len(rotations) > 1, "a lay with a choice of rotations"
    click_hex(driver, hex_id)
    wait_for(driver, lambda d: d.find_elements("id", "lay-preview"), what="the preview")
    from selenium.webdriver.support.ui import Select

    select = Select(driver.find_element("id", "act-lay_tile"))
    shown = [json.loads(o.get_attribute("data-action")) for o in select.options]
    assert {a["hex"] for a in shown} == {hex_id}
    first = next(o for o in select.options if json.loads(o.get_attribute("data-action"))["tile"] == tile
                 and json.loads(o.get_attribute("data-action"))["rotation"] == rotations[0])
    select.select_by_value(first.get_attribute("value"))
    assert "drawing" in text_of(driver, "lay-preview")
    preview = driver.find_element("id", "lay-preview")
    wait_for(driver, lambda d: preview.get_attribute("data-shown") == f"{tile}/{rotations[0]}", what="the preview drawn")
    preview.click()
    wait_for(driver, lambda d: preview.get_attribute("data-shown") == f"{tile}/{rotations[1]}", what="the turned tile")
    driver.execute_script("window.board = document.querySelector('#map svg')")
    driver.find_element("id", "do-lay_tile").click()
    wait_for(driver, lambda d: page_version(d) == 2, what="the lay")
    # the tile laid is drawn over the board, which is not drawn again
    wait_for(driver, lambda d: d.find_element("id", "map").get_attribute("data-version") == "2", what="the new tile")
    patch = driver.find_element("css selector", f'#map g.patch[data-hex="{hex_id}"]')
    assert f"#{tile}" in patch.get_attribute("textContent")
    assert driver.execute_script("return window.board === document.querySelector('#map svg')")
    assert table.log("tile")["actions"][-1] == {"type": "lay_tile", "corporation": lays[0]["corporation"],
                                                "hex": hex_id, "tile": tile, "rotation": rotations[1]}


def test_a_declared_run_is_drawn_as_its_stops_are_clicked(driver, table):
    """1832 rulebook "Operate Trains": while the president declares a run, each stop
    clicked is ringed and the route drawn through them; the best run is hidden until
    the declaring ends."""
    from serve_game_script import to_first_run

    decisions, game = to_first_run()
    corp = game.active()["corporation"]
    home = next(t for t in game.position()["tokens"] if t["corporation"] == corp)
    load(table, "declared", decisions)
    open_game(driver, table, 1, map_drawn=True)
    wait_for(driver, lambda d: d.find_elements("id", "declare-start"), what="the run controls")[0].click()
    assert driver.execute_script("return document.getElementById('layer-run').getAttribute('visibility')") == "hidden"
    click_hex(driver, home["hex"])
    ref = f"{home['hex']}.{home['stop']}"
    wait_for(driver, lambda d: d.find_elements("css selector", f'#layer-declared circle[data-stop="{ref}"]'),
             what="the stop ringed")
    other = next(h for h, stops in table.state()["hexes"].items() if stops and h != home["hex"])
    click_hex(driver, other)
    wait_for(driver, lambda d: len(d.find_elements("css selector", "#layer-declared circle")) == 2, what="two stops")
    line = driver.find_element("css selector", "#layer-declared polyline").get_attribute("points")
    assert len(line.split()) == 2
    driver.find_element("id", "declare-cancel").click()
    assert not driver.find_elements("css selector", "#layer-declared *")
    assert driver.execute_script("return document.getElementById('layer-run').getAttribute('visibility')") is None


def test_the_best_run_is_a_layer_never_stale_and_the_board_is_not_drawn_again(driver, table):
    """The operating company's best run is drawn over the board once solved; running it
    changes the version: the old run is gone at once (never shown on the new version),
    the new one is drawn when solved, and the board's SVG is the same element
    throughout (a run redraws no map)."""
    from serve_game_script import to_first_paying_run

    decisions, game = to_first_paying_run()
    load(table, "layer", decisions)
    open_game(driver, table, 1, map_drawn=True)
    wait_for(driver, lambda d: d.find_element("id", "map").get_attribute("data-run") == "1", what="the best run")
    assert driver.find_elements("css selector", "#layer-run polyline")
    driver.execute_script("""
        window.board = document.querySelector('#map svg');
        window.stale = [];
        new MutationObserver(() => {
          const run = document.getElementById('layer-run');
          if (run && run.childElementCount && document.getElementById('map').dataset.run !== document.body.dataset.version)
            window.stale.push([document.body.dataset.version, document.getElementById('map').dataset.run]);
        }).observe(document.getElementById('map'), {subtree: true, childList: true, attributes: true});
        new MutationObserver(() => {
          const run = document.getElementById('layer-run');
          if (run && run.childElementCount && document.getElementById('map').dataset.run !== document.body.dataset.version)
            window.stale.push([document.body.dataset.version, document.getElementById('map').dataset.run]);
        }).observe(document.body, {attributes: true});""")
    run = next(a for a in game.actions() if a["type"] == "run_routes")
    table.post("api/act", {"action": run, "version": 1})
    wait_for(driver, lambda d: page_version(d) == 2, what="the run")
    assert driver.execute_script("return window.stale") == []
    assert driver.execute_script("return window.board === document.querySelector('#map svg')")


def test_advise_ranks_the_turns_plans_draws_the_one_picked_and_takes_its_first_decision(driver, table):
    """docs/advise.md on the page: during a company's operating turn the "Now" panel's
    Advise button ranks the turn's plans on the server (busy meanwhile); the plans shown
    are those of ``trainruns play advise`` (revenue, cost, cash left; 1832 [6], [8],
    [10]); picking one draws its run on the map; its button takes the plan's first
    decision, which the game's log then holds. In a stock round there is no advice."""
    from serve_game_script import to_operating_turn_with_a_train

    from trainruns.players.advise import advise

    decisions, game = to_operating_turn_with_a_train()
    expected = advise(Game.replay(game.log()), top=5).to_json()["plans"]
    version = load(table, "advise", decisions)
    open_game(driver, table, version, map_drawn=True)
    # the best run of the turn first: drawn on its own layer before the pick replaces it
    wait_for(driver, lambda d: d.find_element("id", "map").get_attribute("data-run") == str(version),
             what="the best run")
    wait_for(driver, lambda d: d.find_elements("id", "advise"), what="Advise")[0].click()
    items = wait_for(driver, lambda d: d.find_elements("css selector", "#advice-plans li"), what="the plans")
    assert len(items) == len(expected)
    for li, plan in zip(items, expected):
        money = li.find_element("css selector", "b").text
        assert money == f"${plan['revenue']} · costs ${plan['cost']} · leaves ${plan['cash_left']}", money
    assert "ranking is exact" in text_of(driver, "advice-status")
    best = expected[0]
    assert best["routes"]
    items[0].click()
    circles = driver.execute_script(
        "return [...document.querySelectorAll('#layer-run circle')].map((c) => c.dataset.stop)")
    lines = driver.find_elements("css selector", "#layer-run polyline")
    assert len(lines) == 2 * len(best["routes"])
    assert circles and set(circles) <= {s for r in best["routes"] for s in r["stops"]}
    assert "picked" in items[0].get_attribute("class")
    driver.find_element("id", "advice-take-0").click()
    wait_for(driver, lambda d: page_version(d) == version + 1, what="the first decision")
    assert effective(table.log("advise")["actions"])[-1] == best["actions"][0]
    # a stock round: nothing to advise
    open_game(driver, table, load(table, "advise-stock", decisions[:3]), map_drawn=True)
    assert not driver.find_elements("id", "advise")

"""Refusals cite the acting title's own rules and say what is true.

- The shared steps (game/steps) cite through ``GameRules.cite``: each title declares,
  in ``citations``, the section of its own rules for every topic the shared steps it
  runs cite (1832's "[8]", 1831's "(5.0.4)", a heading of 1833NE's summary, quoted).
- 1833NE's own refusals cite the headings of its summary (listed in
  fixtures/rules/1833NE-headings.txt), never a section number of 1832.
- A count a refusal gives is one that can be: "no share", not "1 to 0".
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest
from _1831 import company, operated, turn_of
from _1831 import new as new_1831
from _1832 import new as new_1832
from _1832 import refused, start
from _trains import owned

import trainruns.game as engine
import trainruns.titles.g1833ne as g1833ne
from trainruns.game.errors import Refusal
from trainruns.game.game import Game, rules_class
from trainruns.game.round import StockRound
from trainruns.titles.g1831.game.steps.operating import TrainStep

STEPS = Path(engine.__file__).parent / "steps"
HEADINGS = Path(__file__).resolve().parents[2] / "fixtures" / "rules" / "1833NE-headings.txt"


def who(g):
    return g.active()["player"]


def new_1833ne(n=4):
    return Game("1833NE", ["A", "B", "C", "D", "E"][:n], 1, [], None)


def launched_cv(n=4):
    """1833NE: the privates sold, CV launched at $100 by the first player to act."""
    g = new_1833ne(n)
    while g.round.kind == "private_auction":
        g.act(next(x for x in g.actions() if x["type"] == "buy_private"))
    g.act({"type": "par", "player": who(g), "corporation": "CV", "price": 100})
    return g


def to_step(g, name):
    """Pass until the round's current step is of the step class ``name`` (a title's
    step that subclasses it too: 1833NE's TrackStep1833NE is a TrackStep)."""
    while name not in {k.__name__ for k in type(g.round.step()).__mro__}:
        listed = g.actions()
        g.act(next((x for x in listed if x["type"] == "pass"), listed[0]))


# --- which topics a title cites --------------------------------------------------------

def _cited(path: Path) -> set:
    """The topics a module passes to ``cite("...")``."""
    return {node.args[0].value for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cite"
            and node.args and isinstance(node.args[0], ast.Constant)}


def _shared_steps_run_by(title: str) -> set:
    """The shared step modules (game/steps/*.py) the title's package imports, and those
    they import in turn."""
    package = Path(importlib.import_module(rules_class(title).__module__).__file__).parent
    found, todo = set(), []
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("trainruns.game.steps."):
                todo.append(node.module.rsplit(".", 1)[1])
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        for node in ast.walk(ast.parse((STEPS / f"{name}.py").read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("trainruns.game.steps."):
                todo.append(node.module.rsplit(".", 1)[1])
    return found


@pytest.mark.parametrize("title", ["1831", "1832", "1833NE"])
def test_each_title_cites_its_own_rule_for_every_topic_of_the_shared_steps_it_runs(title):
    steps = _shared_steps_run_by(title)
    assert "operating" in steps
    topics = set().union(*(_cited(STEPS / f"{m}.py") for m in steps))
    assert "operating-order" in topics
    assert topics - set(rules_class(title).citations) == set()


def test_1832_runs_every_shared_step_and_declares_every_topic():
    everywhere = set().union(*(_cited(p) for p in STEPS.glob("*.py")))
    assert {"run", "must-buy", "buy-sell", "limits", "protection"} <= everywhere
    assert everywhere - set(rules_class("1832").citations) == set()


def _headings():
    """The headings of 1833NE's summary (fixtures/rules/1833NE-headings.txt: its lines
    that are neither bullets nor text)."""
    return {x for x in HEADINGS.read_text().splitlines() if x and not x.startswith("#")}


def _refusals(path: Path):
    """The text of each refusal in a module: a ``Refusal(rule, message)`` or a
    ``return "rule", message`` (a why_not hook's answer), its f-strings' literal parts
    joined."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Refusal":
            parts = node.args
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and node.value.elts and \
                isinstance(node.value.elts[0], ast.Constant) and "." in str(node.value.elts[0].value):
            parts = node.value.elts
        else:
            continue
        yield "".join(x.value for part in parts for x in ast.walk(part)
                      if isinstance(x, ast.Constant) and isinstance(x.value, str))


def test_1833ne_cites_the_headings_of_its_summary_and_no_1832_section():
    headings = _headings()
    assert {"Emergency sell", "Number of phases", "List of corporations"} <= headings
    cited = [re.findall(r'"([^"]+)"', v) for v in rules_class("1833NE").citations.values()]
    texts = [s for p in Path(g1833ne.__file__).parent.rglob("*.py") for s in _refusals(p)]
    quoted = [h for s in texts for h in re.findall(r'\("([^"]+)"', s)]
    # its own refusals, and its citations for the shared steps' (the stock turn's among them)
    assert len(quoted) >= 10 and len(sum(cited, [])) >= 7
    assert [h for h in quoted + sum(cited, []) if h not in headings] == []
    # a section number of 1832 ("[10]", "[4.1.3]") in a message
    assert [s for s in texts if re.search(r"\[\d+(\.\d+)*\]", s)] == []


# --- the shared steps in each title's words ---------------------------------------------

def test_1833ne_operating_order_refusal_cites_number_of_phases():
    """"Number of phases": the operating rounds and their order, not 1832's [4.1.3]."""
    g = launched_cv()
    to_step(g, "TrackStep")
    with pytest.raises(Refusal) as e:
        g.act({"type": "pass", "corporation": "FRR"})
    assert e.value.rule == "turn.not-yours"
    assert str(e.value) == 'CV is operating now ("Number of phases")'


def test_1833ne_must_buy_cites_emergency_sell_and_claims_no_route():
    """"Emergency sell": "A corporation must buy a train if it has none after running
    routes" (a route or not: CV here has none, with only its home station and no
    track), not 1832's [10] "has a route and no train"."""
    g = launched_cv()
    assert not g.state.corp["CV"].trains
    while g.round.kind != "operating":
        g.act({"type": "pass", "player": who(g)})
    to_step(g, "BuyTrainStep")
    e = refused_any(g, {"type": "pass", "corporation": "CV"})
    assert e.rule == "train.must-buy"
    assert str(e) == 'CV has no train and must buy one ("Emergency sell")'


def refused_any(g, action) -> Refusal:
    with pytest.raises(Refusal) as e:
        g.act(action)
    return e.value


def test_1831_operating_order_refusal_cites_5_0_4():
    """5.0.4: "Companies and systems operate one at a time and in sequence"."""
    g = new_1831()
    c = operated(g, "PRR", 100, "P0")
    step = TrainStep(g, c, turn_of(c))
    with pytest.raises(Refusal) as e:
        step.process({"type": "pass", "corporation": "NYC"})
    assert str(e.value) == "PRR is operating now (5.0.4)"


# --- counts that can be ------------------------------------------------------------------

def test_1833ne_no_sale_before_the_first_run_says_why():
    """"Until a corporation has operated for the first time, only its president may sell
    its shares": a refusal says so, not "may sell 1 to 0"."""
    g = launched_cv()
    cv = g.state.corp["CV"]
    b = who(g)
    assert b != cv.president
    g.act({"type": "buy_shares", "player": b, "corporation": "CV", "from": "treasury"})
    while who(g) != b:
        g.act({"type": "pass", "player": who(g)})
    e = refused_any(g, {"type": "sell_shares", "player": b, "corporation": "CV", "count": 1})
    assert e.rule == "stock.sell-limit"
    assert str(e) == (f"{b} may sell no CV share now: until CV has operated for the first time, only its "
                      'president may sell its shares ("Floating percentage and per-player share limits")')


def test_1833ne_no_sale_of_shares_not_held():
    g = launched_cv()
    b = who(g)
    g.state.corp["CV"].operated = True
    e = refused_any(g, {"type": "sell_shares", "player": b, "corporation": "CV", "count": 1})
    assert str(e) == f"{b} may sell no CV share now: {b} holds no CV share"


def test_1833ne_second_issue_in_a_turn_says_none():
    """"Comparison with 1830" item 3 ([E]: one issue or redeem a turn): after an issue,
    the refusal of another says "no share", not "1 to 0"."""
    g = launched_cv()
    while g.round.kind != "operating":
        g.act({"type": "pass", "player": who(g)})
    to_step(g, "TrackStep")
    g.act({"type": "issue_shares", "corporation": "CV", "count": 1})
    e = refused_any(g, {"type": "issue_shares", "corporation": "CV", "count": 1})
    assert e.rule == "shares.issue"
    assert str(e).startswith("CV may issue no share now: one issue or redeem a turn")
    assert str(e).endswith('("Comparison with 1830" item 3)')


def test_1832_no_sale_of_shares_not_held_says_why():
    """[5.3] Selling Shares, [5.5]: the refusal of a sale says why none may be sold (he
    holds none; his only shares are the president's certificate no one can take), not
    "at most 0"."""
    g = new_1832()
    start(g, "SALR", "B", 100)
    g.round = StockRound(g, "A", 2)
    g.round.settle()
    e = refused(g, {"type": "sell_shares", "player": "A", "corporation": "SALR", "count": 1}, "stock.sell-limit")
    assert str(e) == "A may sell no SALR share now: A holds no SALR share"
    g.act({"type": "pass", "player": "A"})
    e = refused(g, {"type": "sell_shares", "player": "B", "corporation": "SALR", "count": 1}, "stock.sell-limit")
    assert str(e) == ("B may sell no SALR share now: B holds SALR's president's certificate only, and no other "
                      "player holds the 2 shares to take it [5.5]")


def test_1831_bank_sells_the_lowest_size_first_5_3_8():
    """5.3.8 "it must purchase the lowest numbered train available": a company that
    must buy (5.3.1) and can pay is refused a 3-train for that reason, not as one that
    "must buy a train it cannot pay for"."""
    g = new_1831()
    c = company(g, "PRR", 100, "P0", cash=1000)
    assert g.rules.needs_train(c)
    step = TrainStep(g, c, turn_of(c))
    with pytest.raises(Refusal) as e:
        step.process({"type": "buy_train", "corporation": "PRR", "from": "bank", "train": "3S"})
    assert e.value.rule == "train.lowest-first"
    assert str(e.value) == "the bank sells the lowest size it has first: 2S, 2MX, 2YD, not a 3S (5.3.8)"


def test_1831_forced_purchase_it_cannot_pay_is_the_cheapest_5_3_4():
    """5.3.4: a company that must buy and cannot pay from its cash buys "the lowest
    appropriate train": a dearer one from the pool is refused for that reason."""
    g = new_1831()
    c = company(g, "PRR", 100, "P0", cash=10)
    g.state.market_trains += owned(g, "3S")
    step = TrainStep(g, c, turn_of(c))
    with pytest.raises(Refusal) as e:
        step.process({"type": "buy_train", "corporation": "PRR", "from": "market", "train": "3S"})
    assert e.value.rule == "train.forced-cheapest"

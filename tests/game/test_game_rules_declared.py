"""The engine's view of a title is declared in one place (game/game_rules.py and the hook
groups it composes, game/rules/): every attribute the shared rounds and steps ask of a
title's rules is declared on GameRules, with a docstring, so a newcomer adding a title
finds one list of hooks; each hook is declared in one group only, and docs/engine.md
lists it in its group's row; and every title's rules class is a GameRules that overrides
only hooks GameRules declares or adds its own (nothing shadows the engine by
accident)."""

import ast
import inspect
import re
from pathlib import Path

import pytest

import trainruns.game as engine
from trainruns.game.game import rules_class
from trainruns.game.game_rules import GameRules

GAME = Path(engine.__file__).parent
DOC = GAME.parents[2] / "docs" / "engine.md"
# set by the title on the instance (GameRules' docstring names them)
INSTANCE = {"game", "state", "market", "stock_round_number", "priority", "or_set", "phases"}
# the hook groups GameRules composes: its bases from game/rules/
GROUPS = [k for k in GameRules.__bases__ if k.__module__.startswith("trainruns.game.rules.")]


def asked_of_rules() -> dict:
    """Every ``<...>.rules.NAME`` / ``rules.NAME`` read in game/, with where."""
    out = {}
    for path in GAME.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute):
                base = node.value
                if (isinstance(base, ast.Attribute) and base.attr == "rules") or \
                        (isinstance(base, ast.Name) and base.id == "rules"):
                    out.setdefault(node.attr, f"{path.relative_to(GAME)}:{node.lineno}")
    return out


def public_hooks(cls) -> list[str]:
    return [n for n, m in vars(cls).items() if callable(m) and not n.startswith("_")]


def test_every_hook_the_engine_calls_is_declared_with_a_docstring():
    missing = {name: where for name, where in asked_of_rules().items()
               if name not in INSTANCE and not hasattr(GameRules, name)}
    assert not missing, f"asked of a title's rules but not declared on GameRules: {missing}"
    for name in asked_of_rules():
        member = getattr(GameRules, name, None)
        if callable(member):
            assert inspect.getdoc(member), f"GameRules.{name} has no docstring"


def test_game_rules_is_its_hook_groups_each_hook_in_one():
    """GameRules adds nothing to its groups but its data, ``fixed`` and ``cite``; no
    member of one group is also a member of another (so the order of the bases decides
    nothing), and every group is one module of game/rules/."""
    assert len(GROUPS) == len(GameRules.__bases__) >= 10
    assert sorted(public_hooks(GameRules)) == ["cite", "fixed"]
    seen = {}
    for k in GROUPS:
        for name in vars(k):
            if not name.startswith("__"):
                assert name not in seen, f"{name} is in {seen.get(name)} and {k.__name__}"
                seen[name] = k.__name__
    assert len({k.__module__ for k in GROUPS}) == len(GROUPS)


@pytest.mark.parametrize("title", ["1831", "1832", "1833NE"])
def test_each_title_is_a_game_rules_with_its_declared_data(title):
    cls = rules_class(title)
    assert issubclass(cls, GameRules)
    assert cls.title == title and "undo" in cls.action_types and cls.operating_steps
    # the title's own mixins come first, so their methods override GameRules' defaults
    assert cls.__bases__[-1] is GameRules


def doc_rows() -> dict:
    """docs/engine.md's hook table: module file name -> the row's text."""
    rows = {}
    for line in DOC.read_text().splitlines():
        m = re.match(r"\| \(?`([a-z_]+\.py)`\)? \|", line)
        if m:
            rows[m.group(1)] = line
    return rows


def test_docs_engine_lists_every_hook_in_its_groups_row():
    """docs/engine.md is the newcomer's list of hooks: every public hook is in the row
    of the module that declares it (GameRules' own in the row of game_rules.py)."""
    rows = doc_rows()
    missing = []
    for k in [GameRules, *GROUPS]:
        row = rows.get(Path(inspect.getfile(k)).name, "")
        missing += [f"{k.__name__}.{n}" for n in public_hooks(k) if f"`{n}`" not in row]
    assert missing == []

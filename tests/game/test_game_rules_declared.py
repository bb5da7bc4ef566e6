"""The engine's view of a title is declared in one place (game/game_rules.py): every
attribute the shared rounds and steps ask of a title's rules is declared on GameRules,
with a docstring, so a newcomer adding a title finds one list of hooks; and every
title's rules class is a GameRules that overrides only hooks GameRules declares or adds
its own (nothing shadows the engine by accident)."""

import ast
import inspect
from pathlib import Path

import pytest

import trainruns.game as engine
from trainruns.game.game import rules_class
from trainruns.game.game_rules import GameRules

GAME = Path(engine.__file__).parent
# set by the title on the instance (GameRules' docstring names them)
INSTANCE = {"game", "state", "market", "stock_round_number", "priority", "or_set", "phases"}


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


def test_every_hook_the_engine_calls_is_declared_with_a_docstring():
    missing = {name: where for name, where in asked_of_rules().items()
               if name not in INSTANCE and not hasattr(GameRules, name)}
    assert not missing, f"asked of a title's rules but not declared on GameRules: {missing}"
    for name in asked_of_rules():
        member = getattr(GameRules, name, None)
        if callable(member):
            assert inspect.getdoc(member), f"GameRules.{name} has no docstring"


@pytest.mark.parametrize("title", ["1831", "1832", "1833NE"])
def test_each_title_is_a_game_rules_with_its_declared_data(title):
    cls = rules_class(title)
    assert issubclass(cls, GameRules)
    assert cls.title == title and "undo" in cls.action_types and cls.operating_steps
    # the title's own mixins come first, so their methods override GameRules' defaults
    assert cls.__bases__[-1] is GameRules


def test_docs_engine_lists_every_hook():
    """docs/engine.md is the newcomer's list of hooks: every public GameRules method is in it."""
    text = (Path(engine.__file__).parents[3] / "docs" / "engine.md").read_text()
    public = [n for n, m in vars(GameRules).items() if callable(m) and not n.startswith("_")]
    assert [n for n in public if f"`{n}`" not in text] == []

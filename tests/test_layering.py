"""The house's layering (README.md "How it works": data flows one way), stated as folders
of src/trainruns: read over the source with Python's ast, every ``import`` of a trainruns
module (at module level or inside a function) points to a module in the same layer or a
lower one, and the import graph has no cycle.

Layers, from the top:
- ``cli/``, ``daemon/``, ``serve/``: the commands, the warm process, the web page;
- ``game/`` and each title's ``titles/<title>/game/``: the game engine and the titles' rules of play;
- ``services/``: audit, whatif, draw, sweeps: questions asked of a position;
- ``titles/`` (``titles/<title>/route/`` and the shared title code): a title's running rules,
  and loading a position through its title;
- ``position/``: reading and checking a position's fields and its JSON Schemas;
- ``route/``: the core that knows no title. Inside it, the search's policy (``search.py``)
  stands above the stages it runs, and the kernels and plain data types at the bottom.
"""

import ast
import pathlib
import re

import trainruns

SRC = pathlib.Path(trainruns.__file__).parent

# a module's layer: the first folder (or module) prefix that matches; top layer = highest
LAYERS = [
    (6, ("cli", "__main__", "daemon", "serve")),
    (5, ("game",)),
    (4, ("services",)),
    (3, ("titles",)),
    (2, ("position",)),
    # the route core: the engine policy (search.py) stands above the stages it runs
    (1.5, ("route.search",)),
    (1, ("route",)),
]
# the bottom of route/: kernels and plain data types, imported by every stage
ROUTE_BASE = ("route.kernels", "route.board", "route.hexgrid", "route.result", "route.trains",
              "route.cpsat", "route.progress", "route.limits")
BASE = 0  # errors.py, the one error type, and the package itself

# Known leaks, each to go with the change that removes it (none now).
ALLOWED = set()

GAME_OF_TITLE = re.compile(r"^trainruns\.titles\.\w+\.game(\.|$)")  # titles/<title>/game/


def layer(name):
    if GAME_OF_TITLE.match(name):
        return 5
    rel = name[len("trainruns."):] if name.startswith("trainruns.") else name
    if any(rel == p or rel.startswith(p + ".") for p in ROUTE_BASE):
        return 0.5
    for rank, prefixes in LAYERS:
        if any(rel == p or rel.startswith(p + ".") for p in prefixes):
            return rank
    return BASE


def test_every_module_is_in_a_layer_folder():
    """Nothing but the package's entry points and its one error type sits outside a
    layer's folder."""
    loose = sorted(p.name for p in SRC.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "errors.py"]


def modules():
    out = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def import_graph():
    mods = modules()
    edges = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        out = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    out.add(sub if sub in mods else target)
            elif isinstance(node, ast.Import):
                out.update(alias.name for alias in node.names)
        edges[name] = {t for t in out if t in mods and t != name and t != "trainruns"}
    return edges


def test_graph_is_read():
    """The reader itself: known edges are found (a broken reader would pass all else)."""
    edges = import_graph()
    assert "trainruns.route.board" in edges["trainruns.route.compile"]
    assert "trainruns.titles.base" in edges["trainruns.titles.custom"]
    assert "trainruns.titles.load" in edges["trainruns.services.whatif"]


def test_no_module_imports_one_above_it():
    edges = import_graph()
    upward = sorted((a, b) for a, targets in edges.items() for b in targets
                    if layer(b) > layer(a) and (a, b) not in ALLOWED)
    assert upward == []


def test_no_import_cycle():
    edges = {a: {b for b in t if (a, b) not in ALLOWED} for a, t in import_graph().items()}
    # the package __init__ of a module is imported with it; a package importing its own
    # submodules is the normal way round, not a cycle
    state, cycles = {}, []

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [])
    assert cycles == []

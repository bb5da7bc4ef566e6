"""The house's layering (README.md "How it works": data flows one way): read over the source
with Python's ast, every ``import`` of a trainruns module (at module level or inside a
function) points to a module in the same layer or a lower one, and the import graph
has no cycle. Layers, from the top: the commands, the CLI, its daemon and the web page (serve); the game engines
(trainruns.game and each title's game*.py modules); the services (loading a position
through its title, audit, whatif, drawing); the titles' route rules; the search's engine
policy (search.py); the route core (reading fields, compiling, reach, enumeration,
assignment, route description); the kernels and the plain data types."""

import ast
import pathlib
import re

import trainruns

SRC = pathlib.Path(trainruns.__file__).parent

# layer of a module: the first prefix that matches, top layer = highest number
LAYERS = [
    (5, ("trainruns.cli", "trainruns.__main__", "trainruns.commands", "trainruns.serve", "trainruns.daemon")),
    (4, ("trainruns.game",)),
    (3, ("trainruns.load", "trainruns.audit", "trainruns.whatif", "trainruns.draw", "trainruns.declared")),
    (2, ("trainruns.titles",)),
    # the engine policy (search.py) stands above the stages it runs: enumeration,
    # assignment, route description, the flow model never call back into it
    (1.5, ("trainruns.search",)),
    (1, ("trainruns.position", "trainruns.compile", "trainruns.reach", "trainruns.cpsat_flow",
         "trainruns.value", "trainruns.enumeration", "trainruns.routeset", "trainruns.assignment",
         "trainruns.describe", "trainruns.track", "trainruns.greedy", "trainruns.proof", "trainruns.lagrange")),
    (0, ("trainruns.kernels", "trainruns.board", "trainruns.errors", "trainruns.hexgrid", "trainruns.colors",
         "trainruns.schema", "trainruns.result", "trainruns.trains", "trainruns.geometry", "trainruns.cpsat",
         "trainruns.generate", "trainruns.progress", "trainruns.limits")),
]
# trainruns.audit_track is the audit's helper: a service (prefix trainruns.audit)

# Known leaks, each to go with the change that removes it (none now).
ALLOWED = set()


GAME_OF_TITLE = re.compile(r"^trainruns\.titles\.\w+\.game")  # titles/g1832/game*.py: the game engine


def layer(name):
    if GAME_OF_TITLE.match(name):
        return 4
    for rank, prefixes in LAYERS:
        if any(name == p or name.startswith(p + ".") or name.startswith(p + "_") for p in prefixes):
            return rank
    return 3  # a module not listed yet stands with the services


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
    assert "trainruns.board" in edges["trainruns.compile"]
    assert "trainruns.titles.base" in edges["trainruns.titles.custom"]
    assert "trainruns.load" in edges["trainruns.whatif"]


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

"""The shape of the package: imports flow one way (no cycles, counting imports inside functions
too), and the numeric core imports nothing from the edges (click, tabulate, the renderers, the
command line), as docs and ../shared/STYLE.md promise."""

import ast
import pathlib

import networkx as nx

PACKAGE = pathlib.Path(__file__).parent.parent / "bjcalc"

# the edges: what turns results into text and what parses the command line
EDGES = {"cli", "render", "html", "report", "tables"}
EDGE_LIBRARIES = {"click", "tabulate"}


def _imports() -> dict[str, set[str]]:
    """Module -> the bjcalc modules and top-level libraries it imports, anywhere in its body."""
    modules = {path.stem for path in PACKAGE.glob("*.py")}
    found: dict[str, set[str]] = {}
    for path in PACKAGE.glob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
                if node.module == "bjcalc":  # from bjcalc import render
                    names.update(f"bjcalc.{alias.name}" for alias in node.names)
        deps = set()
        for name in names:
            parts = name.split(".")
            if parts[0] == "bjcalc" and len(parts) > 1 and parts[1] in modules:
                deps.add(parts[1])
            elif parts[0] != "bjcalc":
                deps.add(parts[0])
        found[path.stem] = deps - {path.stem}
    return found


def test_no_import_cycle():
    graph = nx.DiGraph([(module, dep) for module, deps in _imports().items() for dep in deps])
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, f"import cycles: {cycles}"


def test_the_core_imports_nothing_from_the_edges():
    imports = _imports()
    graph = nx.DiGraph([(module, dep) for module, deps in imports.items() for dep in deps])
    core = set(imports) - EDGES - {"__init__", "presets"}
    for module in sorted(core):
        reached = nx.descendants(graph, module)
        assert not reached & (EDGES | EDGE_LIBRARIES), f"{module} reaches {sorted(reached & (EDGES | EDGE_LIBRARIES))}"


def test_the_checks_see_the_imports():
    # the walker itself: a module known to import click and one known to import the dealer
    imports = _imports()
    assert "click" in imports["cli"] and "dealer" in imports["player"]

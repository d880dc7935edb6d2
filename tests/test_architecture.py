"""The shape of the package: imports flow one way (no cycles, counting imports inside functions
too), the numeric core imports nothing from the edges (click, tabulate, the renderers, the
command line), and the engine package imports nothing above it: not the front door, the
strategies, the round or any renderer, as docs and ../shared/STYLE.md promise."""

import ast
import pathlib

import networkx as nx

PACKAGE = pathlib.Path(__file__).parent.parent / "bjcalc"

# the edges: what turns results into text and what parses the command line
EDGES = {"cli", "render", "render_counting", "html", "report", "tables"}
EDGE_LIBRARIES = {"click", "tabulate"}
# what the engine may import from the rest of bjcalc: the plain values below it
BELOW_THE_ENGINE = {"actions", "cards", "errors", "numbers", "rules"}


def _module_names() -> dict[pathlib.Path, str]:
    """Each source file -> its dotted name below ``bjcalc`` (``engine.dealer``, ``cli``)."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        out[path] = ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 1 else parts)
    return out


def _imports() -> dict[str, set[str]]:
    """Module -> the bjcalc modules and top-level libraries it imports, anywhere in its body."""
    names_of = _module_names()
    modules = set(names_of.values())
    found: dict[str, set[str]] = {}
    for path, module in names_of.items():
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
                if node.module.startswith("bjcalc"):  # from bjcalc import render; from bjcalc.engine import dealer
                    names.update(f"{node.module}.{alias.name}" for alias in node.names)
        deps = set()
        for name in names:
            parts = name.split(".")
            if parts[0] != "bjcalc":
                deps.add(parts[0])
                continue
            # the longest bjcalc module the name names (a name may end in a class or function)
            for end in range(len(parts), 1, -1):
                candidate = ".".join(parts[1:end])
                if candidate in modules:
                    deps.add(candidate)
                    break
        found[module] = deps - {module}
    return found


def _graph(imports: dict[str, set[str]]) -> nx.DiGraph:
    graph = nx.DiGraph([(module, dep) for module, deps in imports.items() for dep in deps])
    graph.add_nodes_from(imports)
    return graph


def test_no_import_cycle():
    cycles = list(nx.simple_cycles(_graph(_imports())))
    assert not cycles, f"import cycles: {cycles}"


def test_the_core_imports_nothing_from_the_edges():
    imports = _imports()
    graph = _graph(imports)
    core = set(imports) - EDGES - {"__init__", "presets"}
    for module in sorted(core):
        reached = nx.descendants(graph, module)
        assert not reached & (EDGES | EDGE_LIBRARIES), f"{module} reaches {sorted(reached & (EDGES | EDGE_LIBRARIES))}"


def test_the_engine_imports_nothing_above_it():
    imports = _imports()
    graph = _graph(imports)
    engine = {m for m in imports if m == "engine" or m.startswith("engine.")}
    assert {"engine.dealer", "engine.hands", "engine.split", "engine.walk"} <= engine
    ours = set(imports)
    for module in sorted(engine):
        reached = nx.descendants(graph, module)
        above = {m for m in reached & ours if m not in engine and m not in BELOW_THE_ENGINE}
        assert not above, f"{module} reaches {sorted(above)}"
        assert not reached & EDGE_LIBRARIES, f"{module} reaches {sorted(reached & EDGE_LIBRARIES)}"


def test_the_checks_see_the_imports():
    # the walker itself: modules known to import click, the dealer and the front door
    imports = _imports()
    assert "click" in imports["cli"] and "engine.dealer" in imports["engine.context"]
    assert "analysis" in imports["__init__"] and "engine.analyser" in imports["analysis"]


def test_no_public_name_is_a_submodule():
    # importing a submodule sets it as an attribute of the package: one named like a public
    # name (bjcalc/game.py beside bjcalc.game) replaces that name once anything imports it
    import bjcalc

    submodules = {path.stem for path in PACKAGE.glob("*.py")} | {path.name for path in PACKAGE.iterdir()
                                                                 if (path / "__init__.py").exists()}
    shadowed = sorted(set(bjcalc.__all__) & submodules)
    assert not shadowed, f"public names that are also submodules of bjcalc: {shadowed}"


def test_game_is_the_preset_function_after_a_round():
    # the new user's reproduction: bjcalc.game("us-shoe") raised TypeError ('module' object is
    # not callable) after the first Analysis(...).round() in the process
    import bjcalc

    bjcalc.Analysis(bjcalc.Rules(shoe=(2,) * 9 + (8,), split_hands=1)).round()
    assert callable(bjcalc.game)
    assert bjcalc.game("us-shoe") == bjcalc.GAMES["us-shoe"]

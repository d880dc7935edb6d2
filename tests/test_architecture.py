"""The shape of the package: imports flow one way (no cycles, counting imports inside functions
too), the numeric core imports nothing from the edges (click, tabulate, the renderers, the
command line), and the engine package imports nothing above it: not the front door, the
strategies, the round or any renderer, as docs and ../shared/STYLE.md promise."""

import ast
import pathlib

import networkx as nx

PACKAGE = pathlib.Path(__file__).parent.parent / "bjcalc"

# the edges: what turns results into text and what parses the command line
RENDERERS = {"render", "render.common", "render.text", "render.texttable", "render.markdown", "render.csvfile",
             "render.jsondoc", "render.html"}
EDGES = {"cli", "cli.common", "cli.analysis", "cli.games", "cli.counting", *RENDERERS, "report", "tables"}
EDGE_LIBRARIES = {"click", "tabulate"}
# what the engine may import from the rest of bjcalc: the plain values below it
BELOW_THE_ENGINE = {"actions", "arguments", "cards", "errors", "kept", "numbers", "rules"}


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
                if node.module.startswith("bjcalc"):  # from bjcalc.render import text; from bjcalc.engine import dealer
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


# charts and counting, lowest first: each imports none of those after it (the chart model, then
# what plays and optimises it, the front door, effects of removal, playing efficiency, the
# figures of a count; the count systems' tags below them all)
CHART_AND_COUNT_LAYERS = ["counting.systems", "chart", "chartpolicy", "optimiser", "analysis", "counting.eor",
                          "counting.efficiency", "counting.measures"]


def test_charts_and_counting_follow_their_layers():
    imports = _imports()
    for low, module in enumerate(CHART_AND_COUNT_LAYERS):
        above = set(CHART_AND_COUNT_LAYERS[low + 1:]) & imports[module]
        assert not above, f"{module} imports {sorted(above)}, above it"
    assert {"chart", "optimiser", "chartpolicy"} <= imports["analysis"]
    assert "counting.systems" in imports["counting.measures"]


# The layers, lowest first (README's map): the core's plain values; the engine; the analysis
# (the front door Analysis and what plays charts, rounds, the matrix and Bet Behind); counting and
# games, built on them; the renderers and what gathers outputs (report, tables); the command line
# and the package door.
CORE = {"version", "actions", "arguments", "cards", "errors", "kept", "numbers", "rules", "shoe", "ruleset", "results"}
ANALYSIS = {"chart", "chartpolicy", "optimiser", "round", "betbehind", "analysis", "matrix"}
LAYERS = ["core", "engine", "analysis", "counting and games", "renderers", "command line"]
# what counting and games may take from the engine: its door and the foundations they share
ENGINE_DOOR = {"engine", "engine.door", "engine.pools", "engine.store"}


def _layer(module: str) -> int:
    if module in CORE:
        return 0
    if module == "engine" or module.startswith("engine."):
        return 1
    if module in ANALYSIS:
        return 2
    if module.split(".")[0] in ("counting", "games"):
        return 3
    if module == "__init__" or module.split(".")[0] == "cli":
        return 5
    if module in EDGES or module.split(".")[0] == "render":
        return 4
    return 6  # none of them


def test_nothing_below_imports_above():
    imports = _imports()
    assert not [m for m in imports if _layer(m) == 6], "a module with no layer"
    for module, deps in sorted(imports.items()):
        above = sorted(d for d in deps if d in imports and _layer(d) > _layer(module))
        assert not above, f"{module} ({LAYERS[_layer(module)]}) imports {above}, above it"


def test_counting_and_games_use_the_analysis_and_the_core_not_the_engine_inside():
    imports = _imports()
    upper = [m for m in imports if _layer(m) == 3]
    assert {"counting.truecount", "counting.countshoe", "counting.simulate", "counting.simtables", "games.sidebets",
            "games.presets"} <= set(upper)
    for module in sorted(upper):
        inside = sorted(d for d in imports[module] if _layer(d) == 1 and d not in ENGINE_DOOR)
        assert not inside, f"{module} imports the engine's private {inside}: add what it needs to engine/door.py"


def test_the_core_imports_nothing_from_the_edges():
    imports = _imports()
    graph = _graph(imports)
    core = set(imports) - EDGES - {"__init__", "games.presets"}
    for module in sorted(core):
        reached = nx.descendants(graph, module)
        assert not reached & (EDGES | EDGE_LIBRARIES), f"{module} reaches {sorted(reached & (EDGES | EDGE_LIBRARIES))}"


def test_the_engine_imports_nothing_above_it():
    imports = _imports()
    graph = _graph(imports)
    engine = {m for m in imports if m == "engine" or m.startswith("engine.")}
    assert {"engine.dealer", "engine.jointdealer", "engine.kernels", "engine.residues", "engine.hands", "engine.split",
            "engine.walk"} <= engine
    ours = set(imports)
    for module in sorted(engine):
        reached = nx.descendants(graph, module)
        above = {m for m in reached & ours if m not in engine and m not in BELOW_THE_ENGINE}
        assert not above, f"{module} reaches {sorted(above)}"
        assert not reached & EDGE_LIBRARIES, f"{module} reaches {sorted(reached & EDGE_LIBRARIES)}"


# the engine's foundations: loading the compiled loops, exact integers too large for machine
# words, the disk store of compiled graphs, the pools and the allocator's settings; every engine
# module may use them and they use no other engine module
ENGINE_FOUNDATIONS = {"engine.kernels", "engine.residues", "engine.store", "engine.pools", "engine.allocator"}


def test_the_engine_foundations_import_no_engine_module():
    imports = _imports()
    for module in sorted(ENGINE_FOUNDATIONS):
        inside = {m for m in imports[module] if m.startswith("engine.")}  # the package itself is its docstring
        assert not inside, f"{module} imports {sorted(inside)}"


def test_the_compiled_loops_are_loaded_in_one_module():
    # engine/kernels.py loads both optional C extensions and says whether each may run
    loaders = set()
    for path, module in _module_names().items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [alias.name for alias in node.names] + [getattr(node, "module", None) or ""]
                if any(name.rsplit(".", 1)[-1] in ("_dealer_kernel", "_player_kernel") for name in names):
                    loaders.add(module)
    assert loaders == {"engine.kernels"}, loaders


def test_the_checks_see_the_imports():
    # the walker itself: modules known to import click, the dealer and the front door
    imports = _imports()
    assert "click" in imports["cli.common"] and "engine.dealer" in imports["engine.context"]
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


def _calls(name: str) -> dict[str, int]:
    """Module -> how many times its code calls something named ``name`` (``f()``, ``m.f()``)."""
    out = {}
    for path, module in _module_names().items():
        calls = [node for node in ast.walk(ast.parse(path.read_text(), str(path))) if isinstance(node, ast.Call)
                 and (getattr(node.func, "id", None) == name or getattr(node.func, "attr", None) == name)]
        if calls:
            out[module] = len(calls)
    return out


def test_pools_are_made_in_one_module():
    # ../shared/STYLE.md, no hidden state: every thread and process pool is made in
    # bjcalc/engine/pools.py, whose docstring says which exist, who uses them and how they end
    for executor in ("ThreadPoolExecutor", "ProcessPoolExecutor", "Thread", "Pool"):
        assert set(_calls(executor)) <= {"engine.pools"}, (executor, _calls(executor))
    assert _calls("ThreadPoolExecutor") == {"engine.pools": 1}
    assert _calls("ProcessPoolExecutor") == {"engine.pools": 1}


def _id_keys(tree: ast.AST) -> list[int]:
    """Lines where ``id(...)`` is used as (part of) a key: in a subscript, a ``key = ...``
    tuple, a dict key, an ``in`` test, the argument of ``.get``/``.setdefault``/``.pop``, or
    what a digest is ``.update``-d with."""
    def has_id(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Call) and getattr(n.func, "id", None) == "id" for n in ast.walk(node))

    lines = []
    for node in ast.walk(tree):
        keys: list[ast.AST] = []
        if isinstance(node, ast.Subscript):
            keys.append(node.slice)
        elif isinstance(node, ast.Dict):
            keys.extend(k for k in node.keys if k is not None)
        elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            keys.append(node.left)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("get", "setdefault", "pop"):
            keys.extend(node.args[:1])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "update":  # a digest's input
            keys.extend(node.args)
        elif isinstance(node, ast.Assign) and any("key" in getattr(t, "id", "") for t in node.targets):
            keys.append(node.value)
        lines += [node.lineno for key in keys if has_id(key)]
    return lines


def test_no_cache_is_keyed_by_id():
    # a cache keyed by id() confuses a dropped object with a new one at the same address, or
    # keeps the object alive to prevent that: caches are keyed by value (../shared/STYLE.md)
    found = {module: lines for path, module in _module_names().items()
             if (lines := _id_keys(ast.parse(path.read_text(), str(path))))}
    assert not found, f"id() used as a key: {found}"
    # the check sees a key made of id()
    assert _id_keys(ast.parse("key = (id(x), 1)\nif id(y) in cache: cache[id(y)] = 1")) == [1, 2, 2]
    assert _id_keys(ast.parse("digest.update(repr((id(x), 1)).encode())")) == [1]


def test_the_thread_pools_end_and_come_back():
    import threading

    from bjcalc import Analysis, Rules
    from bjcalc.engine import pools

    rules = Rules(shoe=(4,) * 9 + (16,))
    edge = Analysis(rules).round().ev  # the ahead thread runs its dealer passes
    assert pools.ahead_thread() is pools.ahead_thread()  # one pool, kept
    pools.shutdown()
    assert not [t for t in threading.enumerate() if t.name.startswith("bjcalc-ahead")]
    assert Analysis(rules).round().ev == edge  # a new pool, the same numbers
    names = {t.name.rsplit("_", 1)[0] for t in threading.enumerate() if t.name.startswith("bjcalc")}
    assert names <= {"bjcalc-ahead", "bjcalc-dealer"}


# the counting layer reads one job per module (issue 43): its modules and functions stay short
COUNTING_MODULE_LINES = 600
COUNTING_FUNCTION_LINES = 60


def test_the_counting_layer_keeps_its_modules_and_functions_short():
    too_long = []
    for path, module in sorted(_module_names().items()):
        if not module.startswith("counting"):
            continue
        source = path.read_text()
        if len(source.splitlines()) > COUNTING_MODULE_LINES:
            too_long.append(f"{module}: {len(source.splitlines())} lines")
        for node in ast.walk(ast.parse(source, str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if length > COUNTING_FUNCTION_LINES:
                    too_long.append(f"{module}.{node.name}: {length} lines")
    assert not too_long, too_long

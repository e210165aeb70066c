"""The package's imports form no cycle and run one way (issue 16, DESIGN.md "Reproductions as
data"): cli → experiments/reproduce → fluid display → simulation/fluid/stability → analysis
→ display → results/scenario → units/errors. Read from the source with `ast`, every import
counted: top level, inside functions and under `if TYPE_CHECKING:` (an annotation-only
import is still a tie, and a circle through one is a circle; issue 32).

Notebook display sits above the types it shows: `Results._repr_html_` and
`FluidResult._repr_html_` look their display up in `aqmlab._repr`, which `aqmlab/__init__.py`
fills (a display is named by module path, so it is imported on first display); the
registrations are checked here like imports."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "aqmlab"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The aqmlab modules `name` imports anywhere (top level, inside functions, under
    `if TYPE_CHECKING:`)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def resolve(target: str) -> None:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target.startswith("aqmlab") and target != name:
            found.add(target)

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                resolve(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                resolve(full if full in known else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(), str(path)))
    return found


def graph() -> dict[str, set[str]]:
    """Module → the aqmlab modules it imports; compiled modules (`_engine`, known by their
    `.pyi` stubs) are leaves."""
    known = modules()
    names = set(known) | {module_name(stub) for stub in PACKAGE.rglob("*.pyi")}
    return {name: imports_of(name, path, names) for name, path in known.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                return stack[stack.index(target) :] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


#: Layers, lowest first; a module may import its own layer or lower ones only. The longest
#: matching prefix decides a module's layer; "*.cli" modules are the command line.
LAYERS = [
    (
        "units/errors",
        [
            "aqmlab.units",
            "aqmlab.errors",
            "aqmlab._fields",
            "aqmlab._declarations",
            "aqmlab._repr",
            "aqmlab._engine",
            "aqmlab.machine",
            "aqmlab._toml",
            "aqmlab.display",
            "aqmlab.summary",
            "aqmlab.progress",
            "aqmlab._signals",
            "aqmlab._fsio",
            "aqmlab.workload",
            "aqmlab._arrow",
            "aqmlab.extensions",  # user classes by reference (issue 31): imports errors and _engine only
            "aqmlab._fsio",
        ],
    ),
    (
        "results/scenario",
        [
            "aqmlab.results",
            # The per-packet trace's table and writers, which `Results` builds from the engine.
            "aqmlab.traces",
            "aqmlab.scenario",
            "aqmlab.queues",
            "aqmlab.topology",
            "aqmlab.traffic",
            "aqmlab.transport",
            "aqmlab.congestion",
            "aqmlab.kinds",  # each kind of the unions above, one module per kind (issue 28)
        ],
    ),
    # Figures and notebook display of results (and writing a run directory with its figures).
    ("display", ["aqmlab.plots", "aqmlab.notebook", "aqmlab.results_io"]),
    ("analysis", ["aqmlab.analysis"]),
    ("simulation/fluid/stability", ["aqmlab.simulation", "aqmlab.fluid", "aqmlab.stability", "aqmlab.design"]),
    # Figures and notebook display of a FluidResult, above aqmlab.fluid's models and results.
    ("fluid display", ["aqmlab.fluid.plots", "aqmlab.fluid.notebook"]),
    # Notebook and text display of the stability results (Roots, HopfPoint, Chart, Diagram, ...).
    ("stability display", ["aqmlab.stability.notebook"]),
    ("experiments/reproduce", ["aqmlab.experiments", "aqmlab.reproduce"]),
    # Tables and notebook display of a Study and a PacketChart, above the types they show.
    ("experiments display", ["aqmlab.experiments.display"]),
    ("report", ["aqmlab.report"]),
    (
        "cli",
        ["aqmlab.cli", "aqmlab.demo", "aqmlab._lazy_cli", "aqmlab.chart_cli", "aqmlab.cli_common", "aqmlab.reference"],
    ),
]


def layer(name: str) -> int:
    if name == "aqmlab" or name.endswith(".cli"):
        return len(LAYERS) - 1
    matches = [
        (len(prefix), index)
        for index, (_, prefixes) in enumerate(LAYERS)
        for prefix in prefixes
        if name == prefix or name.startswith(prefix + ".")
    ]
    if not matches:
        raise AssertionError(f"module {name} has no layer in tests/architecture/test_imports.py LAYERS")
    return max(matches)[1]


def test_the_reader_sees_function_local_imports():
    edges = graph()
    assert "aqmlab.reproduce" in edges["aqmlab.cli"]  # imported inside the `reproduce` command
    assert "aqmlab.simulation" in edges["aqmlab.reproduce.runner"]  # inside run_packet


def test_the_reader_sees_type_checking_imports(tmp_path):
    assert "aqmlab.results" in graph()["aqmlab.plots"]  # `if TYPE_CHECKING:` (annotations)
    source = tmp_path / "probe.py"
    source.write_text(
        "import typing\nfrom typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from aqmlab.results import Results\n"
        "if typing.TYPE_CHECKING:\n    import aqmlab.plots\nelse:\n    from aqmlab import notebook\n"
    )
    known = {"aqmlab.results", "aqmlab.plots", "aqmlab.notebook", "aqmlab.probe"}
    assert imports_of("aqmlab.probe", source, known) == {"aqmlab.results", "aqmlab.plots", "aqmlab.notebook"}


def test_no_import_cycle_among_aqmlab_modules():
    cycle = find_cycle(graph())
    assert cycle is None, "import cycle: " + " → ".join(cycle)


def test_a_cycle_is_found():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_old_display_circles_would_be_found():
    """Issue 32's circles, put back on a copy of today's graph: a result type importing its
    display (`Results._repr_html_` importing aqmlab.notebook, which draws with aqmlab.plots,
    which annotates with Results) is a cycle and an upward import."""
    for result, display in (("aqmlab.results", "aqmlab.notebook"), ("aqmlab.fluid.result", "aqmlab.fluid.notebook")):
        edges = {name: set(targets) for name, targets in graph().items()}
        edges[result].add(display)
        cycle = find_cycle(edges)
        assert cycle is not None and result in cycle and display in cycle, cycle
        assert layer(display) > layer(result)


def test_a_display_sits_above_the_type_it_shows():
    """The registrations in aqmlab/__init__.py are imports by name: each resolves to a
    function of a module in a layer above (or beside) the type's, which imports nothing of
    the display layer itself."""
    from aqmlab import _repr

    registered = _repr.registered()
    assert {"aqmlab.results.Results", "aqmlab.fluid.result.FluidResult"} <= set(registered)
    edges = graph()
    for type_name, (module, function) in registered.items():
        home = type_name.rpartition(".")[0]
        assert home in edges and module in edges, (type_name, module)
        assert callable(getattr(importlib.import_module(module), function)), (module, function)
        assert layer(module) > layer(home), f"{module} displays {type_name} from below it"
        assert module not in edges[home], f"{home} imports its display {module}"


def display_methods() -> list[tuple[str, str, ast.FunctionDef]]:
    """(type name, method, definition) of every `_repr_html_` and `__repr__` in the package."""
    found = []
    for name, path in modules().items():
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name in ("_repr_html_", "__repr__"):
                        found.append((f"{name}.{node.name}", item.name, item))
    return found


def test_no_result_type_imports_its_display():
    """A type's notebook display (`_repr_html_`) only asks `aqmlab._repr` (`return
    _repr.html(self)`) and is registered there; a `__repr__` either formats the object itself
    or asks `_repr.text(self)`; and no module of a registered type imports any registered
    display module, anywhere (issue 32)."""
    from aqmlab import _repr

    html_types, text_types = _repr.registered(), _repr.registered_text()
    for type_name, method, definition in display_methods():
        body = [statement for statement in definition.body if not isinstance(statement, ast.Expr)]
        asks = ast.unparse(body[0]) if len(body) == 1 else ""
        if method == "_repr_html_":
            assert asks == "return _repr.html(self)", f"{type_name}._repr_html_ draws itself: {asks or 'several lines'}"
            assert type_name in html_types, f"{type_name} has no display registered in aqmlab/__init__.py"
        elif asks == "return _repr.text(self)":
            assert type_name in text_types, f"{type_name} has no text display registered in aqmlab/__init__.py"
        imports = {node for node in ast.walk(definition) if isinstance(node, ast.Import | ast.ImportFrom)}
        assert not imports, f"{type_name}.{method} imports {[ast.unparse(node) for node in imports]}"
    displays = {module for module, _ in [*html_types.values(), *text_types.values()]}
    edges = graph()
    for type_name in {*html_types, *text_types}:
        home = type_name.rpartition(".")[0]
        assert not displays & edges[home], f"{home} imports display {sorted(displays & edges[home])}"


def test_a_type_that_draws_itself_is_found(tmp_path, monkeypatch):
    """The check above reads the definitions: a `_repr_html_` importing its display fails it."""
    probe = ast.parse(
        "class Probe:\n    def _repr_html_(self):\n        from aqmlab.notebook import png\n        return png(self)\n"
    )
    definition = probe.body[0].body[0]
    monkeypatch.setitem(globals(), "display_methods", lambda: [("x.Probe", "_repr_html_", definition)])
    try:
        test_no_result_type_imports_its_display()
    except AssertionError as error:
        assert "draws itself" in str(error)
    else:
        raise AssertionError("a _repr_html_ that imports its display passed")


def test_imports_run_one_way():
    upward = []
    for name, targets in graph().items():
        if name == "aqmlab":  # the package's public names: simulate, Results, Scenario
            continue
        for target in targets:
            if target != "aqmlab" and layer(target) > layer(name):
                upward.append(f"{name} ({LAYERS[layer(name)][0]}) imports {target} ({LAYERS[layer(target)][0]})")
    assert not upward, "\n".join(sorted(upward))


def test_nothing_below_the_command_line_imports_it():
    offenders = sorted(
        name
        for name, targets in graph().items()
        if {"aqmlab.cli", "aqmlab.demo"} & targets and layer(name) < len(LAYERS) - 1
    )
    assert not offenders, offenders


#: Ties that must not come back (issue 26): experiments read the general measures from
#: `aqmlab.analysis`, not from the reproduction suite above them.
FORBIDDEN = [
    ("aqmlab.experiments", "aqmlab.reproduce"),
    ("aqmlab.analysis", "aqmlab.experiments"),
    ("aqmlab.analysis", "aqmlab.reproduce"),
    ("aqmlab.stability", "aqmlab.experiments"),
]


def test_forbidden_ties_stay_gone():
    def under(name: str, prefix: str) -> bool:
        return name == prefix or name.startswith(prefix + ".")

    ties = sorted(
        f"{name} imports {target}"
        for name, targets in graph().items()
        for target in targets
        for low, high in FORBIDDEN
        if under(name, low) and under(target, high)
    )
    assert not ties, "\n".join(ties)


def test_the_engine_is_called_through_aqmlab_simulation_only():
    """`aqmlab._engine` needs NumPy imported first (aqmlab.simulation says why); every other
    module, `aqmlab validate` included, reaches it through `aqmlab.simulation` (issue 32)."""
    importers = sorted(name for name, targets in graph().items() if "aqmlab._engine" in targets)
    assert importers == ["aqmlab.simulation"], importers

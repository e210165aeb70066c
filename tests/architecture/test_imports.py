"""The package's imports form no cycle and run one way (issue 16, DESIGN.md "Reproductions as
data"): cli → experiments/reproduce → simulation/fluid/stability → results/scenario →
units/errors. Read from the source with `ast`, function-local imports included;
`if TYPE_CHECKING:` blocks are skipped (they never run)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "aqmlab"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The aqmlab modules `name` imports anywhere (top level or inside functions)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def resolve(target: str) -> None:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target.startswith("aqmlab") and target != name:
            found.add(target)

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                visit(child)
            return
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


#: Layers, lowest first; a module may import its own layer or lower ones only. The first
#: matching prefix decides a module's layer; "*.cli" modules are the command line.
LAYERS = [
    (
        "units/errors",
        [
            "aqmlab.units",
            "aqmlab.errors",
            "aqmlab._fields",
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
            "aqmlab._fsio",
        ],
    ),
    (
        "results/scenario",
        [
            "aqmlab.results",
            "aqmlab.results_io",
            "aqmlab.plots",
            "aqmlab.notebook",
            "aqmlab.scenario",
            "aqmlab.queues",
            "aqmlab.topology",
            "aqmlab.traffic",
            "aqmlab.transport",
            "aqmlab.congestion",
        ],
    ),
    ("analysis", ["aqmlab.analysis"]),
    ("simulation/fluid/stability", ["aqmlab.simulation", "aqmlab.fluid", "aqmlab.stability", "aqmlab.design"]),
    ("experiments/reproduce/report", ["aqmlab.experiments", "aqmlab.reproduce", "aqmlab.report"]),
    (
        "cli",
        ["aqmlab.cli", "aqmlab.demo", "aqmlab._lazy_cli", "aqmlab.chart_cli", "aqmlab.cli_common", "aqmlab.reference"],
    ),
]


def layer(name: str) -> int:
    if name == "aqmlab" or name.endswith(".cli"):
        return len(LAYERS) - 1
    for index, (_, prefixes) in enumerate(LAYERS):
        if any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes):
            return index
    raise AssertionError(f"module {name} has no layer in tests/architecture/test_imports.py LAYERS")


def test_the_reader_sees_function_local_imports():
    edges = graph()
    assert "aqmlab.reproduce" in edges["aqmlab.cli"]  # imported inside the `reproduce` command
    assert "aqmlab.simulation" in edges["aqmlab.reproduce.runner"]  # inside run_packet


def test_no_import_cycle_among_aqmlab_modules():
    cycle = find_cycle(graph())
    assert cycle is None, "import cycle: " + " → ".join(cycle)


def test_a_cycle_is_found():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


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

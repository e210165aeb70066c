"""The engine's modules form no circle (issue 32): in `crates/engine/src`, read as text, every
`crate::`, `super::` and `self::` path of a file (test modules included, as the Python check
counts imports under TYPE_CHECKING and inside functions) is a tie from the file's module to the
module the path names. Ties between a module and its own ancestors or descendants (a `mod.rs`
and its children) are how Rust nests modules; between siblings (`queue` and `link`,
`tcp::recovery::sack` and `tcp::recovery::prr`) they must run one way."""

from __future__ import annotations

import graphlib
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "crates" / "engine" / "src"

Module = tuple[str, ...]

#: A path from the crate root or relative to the module, with an optional `{...}` group.
PATH = re.compile(r"\b((?:crate|super|self)(?:::\w+)*)(?:::\{([^{}]*)\})?")


def module_of(path: Path, src: Path = SRC) -> Module:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return tuple(parts)


def resolve(current: Module, path: str, modules: set[Module]) -> Module | None:
    """The module `path` names from `current`: the longest prefix that is a module."""
    parts = path.split("::")
    if parts[0] == "crate":
        base, rest = (), parts[1:]
    elif parts[0] == "self":
        base, rest = current, parts[1:]
    else:
        base = current
        while parts and parts[0] == "super":
            base, parts = base[:-1], parts[1:]
        rest = parts
    for name in rest:
        if base + (name,) not in modules:
            break
        base += (name,)
    return base


def sibling_ties(src: Path = SRC) -> dict[Module, set[Module]]:
    """Module → the sibling modules it (or a module below it) names."""
    files = {module_of(path, src): path for path in src.rglob("*.rs")}
    modules = set(files)
    ties: dict[Module, set[Module]] = {}
    for module, path in files.items():
        text = re.sub(r"//.*", "", path.read_text())
        for match in PATH.finditer(text):
            prefix, group = match.groups()
            names = [item.strip().split("::")[0].split(" ")[0] for item in (group or "").split(",")]
            paths = [f"{prefix}::{name}" for name in names if name[:1].isalpha()] if group else [prefix]
            for target in filter(None, (resolve(module, p, modules) for p in paths)):
                common = 0
                while common < min(len(module), len(target)) and module[common] == target[common]:
                    common += 1
                if common < len(module) and common < len(target):
                    ties.setdefault(module[: common + 1], set()).add(target[: common + 1])
    return ties


def circle(ties: dict[Module, set[Module]]) -> list[Module] | None:
    try:
        graphlib.TopologicalSorter(ties).prepare()
    except graphlib.CycleError as error:
        return error.args[1]
    return None


def test_no_circle_among_engine_modules():
    ties = sibling_ties()
    assert ("queue",) in ties and ("tcp",) in ties[("sim",)], "the reader sees the engine's ties"
    found = circle(ties)
    assert found is None, "engine modules in a circle: " + " -> ".join("::".join(m) for m in found)


def test_a_circle_through_a_test_module_is_found(tmp_path):
    (tmp_path / "lib.rs").write_text("pub mod link;\npub mod queue;\n")
    (tmp_path / "link.rs").write_text("use crate::queue::Queue;\n")
    queue = tmp_path / "queue"
    queue.mkdir()
    (queue / "mod.rs").write_text("pub struct Queue;\n#[cfg(test)]\nmod lindley_tests;\n")
    (queue / "lindley_tests.rs").write_text("use super::*;\nuse crate::{link::Link, rng};\n")
    ties = sibling_ties(tmp_path)
    assert ties == {("link",): {("queue",)}, ("queue",): {("link",)}}
    assert set(circle(ties)) == {("link",), ("queue",)}
    (queue / "lindley_tests.rs").write_text("use super::*;\n")
    assert circle(sibling_ties(tmp_path)) is None, "a child naming its parent is no circle"

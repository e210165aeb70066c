"""docs/extending.md shows its example files as they are (the other tests run them), and its
scenario snippets are valid scenario fields that run."""

from __future__ import annotations

import re

import aqmlab
from aqmlab import _toml
from extending_scenarios import ROOT, dumbbell_60

GUIDE = (ROOT / "docs" / "extending.md").read_text()
#: The engine files the Rust route shows lines of: a queue policy's and a window law's own
#: file and their registries.
RUST_ROUTE = {"queue/threshold.rs", "queue/mod.rs", "tcp/cc/scalable.rs", "tcp/cc/mod.rs"}


def test_every_example_file_is_shown_whole_and_unchanged():
    shown = re.findall(r"<!-- file: (\S+) -->\n```python\n(.*?)```", GUIDE, flags=re.S)
    assert {path for path, _ in shown} == {
        "docs/extending/python_red.py",
        "docs/extending/python_aimd.py",
        "docs/extending/primal_model.py",
    }
    for path, code in shown:
        assert code == (ROOT / path).read_text(), f"docs/extending.md shows an old {path}"


def test_the_rust_routes_lines_are_in_the_files_they_name():
    """The Rust route's one file and one registry line are shown as the engine has them."""
    excerpts = re.findall(r"<!-- excerpt: (\S+) -->\n\s*```rust\n(.*?)```", GUIDE, flags=re.S)
    assert {path for path, _ in excerpts} == {f"crates/engine/src/{path}" for path in RUST_ROUTE}
    for path, code in excerpts:
        lines = {line.strip() for line in (ROOT / path).read_text().splitlines()}
        for line in filter(None, (line.strip() for line in code.splitlines())):
            assert line in lines, f"docs/extending.md shows {line!r}, which {path} does not have"


def test_the_guides_red_is_at_most_40_lines():
    assert len((ROOT / "docs" / "extending" / "python_red.py").read_text().splitlines()) <= 40


def test_the_scenario_snippets_run(monkeypatch):
    monkeypatch.chdir(ROOT)  # the references are relative to the working directory
    snippets = re.findall(r"<!-- scenario -->\n```toml\n(.*?)```", GUIDE, flags=re.S)
    assert len(snippets) == 2
    bottleneck = _toml.loads(snippets[0])["topology"]["bottleneck"]
    group = _toml.loads(snippets[1])["topology"]["groups"][0]
    scenario = dumbbell_60("2s")
    scenario["topology"]["bottleneck"] = {**scenario["topology"]["bottleneck"], **bottleneck}
    scenario["topology"]["groups"][0] = {**scenario["topology"]["groups"][0], **group}
    results = aqmlab.simulate(scenario)
    assert results.finished and results.counters["packets_delivered"] > 0


def test_the_guide_is_linked_from_the_readme_and_the_fluid_page():
    assert "docs/extending.md" in (ROOT / "README.md").read_text()
    assert "extending.md" in (ROOT / "docs" / "fluid.md").read_text()

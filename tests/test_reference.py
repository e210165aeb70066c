"""The scenario reference (issue 18 point 6): docs/scenario.md and docs/scenario.schema.json are
what `aqmlab schema` generates from the models, cover every model field, and the JSON Schema
accepts the examples."""

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest
from aqmlab import _toml
from aqmlab._fields import UNIT_TEXTS, Kinds
from aqmlab.experiments.sweep import SweepFile
from aqmlab.reference import markdown, scenario_schema
from aqmlab.scenario import Scenario
from pydantic import BaseModel

ROOT = Path(__file__).parents[1]


def _models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    kinds = [meta for meta in getattr(annotation, "__metadata__", ()) if isinstance(meta, Kinds)]
    if kinds:  # a union of kinds: its members (aqmlab.kinds), not the base it is annotated with
        yield from kinds[0].models().values()
        return
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for argument in get_args(annotation):
        yield from _models_in(argument)


def _reachable_models() -> set[type[BaseModel]]:
    """Every model a scenario or sweep file can contain, found through the field annotations."""
    found: set[type[BaseModel]] = set()
    pending: list[type[BaseModel]] = [Scenario, SweepFile]
    while pending:
        model = pending.pop()
        if model not in found:
            found.add(model)
            for field in model.model_fields.values():  # pydantic keeps a field's own Annotated in `metadata`
                kinds = [meta for meta in field.metadata if isinstance(meta, Kinds)]
                pending.extend(kinds[0].models().values() if kinds else _models_in(field.annotation))
    return found


def _documented_models() -> list[type[BaseModel]]:
    return sorted(
        _reachable_models(),
        key=lambda model: (model.__module__, model.__name__),
    )


def _sections(page: str) -> dict[str, str]:
    """The Markdown page by `## ` heading."""
    return {part.split("\n", 1)[0]: part for part in page.split("\n## ")[1:]}


def test_the_docs_page_and_schema_file_are_current():
    assert (ROOT / "docs" / "scenario.md").read_text() == markdown(), "run: aqmlab schema --out docs --force"
    assert json.loads((ROOT / "docs" / "scenario.schema.json").read_text()) == scenario_schema(), (
        "run: aqmlab schema --out docs --force"
    )


def test_every_field_of_every_model_is_documented_with_its_default():
    schema = scenario_schema()
    page = markdown()
    for name, model in [("Scenario", schema), *schema["$defs"].items()]:
        for field in model.get("properties", {}):
            assert f"| `{field}` |" in page, f"{name}.{field} missing"
    assert "| `rtt` | duration > 0 (unit; number = seconds), e.g. `200ms` or table [UniformRtt]" in page
    assert "## Sweep files" in page


def test_every_field_of_every_model_has_a_description():
    modules = {model.__module__ for model in _documented_models()}
    assert {"aqmlab.scenario", "aqmlab.traffic", "aqmlab.kinds.topology_dumbbell", "aqmlab.kinds.queue_red"} <= modules
    assert "aqmlab.experiments.sweep" in modules
    missing = [
        f"{model.__module__}.{model.__name__}.{name}"
        for model in _documented_models()
        for name, field in model.model_fields.items()
        if not (field.description or "").strip()
    ]
    assert not missing, "give each field a docstring (the string literal right after it): " + ", ".join(missing)


def test_the_reference_shows_every_field_description_once_without_the_unit_text():
    sections = _sections(markdown())
    for model in _documented_models():
        section = sections["Sweep files" if model is SweepFile else model.__name__]
        for name, field in model.model_fields.items():
            description = " ".join(field.description.split()).replace("|", "\\|")
            row = next(line for line in section.splitlines() if line.startswith(f"| `{field.alias or name}` |"))
            assert row.endswith(f"| {description} |"), row
            assert not any(text in row.split(" | ")[-1] for text in UNIT_TEXTS.values()), row
    delay = sections["Bottleneck"].splitlines()
    assert (
        "| `delay` | duration (unit; number = seconds), e.g. `200ms` | — |  | "
        "One-way propagation delay of the bottleneck, in each direction. |"
    ) in delay


def test_the_json_schema_gives_a_quantity_field_its_description_and_its_unit():
    delay = scenario_schema()["$defs"]["Bottleneck"]["properties"]["delay"]
    assert delay["description"] == (
        "One-way propagation delay of the bottleneck, in each direction. "
        "Duration: a string with a unit, e.g. '200ms'; a number is seconds."
    )
    assert delay["x-unit"] == "seconds"


@pytest.mark.parametrize("example", sorted((ROOT / "examples").glob("*.toml")), ids=lambda p: p.name)
def test_the_json_schema_accepts_every_example(example):
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(_toml.loads(example.read_text()), scenario_schema())


def test_schema_command_prints_markdown_and_json():
    page = subprocess.run([sys.executable, "-m", "aqmlab.cli", "schema"], capture_output=True, text=True, check=True)
    assert page.stdout == markdown()
    text = subprocess.run(
        [sys.executable, "-m", "aqmlab.cli", "schema", "--json"], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(text)["title"] == "aqmlab scenario"

"""The scenario reference (issue 18 point 6): docs/scenario.md and docs/scenario.schema.json are
what `aqmlab schema` generates from the models, cover every model field, and the JSON Schema
accepts the examples."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from aqmlab import _toml
from aqmlab.reference import markdown, scenario_schema

ROOT = Path(__file__).parents[1]


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

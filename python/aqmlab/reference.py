"""The scenario and sweep reference, generated from the pydantic models.

`aqmlab schema` prints it as Markdown (docs/scenario.md is this output) or, with `--json`, the
JSON Schema of a scenario file (docs/scenario.schema.json), which editors use to validate and
complete TOML (e.g. with a `#:schema ./docs/scenario.schema.json` first line for taplo /
Even Better TOML). A test keeps both files equal to what the models generate.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

INTRODUCTION = """\
# Scenario and sweep files: reference

Generated from the pydantic models by `aqmlab schema` (do not edit by hand; `aqmlab schema
--out docs --force` rewrites it, and a test checks it is current). The JSON Schema of a
scenario file is `docs/scenario.schema.json` (`aqmlab schema --json`): editors validate and
complete a scenario with it, e.g. with a first line `#:schema ../docs/scenario.schema.json`
(taplo / Even Better TOML; the path is relative to the scenario file).

**Units.** Durations, rates and sizes are strings with a unit: `"200ms"`, `"10us"` / `"10µs"`,
`"100Mbps"` = `"100 Mb/s"` = `"100 Mbit/s"` (bits; the prefix's case is ignored, so `"100mbps"` is
also 100 megabit/s), `"12.5MB/s"` (bytes per second: upper-case `B`), `"1500B"`, `"64KiB"`,
queue limits `"2084p"` (packets) or `"3MB"`. A string without a unit (`rtt = "10"`) is an
error naming the field; ambiguous spellings (`"100MBPS"`, `"1500b"`) are refused with a
suggestion. A number that is not a string is taken in SI base units — seconds, bit/s, bytes
(a bare integer queue limit is packets) — as each field below says.

**Reading the tables.** *type* gives the accepted values (for a quantity, its unit and an
example); *default* is used when the field is absent (— means required); *bounds* are the
allowed range. A field whose type is a table with `kind` is one of several forms, each
listed under its own heading.
"""

SWEEP_INTRODUCTION = """\
## Sweep files

A sweep (`aqmlab sweep FILE --out DIR`) is a base scenario and axes over any of its fields.
A dotted path names a scenario field as written in the file, list items by index:
`"topology.groups.0.rtt" = ["10ms", "200ms"]`. Values take the same units as in a scenario.
"""


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario file (draft 2020-12, as pydantic writes it). A quantity
    field's description is its own followed by its unit's, so an editor shows both."""
    from aqmlab._fields import UNIT_TEXTS

    schema = _model_schema()
    for model in [schema, *schema.get("$defs", {}).values()]:
        for spec in model.get("properties", {}).values():
            unit_text = UNIT_TEXTS.get(spec.get("x-quantity", ""))
            if unit_text is not None and spec.get("description", unit_text) != unit_text:
                spec["description"] = f"{spec['description']} {unit_text[0].upper()}{unit_text[1:]}."
    return schema


def _model_schema() -> dict[str, Any]:
    """The models' JSON Schema, each field's description as written on the model."""
    from aqmlab.scenario import Scenario

    schema = Scenario.model_json_schema()
    for model in [schema, *schema.get("$defs", {}).values()]:
        cc = model.get("properties", {}).get("cc")
        if cc is not None and "discriminator" in cc:
            # `cc = "reno"` is shorthand for `cc = { kind = "reno" }` (transport.Tcp._cc_shorthand).
            kinds = sorted(cc["discriminator"]["mapping"])
            default = {key: cc.pop(key) for key in ("default",) if key in cc}
            description = cc.pop("description", "congestion control: a name, or a table with `kind` and parameters")
            model["properties"]["cc"] = {
                "anyOf": [{"type": "string", "enum": kinds}, cc],
                "description": description,
                **default,
            }
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "aqmlab scenario"
    return schema


def _type(spec: dict[str, Any], defs: dict[str, Any]) -> str:
    if "x-unit" in spec:
        return f"{spec['x-quantity']} (unit; number = {spec['x-unit']}), e.g. `{spec['examples'][0]}`"
    if "$ref" in spec:
        return f"table [{spec['$ref'].rsplit('/', 1)[-1]}](#{spec['$ref'].rsplit('/', 1)[-1].lower()})"
    if "const" in spec:
        return f"`{json.dumps(spec['const'])}`"
    if "enum" in spec:
        return " or ".join(f"`{json.dumps(v)}`" for v in spec["enum"])
    for key in ("anyOf", "oneOf"):
        if key in spec:
            options = [_type(option, defs) for option in spec[key] if option.get("type") != "null"]
            nullable = any(option.get("type") == "null" for option in spec[key])
            return " or ".join(dict.fromkeys(options)) + (" (optional)" if nullable else "")
    kind = spec.get("type")
    if kind == "array":
        return f"list of {_type(spec.get('items', {}), defs)}"
    if kind == "object":
        return "table"
    return {"number": "number", "integer": "integer", "string": "string", "boolean": "boolean"}.get(kind, "any")


def _bounds(spec: dict[str, Any]) -> str:
    parts = []
    for key, sign in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"), ("exclusiveMaximum", "<")):
        if key in spec:
            value = spec[key]
            shown = f"{value:,}" if isinstance(value, int) and abs(value) >= 10**6 else f"{value:g}"
            parts.append(f"{sign} {shown}" if isinstance(value, int | float) else f"{sign} {value}")
    for key in ("minItems", "minLength"):
        if key in spec:
            parts.append(f"at least {spec[key]} {'items' if key == 'minItems' else 'characters'}")
    for option in spec.get("anyOf", []):
        inner = _bounds(option)
        if inner and "x-unit" not in spec:
            parts.append(inner)
    return ", ".join(dict.fromkeys(parts))


def _default(name: str, spec: dict[str, Any], required: set[str]) -> str:
    if name in required:
        return "—"
    if "default" not in spec:
        return "(computed)"
    return f"`{json.dumps(spec['default'], ensure_ascii=False)}`"


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _table(model: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    """The field table of one model's schema."""
    from aqmlab._fields import UNIT_TEXTS

    required = set(model.get("required", []))
    lines = ["| field | type | default | bounds | description |", "|---|---|---|---|---|"]
    for field, spec in model["properties"].items():
        description = spec.get("description", "")
        if description == UNIT_TEXTS.get(spec.get("x-quantity", "")):
            description = ""  # no description of its own, only its unit's: the type column says that
        lines.append(
            f"| `{field}` | {_cell(_type(spec, defs))} | {_cell(_default(field, spec, required))} | "
            f"{_cell(_bounds(spec))} | {_cell(description)} |"
        )
    return lines


def markdown() -> str:
    """docs/scenario.md: every model, field, unit, default, bound and description."""
    from aqmlab.experiments.sweep import SweepFile

    schema = _model_schema()
    defs = schema.get("$defs", {})
    sections = [INTRODUCTION]
    ordered = [("Scenario", schema), *sorted(defs.items())]
    for name, model in ordered:
        if not model.get("properties"):
            continue
        lines = [f"## {name}", "", _cell(model.get("description", "")), "", *_table(model, defs)]
        sections.append("\n".join(lines) + "\n")
    sweep = SweepFile.model_json_schema()
    sections.append("\n".join([SWEEP_INTRODUCTION, *_table(sweep, sweep.get("$defs", {}))]) + "\n")
    return "\n".join(sections)


def schema_command(
    json_schema: Annotated[
        bool, typer.Option("--json", help="Print the JSON Schema instead of the Markdown reference.")
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Write scenario.md and scenario.schema.json into this directory instead."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace those files in OUT if they exist.")] = False,
) -> None:
    """The scenario and sweep reference (Markdown) or, with --json, the scenario JSON Schema;
    with --out DIR both files (`aqmlab schema --out docs --force` regenerates the docs)."""
    schema_text = json.dumps(scenario_schema(), indent=2, ensure_ascii=False) + "\n"
    if out is None:
        print(schema_text if json_schema else markdown(), end="")
        return
    from aqmlab.cli_common import refuse_to_overwrite

    files = {out / "scenario.md": markdown(), out / "scenario.schema.json": schema_text}
    for path in files:
        refuse_to_overwrite(path, force)
    out.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text)
        print(f"wrote {path}")

"""Each scenario field is declared once, as a pydantic field; its engine form is derived from
that declaration (issue 32).

A field's declaration gives its name, default and bounds (`Field(ge=..., le=...)`), its
documentation (the attribute docstring) and, for a quantity, its unit (the `x-unit` of the
quantity types in `aqmlab._fields`). From these, `engine_fields` builds what the engine reads:

- a quantity is converted to the integer SI unit the engine counts in, and its key gets that
  unit's suffix: a duration `target` becomes `target_ns` in nanoseconds, a rate `rate` becomes
  `rate_bps`, a size `mtu` becomes `mtu_bytes`; a queue limit stays `limit`, as
  {"packets": n} or {"bytes": n};
- any other field keeps its name and value;
- `Engine(key=..., convert=...)` in the field's `Annotated` metadata names a different key or
  conversion where the engine's name is not the derived one (`mean_packet_size` is
  `mean_packet_bytes` there), `Engine(omit=True)` keeps a field on the Python side and
  `Engine(omit_default=True)` sends it only when set off its default.

The engine receives these values and checks only its own invariants; that the two sides agree
on every field's name and on the values the bounds admit is tested against the engine's own
list of fields (`tests/architecture/test_declarations.py`).
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, WithJsonSchema
from pydantic.fields import FieldInfo

from aqmlab import units


@dataclass(frozen=True)
class Engine:
    """Where the engine's name or form of a field is not the derived one."""

    key: str | None = None
    """The engine's key (default: the field name, with the unit suffix for a quantity)."""
    convert: Callable[[Any], Any] | None = None
    """The engine's value of a set field (default: the quantity's conversion, else the value)."""
    omit: bool = False
    """The field stays on the Python side (the engine gets something derived from it)."""
    omit_default: bool = False
    """Sent only when set off its declared default, which the engine's `#[serde(default)]`
    repeats (options added after scenarios were hashed: their resolved JSON stays as it was)."""


@dataclass(frozen=True)
class EngineUnit:
    """The unit the engine counts one kind of quantity in: its key suffix and the conversion."""

    suffix: str
    convert: Callable[[Any], Any]
    symbol: str
    """The engine's unit ("ns", "bps", "B"; "" for a queue limit, which names its own)."""
    per_si: float
    """Engine units in one SI unit of the declaration (`x-unit`): 1e9 ns in a second."""


#: By the `x-unit` of a quantity type (`aqmlab._fields`): what the engine counts it in.
ENGINE_UNITS: dict[str, EngineUnit] = {
    "seconds": EngineUnit("_ns", units.nanoseconds, "ns", 1e9),
    "bit/s": EngineUnit("_bps", units.bits_per_second, "bps", 1.0),
    "bytes": EngineUnit("_bytes", units.bytes_, "B", 1.0),
    "packets": EngineUnit("", units.queue_limit, "", 1.0),
}


@dataclass(frozen=True)
class EngineField:
    """One field as the engine reads it."""

    name: str
    """The Python field."""
    key: str
    """The engine's key."""
    convert: Callable[[Any], Any] | None
    """Applied to a value that is not None (None: passed as it is)."""
    unit: str | None
    """The quantity's unit on the Python side (`x-unit`), None for a plain value."""
    omit_default: bool = False
    """Left out while the field has its declared default `default`."""
    default: Any = None
    engine_unit: EngineUnit | None = None
    """The unit the engine counts a quantity in (None: a plain value)."""


def quantity_unit(annotation: Any) -> str | None:
    """The `x-unit` of the quantity type inside an annotation (through `X | None`), or None."""
    for meta in getattr(annotation, "__metadata__", ()):
        if isinstance(meta, WithJsonSchema) and isinstance(meta.json_schema, dict):
            unit = meta.json_schema.get("x-unit")
            if unit is not None:
                return unit
    for argument in typing.get_args(annotation):
        unit = quantity_unit(argument)
        if unit is not None:
            return unit
    return None


def _field_unit(info: FieldInfo) -> str | None:
    for meta in info.metadata:
        if isinstance(meta, WithJsonSchema) and isinstance(meta.json_schema, dict) and "x-unit" in meta.json_schema:
            return meta.json_schema["x-unit"]
    return quantity_unit(info.annotation)


def _engine_field(name: str, info: FieldInfo) -> EngineField | None:
    override = next((meta for meta in info.metadata if isinstance(meta, Engine)), Engine())
    if override.omit:
        return None
    unit = _field_unit(info)
    engine_unit = ENGINE_UNITS.get(unit) if unit is not None else None
    if unit is not None and engine_unit is None:
        raise TypeError(f"{name}: no engine unit for quantities in {unit!r} (add it to ENGINE_UNITS)")
    key = override.key or name + (engine_unit.suffix if engine_unit else "")
    convert = override.convert or (engine_unit.convert if engine_unit else None)
    default = info.get_default(call_default_factory=True)
    return EngineField(name, key, convert, unit, override.omit_default, default, engine_unit)


@functools.cache
def declared_fields(model: type[BaseModel]) -> tuple[EngineField, ...]:
    """The fields of a model class as the engine reads them, in declaration order."""
    found = (_engine_field(name, info) for name, info in model.__pydantic_fields__.items())
    return tuple(field for field in found if field is not None)


def engine_field(model: type[BaseModel], name: str) -> EngineField:
    """One declared field as the engine reads it (KeyError for a field the engine does not get)."""
    for field in declared_fields(model):
        if field.name == name:
            return field
    raise KeyError(f"{model.__name__}.{name} is not sent to the engine")


def si_value(config: dict[str, Any], model: type[BaseModel], name: str) -> Any:
    """A declared field of an engine config back in the declaration's SI unit (a duration in
    seconds), read under its engine key."""
    field = engine_field(model, name)
    value = config[field.key]
    return value / field.engine_unit.per_si if field.engine_unit is not None and value is not None else value


def engine_key(model: type[BaseModel], name: str) -> str:
    """The engine's key of one declared field."""
    return engine_field(model, name).key


def engine_fields(model: BaseModel) -> dict[str, Any]:
    """The engine's dict of a validated model: every declared field, converted."""
    resolved: dict[str, Any] = {}
    for field in declared_fields(type(model)):
        value = getattr(model, field.name)
        if field.omit_default and value == field.default:
            continue
        resolved[field.key] = value if value is None or field.convert is None else field.convert(value)
    return resolved


class Resolved:
    """A scenario model whose engine dict is exactly its declared fields, converted: mix it in
    before the pydantic base (`class FixedStart(Resolved, Model)`)."""

    def resolved(self) -> dict[str, Any]:
        return engine_fields(self)  # type: ignore[arg-type]

"""Scenarios: what to simulate, as validated pydantic models with unit strings.

A scenario is written in TOML (see `examples/`) or built in Python; `Scenario.resolved()`
turns it into the engine's JSON in SI base units (integer nanoseconds, bits per second,
bytes, packets). Validation errors name the field, the value and what is allowed.

Topology kinds, queue kinds and congestion-control kinds are tagged unions on `kind`, so
later capabilities add a member without touching the others.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import tomllib
from pydantic import Field, ValidationError, model_validator

from aqmlab import units
from aqmlab._fields import Duration, Model, PositiveDuration
from aqmlab.errors import ScenarioError
from aqmlab.queues import AdaptiveRed, Avq, DropTail, Ered, Queue, RandomDrop, Red, RedVq, Threshold
from aqmlab.topology import Bottleneck, Dumbbell, Network, ParkingLot, Topology
from aqmlab.traffic import FlowGroup
from aqmlab.transport import Tcp

# --- Topologies --------------------------------------------------------------------------


class Trace(Model):
    """What the sampled time series record."""

    interval: PositiveDuration = "10ms"
    flows: int = Field(default=100, ge=0)


# --- The scenario ------------------------------------------------------------------------

#: Default measurement window: the last 25 s (seed 000 Section V), or the second half of
#: runs shorter than 50 s.
DEFAULT_MEASURE_SECONDS = 25.0


class Scenario(Model):
    """A packet-level experiment: topology, traffic, duration and what to trace."""

    name: str = "scenario"
    description: str = ""
    duration: PositiveDuration
    measure_start: Duration | None = None
    seed: int = Field(default=1, ge=0, lt=2**64)
    topology: Topology
    trace: Trace = Field(default_factory=Trace)

    @model_validator(mode="after")
    def _check(self) -> Scenario:
        if self.measure_start is not None and units.seconds(self.measure_start) >= units.seconds(self.duration):
            raise ValueError(f"measure_start ({self.measure_start!r}) must be before the end ({self.duration!r})")
        return self

    @property
    def duration_s(self) -> float:
        return units.seconds(self.duration)

    @property
    def measure_start_s(self) -> float:
        if self.measure_start is not None:
            return units.seconds(self.measure_start)
        duration = self.duration_s
        return duration - DEFAULT_MEASURE_SECONDS if duration >= 2 * DEFAULT_MEASURE_SECONDS else duration / 2

    def resolved(self) -> dict[str, Any]:
        """The engine's scenario: SI base units, every default filled in."""
        return {
            "duration_ns": units.nanoseconds(self.duration),
            "measure_start_ns": round(self.measure_start_s * 1e9),
            "topology": self.topology.resolved(),
            "trace": {"interval_ns": units.nanoseconds(self.trace.interval), "flows": self.trace.flows},
        }

    def resolved_json(self) -> str:
        return json.dumps(self.resolved(), sort_keys=True)

    def with_changes(self, **changes: Any) -> Scenario:
        """A copy with top-level fields replaced, validated again."""
        return Scenario.from_dict({**self.model_dump(), **changes})

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, source: str = "scenario") -> Scenario:
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            raise ScenarioError(format_validation_error(error, source, data)) from None

    @classmethod
    def from_toml(cls, path: str | Path) -> Scenario:
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text())
        except FileNotFoundError:
            raise ScenarioError(f"{path}: no such scenario file") from None
        except tomllib.TOMLDecodeError as error:
            raise ScenarioError(f"{path}: not valid TOML: {error}") from None
        return cls.from_dict(data, source=str(path))


def _field_path(loc: tuple[Any, ...], data: Any) -> str:
    """The location as the user wrote it: pydantic puts the tag of a tagged union
    (`red`, `tcp`, ...) into the location; drop those by walking the input."""
    parts, node = [], data
    for index, part in enumerate(loc):
        if isinstance(node, dict) and part == node.get("kind", "tcp"):
            following = loc[index + 1] if index + 1 < len(loc) else None
            inner = node.get(part)
            field_of_node = following in node and not (isinstance(inner, dict) and following in inner)
            if part not in node or field_of_node:
                continue  # a union tag, not a field
        parts.append(str(part))
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            node = None
    return ".".join(parts) or "(top level)"


def format_validation_error(error: ValidationError, source: str, data: Any = None) -> str:
    """One line per problem: `field.path: message (got value)`."""
    lines = [f"{source}: {error.error_count()} problem(s)"]
    for item in error.errors(include_url=False):
        location = _field_path(item["loc"], data)
        message = item["msg"].removeprefix("Value error, ")
        given = item.get("input")
        shown = "" if isinstance(given, dict | list) else f" (got {given!r})"
        lines.append(f"  {location}: {message}{shown}")
    return "\n".join(lines)


def load(source: str | Path | dict[str, Any] | Scenario) -> Scenario:
    """A scenario from a TOML path, a dict or a `Scenario`."""
    if isinstance(source, Scenario):
        return source
    if isinstance(source, dict):
        return Scenario.from_dict(source)
    return Scenario.from_toml(source)


__all__ = [
    "Bottleneck",
    "Dumbbell",
    "Network",
    "ParkingLot",
    "Topology",
    "DropTail",
    "RandomDrop",
    "Red",
    "Threshold",
    "Ered",
    "RedVq",
    "AdaptiveRed",
    "Avq",
    "Queue",
    "Scenario",
    "Tcp",
    "Trace",
    "FlowGroup",
    "load",
    "format_validation_error",
]


def embedded_scenario(name: str) -> Scenario:
    """One of the scenarios shipped inside the package (`aqmlab/scenarios/NAME.toml`, also in
    `examples/`)."""
    from importlib import resources

    path = resources.files("aqmlab") / "scenarios" / f"{name}.toml"
    if not path.is_file():
        known = sorted(p.name.removesuffix(".toml") for p in (resources.files("aqmlab") / "scenarios").iterdir())
        raise ScenarioError(f"embedded scenario {name!r} does not exist; known: {', '.join(known)}")
    with resources.as_file(path) as file:
        return Scenario.from_toml(file)

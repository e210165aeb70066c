"""Field types shared by the scenario models: unit-string quantities and the base model.

Each quantity type validates with `aqmlab.units` (one plain validator, so an error reads
`topology.groups.0.rtt: '-10ms' must be ...`, not pydantic's union internals) and carries its
JSON Schema: the accepted spellings, the SI unit of a bare number and an example — what
`aqmlab schema` and docs/scenario.md show for every such field.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, PlainValidator, WithJsonSchema

from aqmlab import units


def _quantity(parse, *, positive: bool):
    def check(value: Any) -> Any:
        if parse(value) == 0 and positive:  # parse raises for anything malformed or negative
            raise ValueError(f"{value!r} must be greater than zero")
        return value

    return PlainValidator(check)


def _schema(kind: str, unit: str, example: str, pattern: str, minimum_exclusive: bool) -> WithJsonSchema:
    number: dict[str, Any] = {"type": "number"}
    number["exclusiveMinimum" if minimum_exclusive else "minimum"] = 0
    return WithJsonSchema(
        {
            "anyOf": [{"type": "string", "pattern": pattern}, number],
            "description": f"{kind}: a string with a unit, e.g. {example!r}; a number is {unit}",
            "examples": [example],
            "x-unit": unit,
        }
    )


_TIME = r"^\s*[0-9.]+([eE][-+]?[0-9]+)?\s*(s|ms|us|µs|μs|ns|min|h|sec|msec|usec|nsec)\s*$"
_RATE = r"^\s*[0-9.]+([eE][-+]?[0-9]+)?\s*[kKmMgGtT]?(bps|b/s|bit/s|bits/s|Bps|B/s|byte/s|bytes/s)\s*$"
_SIZE = r"^\s*[0-9.]+([eE][-+]?[0-9]+)?\s*([kKmMgG]i?)?(B|bytes?|bits?)\s*$"
_LIMIT = r"^\s*[0-9.]+([eE][-+]?[0-9]+)?\s*(p|pkts?|packets?|([kKmMgG]i?)?(B|bytes?))\s*$"

Number = int | float | str
Duration = Annotated[
    Number, _quantity(units.seconds, positive=False), _schema("duration", "seconds", "200ms", _TIME, False)
]
PositiveDuration = Annotated[
    Number, _quantity(units.seconds, positive=True), _schema("duration > 0", "seconds", "200ms", _TIME, True)
]
Rate = Annotated[
    Number, _quantity(units.bits_per_second, positive=True), _schema("bit rate > 0", "bit/s", "100Mbps", _RATE, True)
]
Size = Annotated[Number, _quantity(units.bytes_, positive=True), _schema("size > 0", "bytes", "1500B", _SIZE, True)]
QueueLimit = Annotated[
    Number,
    _quantity(units.queue_limit, positive=False),
    WithJsonSchema(
        {
            "anyOf": [{"type": "string", "pattern": _LIMIT}, {"type": "integer", "minimum": 1}],
            "description": "queue limit: packets ('2084p') or bytes ('3MB'); a bare integer is packets",
            "examples": ["2084p"],
            "x-unit": "packets",
        }
    ),
]


class Model(BaseModel):
    """Frozen, and unknown fields are errors (a typo never passes silently)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

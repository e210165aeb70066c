"""Scenarios: what to simulate, as validated pydantic models with unit strings.

A scenario is written in TOML (see `examples/`) or built in Python; `Scenario.resolved()`
turns it into the engine's JSON in SI base units (integer nanoseconds, bits per second,
bytes, packets). Validation errors name the field, the value and what is allowed.

Topology kinds, queue kinds and congestion-control kinds are tagged unions on `kind`, so
later capabilities add a member without touching the others.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from aqmlab import units
from aqmlab.congestion import CongestionControl, Reno
from aqmlab.errors import ScenarioError


def _checked(parse):
    def check(value):
        parse(value)
        return value

    return AfterValidator(check)


def _positive(parse):
    def check(value):
        if parse(value) <= 0:
            raise ValueError(f"{value!r} must be greater than zero")
        return value

    return AfterValidator(check)


Number = int | float | str
Duration = Annotated[Number, _checked(units.seconds)]
PositiveDuration = Annotated[Number, _positive(units.seconds)]
Rate = Annotated[Number, _positive(units.bits_per_second)]
Size = Annotated[Number, _positive(units.bytes_)]
QueueLimit = Annotated[Number, _checked(units.queue_limit)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- Queue disciplines -------------------------------------------------------------------


class DropTail(_Model):
    """First in, first out; arrivals beyond `limit` are dropped."""

    kind: Literal["drop_tail"] = "drop_tail"
    limit: QueueLimit = "1000p"

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        return {"kind": "drop_tail", "limit": units.queue_limit(self.limit)}


class RandomDrop(_Model):
    """Drops each arrival independently with a fixed `probability` (seed 003 Section II-B)."""

    kind: Literal["random_drop"] = "random_drop"
    limit: QueueLimit = "1000p"
    probability: float = Field(ge=0.0, le=1.0)

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        return {"kind": "random_drop", "limit": units.queue_limit(self.limit), "probability": self.probability}


class Red(_Model):
    """Random Early Detection with ns-2 semantics (Floyd and Jacobson 1993; ns-2 red.cc).

    Thresholds are in packets (bytes when `queue_in_bytes`). `q_weight` is the EWMA
    weight, or ns-2's automatic choice: 0, -1 (default, from link rate and delay) or -2.
    `instantaneous` decides on the current queue (seed 000 eqs. (25)-(26)).
    """

    kind: Literal["red"] = "red"
    limit: QueueLimit = "1000p"
    min_th: float = Field(ge=0.0)
    max_th: float = Field(gt=0.0)
    max_p: float = Field(default=0.1, gt=0.0, le=1.0)
    q_weight: float = -1.0
    gentle: bool = False
    wait: bool = True
    ecn: bool = False
    byte_mode: bool = False
    queue_in_bytes: bool = False
    instantaneous: bool = False
    mean_packet_size: Size = "1500B"

    @model_validator(mode="after")
    def _check(self) -> Red:
        if self.min_th >= self.max_th:
            raise ValueError(f"min_th ({self.min_th}) must be below max_th ({self.max_th})")
        if not (0.0 < self.q_weight <= 1.0 or self.q_weight in (0.0, -1.0, -2.0)):
            raise ValueError(
                f"q_weight = {self.q_weight} is not allowed; give a weight in (0, 1] or "
                "0, -1, -2 for ns-2's automatic weights"
            )
        return self

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        fields = self.model_dump(exclude={"kind", "limit", "mean_packet_size"})
        return {
            "kind": "red",
            "limit": units.queue_limit(self.limit),
            **fields,
            "mean_packet_bytes": units.bytes_(self.mean_packet_size),
            "link_delay_ns": link_delay_ns,
        }


Queue = Annotated[DropTail | RandomDrop | Red, Field(discriminator="kind")]


# --- TCP ---------------------------------------------------------------------------------


def _cc_from_name(value: Any) -> Any:
    return {"kind": value} if isinstance(value, str) else value


class Tcp(_Model):
    """TCP sender/receiver settings shared by every congestion-control algorithm."""

    cc: CongestionControl = Field(default_factory=Reno)
    recovery: Literal["new_reno", "tahoe"] = "new_reno"
    packet_size: Size = "1500B"
    header_size: Size = "40B"
    initial_window: float = Field(default=2.0, gt=0.0)
    initial_ssthresh: float = Field(default=1.0e9, gt=0.0)
    max_window: float = Field(default=1.0e9, ge=1.0)
    min_rto: PositiveDuration = "200ms"
    initial_rto: PositiveDuration = "1s"
    max_rto: PositiveDuration = "60s"
    delayed_ack: bool = False
    delayed_ack_timeout: PositiveDuration = "100ms"
    ecn: bool = False
    dupack_threshold: int = Field(default=3, ge=1)
    limited_transmit: bool = False

    @model_validator(mode="before")
    @classmethod
    def _cc_shorthand(cls, data: Any) -> Any:
        if isinstance(data, dict) and "cc" in data:
            data = {**data, "cc": _cc_from_name(data["cc"])}
        return data

    @model_validator(mode="after")
    def _check(self) -> Tcp:
        if units.bytes_(self.header_size) >= units.bytes_(self.packet_size):
            raise ValueError(f"header_size ({self.header_size}) must be below packet_size ({self.packet_size})")
        if units.seconds(self.min_rto) > units.seconds(self.max_rto):
            raise ValueError(f"min_rto ({self.min_rto}) must not exceed max_rto ({self.max_rto})")
        return self

    def resolved(self) -> dict[str, Any]:
        return {
            "cc": self.cc.model_dump(),
            "recovery": self.recovery,
            "packet_size_bytes": units.bytes_(self.packet_size),
            "header_bytes": units.bytes_(self.header_size),
            "initial_window": self.initial_window,
            "initial_ssthresh": self.initial_ssthresh,
            "max_window": self.max_window,
            "min_rto_ns": units.nanoseconds(self.min_rto),
            "initial_rto_ns": units.nanoseconds(self.initial_rto),
            "max_rto_ns": units.nanoseconds(self.max_rto),
            "delayed_ack": self.delayed_ack,
            "delayed_ack_timeout_ns": units.nanoseconds(self.delayed_ack_timeout),
            "ecn": self.ecn,
            "dupack_threshold": self.dupack_threshold,
            "limited_transmit": self.limited_transmit,
        }


# --- Traffic -----------------------------------------------------------------------------


class UniformStart(_Model):
    """Start times independent and uniform in [low, high]."""

    kind: Literal["uniform"] = "uniform"
    low: Duration = "0s"
    high: Duration = "10s"

    @model_validator(mode="after")
    def _check(self) -> UniformStart:
        if units.seconds(self.low) > units.seconds(self.high):
            raise ValueError(f"low ({self.low}) must not exceed high ({self.high})")
        return self

    def resolved(self) -> dict[str, Any]:
        return {"kind": "uniform", "low_ns": units.nanoseconds(self.low), "high_ns": units.nanoseconds(self.high)}


class FixedStart(_Model):
    """Every flow of the group starts at `at`."""

    kind: Literal["fixed"] = "fixed"
    at: Duration = "0s"

    def resolved(self) -> dict[str, Any]:
        return {"kind": "fixed", "at_ns": units.nanoseconds(self.at)}


class Bulk(_Model):
    """A long-lived flow that always has data to send."""

    kind: Literal["bulk"] = "bulk"

    def resolved(self) -> dict[str, Any]:
        return {"kind": "bulk"}


class Finite(_Model):
    """A transfer of `size`; its completion time is recorded."""

    kind: Literal["finite"] = "finite"
    size: Size

    def resolved(self) -> dict[str, Any]:
        return {"kind": "finite", "bytes": units.bytes_(self.size)}


Start = Annotated[UniformStart | FixedStart, Field(discriminator="kind")]
Transfer = Annotated[Bulk | Finite, Field(discriminator="kind")]


class FlowGroup(_Model):
    """`count` flows with the same TCP, RTT, access link and start-time distribution."""

    name: str = Field(min_length=1)
    count: int = Field(ge=1, le=1_000_000)
    tcp: Tcp = Field(default_factory=Tcp)
    rtt: PositiveDuration
    access_rate: Rate
    access_queue: Queue = Field(default_factory=DropTail)
    receiver_rate: Rate = "1Gbps"
    start: Start = Field(default_factory=UniformStart)
    transfer: Transfer = Field(default_factory=Bulk)

    @model_validator(mode="before")
    @classmethod
    def _transfer_shorthand(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("transfer"), str):
            data = {**data, "transfer": {"kind": data["transfer"]}}
        return data


# --- Topologies --------------------------------------------------------------------------


class Bottleneck(_Model):
    rate: Rate
    delay: Duration
    queue: Queue
    reverse_queue: Queue = Field(default_factory=lambda: DropTail(limit="100000p"))


class Dumbbell(_Model):
    """N sender/receiver pairs sharing one bottleneck link (seed 000 Fig. 5)."""

    kind: Literal["dumbbell"] = "dumbbell"
    bottleneck: Bottleneck
    groups: list[FlowGroup] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> Dumbbell:
        names = [group.name for group in self.groups]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"group names must be unique; repeated: {duplicates}")
        delay = units.seconds(self.bottleneck.delay)
        for index, group in enumerate(self.groups):
            if units.seconds(group.rtt) <= 2 * delay:
                raise ValueError(
                    f"groups[{index}].rtt = {group.rtt!r} must exceed twice the bottleneck delay "
                    f"({self.bottleneck.delay!r}); the rest of the RTT is spent on the edge links"
                )
        return self

    def resolved(self) -> dict[str, Any]:
        delay_ns = units.nanoseconds(self.bottleneck.delay)
        return {
            "kind": "dumbbell",
            "bottleneck": {
                "rate_bps": units.bits_per_second(self.bottleneck.rate),
                "delay_ns": delay_ns,
                "queue": self.bottleneck.queue.resolved(delay_ns),
                "reverse_queue": self.bottleneck.reverse_queue.resolved(delay_ns),
            },
            "groups": [
                {
                    "name": group.name,
                    "count": group.count,
                    "tcp": group.tcp.resolved(),
                    "rtt_ns": units.nanoseconds(group.rtt),
                    "access_rate_bps": units.bits_per_second(group.access_rate),
                    "access_queue": group.access_queue.resolved(0),
                    "receiver_rate_bps": units.bits_per_second(group.receiver_rate),
                    "start": group.start.resolved(),
                    "transfer": group.transfer.resolved(),
                }
                for group in self.groups
            ],
        }


# A tagged union on `kind` once a second topology exists.
Topology = Dumbbell


class Trace(_Model):
    """What the sampled time series record."""

    interval: PositiveDuration = "10ms"
    flows: int = Field(default=100, ge=0)


# --- The scenario ------------------------------------------------------------------------

#: Default measurement window: the last 25 s (seed 000 Section V), or the second half of
#: runs shorter than 50 s.
DEFAULT_MEASURE_SECONDS = 25.0


class Scenario(_Model):
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
            raise ScenarioError(format_validation_error(error, source)) from None

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


def format_validation_error(error: ValidationError, source: str) -> str:
    """One line per problem: `field.path: message (got value)`."""
    lines = [f"{source}: {error.error_count()} problem(s)"]
    for item in error.errors(include_url=False):
        location = ".".join(str(part) for part in item["loc"]) or "(top level)"
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

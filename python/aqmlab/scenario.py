"""Scenarios: what to simulate, as validated pydantic models with unit strings.

A scenario is written in TOML (see `examples/`) or built in Python; `Scenario.resolved()`
turns it into the engine's JSON in SI base units (integer nanoseconds, bits per second,
bytes, packets). Validation errors name the field, the value and what is allowed.

Topology kinds, queue kinds and congestion-control kinds are tagged unions on `kind`, so
later capabilities add a member without touching the others.
"""

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field, ValidationError, model_validator

from aqmlab import units
from aqmlab._declarations import Engine, Resolved
from aqmlab._fields import Duration, Model, PositiveDuration, default_of
from aqmlab.errors import ScenarioError
from aqmlab.queues import Queue
from aqmlab.topology import Topology
from aqmlab.traffic import FlowGroup
from aqmlab.transport import Tcp

if TYPE_CHECKING:  # given by `__getattr__` on first use
    from aqmlab.queues import AdaptiveRed, Avq, DropTail, Ered, RandomDrop, Red, RedVq, Threshold
    from aqmlab.topology import Bottleneck, Dumbbell, Network, ParkingLot

# --- Topologies --------------------------------------------------------------------------


def _no_items() -> list:
    """An empty list, as `list()`: a Python function, whose signature pydantic reads without
    `inspect` parsing a builtin's text signature (which compiles `tokenize`'s expressions,
    ~2 ms of the first validation in a fresh process; issue 28)."""
    return []


class PacketTrace(Model):
    """Which packets the per-packet trace records (`Results.packet_trace`; docs/results.md,
    "Per-packet traces"): every enqueue, dequeue, receive, drop and ECN mark."""

    links: list[str] = Field(default_factory=_no_items)
    """Links by name ("bottleneck", "bottleneck_reverse", a network link's name, or an edge
    role: "access", "receiver", ...; every link of that name); empty: every link the chosen
    flows cross."""
    flows: list[int] = Field(default_factory=_no_items)
    """Flows by id (0-based, in the order of the flows table)."""
    groups: list[int | str] = Field(default_factory=_no_items)
    """Flow groups by name or index: every flow of each. No flows and no groups: every flow
    on the chosen links."""

    @model_validator(mode="after")
    def _check(self) -> "PacketTrace":
        if not (self.links or self.flows or self.groups):
            raise ValueError("give links, flows or groups (leave trace.packets out for no packet trace)")
        for i, flow in enumerate(self.flows):
            if not 0 <= flow < 2**32:
                raise ValueError(f"flows[{i}] = {flow} must be a flow id in [0, 2**32)")
        return self


class Trace(Resolved, Model):
    """What the sampled time series record."""

    interval: PositiveDuration = "10ms"
    """Sampling interval of the link and flow traces; the summary statistics are computed over
    these samples."""
    flows: int = Field(default=100, ge=0, le=2**32 - 1)
    """How many flows the flow trace samples (window, RTT): the first `flows` flows of the
    scenario; 0 for none."""
    packets: Annotated[PacketTrace | None, Engine(omit=True)] = None
    """The per-packet trace of chosen links and flows (off unless given)."""


# --- The scenario ------------------------------------------------------------------------

#: Default measurement window: the last 25 s (seed 000 Section V), or the second half of
#: runs shorter than 50 s.
DEFAULT_MEASURE_SECONDS = 25.0


class Scenario(Model):
    """A packet-level experiment: topology, traffic, duration and what to trace."""

    name: str = "scenario"
    """Name of the scenario, shown in summaries and plots (`aqmlab run` writes to
    `aqmlab-out/run/NAME` unless given `--out`)."""
    description: str = ""
    """Free text: what the scenario is for (not read by the engine)."""
    duration: PositiveDuration
    """Simulated time of the run."""
    measure_start: Duration | None = None
    """Start of the measurement window that ends at `duration` (summary statistics, goodput);
    unset: the last 25 s (seed 000 Section V), or the second half of runs shorter than 50 s."""
    seed: int = Field(default=1, ge=0, lt=2**64)
    """Seed of every random stream; the same scenario and seed give bit-identical results
    (sweeps and `simulate(seed=...)` may give another)."""
    topology: Topology
    """The network and its flow groups: a dumbbell, a parking lot or a general network."""
    trace: Trace = Field(default_factory=default_of(Trace))
    """The sampled time series: how often they are sampled and how many flows they follow."""

    @model_validator(mode="after")
    def _check(self) -> "Scenario":
        if self.measure_start is not None and units.seconds(self.measure_start) >= units.seconds(self.duration):
            raise ValueError(f"measure_start ({self.measure_start!r}) must be before the end ({self.duration!r})")
        # Statistics are over the trace samples in (measure_start, duration]: there must be one.
        interval_ns = units.nanoseconds(self.trace.interval)
        last_sample_ns = units.nanoseconds(self.duration) // interval_ns * interval_ns
        if last_sample_ns <= round(self.measure_start_s * 1e9):
            raise ValueError(
                f"trace.interval ({self.trace.interval!r}) is too long: the measurement window "
                f"[{self.measure_start_s:g}, {self.duration_s:g}] s would hold no trace sample; "
                "give a shorter trace.interval, a longer duration or an earlier measure_start"
            )
        packets = self.trace.packets
        names = [group.name for group in self.topology.groups]
        for i, group in enumerate(packets.groups if packets is not None else []):
            if isinstance(group, str) and group not in names:
                raise ValueError(f"trace.packets.groups[{i}] = {group!r} is not a flow group; groups are {names}")
            if isinstance(group, int) and not 0 <= group < len(names):
                raise ValueError(f"trace.packets.groups[{i}] = {group} is not a group index in [0, {len(names)})")
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
            "trace": self._resolved_trace(),
        }

    def _resolved_trace(self) -> dict[str, Any]:
        trace: dict[str, Any] = self.trace.resolved()
        packets = self.trace.packets
        if packets is not None:
            # A mixed TCP group is several engine groups (one per algorithm): each chosen
            # group stands for all of its engine groups.
            engine_groups, first = [], 0
            for group in self.topology.groups:
                count = len(group.resolved_groups())
                engine_groups.append(list(range(first, first + count)))
                first += count
            names = [group.name for group in self.topology.groups]
            chosen = [index for group in packets.groups for index in engine_groups[_group_index(group, names)]]
            trace["packets"] = {"links": list(packets.links), "flows": list(packets.flows), "groups": chosen}
        return trace

    def resolved_json(self) -> str:
        return json.dumps(self.resolved(), sort_keys=True)

    def with_changes(self, **changes: Any) -> "Scenario":
        """A copy with top-level fields replaced, validated again."""
        return Scenario.from_dict({**self.model_dump(), **changes})

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, source: str = "scenario") -> "Scenario":
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            raise ScenarioError(format_validation_error(error, source, data)) from None
        except RecursionError:
            raise ScenarioError(f"{source}: nested too deeply to be a scenario") from None

    @classmethod
    def from_toml(cls, path: str | Path) -> "Scenario":
        path = Path(path)
        return cls.from_dict(read_toml(path, "scenario"), source=str(path))


def _group_index(group: int | str, names: list[str]) -> int:
    return names.index(group) if isinstance(group, str) else group


def read_toml(path: Path, what: str = "scenario") -> dict[str, Any]:
    """A TOML file as a dict; every way it can fail is a `ScenarioError` naming the file."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such {what} file") from None
    except OSError as error:
        raise ScenarioError(f"{path}: cannot read the {what} file: {error.strerror or error}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise ScenarioError(
            f"{path}: not valid TOML: byte {raw[error.start]:#04x} at line {line} is not UTF-8 (TOML files are UTF-8)"
        ) from None
    from aqmlab import _toml as tomllib  # loaded with the first file (a dict needs no parser)

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:
        raise ScenarioError(f"{path}: not valid TOML here: arrays or tables nested too deeply") from None


def _field_path(loc: tuple[Any, ...], data: Any) -> str:
    """The location as the user wrote it. pydantic puts the tag of a tagged union (`red`,
    `tcp`, `duration`, ...) into the location right after the union's own field or index;
    drop those by walking the input: a tag is the first part after entering a table whose
    `kind` (default `tcp`, the groups' default) it names, or a name under a plain value."""
    parts, node, entered = [], data, True
    for index, part in enumerate(loc):
        last = index == len(loc) - 1
        if isinstance(part, str) and isinstance(node, str | int | float) and not isinstance(node, bool):
            continue  # a plain value has no fields: the tag of a union (a duration or a table)
        if not last and isinstance(part, str) and entered and isinstance(node, dict):
            if part == node.get("kind", "tcp"):
                entered = False
                continue  # the union tag of this table
        parts.append(str(part))
        entered = True
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            node = None
    return ".".join(parts) or "(top level)"


def _known_fields() -> set[str]:
    """Every field name of every scenario model (for "did you mean")."""
    names: set[str] = set()
    for definition in Scenario.model_json_schema().get("$defs", {}).values():
        names.update(definition.get("properties", {}))
    names.update(Scenario.model_fields)
    return names


def format_validation_error(error: ValidationError, source: str, data: Any = None) -> str:
    """`source: field.path: message (got value)`: one line for one problem, else one line
    per problem under a count. A misspelt field is one problem, `unknown field; did you mean
    'access_rate'?`, not also a missing one."""
    import difflib

    items = error.errors(include_url=False)
    located = [(_field_path(item["loc"], data), item) for item in items]
    missing = {path for path, item in located if item["type"] == "missing"}
    known: set[str] | None = None
    lines, explained = [], set()
    for location, item in located:
        if item["type"] == "extra_forbidden":
            parent, _, name = location.rpartition(".")
            siblings = [path.rpartition(".")[2] for path in missing if path.rpartition(".")[0] == parent]
            match = difflib.get_close_matches(name, siblings, n=1, cutoff=0.6)
            if match:
                explained.add(f"{parent}.{match[0]}" if parent else match[0])
            else:
                known = known if known is not None else _known_fields()
                match = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.75)
            hint = f"; did you mean {match[0]!r}?" if match else ""
            lines.append((location, f"{location}: unknown field{hint}"))
            continue
        if item["type"] == "union_tag_invalid":
            lines.append((location, _unknown_kind(location, item, data)))
            continue
        message = item["msg"].removeprefix("Value error, ")
        given = item.get("input")
        hidden = isinstance(given, dict | list) or item["type"] == "missing" or repr(given) in message
        shown = "" if hidden else f" (got {_short(given)})"
        lines.append((location, f"{location}: {message}{shown}"))
    text = [line for location, line in lines if not (location in explained and location in missing)]
    if len(text) == 1:
        return f"{source}: {text[0]}"
    return "\n".join([f"{source}: {len(text)} problems", *(f"  {line}" for line in text)])


def _unknown_kind(location: str, item: dict, data: Any) -> str:
    """`queue.kind: 'redd' is not one of 'drop_tail', ...; did you mean 'red'?` (the field as
    written: `cc: 'bbr' ...` for the shorthand `cc = "bbr"`)."""
    import difflib

    context = item.get("ctx") or {}
    tag = str(context.get("tag"))
    expected = [name.strip().strip("'") for name in str(context.get("expected_tags", "")).split(",") if name.strip()]
    node: Any = data
    for part in location.split("."):
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            node = None
    field = f"{location}.kind" if isinstance(node, dict) else location
    match = difflib.get_close_matches(tag, expected, n=1, cutoff=0.6)
    hint = f"; did you mean {match[0]!r}?" if match else ""
    return f"{field}: {tag!r} is not one of {', '.join(repr(name) for name in expected)}{hint}"


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


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


#: The kinds this module gives by name (`from aqmlab.scenario import Red`), imported on first
#: access from the module that registers them (issue 28: a class is created when first used).
_KINDS_BY_NAME = {
    "aqmlab.queues": ("DropTail", "RandomDrop", "Red", "Threshold", "Ered", "RedVq", "AdaptiveRed", "Avq"),
    "aqmlab.topology": ("Bottleneck", "Dumbbell", "Network", "ParkingLot"),
}


def __getattr__(name: str) -> Any:
    import importlib

    for module, names in _KINDS_BY_NAME.items():
        if name in names:
            value = getattr(importlib.import_module(module), name)
            globals()[name] = value
            return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


def example_names() -> list[str]:
    """The names of the example scenarios bundled in the package (`aqmlab examples`; the
    files `examples/` links to, in `aqmlab/scenarios/`)."""
    from importlib import resources

    folder = resources.files("aqmlab") / "scenarios"
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def load_scenario(target: str | Path) -> Scenario:
    """A scenario from a TOML path or, when the text names no file and is not a path, a
    bundled example (`aqmlab run seed000-fig6-rtt10` from anywhere)."""
    path = Path(target)
    if path.is_file() or str(target).endswith(".toml") or len(path.parts) > 1:
        return Scenario.from_toml(path)
    import difflib

    names = example_names()
    if str(target) in names:
        return embedded_scenario(str(target))
    match = difflib.get_close_matches(str(target), names, n=1, cutoff=0.6)
    hint = f"; did you mean {match[0]!r}?" if match else ""
    raise ScenarioError(f"{target}: no such scenario file, nor a bundled example{hint} (list them: `aqmlab examples`)")

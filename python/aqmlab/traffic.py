"""Flow groups: what the flows of a scenario are, where they start and when they run.

A group is `kind = "tcp"` (the default: long-lived or finite TCP flows, optionally a mix
of algorithms by share), `"udp"` (constant-bit-rate sources) or `"web"` (short TCP
transfers arriving as a Poisson process with heavy-tailed sizes). Every group has an RTT,
an access link, a direction (forward, or reverse for traffic on the ACK path) and start
and stop times.
"""

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Discriminator, Field, Tag, model_validator

from aqmlab import units
from aqmlab._declarations import Engine, Resolved
from aqmlab._fields import Duration, Kinds, Model, PacketSize, PositiveDuration, Rate, Size, default_of
from aqmlab.congestion import CongestionControl
from aqmlab.queues import DropTail, Queue
from aqmlab.transport import Tcp

#: A mean size reaches the engine as a float number of bytes, `mean_bytes`.
MEAN_BYTES = Engine(key="mean_bytes", convert=lambda size: float(units.bytes_(size)))

# --- When flows start and stop ------------------------------------------------------------


class UniformStart(Resolved, Model):
    """Start times independent and uniform in [low, high] (seed 000 Section V: [0, 10 s])."""

    kind: Literal["uniform"] = "uniform"
    """Selects start times drawn uniformly."""
    low: Duration = "0s"
    """Earliest start time."""
    high: Duration = "10s"
    """Latest start time."""

    @model_validator(mode="after")
    def _check(self) -> "UniformStart":
        if units.seconds(self.low) > units.seconds(self.high):
            raise ValueError(f"low ({self.low}) must not exceed high ({self.high})")
        return self


class FixedStart(Resolved, Model):
    """Every flow of the group starts at `at` (web groups: arrivals begin at `at`)."""

    kind: Literal["fixed"] = "fixed"
    """Selects one start time for every flow."""
    at: Duration = "0s"
    """When every flow starts (web groups: when arrivals begin)."""


class Staggered(Resolved, Model):
    """Flow i at `first + i * spacing`: as a start, seed 001 Table I's flows entering 0.5 s
    apart from 100 s; as a stop, leaving 5 s apart from 250 s."""

    kind: Literal["staggered"] = "staggered"
    """Selects times evenly spaced flow by flow."""
    first: Duration
    """Start (or stop) time of the group's first flow."""
    spacing: Duration
    """Time between the starts (or stops) of consecutive flows of the group."""


class NeverStop(Resolved, Model):
    """Flows run to the end of the simulation (or until a finite transfer completes)."""

    kind: Literal["never"] = "never"
    """Selects no stop time."""


class FixedStop(Resolved, Model):
    """Every flow stops taking new data at `at` (UDP: falls silent; web: arrivals end)."""

    kind: Literal["fixed"] = "fixed"
    """Selects one stop time for every flow."""
    at: Duration
    """When every flow stops: a TCP flow sends no new data, finishes what it sent and records
    its end time; a UDP source falls silent; web arrivals end."""


Start = Annotated[UniformStart | FixedStart | Staggered, Kinds("kind")]
Stop = Annotated[NeverStop | FixedStop | Staggered, Kinds("kind")]

# --- What TCP flows send ------------------------------------------------------------------


class Bulk(Resolved, Model):
    """A long-lived flow that always has data to send."""

    kind: Literal["bulk"] = "bulk"
    """Selects a long-lived flow."""


class Finite(Resolved, Model):
    """A transfer of `size`; its completion time is recorded."""

    kind: Literal["finite"] = "finite"
    """Selects a transfer of fixed size."""
    size: Annotated[Size, Engine(key="bytes")]
    """Application data to transfer (headers not counted)."""


Transfer = Annotated[Bulk | Finite, Kinds("kind")]


class Pareto(Resolved, Model):
    """Heavy-tailed sizes: Pareto with `shape` > 1 and mean `mean` (web objects)."""

    kind: Literal["pareto"] = "pareto"
    """Selects Pareto sizes."""
    mean: Annotated[Size, MEAN_BYTES]
    """Mean transfer size (application data); the Pareto scale is mean · (shape − 1) / shape."""
    shape: float = Field(default=1.2, gt=1.0, le=1e6)
    """Shape (tail index) of the Pareto law: above 1, so the mean is finite; the closer to 1,
    the heavier the tail."""


class Exponential(Resolved, Model):
    """Exponentially distributed sizes with mean `mean`."""

    kind: Literal["exponential"] = "exponential"
    """Selects exponential sizes."""
    mean: Annotated[Size, MEAN_BYTES]
    """Mean transfer size (application data)."""


class FixedSize(Resolved, Model):
    """Every transfer of the same `size`."""

    kind: Literal["fixed"] = "fixed"
    """Selects one size for every transfer."""
    size: Annotated[Size, Engine(key="bytes")]
    """Size of every transfer (application data)."""


SizeDistribution = Annotated[Pareto | Exponential | FixedSize, Kinds("kind")]

# --- Where flows go ------------------------------------------------------------------------


def _rtt_kind(value: Any) -> str:
    return "uniform" if isinstance(value, dict | UniformRtt) else "duration"


class UniformRtt(Model):
    """Heterogeneous RTTs: each flow's RTT uniform in [low, high] (seed 001 Table I:
    [30, 130] ms). Flows on a shared access link all use `low`."""

    kind: Literal["uniform"] = "uniform"
    """Selects RTTs drawn uniformly."""
    low: PositiveDuration
    """Smallest RTT, also the RTT of every flow on a shared access link."""
    high: PositiveDuration
    """Largest RTT."""

    @model_validator(mode="after")
    def _check(self) -> "UniformRtt":
        if units.seconds(self.low) > units.seconds(self.high):
            raise ValueError(f"low ({self.low}) must not exceed high ({self.high})")
        return self


#: One RTT for every flow ('100ms') or a uniform spread ({ kind = "uniform", low, high }):
#: told apart by the value's type, so an error names only the form that was written.
Rtt = Annotated[
    Annotated[PositiveDuration, Tag("duration")] | Annotated[UniformRtt, Tag("uniform")], Discriminator(_rtt_kind)
]


class RoutersPath(Resolved, Model):
    """Network topologies: exactly these routers, consecutive ones joined by a link."""

    kind: Literal["routers"] = "routers"
    """Selects an explicit path."""
    routers: list[str] = Field(min_length=2)
    """The routers of the path, first (access links) to last (receiver links); consecutive
    ones must be joined by a link."""


class ShortestPath(Resolved, Model):
    """Network topologies: the path of least propagation delay from `from` to `to`."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_by_name=True, serialize_by_alias=True)

    kind: Literal["shortest"] = "shortest"
    """Selects the shortest path."""
    source: Annotated[str, Engine(key="from")] = Field(alias="from")
    """First router of the path, where the access links attach."""
    target: Annotated[str, Engine(key="to")] = Field(alias="to")
    """Last router of the path, where the receiver links attach; the path taken is the one of
    least propagation delay (the fewest hops on ties)."""


Path = Annotated[RoutersPath | ShortestPath, Kinds("kind")]

# --- Groups -------------------------------------------------------------------------------


class _Group(Model):
    """What every flow group has: a name, an RTT, where its data goes, its edge links and
    when its flows run."""

    name: str = Field(min_length=1)
    """Name of the group in the results (the flows table's `group_name`), unique in the
    scenario; a mixed group's parts are named `name/algorithm`."""
    rtt: Rtt
    """Two-way propagation delay of each flow, queueing excluded. It must exceed twice the
    one-way delay of the core links crossed; the rest is split equally between the access and
    receiver links. One duration, or `{ kind = "uniform", low, high }` to draw each flow's RTT."""
    path: Path | None = None
    """Network topologies (and only they): the routers the group's path crosses, as a list of
    routers or the shortest path between two."""
    crosses: list[str] | None = Field(default=None, min_length=1)
    """Parking lots (and only they): the names of the consecutive links the data crosses, in
    order."""
    access_rate: Rate
    """Rate of each flow's access link, between its host and the first router of the path
    (dumbbell: the left one), in each direction."""
    access_queue: Queue = Field(default_factory=default_of(DropTail))
    """Queue discipline of the group's edge links: access and receiver links, both directions."""
    receiver_rate: Rate = "1Gbps"
    """Rate of each flow's receiver link, between the last router of the path (dumbbell: the
    right one) and its host, in each direction."""
    direction: Literal["forward", "reverse"] = "forward"
    """`"forward"`: data from the access links' side to the receiver links' (dumbbell: left to
    right), ACKs back; `"reverse"`: data the other way, over the reverse links, where it
    competes with the forward flows' ACKs."""
    shared_access: bool = False
    """All flows of the group share one access link and one receiver link (and so their
    queues) instead of one pair each, and a uniform `rtt` gives every flow `low`. Web groups
    always share."""
    start: Start = Field(default_factory=default_of(UniformStart))
    """When the flows start: uniform in [low, high] (default [0, 10 s], seed 000 Section V),
    fixed, or staggered."""
    stop: Stop = Field(default_factory=default_of(NeverStop))
    """When the flows stop: never (default), at a fixed time, or staggered."""

    @property
    def rtt_low_s(self) -> float:
        return units.seconds(self.rtt.low if isinstance(self.rtt, UniformRtt) else self.rtt)

    def _links(self) -> dict[str, Any]:
        low = self.rtt.low if isinstance(self.rtt, UniformRtt) else self.rtt
        spread = units.nanoseconds(self.rtt.high) - units.nanoseconds(low) if isinstance(self.rtt, UniformRtt) else 0
        return {
            "rtt_ns": units.nanoseconds(low),
            "rtt_spread_ns": spread,
            "path": self.path.resolved() if self.path is not None else None,
            "access_rate_bps": units.bits_per_second(self.access_rate),
            "access_queue": self.access_queue.resolved(0),
            "receiver_rate_bps": units.bits_per_second(self.receiver_rate),
            "direction": self.direction,
            "shared_access": self.shared_access,
            "start": self.start.resolved(),
            "stop": self.stop.resolved(),
        }


class Share(Model):
    """A share of a mixed group: this fraction of its flows runs `cc`."""

    share: float = Field(gt=0.0, le=1.0)
    """Fraction of the group's flows in this share; the shares of a mix add up to 1."""
    cc: CongestionControl
    """Congestion control of this share: a name (`"cubic"`) or a table with `kind` and
    parameters."""

    @model_validator(mode="before")
    @classmethod
    def _cc_shorthand(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("cc"), str):
            data = {**data, "cc": {"kind": data["cc"]}}
        return data


def split_by_share(count: int, shares: list[float]) -> list[int]:
    """Largest-remainder rounding: counts that add up to `count` in the given proportions."""
    exact = [count * share / sum(shares) for share in shares]
    counts = [int(value) for value in exact]
    by_remainder = sorted(range(len(shares)), key=lambda i: (exact[i] - counts[i], -i), reverse=True)
    for index in by_remainder[: count - sum(counts)]:
        counts[index] += 1
    return counts


class TcpGroup(_Group):
    """`count` TCP flows; with `mix`, split by share among algorithms (seed 004: 80 %
    Compound, 20 % CUBIC), each share becoming its own group named `name/algorithm`."""

    kind: Literal["tcp"] = "tcp"
    """Selects TCP flows (the default kind of a group)."""
    count: int = Field(ge=1, le=1_000_000)
    """Number of TCP flows in the group."""
    tcp: Tcp = Field(default_factory=default_of(Tcp))
    """TCP settings of every flow: congestion control, packet size, timers, ECN, SACK."""
    transfer: Transfer = Field(default_factory=default_of(Bulk))
    """What each flow sends: `"bulk"` (always has data) or `{ kind = "finite", size }`."""
    mix: list[Share] | None = Field(default=None, min_length=1)
    """Split the flows among congestion controls by share (largest-remainder rounding), each
    share replacing `tcp.cc` and becoming a group `name/algorithm` (seed 004: 80 % Compound,
    20 % CUBIC)."""

    @model_validator(mode="before")
    @classmethod
    def _transfer_shorthand(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("transfer"), str):
            data = {**data, "transfer": {"kind": data["transfer"]}}
        return data

    @model_validator(mode="after")
    def _check_mix(self) -> "TcpGroup":
        if self.mix is not None:
            total = sum(share.share for share in self.mix)
            if abs(total - 1.0) > 1e-9:
                raise ValueError(f"mix shares must add up to 1, not {total:g}")
            kinds = [share.cc.kind for share in self.mix]
            if len(set(kinds)) != len(kinds):
                raise ValueError(f"each algorithm may appear once in mix; got {kinds}")
        return self

    def resolved_groups(self) -> list[dict[str, Any]]:
        if self.mix is None:
            parts = [(self.name, self.count, self.tcp)]
        else:
            counts = split_by_share(self.count, [share.share for share in self.mix])
            parts = [
                (f"{self.name}/{share.cc.kind}", count, self.tcp.model_copy(update={"cc": share.cc}))
                for share, count in zip(self.mix, counts, strict=True)
                if count > 0
            ]
        return [
            {
                "name": name,
                "traffic": {"kind": "tcp", "count": count, "tcp": tcp.resolved(), "transfer": self.transfer.resolved()},
                **self._links(),
            }
            for name, count, tcp in parts
        ]


class UdpGroup(_Group):
    """`count` constant-bit-rate UDP sources of `rate` each (seed 002 Section V-C)."""

    kind: Literal["udp"]
    """Selects UDP sources."""
    count: int = Field(ge=1, le=1_000_000)
    """Number of UDP sources in the group."""
    rate: Rate
    """Sending rate of each source, whole datagrams counted."""
    packet_size: PacketSize = "1500B"
    """Size of each datagram on the wire."""

    def resolved_groups(self) -> list[dict[str, Any]]:
        traffic = {
            "kind": "udp",
            "count": self.count,
            "rate_bps": units.bits_per_second(self.rate),
            "packet_size_bytes": units.bytes_(self.packet_size),
        }
        return [{"name": self.name, "traffic": traffic, **self._links()}]


class WebGroup(_Group):
    """Short TCP transfers arriving as a Poisson process of `arrival_rate` flows per second
    between `start.at` and `stop.at` (or the end), sizes from `size`; all share one access
    link. Seed 000 Section V-B: 50 flows/s of TCP Tahoe adding up to about 2 Mbps (its ns-2
    PackMime-HTTP model is replaced by Poisson arrivals and Pareto sizes here)."""

    kind: Literal["web"]
    """Selects web transfers."""
    arrival_rate: float = Field(gt=0.0, le=1e6, allow_inf_nan=False)
    """Mean arrival rate of the Poisson process of transfers, flows per second (seed 000
    Section V-B: 50)."""
    size: SizeDistribution
    """Distribution of the transfer sizes: Pareto, exponential or fixed."""
    tcp: Tcp = Field(default_factory=default_of(Tcp, recovery="tahoe"))
    """TCP settings of every transfer; default TCP Tahoe (seed 000 Section V-B)."""
    start: FixedStart = Field(default_factory=default_of(FixedStart))
    """When arrivals begin (a fixed time only)."""
    stop: NeverStop | FixedStop = Field(default_factory=default_of(NeverStop), discriminator="kind")
    """When arrivals end: never (the end of the run) or at a fixed time."""

    def resolved_groups(self) -> list[dict[str, Any]]:
        traffic = {
            "kind": "web",
            "arrival_rate_per_s": self.arrival_rate,
            "size": self.size.resolved(),
            "tcp": self.tcp.resolved(),
        }
        links = self._links()
        links["shared_access"] = True
        return [{"name": self.name, "traffic": traffic, **links}]


def _group_kind(value: Any) -> str:
    if isinstance(value, dict):
        return value.get("kind", "tcp")
    return getattr(value, "kind", "tcp")


FlowGroup = Annotated[
    Annotated[TcpGroup, Tag("tcp")] | Annotated[UdpGroup, Tag("udp")] | Annotated[WebGroup, Tag("web")],
    Kinds(_group_kind),
]

"""Flow groups: what the flows of a scenario are, where they start and when they run.

A group is `kind = "tcp"` (the default: long-lived or finite TCP flows, optionally a mix
of algorithms by share), `"udp"` (constant-bit-rate sources) or `"web"` (short TCP
transfers arriving as a Poisson process with heavy-tailed sizes). Every group has an RTT,
an access link, a direction (forward, or reverse for traffic on the ACK path) and start
and stop times.
"""

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, model_validator

from aqmlab import units
from aqmlab._declarations import Engine, Resolved
from aqmlab._fields import Kinds, Model, PositiveDuration, Rate, default_of, kind_attributes
from aqmlab.kinds.queue_drop_tail import DropTail
from aqmlab.kinds.start_uniform import UniformStart
from aqmlab.kinds.stop_never import NeverStop
from aqmlab.queues import Queue

#: A mean size reaches the engine as a float number of bytes, `mean_bytes`.
MEAN_BYTES = Engine(key="mean_bytes", convert=lambda size: float(units.bytes_(size)))

# Each union of kinds below names its members: tag -> "module:Class" in `aqmlab.kinds`, imported
# when a scenario first names the tag (issue 28); the order is the union's (JSON Schema, errors).

# --- When flows start and stop ------------------------------------------------------------

START_KINDS = {
    "uniform": "start_uniform:UniformStart",
    "fixed": "start_fixed:FixedStart",
    "staggered": "staggered:Staggered",
}
STOP_KINDS = {"never": "stop_never:NeverStop", "fixed": "stop_fixed:FixedStop", "staggered": "staggered:Staggered"}
Start = Annotated[Resolved, Kinds("kind", START_KINDS)]
Stop = Annotated[Resolved, Kinds("kind", STOP_KINDS)]

# --- What TCP flows send ------------------------------------------------------------------

TRANSFER_KINDS = {"bulk": "transfer_bulk:Bulk", "finite": "transfer_finite:Finite"}
Transfer = Annotated[Resolved, Kinds("kind", TRANSFER_KINDS)]

SIZE_KINDS = {
    "pareto": "size_pareto:Pareto",
    "exponential": "size_exponential:Exponential",
    "fixed": "size_fixed:FixedSize",
}
SizeDistribution = Annotated[Resolved, Kinds("kind", SIZE_KINDS)]

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


PATH_KINDS = {"routers": "path_routers:RoutersPath", "shortest": "path_shortest:ShortestPath"}
Path = Annotated[Resolved, Kinds("kind", PATH_KINDS)]

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


def split_by_share(count: int, shares: list[float]) -> list[int]:
    """Largest-remainder rounding: counts that add up to `count` in the given proportions."""
    exact = [count * share / sum(shares) for share in shares]
    counts = [int(value) for value in exact]
    by_remainder = sorted(range(len(shares)), key=lambda i: (exact[i] - counts[i], -i), reverse=True)
    for index in by_remainder[: count - sum(counts)]:
        counts[index] += 1
    return counts


def _group_kind(value: Any) -> str:
    if isinstance(value, dict):
        return value.get("kind", "tcp")
    return getattr(value, "kind", "tcp")


GROUP_KINDS = {"tcp": "group_tcp:TcpGroup", "udp": "group_udp:UdpGroup", "web": "group_web:WebGroup"}
FlowGroup = Annotated[_Group, Kinds(_group_kind, GROUP_KINDS)]

__getattr__ = kind_attributes(
    __name__, START_KINDS, STOP_KINDS, TRANSFER_KINDS, SIZE_KINDS, PATH_KINDS, GROUP_KINDS, Share="group_tcp"
)

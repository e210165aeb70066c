"""Topologies of a scenario: the dumbbell (seed 000 Fig. 5), the parking lot (seed 000
Fig. 16, seed 001 Section III-B, seed 004 Fig. 1b) and general networks of routers and
links (seed 002 Fig. 11).

The engine runs two kinds: `dumbbell` and `network`; a parking lot is resolved into a
network of routers `r0 .. rN` joined in series.
"""

import re
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, model_validator

from aqmlab import units
from aqmlab._declarations import Engine, engine_fields
from aqmlab._fields import Duration, Kinds, Model, Rate, default_of
from aqmlab.queues import DropTail, Queue
from aqmlab.traffic import FlowGroup

#: The default reverse queue: DropTail with 100 000 packets, in effect unlimited.
LARGE_REVERSE_BUFFER = default_of(DropTail, limit="100000p")


def _check_unique_groups(groups: list[dict[str, Any]]) -> None:
    names = [group["name"] for group in groups]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ValueError(f"group names must be unique; repeated: {duplicates}")


#: Link names become file names (`figure-NAME.png`) and column values: letters, digits and
#: `_ . -`, starting with a letter or digit, at most 64 characters.
LINK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
#: Names the engine gives the per-flow edge links.
RESERVED_LINK_NAMES = {"access", "access_reverse", "receiver", "receiver_reverse", "bottleneck", "bottleneck_reverse"}


def _check_link_names(names: list[str]) -> None:
    """Every traced name (`name` and `name_reverse`) must be a valid, unique file name, so a
    run never ends with results that cannot be saved, and `link_id` never finds two links."""
    for index, name in enumerate(names):
        if not LINK_NAME.fullmatch(name):
            raise ValueError(
                f"links[{index}].name = {name!r}: a link name is 1-64 letters, digits, '_', '.' or '-', "
                "starting with a letter or digit (it names files such as figure-NAME.png)"
            )
        if name in RESERVED_LINK_NAMES:
            raise ValueError(f"links[{index}].name = {name!r} is reserved for the links the engine adds")
    traced = [traced for name in names for traced in (name, f"{name}_reverse")]
    repeated = sorted({name for name in traced if traced.count(name) > 1})
    if repeated:
        raise ValueError(
            f"link names must be unique, counting the reverse direction NAME_reverse of each link: "
            f"{repeated} would name two links"
        )


def _check_rtt(index: int, group: Any, one_way_s: float, what: str) -> None:
    if group.rtt_low_s <= 2 * one_way_s:
        raise ValueError(
            f"groups[{index}].rtt = {group.rtt!r} must exceed twice the one-way delay of {what} "
            f"({one_way_s * 1000:g} ms); the rest of the RTT is spent on the edge links"
        )


#: A link's queue: resolved by the link, with the link's own delay (`link_fields`).
LINK_QUEUE = Engine(omit=True)


def link_fields(link: Any) -> dict[str, Any]:
    """A link's engine config: its declared fields (aqmlab._declarations), and its two queues
    resolved with its propagation delay (RED's automatic weight reads it)."""
    fields = engine_fields(link)
    fields["queue"] = link.queue.resolved(fields["delay_ns"])
    fields["reverse_queue"] = link.reverse_queue.resolved(fields["delay_ns"])
    return fields


class Bottleneck(Model):
    """The dumbbell's shared link: left router to right router, and back for the reverse direction."""

    rate: Rate
    """Transmission rate of the bottleneck, in each direction."""
    delay: Duration
    """One-way propagation delay of the bottleneck, in each direction."""
    queue: Annotated[Queue, LINK_QUEUE]
    """Queue discipline of the forward direction (left to right: data of forward groups, ACKs
    of reverse ones), a table with `kind` and its parameters."""
    reverse_queue: Annotated[Queue, LINK_QUEUE] = Field(default_factory=LARGE_REVERSE_BUFFER)
    """Queue discipline of the reverse direction (right to left: ACKs of forward groups, data
    of reverse ones). The default, DropTail with 100 000 packets, is in effect unlimited: give
    a real buffer when groups send data that way."""

    def resolved(self) -> dict[str, Any]:
        return link_fields(self)


class Dumbbell(Model):
    """N sender/receiver pairs sharing one bottleneck link (seed 000 Fig. 5)."""

    kind: Literal["dumbbell"] = "dumbbell"
    """Selects the dumbbell."""
    bottleneck: Bottleneck
    """The link every flow crosses."""
    groups: list[FlowGroup] = Field(min_length=1)
    """The flow groups (`[[topology.groups]]`); each flow has its own access and receiver links
    unless its group shares them."""

    @model_validator(mode="after")
    def _check(self) -> "Dumbbell":
        _check_unique_groups(self.resolved_groups())
        for index, group in enumerate(self.groups):
            if group.path is not None or group.crosses is not None:
                raise ValueError(f"groups[{index}]: `path` and `crosses` belong to network and parking-lot topologies")
            _check_rtt(index, group, units.seconds(self.bottleneck.delay), "the bottleneck")
        return self

    def resolved(self) -> dict[str, Any]:
        return {"kind": "dumbbell", "bottleneck": self.bottleneck.resolved(), "groups": self.resolved_groups()}

    def resolved_groups(self) -> list[dict[str, Any]]:
        """The engine's groups: a mixed TCP group becomes one group per algorithm."""
        return [resolved for group in self.groups for resolved in group.resolved_groups()]

    @property
    def traced_links(self) -> list[str]:
        return ["bottleneck", "bottleneck_reverse"]


class CoreLink(Model):
    """A duplex link between two routers; traced as `name` and `name_reverse`."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_by_name=True, serialize_by_alias=True)

    name: str = Field(min_length=1)
    """Name of the link in the results (`NAME` and `NAME_reverse`, also in file names): 1-64
    letters, digits, `_`, `.` or `-`, unique; `access`, `receiver` and `bottleneck` are reserved."""
    source: Annotated[str, Engine(key="from")] = Field(alias="from")
    """The router the forward direction leaves (one of `routers`)."""
    target: Annotated[str, Engine(key="to")] = Field(alias="to")
    """The router the forward direction enters (one of `routers`)."""
    rate: Rate
    """Transmission rate, in each direction."""
    delay: Duration
    """One-way propagation delay, in each direction."""
    queue: Annotated[Queue, LINK_QUEUE]
    """Queue discipline of the forward direction (`from` to `to`), a table with `kind` and its
    parameters."""
    reverse_queue: Annotated[Queue, LINK_QUEUE] = Field(default_factory=LARGE_REVERSE_BUFFER)
    """Queue discipline of the reverse direction (`to` to `from`). The default, DropTail with
    100 000 packets, is in effect unlimited: give a real buffer when data crosses the link
    that way."""

    def resolved(self) -> dict[str, Any]:
        return link_fields(self)


class Network(Model):
    """Routers joined by duplex links; each group's data follows `path` (explicit routers
    or the shortest path), with per-flow access and receiver links at its ends."""

    kind: Literal["network"] = "network"
    """Selects a general network."""
    routers: list[str] = Field(min_length=2)
    """Names of the routers, unique."""
    links: list[CoreLink] = Field(min_length=1)
    """The duplex links between routers (`[[topology.links]]`)."""
    groups: list[FlowGroup] = Field(min_length=1)
    """The flow groups; each needs a `path` through the routers."""

    @model_validator(mode="after")
    def _check(self) -> "Network":
        _check_unique_groups(self.resolved_groups())
        if len(set(self.routers)) != len(self.routers):
            raise ValueError(f"router names must be unique: {self.routers}")
        _check_link_names([link.name for link in self.links])
        known = set(self.routers)
        for index, link in enumerate(self.links):
            for end in (link.source, link.target):
                if end not in known:
                    raise ValueError(
                        f"links[{index}] ({link.name}): unknown router {end!r}; routers are {self.routers}"
                    )
        for index, group in enumerate(self.groups):
            if group.path is None:
                raise ValueError(f"groups[{index}] ({group.name}): a network group needs a `path`")
            if group.crosses is not None:
                raise ValueError(f"groups[{index}]: `crosses` belongs to parking lots; use `path`")
        return self

    def resolved(self) -> dict[str, Any]:
        return {
            "kind": "network",
            "routers": list(self.routers),
            "links": [link.resolved() for link in self.links],
            "groups": self.resolved_groups(),
        }

    def resolved_groups(self) -> list[dict[str, Any]]:
        return [resolved for group in self.groups for resolved in group.resolved_groups()]

    @property
    def traced_links(self) -> list[str]:
        return [name for link in self.links for name in (link.name, f"{link.name}_reverse")]


class SeriesLink(Model):
    """One link of a parking lot."""

    name: str | None = None
    """Name of the link in the results and in the groups' `crosses` (rules as for network
    links); unset: `linkN`, N its position counted from 1."""
    rate: Rate
    """Transmission rate, in each direction."""
    delay: Duration
    """One-way propagation delay, in each direction."""
    queue: Queue
    """Queue discipline of the forward direction (router r(N-1) to rN for link N), a table
    with `kind` and its parameters."""
    reverse_queue: Queue = Field(default_factory=LARGE_REVERSE_BUFFER)
    """Queue discipline of the reverse direction (rN back to r(N-1)). The default, DropTail
    with 100 000 packets, is in effect unlimited: give a real buffer when data crosses the
    link that way."""


class ParkingLot(Model):
    """Links in series between routers r0 .. rN (seed 000 Fig. 16: two 100 Mbps
    bottlenecks, 30 flows cross both, 30 use each one alone). Each group names the
    consecutive links its data `crosses`; links are named `link1`, `link2`, ... unless named."""

    kind: Literal["parking_lot"] = "parking_lot"
    """Selects the parking lot."""
    links: list[SeriesLink] = Field(min_length=2)
    """The links in series, first to last (`[[topology.links]]`): link N joins router r(N-1)
    to rN."""
    groups: list[FlowGroup] = Field(min_length=1)
    """The flow groups; each names the links it `crosses`."""

    @property
    def link_names(self) -> list[str]:
        return [link.name or f"link{i + 1}" for i, link in enumerate(self.links)]

    @model_validator(mode="after")
    def _check(self) -> "ParkingLot":
        names = self.link_names
        _check_link_names(names)
        for index, group in enumerate(self.groups):
            if group.crosses is None:
                raise ValueError(
                    f"groups[{index}] ({group.name}): a parking-lot group needs `crosses`, "
                    f"a list of consecutive links from {names}"
                )
            if group.path is not None:
                raise ValueError(f"groups[{index}]: `path` belongs to networks; use `crosses`")
            first, last = self._span(index, group.crosses)
            one_way = sum(units.seconds(link.delay) for link in self.links[first : last + 1])
            _check_rtt(index, group, one_way, "the links it crosses")
        _check_unique_groups(self.resolved_groups())
        return self

    def _span(self, index: int, crosses: list[str]) -> tuple[int, int]:
        names = self.link_names
        unknown = [name for name in crosses if name not in names]
        if unknown:
            raise ValueError(f"groups[{index}].crosses: unknown links {unknown}; links are {names}")
        positions = [names.index(name) for name in crosses]
        if positions != list(range(positions[0], positions[0] + len(positions))):
            raise ValueError(f"groups[{index}].crosses = {crosses}: links must be consecutive, in order {names}")
        return positions[0], positions[-1]

    def resolved(self) -> dict[str, Any]:
        names = self.link_names
        routers = [f"r{i}" for i in range(len(self.links) + 1)]
        links = [
            CoreLink.model_validate(
                {
                    "name": name,
                    "from": routers[i],
                    "to": routers[i + 1],
                    "rate": link.rate,
                    "delay": link.delay,
                    "queue": link.queue,
                    "reverse_queue": link.reverse_queue,
                }
            )
            for i, (name, link) in enumerate(zip(names, self.links, strict=True))
        ]
        groups = []
        for index, group in enumerate(self.groups):
            first, last = self._span(index, group.crosses)
            for resolved in group.resolved_groups():
                resolved["path"] = {"kind": "routers", "routers": routers[first : last + 2]}
                groups.append(resolved)
        return {"kind": "network", "routers": routers, "links": [link.resolved() for link in links], "groups": groups}

    def resolved_groups(self) -> list[dict[str, Any]]:
        return self.resolved()["groups"]

    @property
    def traced_links(self) -> list[str]:
        return [name for link in self.link_names for name in (link, f"{link}_reverse")]


Topology = Annotated[Dumbbell | ParkingLot | Network, Kinds("kind")]

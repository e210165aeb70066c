"""ParkingLot (and its SeriesLink): the scenario model of `kind = "parking_lot"`, in a module of its
own so that its classes are created only when a scenario names the kind (the registry
`aqmlab.topology.TOPOLOGY_KINDS`; issue 28)."""

from typing import Any, Literal

from pydantic import Field, model_validator

from aqmlab import units
from aqmlab._fields import Duration, Model, Rate
from aqmlab.kinds.topology_network import CoreLink
from aqmlab.queues import Queue
from aqmlab.topology import LARGE_REVERSE_BUFFER, _check_link_names, _check_rtt, _check_unique_groups
from aqmlab.traffic import FlowGroup


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

"""Network (and its CoreLink): the scenario model of `kind = "network"`, in a module of its own so
that its classes are created only when a scenario names the kind (the registry
`aqmlab.topology.TOPOLOGY_KINDS`; issue 28)."""

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, model_validator

from aqmlab._declarations import Engine
from aqmlab._fields import Duration, Model, Rate
from aqmlab.queues import Queue
from aqmlab.topology import LARGE_REVERSE_BUFFER, LINK_QUEUE, _check_link_names, _check_unique_groups, link_fields
from aqmlab.traffic import FlowGroup


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

"""Dumbbell (and its Bottleneck): the scenario model of `kind = "dumbbell"`, in a module of its own
so that its classes are created only when a scenario names the kind (the registry
`aqmlab.topology.TOPOLOGY_KINDS`; issue 28)."""

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from aqmlab import units
from aqmlab._fields import Duration, Model, Rate
from aqmlab.queues import Queue
from aqmlab.topology import LARGE_REVERSE_BUFFER, LINK_QUEUE, _check_rtt, _check_unique_groups, link_fields
from aqmlab.traffic import FlowGroup


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

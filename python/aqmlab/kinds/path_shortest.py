"""ShortestPath: the scenario model of `kind = "shortest"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.traffic.PATH_KINDS`; issue 28)."""

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from aqmlab._declarations import Engine, Resolved
from aqmlab._fields import Model


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

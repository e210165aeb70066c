"""RoutersPath: the scenario model of `kind = "routers"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.traffic.PATH_KINDS`; issue 28)."""

from typing import Literal

from pydantic import Field

from aqmlab._declarations import Resolved
from aqmlab._fields import Model


class RoutersPath(Resolved, Model):
    """Network topologies: exactly these routers, consecutive ones joined by a link."""

    kind: Literal["routers"] = "routers"
    """Selects an explicit path."""
    routers: list[str] = Field(min_length=2)
    """The routers of the path, first (access links) to last (receiver links); consecutive
    ones must be joined by a link."""

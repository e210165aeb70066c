"""WebGroup: the scenario model of `kind = "web"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.traffic.GROUP_KINDS`; issue 28)."""

from typing import Any, Literal

from pydantic import Field

from aqmlab._fields import default_of
from aqmlab.kinds.start_fixed import FixedStart
from aqmlab.kinds.stop_fixed import FixedStop
from aqmlab.kinds.stop_never import NeverStop
from aqmlab.traffic import SizeDistribution, _Group
from aqmlab.transport import Tcp


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

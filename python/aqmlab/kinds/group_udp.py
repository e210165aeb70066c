"""UdpGroup: the scenario model of `kind = "udp"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.traffic.GROUP_KINDS`; issue 28)."""

from typing import Any, Literal

from pydantic import Field

from aqmlab import units
from aqmlab._fields import PacketSize, Rate
from aqmlab.traffic import _Group


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

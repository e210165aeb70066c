"""Avq: the scenario model of `kind = "avq"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.queues.QUEUE_KINDS`; issue 28)."""

from typing import Annotated, Any, Literal

from pydantic import Field

from aqmlab._fields import MAX_BYTES, PacketSize, QueueLimit
from aqmlab.queues import MEAN_PACKET_BYTES, QueueModel, _limit_in_units


class Avq(QueueModel):
    """Adaptive Virtual Queue (Kunniyur and Srikant 2001): drop or mark an arrival that would
    overflow a virtual buffer served at C̃, with dC̃/dt = α(γC − λ). `virtual_buffer` defaults
    to the real buffer (packets, or bytes with `queue_in_bytes`)."""

    kind: Literal["avq"] = "avq"
    """Selects AVQ."""
    limit: QueueLimit = "1000p"
    """Buffer size of the real queue: an arrival that does not fit in it is dropped."""
    gamma: float = Field(default=0.98, gt=0.0, le=1.0)
    """Desired utilisation γ: the virtual capacity C̃ adapts so that arrivals approach γ · C
    (Kunniyur and Srikant 2001's simulations)."""
    alpha: float = Field(default=0.15, gt=0.0, le=1e6)
    """Gain α of the capacity update dC̃/dt = α (γC − λ) (Kunniyur and Srikant 2001's simulations)."""
    virtual_buffer: float | None = Field(default=None, gt=0.0, le=MAX_BYTES)
    """Virtual buffer B̃: an arrival that would overflow it is marked or dropped; packets
    (bytes with `queue_in_bytes`). Unset: the real buffer `limit`."""
    ecn: bool = False
    """Mark ECN-capable packets instead of dropping them (the paper marks: set true to follow
    it); packets that are not ECN-capable are still dropped."""
    queue_in_bytes: bool = False
    """Count the virtual queue, its buffer and its capacity in bytes instead of packets."""
    mean_packet_size: Annotated[PacketSize, MEAN_PACKET_BYTES] = "1500B"
    """Bytes per packet that express C in packets/s (and a byte `limit` in packets for the
    default `virtual_buffer`)."""

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        fields = super().resolved(link_delay_ns)
        if self.virtual_buffer is None:  # the real buffer
            fields["virtual_buffer"] = _limit_in_units(self.limit, self.queue_in_bytes, fields["mean_packet_bytes"])
        return fields

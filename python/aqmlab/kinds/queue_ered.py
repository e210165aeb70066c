"""Ered: the scenario model of `kind = "ered"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.queues.QUEUE_KINDS`; issue 28)."""

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from aqmlab._declarations import Engine
from aqmlab._fields import MAX_BYTES, PacketSize, PositiveDuration, QueueLimit
from aqmlab.queues import MEAN_PACKET_BYTES, QueueModel, _limit_in_units


class Ered(QueueModel):
    """Exponential RED (seed 002 Section IV-B/C): marking probability p_min·exp(κ(b̃ − b_min))
    on a virtual queue b̃ served at γ·C, with κ = α/(C·delay_scale): eq. (34) with time in units
    of the round-trip time, so `delay_scale` is the RTT the gain is normalised by — give the
    largest RTT of the flows through the link (reconstructed; docs/queues/ered.md). It has no
    default: a fixed delay would make the same α a different gain in every network.
    `variant = "aq"` applies the profile to the EWMA of the virtual queue (weight `q_weight`).
    `b_min` defaults to 1/5 of the real buffer (seed 002 Section V).
    """

    kind: Literal["ered"] = "ered"
    """Selects E-RED."""
    limit: QueueLimit = "1000p"
    """Buffer size of the real queue: an arrival that does not fit in it is dropped."""
    gamma: float = Field(default=0.95, gt=0.0, le=1.0)
    """Virtual capacity factor γ: the virtual queue is served at γ · C (seed 002 Section V;
    0.9 in Section V-D)."""
    alpha: float = Field(default=1.0, gt=0.0, le=1e6)
    """Gain α of the link law (34), giving the exponent κ = α / (C · delay_scale) (seed 002
    Section V-A; α ≤ 1/2 is the sufficient stability condition quoted for Reno)."""
    p_min: float = Field(default=0.0005, gt=0.0, lt=1.0)
    """Marking probability at b̃ = b_min, where marking starts (seed 002 Section V-A)."""
    p_max: float = Field(default=0.1, gt=0.0, le=1.0)
    """Marking probability at b_max = b_min + ln(p_max / p_min) / κ; above b_max every
    arrival is marked or dropped (seed 002 Section V-A)."""
    b_min: float | None = Field(default=None, ge=0.0, le=MAX_BYTES)
    """Virtual-queue length below which nothing is marked; packets (bytes with
    `queue_in_bytes`). Unset: 1/5 of the real buffer `limit` (seed 002 Section V)."""
    delay_scale: PositiveDuration
    """Round-trip time D that normalises the gain, κ = α / (C · D): give the largest RTT of the
    flows through the link (reconstructed; docs/queues/ered.md)."""
    variant: Annotated[Literal["iq", "aq"], Engine(key="averaged", convert=lambda variant: variant == "aq")] = "iq"
    """`"iq"`: the marking profile applies to the virtual queue itself (E-RED-iq); `"aq"`: to
    its EWMA with weight `q_weight` (E-RED-aq, seed 002 eq. (37))."""
    q_weight: float = Field(default=0.001, gt=0.0, le=1.0)
    """EWMA weight of E-RED-aq, applied at every arrival (seed 002 Section V-B); unused by `"iq"`."""
    ecn: bool = False
    """Mark ECN-capable packets instead of dropping them (the paper marks: set true to follow
    it); packets that are not ECN-capable are still dropped."""
    queue_in_bytes: bool = False
    """Measure the virtual queue and `b_min` in bytes instead of packets."""
    mean_packet_size: Annotated[PacketSize, MEAN_PACKET_BYTES] = "1500B"
    """Bytes per packet that express the virtual queue in packets and C in packets/s; set it
    to the scenario's packet size."""

    @model_validator(mode="after")
    def _check(self) -> "Ered":
        if self.p_max <= self.p_min:
            raise ValueError(f"p_max ({self.p_max}) must be above p_min ({self.p_min})")
        return self

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        fields = super().resolved(link_delay_ns)
        if self.b_min is None:  # 1/5 of the real buffer (seed 002 Section V)
            fields["b_min"] = _limit_in_units(self.limit, self.queue_in_bytes, fields["mean_packet_bytes"]) / 5.0
        return fields

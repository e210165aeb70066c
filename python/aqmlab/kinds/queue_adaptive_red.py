"""AdaptiveRed: the scenario model of `kind = "adaptive_red"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.queues.QUEUE_KINDS`; issue 28)."""

from typing import Annotated, Literal

from pydantic import Field, model_validator

from aqmlab._fields import MAX_BYTES, PacketSize, PositiveDuration, QueueLimit
from aqmlab.queues import MEAN_PACKET_BYTES, QueueModel


class AdaptiveRed(QueueModel):
    """Adaptive RED (Floyd, Gummadi, Shenker 2001): gentle RED whose max_p is adapted by AIMD
    every `interval` to keep the average between min_th + 0.4 and 0.6 of (max_th − min_th).
    `min_th = 0` / `max_th = 0` select ns-2's automatic thresholds from `target_delay`."""

    needs_link_delay = True

    kind: Literal["adaptive_red"] = "adaptive_red"
    """Selects Adaptive RED."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    min_th: float = Field(default=0.0, ge=0.0, le=MAX_BYTES)
    """Minimum threshold; packets (bytes with `queue_in_bytes`). 0 = automatic
    max(5 packets, target_delay · C / 2), C the link rate in packets/s (paper Section 4, ns-2)."""
    max_th: float = Field(default=0.0, ge=0.0, le=MAX_BYTES)
    """Maximum threshold; packets (bytes with `queue_in_bytes`). 0 = automatic 3 · min_th
    (paper Section 4, ns-2)."""
    max_p: float = Field(default=0.1, gt=0.0, le=1.0)
    """Initial drop probability at `max_th`, then adapted every `interval` (ns-2 1/`linterm_`)."""
    q_weight: float = 0.0
    """EWMA weight of the average queue: 0 = 1 − exp(−1/C), C the link rate in packets/s
    (paper Section 4; ns-2's code 0); a weight in (0, 1], −1 or −2 as for RED."""
    target_delay: PositiveDuration = "5ms"
    """Target queueing delay that sets the automatic thresholds (paper and ns-2)."""
    interval: PositiveDuration = "0.5s"
    """How often `max_p` is adapted: at the first arrival at least this long after its last
    change (paper; ns-2 `interval_`)."""
    alpha: float = Field(default=0.01, gt=0.0, lt=1.0)
    """Additive increase: max_p += min(alpha, max_p / 4) when the average is above the target
    band (paper)."""
    beta: float = Field(default=0.9, gt=0.0, lt=1.0)
    """Multiplicative decrease: max_p ×= beta when the average is below the target band (paper)."""
    top: float = Field(default=0.5, gt=0.0, le=1.0)
    """`max_p` is increased only while below `top` (paper)."""
    bottom: float = Field(default=0.01, gt=0.0, lt=1.0)
    """`max_p` is decreased only while above `bottom` (paper; ns-2's `bottom_ 0` is automatic,
    see docs/queues/adaptive_red.md)."""
    gentle: bool = True
    """Gentle RED above `max_th`, as RED's `gentle` (the paper uses it)."""
    wait: bool = True
    """Space early drops by the count since the last drop, as RED's `wait` (ns-2 `wait_`)."""
    ecn: bool = False
    """Mark ECN-capable packets instead of dropping them early; packets that are not
    ECN-capable are still dropped (RED's `mark_p` is not applied)."""
    byte_mode: bool = False
    """Scale the drop probability by packet size / `mean_packet_size`, as RED's `byte_mode`."""
    queue_in_bytes: bool = False
    """Measure the queue, its average and the thresholds in bytes, as RED's `queue_in_bytes`."""
    mean_packet_size: Annotated[PacketSize, MEAN_PACKET_BYTES] = "1500B"
    """Mean packet size: converts the link rate to packets/s for the automatic weight and
    thresholds, as RED's `mean_packet_size`."""

    @model_validator(mode="after")
    def _check(self) -> "AdaptiveRed":
        if self.min_th > 0 and self.max_th > 0 and self.min_th >= self.max_th:
            raise ValueError(f"min_th ({self.min_th}) must be below max_th ({self.max_th})")
        if not (0.0 < self.q_weight <= 1.0 or self.q_weight in (0.0, -1.0, -2.0)):
            raise ValueError(f"q_weight = {self.q_weight} is not allowed; give a weight in (0, 1] or 0, -1, -2")
        if self.bottom >= self.top:
            raise ValueError(f"bottom ({self.bottom}) must be below top ({self.top})")
        return self

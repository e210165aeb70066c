"""Pie: the scenario model of `kind = "pie"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.queues.QUEUE_KINDS`; issue 28)."""

from typing import Annotated, Literal

from pydantic import Field

from aqmlab._fields import Duration, PacketSize, PositiveDuration, QueueLimit
from aqmlab.queues import MEAN_PACKET_BYTES, QueueModel


class Pie(QueueModel):
    """PIE (RFC 8033) with the timestamp latency estimate (Section 4.3). Defaults: RFC 8033
    (target 15 ms, update 15 ms, alpha 0.125, beta 1.25, max burst 150 ms, ECN mark
    threshold 10 %); de-randomisation (Section 5.4) off, the 2 % cap (Section 5.5) on."""

    kind: Literal["pie"] = "pie"
    """Selects PIE."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    target: PositiveDuration = "15ms"
    """QDELAY_REF: the queueing delay PIE steers to (RFC 8033 Section 4.2)."""
    update_interval: PositiveDuration = "15ms"
    """T_UPDATE: period of the drop-probability update (RFC 8033 Section 4.2)."""
    alpha: float = Field(default=0.125, ge=0.0, le=1e6)
    """Gain α on the delay error qdelay − target, 1/s (RFC 8033 Section 4.2)."""
    beta: float = Field(default=1.25, ge=0.0, le=1e6)
    """Gain β on the delay change qdelay − qdelay_old, 1/s (RFC 8033 Section 4.2)."""
    max_burst: Duration = "150ms"
    """MAX_BURST: burst allowance, during which no packet is dropped at random (RFC 8033
    Section 4.4)."""
    ecn: bool = False
    """Mark ECN-capable packets instead of dropping them while the drop probability is at
    most `mark_ecn_threshold` (RFC 8033 Section 5.1); other packets are dropped."""
    mark_ecn_threshold: float = Field(default=0.1, ge=0.0, le=1.0)
    """mark_ecnth: with `ecn`, the drop probability above which ECN-capable packets are dropped
    rather than marked (RFC 8033 Section 5.1)."""
    derandomize: bool = False
    """De-randomisation (RFC 8033 Section 5.4, optional): drop on an accumulated probability
    (none below 0.85, always at 8.5) instead of independently per packet."""
    cap_drop_adjustment: bool = True
    """Cap the increase of the drop probability at 2 % per update once it is at least 10 %
    (RFC 8033 Section 5.5, optional; Appendix B and Linux apply it)."""
    mean_packet_size: Annotated[PacketSize | None, MEAN_PACKET_BYTES] = None
    """MEAN_PKTSIZE: no random drop while at most two such packets are queued (RFC 8033
    Appendix A `drop_early`); unset: the packet size of the first flow group (of the group
    itself on its edge links)."""

"""Red: the scenario model of `kind = "red"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.queues.QUEUE_KINDS`; issue 28)."""

from typing import Annotated, Literal

from pydantic import Field, model_validator

from aqmlab._fields import MAX_BYTES, PacketSize, PositiveDuration, QueueLimit
from aqmlab.queues import MEAN_PACKET_BYTES, QueueModel


class Red(QueueModel):
    """Random Early Detection with ns-2 semantics (Floyd and Jacobson 1993; ns-2 red.cc).

    Thresholds are in packets (bytes when `queue_in_bytes`); 0 selects ns-2's automatic
    thresholds (min_th = max(5, target_delay·C/2 packets), max_th = 3·min_th). `q_weight` is
    the EWMA weight, or ns-2's automatic choice: 0, -1 (default, from link rate and delay) or
    -2. `instantaneous` decides on the current queue (seed 000 eqs. (25)-(26)).

    Every default is ns-2's, ns-2.35 `tcl/lib/ns-default.tcl` (CVS v1.388), at the line
    given; the exceptions are deliberate and listed in docs/queues/red.md:
    `min_th`/`max_th` 0 (lines 125, 128, automatic), `max_p` 0.1 = 1/`linterm_` 10 (line 140),
    `q_weight` -1 (line 137), `gentle` true (line 146, since 23 April 2001), `wait` true
    (line 139), `ecn` false = `setbit_ false` (line 145), `mark_p` 0.1 with `use_mark_p_ true`
    (lines 141-142), `target_delay` 5 ms = `targetdelay_` (line 164). Exceptions:
    `byte_mode`/`queue_in_bytes` false (ns-2 true since 11 October 2004, lines 122-123) and
    `mean_packet_size` 1500 B (ns-2 `mean_pktsize_` 500, line 134); ns-2's `cur_max_p_`
    (line 157) is a state variable set to 1/`linterm_` at reset, i.e. `max_p`.
    """

    needs_link_delay = True

    kind: Literal["red"] = "red"
    """Selects RED."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    min_th: float = Field(default=0.0, ge=0.0, le=MAX_BYTES)
    """Minimum threshold: no early drop while the average queue is below it; packets (bytes
    with `queue_in_bytes`). 0 = ns-2's automatic max(5 packets, target_delay · C / 2), C the
    link rate in packets/s (ns-2 `thresh_ 0`)."""
    max_th: float = Field(default=0.0, ge=0.0, le=MAX_BYTES)
    """Maximum threshold, where the drop probability reaches `max_p`; packets (bytes with
    `queue_in_bytes`). 0 = ns-2's automatic 3 · min_th (ns-2 `maxthresh_ 0`)."""
    max_p: float = Field(default=0.1, gt=0.0, le=1.0)
    """Drop probability at `max_th` (p̄ of Floyd and Jacobson 1993); 0.1 = 1/ns-2's `linterm_ 10`."""
    q_weight: float = -1.0
    """EWMA weight w_q of the average queue (Floyd and Jacobson 1993): a weight in (0, 1], or
    ns-2's automatic weights with C the link rate in packets/s: 0 = 1 − exp(−1/C), −1 (ns-2
    `q_weight_ -1`) = 1 − exp(−1/(10 · RTT · C)) with RTT = max(3 (link delay + 1/C), 0.1 s),
    −2 = 1 − exp(−10/C)."""
    gentle: bool = True
    """Gentle RED: above `max_th` the probability rises linearly from `max_p` to 1 at
    2 · max_th, instead of every arrival being dropped (ns-2 `gentle_ true`)."""
    wait: bool = True
    """Space early drops as ns-2's `wait_`: no drop while count · p_b < 1 (count = arrivals
    since the last drop), then p_b / (2 − count · p_b); off, Floyd and Jacobson's
    p_b / (1 − count · p_b)."""
    ecn: bool = False
    """Mark ECN-capable packets instead of dropping them early (ns-2 `setbit_`); packets that
    are not ECN-capable, and drops forced by the thresholds or the buffer, stay drops."""
    mark_p: float | None = Field(default=0.1, gt=0.0, le=1.0)
    """With `ecn`: an ECN-capable packet is marked only while the control-law probability is
    below `mark_p` and dropped above it (ns-2 `mark_p_ 0.1`, `use_mark_p_ true`); `None`
    (from Python) always marks."""
    byte_mode: bool = False
    """Byte mode: scale the drop probability by packet size / `mean_packet_size` (ns-2
    `bytes_`, true in ns-2 since 2004; see docs/queues/red.md)."""
    queue_in_bytes: bool = False
    """Measure the queue, its average and the thresholds in bytes instead of packets (ns-2
    `queue_in_bytes_`, true in ns-2 since 2004; see docs/queues/red.md)."""
    instantaneous: bool = False
    """Decide on the instantaneous queue instead of the average (seed 000 eqs. (25)-(26));
    the average is still computed and traced."""
    mean_packet_size: Annotated[PacketSize, MEAN_PACKET_BYTES] = "1500B"
    """Mean packet size (ns-2 `mean_pktsize_`, 500 B there): converts the link rate to packets/s
    for the automatic weight and thresholds and the idle-time decay of the average, and
    scales byte mode. Set it to the scenario's packet size."""
    target_delay: PositiveDuration = "5ms"
    """Target queueing delay that sets the automatic thresholds (`min_th = 0`) (ns-2
    `targetdelay_ 0.005`)."""

    @model_validator(mode="after")
    def _check(self) -> "Red":
        if self.min_th > 0 and self.max_th > 0 and self.min_th >= self.max_th:
            raise ValueError(f"min_th ({self.min_th}) must be below max_th ({self.max_th})")
        if not (0.0 < self.q_weight <= 1.0 or self.q_weight in (0.0, -1.0, -2.0)):
            raise ValueError(
                f"q_weight = {self.q_weight} is not allowed; give a weight in (0, 1] or "
                "0, -1, -2 for ns-2's automatic weights"
            )
        return self

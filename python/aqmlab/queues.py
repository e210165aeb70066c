"""Queue disciplines of a link, as scenario models (engine: crates/engine/src/queue/).

Each field is declared once; the engine's config of a queue is derived from the declarations
(`aqmlab._declarations`): durations arrive as `*_ns`, sizes as `*_bytes`, the rest by name.
"""

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, model_validator

from aqmlab import units
from aqmlab._declarations import Engine, engine_fields
from aqmlab._fields import MAX_BYTES, Duration, Kinds, Model, PacketSize, PositiveDuration, QueueLimit

#: `mean_packet_size` reaches the engine as `mean_packet_bytes`.
MEAN_PACKET_BYTES = Engine(key="mean_packet_bytes")


class QueueModel(Model):
    """A queue discipline: its engine config is its declared fields, converted
    (`aqmlab._declarations.engine_fields`), plus the link delay where the policy needs it."""

    needs_link_delay: ClassVar[bool] = False
    """The engine's config also carries `link_delay_ns` (RED's automatic weight uses it)."""

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        fields = engine_fields(self)
        if self.needs_link_delay:
            fields["link_delay_ns"] = link_delay_ns
        return fields


class DropTail(QueueModel):
    """First in, first out; arrivals beyond `limit` are dropped."""

    kind: Literal["drop_tail"] = "drop_tail"
    """Selects drop-tail: first in, first out, with no early drops."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""


class RandomDrop(QueueModel):
    """Drops each arrival independently with a fixed `probability` (seed 003 Section II-B);
    with `ecn`, ECN-capable packets are marked instead (RFC 3168 Section 5)."""

    kind: Literal["random_drop"] = "random_drop"
    """Selects random drop."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    probability: float = Field(ge=0.0, le=1.0)
    """Probability with which each arrival is dropped, independently of the queue length
    (seed 003 Section II-B)."""
    ecn: bool = False
    """Mark ECN-capable arrivals instead of dropping them (RFC 3168 Section 5); arrivals that
    are not ECN-capable are still dropped."""


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


class Pi(QueueModel):
    """PI controller (Hollot, Misra, Towsley, Gong, INFOCOM 2001, Section V).

    p(kT) = a (q(kT) - q_ref) - b (q((k-1)T) - q_ref) + p((k-1)T), clamped to [0, 1],
    sampled at `sampling_frequency`; arrivals are dropped (marked) with probability p.
    Defaults: the paper's design example (a = 1.822e-5, b = 1.816e-5, 160 Hz,
    q_ref = 200 packets), designed for N = 60 flows, C = 3750 packets/s, R+ = 0.246 s.
    """

    kind: Literal["pi"] = "pi"
    """Selects the PI controller."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    a: float = Field(default=1.822e-5, ge=0.0, le=1e6)
    """Gain a on the current queue error q(kT) − q_ref, per packet (Hollot et al. 2001
    Section V design example)."""
    b: float = Field(default=1.816e-5, ge=0.0, le=1e6)
    """Gain b on the previous queue error q((k−1)T) − q_ref, per packet (Hollot et al. 2001
    Section V design example)."""
    sampling_frequency: Annotated[float, Engine(key="sampling_frequency_hz")] = Field(default=160.0, gt=0.0, le=1e9)
    """Sampling frequency 1/T of the controller, Hz: p is updated this often (Hollot et al.
    2001 Section V)."""
    q_ref: float = Field(default=200.0, ge=0.0, le=MAX_BYTES)
    """Reference queue length q_ref the controller steers to; packets (bytes with
    `queue_in_bytes`) (Hollot et al. 2001 Section V)."""
    ecn: bool = False
    """Mark ECN-capable packets with probability p instead of dropping them; packets that are
    not ECN-capable are still dropped."""
    queue_in_bytes: bool = False
    """Sample the queue in bytes: `q_ref` is then in bytes, and `a` and `b` must be divided by
    the packet size."""


class Rem(QueueModel):
    """Random Exponential Marking (Athuraliya, Low, Li, Yin, IEEE Network 2001).

    Price p <- max(0, p + gamma (alpha (b - b*) + x - c)) every `update_interval`
    (x, c: arrivals and capacity in packets per interval, as ns-2 rem.cc), marking
    probability 1 - phi^(-p). Defaults: the article's phi = 1.001, gamma = 0.001,
    alpha = 0.1, b* = 20 packets; ns-2's 2 ms update interval.
    """

    kind: Literal["rem"] = "rem"
    """Selects REM."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    gamma: float = Field(default=0.001, gt=0.0, le=1e6)
    """Step size γ of the price update (Athuraliya et al. 2001)."""
    alpha: float = Field(default=0.1, ge=0.0, le=1e6)
    """Weight α of the backlog error b − b* against the rate mismatch x − c in the price
    update (Athuraliya et al. 2001; ns-2 hard-codes 0.1)."""
    phi: float = Field(default=1.001, gt=1.0, le=1e6)
    """Base φ of the marking probability 1 − φ^(−price) (Athuraliya et al. 2001)."""
    target_backlog: float = Field(default=20.0, ge=0.0, le=MAX_BYTES)
    """Target backlog b*, packets (of `mean_packet_size` with `queue_in_bytes`) (Athuraliya et
    al. 2001; ns-2 `pbo_ 20`)."""
    update_interval: PositiveDuration = "2ms"
    """Period of the price update (ns-2 `pupdtime_ 0.002`)."""
    ecn: bool = False
    """Mark ECN-capable packets instead of dropping them; packets that are not ECN-capable
    are still dropped."""
    queue_in_bytes: bool = False
    """Count backlog and arrivals as bytes / `mean_packet_size` instead of packets (ns-2 `qib_`)."""
    mean_packet_size: Annotated[PacketSize | None, MEAN_PACKET_BYTES] = None
    """Packet size that converts the link rate (and bytes) to packets per update interval
    (ns-2 `mean_pktsize_`); unset: the packet size of the first flow group (of the group
    itself on its edge links)."""


class Codel(QueueModel):
    """CoDel (RFC 8289): drops (marks) at dequeue once the sojourn time has stayed above
    `target` for `interval`, then at intervals interval/sqrt(count). Defaults: RFC 8289
    Sections 4.3-4.4 (5 ms, 100 ms); `mtu` is MAXPACKET (no drop with at most that much
    queued)."""

    kind: Literal["codel"] = "codel"
    """Selects CoDel."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    target: PositiveDuration = "5ms"
    """TARGET: the acceptable standing queueing delay (sojourn time) (RFC 8289 Section 4.3)."""
    interval: PositiveDuration = "100ms"
    """INTERVAL: how long the sojourn time must stay above `target` before the first drop,
    and the base of the spacing interval/sqrt(count) of the next ones (RFC 8289 Section 4.4)."""
    ecn: bool = False
    """Mark an ECN-capable head packet instead of dropping it (RFC 8289 Section 5, as Linux);
    packets that are not ECN-capable are still dropped."""
    mtu: PacketSize = "1500B"
    """MAXPACKET: no drop while at most this many bytes are queued (RFC 8289 Section 5:
    "SHOULD use interface MTU")."""


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


def _limit_in_units(limit: object, queue_in_bytes: bool, mean_packet_bytes: int) -> float:
    """A queue limit in packets, or in bytes with `queue_in_bytes` (converted with the mean size)."""
    resolved = units.queue_limit(limit)
    if "packets" in resolved:
        return float(resolved["packets"] * (mean_packet_bytes if queue_in_bytes else 1))
    return float(resolved["bytes"] if queue_in_bytes else resolved["bytes"] / mean_packet_bytes)


class Threshold(QueueModel):
    """The threshold policy of seed 000 Section VI: drop (or ECN-mark) an arriving packet when
    the queue holds at least `q_th` packets (bytes with `queue_in_bytes`)."""

    kind: Literal["threshold"] = "threshold"
    """Selects the threshold policy."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    q_th: float = Field(gt=0.0, le=MAX_BYTES)
    """Threshold q_th: an arrival that finds at least this many packets queued (bytes with
    `queue_in_bytes`) is dropped (seed 000 Section VI-A; Section VI-C uses 15 packets)."""
    ecn: bool = False
    """Mark ECN-capable arrivals and admit them instead of dropping them (the queue may then
    pass `q_th`); packets that are not ECN-capable are still dropped."""
    queue_in_bytes: bool = False
    """Compare the queue in bytes with a `q_th` in bytes."""


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


class RedVq(Red):
    """RED on a virtual queue served at γ·C (seed 002 Section V-A's REDvq); the thresholds
    apply to the virtual queue, `limit` is the real buffer."""

    kind: Literal["red_vq"] = "red_vq"  # type: ignore[assignment]
    """Selects RED on a virtual queue."""
    gamma: float = Field(default=0.95, gt=0.0, le=1.0)
    """Virtual capacity factor γ: the virtual queue RED decides on is served at γ · C (seed 002
    Section V)."""

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        red = super().resolved(link_delay_ns)
        red.pop("kind")
        return {"kind": "red_vq", "gamma": red.pop("gamma"), "red": red}


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


class PythonPolicy(Model):
    """A queue policy written as a Python class (`aqmlab.extensions.QueuePolicy`; see
    docs/extending.md), called by the engine at every arrival (and dequeue, if it defines
    `on_dequeue`). Engine: `queue/external.rs`, binding `crates/py/src/hooks/queue.rs`."""

    kind: Literal["python"] = "python"
    """Selects a queue policy written in Python."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    policy: str = Field(pattern=r"^[^:]+:[A-Za-z_][A-Za-z0-9_]*$")
    """The class: "module:Class" (a module on sys.path) or "path/file.py:Class" (absolute, or
    relative to the working directory)."""
    params: dict[str, Any] = {}
    """Keyword arguments of the class's constructor (numbers, strings, booleans, lists, tables)."""

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        return {"kind": "python", "limit": units.queue_limit(self.limit), "policy": self.policy, "params": self.params}


Queue = Annotated[
    DropTail | RandomDrop | Red | Pi | Rem | Codel | Pie | Threshold | Ered | RedVq | AdaptiveRed | Avq | PythonPolicy,
    Kinds("kind"),
]

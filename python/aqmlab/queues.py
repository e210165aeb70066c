"""Queue disciplines of a link, as scenario models (engine: crates/engine/src/queue/)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from aqmlab import units
from aqmlab._fields import MAX_BYTES, Duration, Model, PacketSize, PositiveDuration, QueueLimit


class DropTail(Model):
    """First in, first out; arrivals beyond `limit` are dropped."""

    kind: Literal["drop_tail"] = "drop_tail"
    limit: QueueLimit = "1000p"

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        return {"kind": "drop_tail", "limit": units.queue_limit(self.limit)}


class RandomDrop(Model):
    """Drops each arrival independently with a fixed `probability` (seed 003 Section II-B);
    with `ecn`, ECN-capable packets are marked instead (RFC 3168 Section 5)."""

    kind: Literal["random_drop"] = "random_drop"
    limit: QueueLimit = "1000p"
    probability: float = Field(ge=0.0, le=1.0)
    ecn: bool = False

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        return {
            "kind": "random_drop",
            "limit": units.queue_limit(self.limit),
            "probability": self.probability,
            "ecn": self.ecn,
        }


class Red(Model):
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

    kind: Literal["red"] = "red"
    limit: QueueLimit = "1000p"
    min_th: float = Field(default=0.0, ge=0.0, le=MAX_BYTES)
    max_th: float = Field(default=0.0, ge=0.0, le=MAX_BYTES)
    max_p: float = Field(default=0.1, gt=0.0, le=1.0)
    q_weight: float = -1.0
    gentle: bool = True
    wait: bool = True
    ecn: bool = False
    mark_p: float | None = Field(default=0.1, gt=0.0, le=1.0)
    byte_mode: bool = False
    queue_in_bytes: bool = False
    instantaneous: bool = False
    mean_packet_size: PacketSize = "1500B"
    target_delay: PositiveDuration = "5ms"

    @model_validator(mode="after")
    def _check(self) -> Red:
        if self.min_th > 0 and self.max_th > 0 and self.min_th >= self.max_th:
            raise ValueError(f"min_th ({self.min_th}) must be below max_th ({self.max_th})")
        if not (0.0 < self.q_weight <= 1.0 or self.q_weight in (0.0, -1.0, -2.0)):
            raise ValueError(
                f"q_weight = {self.q_weight} is not allowed; give a weight in (0, 1] or "
                "0, -1, -2 for ns-2's automatic weights"
            )
        return self

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        fields = self.model_dump(exclude={"kind", "limit", "mean_packet_size", "target_delay"})
        return {
            "kind": "red",
            "limit": units.queue_limit(self.limit),
            **fields,
            "mean_packet_bytes": units.bytes_(self.mean_packet_size),
            "link_delay_ns": link_delay_ns,
            "target_delay_ns": units.nanoseconds(self.target_delay),
        }


class Pi(Model):
    """PI controller (Hollot, Misra, Towsley, Gong, INFOCOM 2001, Section V).

    p(kT) = a (q(kT) - q_ref) - b (q((k-1)T) - q_ref) + p((k-1)T), clamped to [0, 1],
    sampled at `sampling_frequency`; arrivals are dropped (marked) with probability p.
    Defaults: the paper's design example (a = 1.822e-5, b = 1.816e-5, 160 Hz,
    q_ref = 200 packets), designed for N = 60 flows, C = 3750 packets/s, R+ = 0.246 s.
    """

    kind: Literal["pi"] = "pi"
    limit: QueueLimit = "1000p"
    a: float = Field(default=1.822e-5, ge=0.0, le=1e6)
    b: float = Field(default=1.816e-5, ge=0.0, le=1e6)
    sampling_frequency: float = Field(default=160.0, gt=0.0, le=1e9, description="Hz")
    q_ref: float = Field(default=200.0, ge=0.0, le=MAX_BYTES)
    ecn: bool = False
    queue_in_bytes: bool = False

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        return {
            "kind": "pi",
            "limit": units.queue_limit(self.limit),
            "a": self.a,
            "b": self.b,
            "sampling_frequency_hz": self.sampling_frequency,
            "q_ref": self.q_ref,
            "ecn": self.ecn,
            "queue_in_bytes": self.queue_in_bytes,
        }


class Rem(Model):
    """Random Exponential Marking (Athuraliya, Low, Li, Yin, IEEE Network 2001).

    Price p <- max(0, p + gamma (alpha (b - b*) + x - c)) every `update_interval`
    (x, c: arrivals and capacity in packets per interval, as ns-2 rem.cc), marking
    probability 1 - phi^(-p). Defaults: the article's phi = 1.001, gamma = 0.001,
    alpha = 0.1, b* = 20 packets; ns-2's 2 ms update interval.
    """

    kind: Literal["rem"] = "rem"
    limit: QueueLimit = "1000p"
    gamma: float = Field(default=0.001, gt=0.0, le=1e6)
    alpha: float = Field(default=0.1, ge=0.0, le=1e6)
    phi: float = Field(default=1.001, gt=1.0, le=1e6)
    target_backlog: float = Field(default=20.0, ge=0.0, le=MAX_BYTES, description="b*, packets")
    update_interval: PositiveDuration = "2ms"
    ecn: bool = False
    queue_in_bytes: bool = False
    mean_packet_size: PacketSize | None = None

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        return {
            "kind": "rem",
            "limit": units.queue_limit(self.limit),
            "gamma": self.gamma,
            "alpha": self.alpha,
            "phi": self.phi,
            "target_backlog": self.target_backlog,
            "update_interval_ns": units.nanoseconds(self.update_interval),
            "ecn": self.ecn,
            "queue_in_bytes": self.queue_in_bytes,
            "mean_packet_bytes": None if self.mean_packet_size is None else units.bytes_(self.mean_packet_size),
        }


class Codel(Model):
    """CoDel (RFC 8289): drops (marks) at dequeue once the sojourn time has stayed above
    `target` for `interval`, then at intervals interval/sqrt(count). Defaults: RFC 8289
    Sections 4.3-4.4 (5 ms, 100 ms); `mtu` is MAXPACKET (no drop with at most that much
    queued)."""

    kind: Literal["codel"] = "codel"
    limit: QueueLimit = "1000p"
    target: PositiveDuration = "5ms"
    interval: PositiveDuration = "100ms"
    ecn: bool = False
    mtu: PacketSize = "1500B"

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        return {
            "kind": "codel",
            "limit": units.queue_limit(self.limit),
            "target_ns": units.nanoseconds(self.target),
            "interval_ns": units.nanoseconds(self.interval),
            "ecn": self.ecn,
            "mtu_bytes": units.bytes_(self.mtu),
        }


class Pie(Model):
    """PIE (RFC 8033) with the timestamp latency estimate (Section 4.3). Defaults: RFC 8033
    (target 15 ms, update 15 ms, alpha 0.125, beta 1.25, max burst 150 ms, ECN mark
    threshold 10 %); de-randomisation (Section 5.4) off, the 2 % cap (Section 5.5) on."""

    kind: Literal["pie"] = "pie"
    limit: QueueLimit = "1000p"
    target: PositiveDuration = "15ms"
    update_interval: PositiveDuration = "15ms"
    alpha: float = Field(default=0.125, ge=0.0, le=1e6)
    beta: float = Field(default=1.25, ge=0.0, le=1e6)
    max_burst: Duration = "150ms"
    ecn: bool = False
    mark_ecn_threshold: float = Field(default=0.1, ge=0.0, le=1.0)
    derandomize: bool = False
    cap_drop_adjustment: bool = True
    mean_packet_size: PacketSize | None = None

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        return {
            "kind": "pie",
            "limit": units.queue_limit(self.limit),
            "target_ns": units.nanoseconds(self.target),
            "update_interval_ns": units.nanoseconds(self.update_interval),
            "alpha": self.alpha,
            "beta": self.beta,
            "max_burst_ns": units.nanoseconds(self.max_burst),
            "ecn": self.ecn,
            "mark_ecn_threshold": self.mark_ecn_threshold,
            "derandomize": self.derandomize,
            "cap_drop_adjustment": self.cap_drop_adjustment,
            "mean_packet_bytes": None if self.mean_packet_size is None else units.bytes_(self.mean_packet_size),
        }


def _limit_in_units(limit: object, queue_in_bytes: bool, mean_packet_bytes: int) -> float:
    """A queue limit in packets, or in bytes with `queue_in_bytes` (converted with the mean size)."""
    resolved = units.queue_limit(limit)
    if "packets" in resolved:
        return float(resolved["packets"] * (mean_packet_bytes if queue_in_bytes else 1))
    return float(resolved["bytes"] if queue_in_bytes else resolved["bytes"] / mean_packet_bytes)


class Threshold(Model):
    """The threshold policy of seed 000 Section VI: drop (or ECN-mark) an arriving packet when
    the queue holds at least `q_th` packets (bytes with `queue_in_bytes`)."""

    kind: Literal["threshold"] = "threshold"
    limit: QueueLimit = "1000p"
    q_th: float = Field(gt=0.0, le=MAX_BYTES)
    ecn: bool = False
    queue_in_bytes: bool = False

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        return {
            "kind": "threshold",
            "limit": units.queue_limit(self.limit),
            "q_th": self.q_th,
            "ecn": self.ecn,
            "queue_in_bytes": self.queue_in_bytes,
        }


class Ered(Model):
    """Exponential RED (seed 002 Section IV-B/C): marking probability p_min·exp(κ(b̃ − b_min))
    on a virtual queue b̃ served at γ·C, with κ = α/(C·delay_scale): eq. (34) with time in units
    of the round-trip time, so `delay_scale` is the RTT the gain is normalised by — give the
    largest RTT of the flows through the link (reconstructed; docs/queues/ered.md). It has no
    default: a fixed delay would make the same α a different gain in every network.
    `variant = "aq"` applies the profile to the EWMA of the virtual queue (weight `q_weight`).
    `b_min` defaults to 1/5 of the real buffer (seed 002 Section V).
    """

    kind: Literal["ered"] = "ered"
    limit: QueueLimit = "1000p"
    gamma: float = Field(default=0.95, gt=0.0, le=1.0)
    alpha: float = Field(default=1.0, gt=0.0, le=1e6)
    p_min: float = Field(default=0.0005, gt=0.0, lt=1.0)
    p_max: float = Field(default=0.1, gt=0.0, le=1.0)
    b_min: float | None = Field(default=None, ge=0.0, le=MAX_BYTES)
    delay_scale: PositiveDuration
    variant: Literal["iq", "aq"] = "iq"
    q_weight: float = Field(default=0.001, gt=0.0, le=1.0)
    ecn: bool = False
    queue_in_bytes: bool = False
    mean_packet_size: PacketSize = "1500B"

    @model_validator(mode="after")
    def _check(self) -> Ered:
        if self.p_max <= self.p_min:
            raise ValueError(f"p_max ({self.p_max}) must be above p_min ({self.p_min})")
        return self

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        mean = units.bytes_(self.mean_packet_size)
        b_min = self.b_min if self.b_min is not None else _limit_in_units(self.limit, self.queue_in_bytes, mean) / 5.0
        return {
            "kind": "ered",
            "limit": units.queue_limit(self.limit),
            "gamma": self.gamma,
            "alpha": self.alpha,
            "p_min": self.p_min,
            "p_max": self.p_max,
            "b_min": b_min,
            "delay_scale_ns": units.nanoseconds(self.delay_scale),
            "averaged": self.variant == "aq",
            "q_weight": self.q_weight,
            "ecn": self.ecn,
            "queue_in_bytes": self.queue_in_bytes,
            "mean_packet_bytes": mean,
        }


class RedVq(Red):
    """RED on a virtual queue served at γ·C (seed 002 Section V-A's REDvq); the thresholds
    apply to the virtual queue, `limit` is the real buffer."""

    kind: Literal["red_vq"] = "red_vq"  # type: ignore[assignment]
    gamma: float = Field(default=0.95, gt=0.0, le=1.0)

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        red = Red.model_validate(self.model_dump(exclude={"kind", "gamma"})).resolved(link_delay_ns)
        red.pop("kind")
        return {"kind": "red_vq", "gamma": self.gamma, "red": red}


class AdaptiveRed(Model):
    """Adaptive RED (Floyd, Gummadi, Shenker 2001): gentle RED whose max_p is adapted by AIMD
    every `interval` to keep the average between min_th + 0.4 and 0.6 of (max_th − min_th).
    `min_th = 0` / `max_th = 0` select ns-2's automatic thresholds from `target_delay`."""

    kind: Literal["adaptive_red"] = "adaptive_red"
    limit: QueueLimit = "1000p"
    min_th: float = Field(default=0.0, ge=0.0, le=MAX_BYTES)
    max_th: float = Field(default=0.0, ge=0.0, le=MAX_BYTES)
    max_p: float = Field(default=0.1, gt=0.0, le=1.0)
    q_weight: float = 0.0
    target_delay: PositiveDuration = "5ms"
    interval: PositiveDuration = "0.5s"
    alpha: float = Field(default=0.01, gt=0.0, lt=1.0)
    beta: float = Field(default=0.9, gt=0.0, lt=1.0)
    top: float = Field(default=0.5, gt=0.0, le=1.0)
    bottom: float = Field(default=0.01, gt=0.0, lt=1.0)
    gentle: bool = True
    wait: bool = True
    ecn: bool = False
    byte_mode: bool = False
    queue_in_bytes: bool = False
    mean_packet_size: PacketSize = "1500B"

    @model_validator(mode="after")
    def _check(self) -> AdaptiveRed:
        if self.min_th > 0 and self.max_th > 0 and self.min_th >= self.max_th:
            raise ValueError(f"min_th ({self.min_th}) must be below max_th ({self.max_th})")
        if not (0.0 < self.q_weight <= 1.0 or self.q_weight in (0.0, -1.0, -2.0)):
            raise ValueError(f"q_weight = {self.q_weight} is not allowed; give a weight in (0, 1] or 0, -1, -2")
        if self.bottom >= self.top:
            raise ValueError(f"bottom ({self.bottom}) must be below top ({self.top})")
        return self

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        fields = self.model_dump(exclude={"kind", "limit", "mean_packet_size", "target_delay", "interval"})
        return {
            "kind": "adaptive_red",
            "limit": units.queue_limit(self.limit),
            **fields,
            "target_delay_ns": units.nanoseconds(self.target_delay),
            "interval_ns": units.nanoseconds(self.interval),
            "mean_packet_bytes": units.bytes_(self.mean_packet_size),
            "link_delay_ns": link_delay_ns,
        }


class Avq(Model):
    """Adaptive Virtual Queue (Kunniyur and Srikant 2001): drop or mark an arrival that would
    overflow a virtual buffer served at C̃, with dC̃/dt = α(γC − λ). `virtual_buffer` defaults
    to the real buffer (packets, or bytes with `queue_in_bytes`)."""

    kind: Literal["avq"] = "avq"
    limit: QueueLimit = "1000p"
    gamma: float = Field(default=0.98, gt=0.0, le=1.0)
    alpha: float = Field(default=0.15, gt=0.0, le=1e6)
    virtual_buffer: float | None = Field(default=None, gt=0.0, le=MAX_BYTES)
    ecn: bool = False
    queue_in_bytes: bool = False
    mean_packet_size: PacketSize = "1500B"

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        mean = units.bytes_(self.mean_packet_size)
        buffer = (
            self.virtual_buffer
            if self.virtual_buffer is not None
            else _limit_in_units(self.limit, self.queue_in_bytes, mean)
        )
        return {
            "kind": "avq",
            "limit": units.queue_limit(self.limit),
            "gamma": self.gamma,
            "alpha": self.alpha,
            "virtual_buffer": buffer,
            "ecn": self.ecn,
            "queue_in_bytes": self.queue_in_bytes,
            "mean_packet_bytes": mean,
        }


Queue = Annotated[
    DropTail | RandomDrop | Red | Pi | Rem | Codel | Pie | Threshold | Ered | RedVq | AdaptiveRed | Avq,
    Field(discriminator="kind"),
]

"""Congestion-control algorithms as scenario models: one class per algorithm, each with
its parameters, defaults and sources; `CongestionControl` is their union tagged on `kind`.

Each class mirrors a variant of the engine's `CcConfig` (crates/engine/src/tcp/cc/mod.rs);
`resolved()` is exactly what the engine reads (durations in nanoseconds, fields `*_ns`).
A scenario may write `cc = "reno"` for an algorithm with default parameters, or
`cc = { kind = "cx", p_max = 0.05 }` or `cc = { kind = "cubic", c = 0.4 }`.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from aqmlab import units
from aqmlab._fields import MAX_WINDOW, Duration, Number, PositiveDuration


class _Algorithm(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    def resolved(self) -> dict[str, Any]:
        """The engine's `CcConfig` JSON for this algorithm."""
        return self.model_dump()


class Reno(_Algorithm):
    """Reno window law: +1 per ACK in slow start, +1/w per ACK in congestion avoidance,
    halve on loss (RFC 5681 Section 3.1)."""

    kind: Literal["reno"] = "reno"


OBSERVED = "observed"
DEFAULT_DELTA_MAX = "100ms"
ALLOWED_DELTA_MAX = 'delta_max must be a positive duration (e.g. "100ms") or "observed"'


class Cx(_Algorithm):
    """Cx-TCP (seed 001 Algorithm 1, Fig. 1): Reno, plus on every ACK a backoff (halve cwnd)
    with probability p(δ) rising linearly from 0 at `delta_min` to `p_max` at
    `delta_threshold` and back to 0 at `delta_max`; δ = weighted-average RTT − minimum RTT,
    the per-ACK weight avgRTT/(cwnd·`averaging_time`) (seed 001 Section II).

    Defaults: δmin 5 ms, δth 20 ms, pmax 5 % (seed 001 Section III-A), δmax 100 ms (seed 001
    Section IV, the example after Lemma 4.1); `delta_max = "observed"` makes δmax each flow's
    observed RTTmax − RTTmin instead (seed 001 Section II assumes both "can be estimated
    reliably"; FreeBSD cc_hd's choice). `averaging_time` 100 ms is ours (the paper gives the
    proportionality only). `once_per_rtt` limits backoffs to one per window (not in
    Algorithm 1; FreeBSD cc_hd's variant). See docs/congestion/cx.md."""

    kind: Literal["cx"] = "cx"
    delta_min: Duration = "5ms"
    delta_threshold: PositiveDuration = "20ms"
    #: A positive duration, or "observed" (δmax = RTTmax − RTTmin per flow, seed 001 Section II).
    delta_max: Number = DEFAULT_DELTA_MAX
    p_max: float = Field(default=0.05, gt=0.0, le=1.0)
    averaging_time: PositiveDuration = "100ms"
    once_per_rtt: bool = False

    @field_validator("delta_max", mode="before")
    @classmethod
    def _delta_max(cls, value: Any) -> Number:
        if value == OBSERVED:
            return value
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise ValueError(f"{ALLOWED_DELTA_MAX}, not {value!r}")
        try:
            seconds = units.seconds(value)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{ALLOWED_DELTA_MAX}: {error}") from None
        if seconds <= 0:
            raise ValueError(f"{ALLOWED_DELTA_MAX}, not {value!r}")
        return value

    @property
    def delta_max_observed(self) -> bool:
        """δmax is each flow's observed RTTmax − RTTmin (seed 001 Section II)."""
        return self.delta_max == OBSERVED

    @model_validator(mode="after")
    def _check(self) -> Cx:
        low, mid = (units.seconds(v) for v in (self.delta_min, self.delta_threshold))
        if not 0.0 <= low < mid:
            raise ValueError(
                f"delta_threshold ({self.delta_threshold}) must be above delta_min ({self.delta_min}) "
                "and delta_min must not be negative"
            )
        if not self.delta_max_observed and not mid < units.seconds(self.delta_max):
            raise ValueError(
                f'delta_max ({self.delta_max}) must be above delta_threshold ({self.delta_threshold}), or "observed"'
            )
        return self

    def resolved(self) -> dict[str, Any]:
        # With "observed" the engine does not use delta_max_ns; it keeps the default.
        fixed = DEFAULT_DELTA_MAX if self.delta_max_observed else self.delta_max
        return {
            "kind": "cx",
            "delta_min_ns": units.nanoseconds(self.delta_min),
            "delta_threshold_ns": units.nanoseconds(self.delta_threshold),
            "delta_max_ns": units.nanoseconds(fixed),
            "delta_max_observed": self.delta_max_observed,
            "p_max": self.p_max,
            "averaging_time_ns": units.nanoseconds(self.averaging_time),
            "once_per_rtt": self.once_per_rtt,
        }


class Pert(_Algorithm):
    """PERT, Probabilistic Early Response TCP (Bhandarkar, Reddy, Zhang, Loguinov, "Emulating
    AQM from end hosts", SIGCOMM 2007): Reno, plus an early response (cwnd × (1 − `beta`))
    with a gentle-RED probability of the queueing delay srtt − minimum RTT: 0 below `t_min`,
    linear to `p_max` at `t_max`, linear to 1 at 2·`t_max`; at most once per round trip.
    srtt has history weight `srtt_weight` per ACK.

    Defaults (the paper's; checked against the ns-3 port `TcpPertRed`): Tmin 5 ms, Tmax
    10 ms, pmax 0.05, srtt weight 0.99, β 0.35. See docs/congestion/pert.md."""

    kind: Literal["pert"] = "pert"
    t_min: Duration = "5ms"
    t_max: PositiveDuration = "10ms"
    p_max: float = Field(default=0.05, gt=0.0, le=1.0)
    srtt_weight: float = Field(default=0.99, ge=0.0, lt=1.0)
    beta: float = Field(default=0.35, gt=0.0, lt=1.0)

    @model_validator(mode="after")
    def _check(self) -> Pert:
        if not 0.0 <= units.seconds(self.t_min) < units.seconds(self.t_max):
            raise ValueError(f"t_max ({self.t_max}) must be above t_min ({self.t_min}), and t_min not negative")
        return self

    def resolved(self) -> dict[str, Any]:
        return {
            "kind": "pert",
            "t_min_ns": units.nanoseconds(self.t_min),
            "t_max_ns": units.nanoseconds(self.t_max),
            "p_max": self.p_max,
            "srtt_weight": self.srtt_weight,
            "beta": self.beta,
        }


class Compound(_Algorithm):
    """Compound TCP (seed 000 Section II-A1; seed 004 eqs. (6)-(8)): win = cwnd + dwnd, cwnd
    as Reno (+1/win per ACK), dwnd += (alpha*win^k - 1)+ per round trip while diff < gamma,
    dwnd -= zeta*diff when diff >= gamma, dwnd = (win*(1 - beta) - cwnd/2)+ on loss, 0 on
    timeout. Defaults: seed 000 Section II-A1; `low_window`: draft-sridharan-tcpm-ctcp-02's
    low_wnd; `zeta` = 1 reproduces the Linux/ns-2 port (`tcp_compound.c`, ETA = 1).
    See docs/congestion/compound.md."""

    kind: Literal["compound"] = "compound"
    alpha: float = Field(default=0.125, gt=0.0, le=10.0, allow_inf_nan=False)
    beta: float = Field(default=0.5, gt=0.0, lt=1.0)
    k: float = Field(default=0.75, gt=0.0, le=1.0)
    gamma: float = Field(default=30.0, gt=0.0, le=MAX_WINDOW, allow_inf_nan=False, description="packets")
    zeta: float = Field(default=0.5, gt=0.0, le=100.0, allow_inf_nan=False)
    low_window: float = Field(default=41.0, ge=0.0, le=MAX_WINDOW, allow_inf_nan=False, description="packets")


#: Every algorithm, tagged on `kind`.
class Cubic(_Algorithm):
    """CUBIC (RFC 9438; seed 004 eqs. (1)-(5)): W(t) = C (t − K)³ + W_max with
    K = cbrt(W_max (1 − β)/C), growth per ACK toward W(t + RTT), the Reno-friendly region
    (α = 3(1 − β)/(1 + β)) and fast convergence. Engine: `tcp/cc/cubic.rs`."""

    kind: Literal["cubic"] = "cubic"
    #: "rfc9438" (default) or "ns3": ns-3 3.44's TcpCubic where it departs from RFC 9438 (the
    #: Reno-friendly α stays 3(1 − β)/(1 + β); a timeout keeps W_max; target at t + minimum
    #: RTT). See docs/congestion/cubic.md.
    definition: Literal["rfc9438", "ns3"] = "rfc9438"
    c: float = Field(default=0.4, gt=0.0, le=100.0, description="C, segments/s³ (RFC 9438 Section 4.1.1)")
    beta: float = Field(default=0.7, gt=0.0, lt=1.0, description="β_cubic (RFC 9438 Section 4.1.1)")
    fast_convergence: bool = Field(default=True, description="RFC 9438 Section 4.7")
    reno_friendly: bool = Field(default=True, description="RFC 9438 Section 4.3")

    def resolved(self) -> dict[str, Any]:
        # The default definition is left out, so the resolved JSON (and the run ids that hash
        # it) of every scenario written before the option stays what it was.
        resolved = self.model_dump()
        if self.definition == "rfc9438":
            del resolved["definition"]
        return resolved


HIGHSPEED_SECTION5_PARAMETERS = ("low_window", "high_window", "low_p", "high_p", "high_decrease")


class HighSpeed(_Algorithm):
    """HighSpeed TCP (RFC 3649): +a(w)/w per ACK and ×(1 − b(w)) per loss above
    `low_window`, Reno below it. `definition`: "rfc3649" (Section 5's formulas, the default)
    or "linux_table" (Appendix B's step table, as Linux `tcp_highspeed.c` and ns-3
    `TcpHighSpeed`; no parameters). See docs/congestion/highspeed.md. Engine:
    `tcp/cc/highspeed.rs`."""

    kind: Literal["highspeed"] = "highspeed"
    definition: Literal["rfc3649", "linux_table"] = "rfc3649"
    low_window: float = Field(default=38.0, ge=1.0, le=MAX_WINDOW, description="Low_Window (RFC 3649 Section 5)")
    high_window: float = Field(default=83000.0, le=MAX_WINDOW, description="High_Window (RFC 3649 Section 5)")
    low_p: float = Field(default=1e-3, gt=0.0, lt=1.0, description="Low_P (RFC 3649 Section 5)")
    high_p: float = Field(default=1e-7, gt=0.0, description="High_P (RFC 3649 Section 5)")
    high_decrease: float = Field(default=0.1, gt=0.0, le=0.5, description="High_Decrease (RFC 3649 Section 5)")

    @model_validator(mode="after")
    def _check(self) -> HighSpeed:
        if not math.isfinite(self.high_window) or self.high_window <= self.low_window:
            raise ValueError(f"high_window ({self.high_window}) must be above low_window ({self.low_window})")
        if self.high_p >= self.low_p:
            raise ValueError(f"high_p ({self.high_p}) must be below low_p ({self.low_p})")
        changed = [
            f"{name} = {getattr(self, name)}"
            for name in HIGHSPEED_SECTION5_PARAMETERS
            if getattr(self, name) != type(self).model_fields[name].default
        ]
        if self.definition == "linux_table" and changed:
            raise ValueError(
                f'definition = "linux_table" takes no parameters (got {", ".join(changed)}): RFC 3649 '
                "Appendix B's table is computed for Section 5's defaults; use definition = \"rfc3649\""
            )
        return self


class Scalable(_Algorithm):
    """Scalable TCP. `definition` "kelly" (Kelly 2003, the default): +a per ACK, ×(1 − b)
    per loss above the legacy window `low_window`, Reno at or below it. "ns3" (ns-3
    `TcpScalable`, Linux `tcp_scalable.c`): +1 segment per min(cwnd, 1/a) ACKs and ×(1 − b)
    per loss at every window (no legacy window). See docs/congestion/scalable.md. Engine:
    `tcp/cc/scalable.rs`."""

    kind: Literal["scalable"] = "scalable"
    definition: Literal["kelly", "ns3"] = "kelly"
    a: float = Field(default=0.01, gt=0.0, le=1.0, description="increase per ACK (Kelly 2003); ns3: 1/AIFactor")
    b: float = Field(default=0.125, gt=0.0, lt=1.0, description="decrease fraction (Kelly 2003)")
    low_window: float = Field(
        default=16.0, ge=0.0, le=MAX_WINDOW, description="legacy window lwnd (Kelly 2003); not with ns3"
    )

    @model_validator(mode="after")
    def _check(self) -> Scalable:
        if self.definition == "ns3" and self.low_window != type(self).model_fields["low_window"].default:
            raise ValueError(
                f'low_window = {self.low_window} is Kelly\'s legacy window; definition = "ns3" has none '
                "(its Reno-like growth below 1/a segments comes from the +1 per min(cwnd, 1/a) ACKs rule)"
            )
        return self


class Aimd(_Algorithm):
    """Seed 002 Section IV-A: +a·wⁿ per unmarked ACK, −b·wᵐ per marked ACK (and once per
    loss event). Defaults are Reno (1/w, w/2). With `ecn`, needs `ecn_echo = "per_packet"`.
    Engine: `tcp/cc/aimd.rs`."""

    kind: Literal["aimd"] = "aimd"
    a: float = Field(default=1.0, gt=0.0, le=100.0)
    n: float = Field(default=-1.0, ge=-2.0, le=1.0)
    b: float = Field(default=0.5, gt=0.0, le=100.0)
    m: float = Field(default=1.0, ge=-2.0, le=2.0)

    @model_validator(mode="after")
    def _check(self) -> Aimd:
        if self.m == 1.0 and self.b >= 1.0:
            raise ValueError(f"b ({self.b}) must be below 1 when m = 1")
        return self


class IllinoisLike(_Algorithm):
    """Seed 000 Table I, TCP Illinois: i(w) = α_max/w per ACK, d(w) = β_min·w (per marked
    ACK or loss event). Engine: `tcp/cc/aimd.rs`."""

    kind: Literal["illinois_like"] = "illinois_like"
    alpha_max: float = Field(default=10.0, gt=0.0, le=1000.0, description="seed 000 Table I")
    beta_min: float = Field(default=0.125, gt=0.0, lt=1.0, description="seed 000 Table I")


class AfricaLike(HighSpeed):
    """Seed 000 Table I, AFRICA TCP: i(w) = a(w)/w, d(w) = w·b(w) with HighSpeed's a, b
    (per marked ACK or loss event). Engine: `tcp/cc/aimd.rs`."""

    kind: Literal["africa_like"] = "africa_like"  # type: ignore[assignment]


class CxHighSpeed(_Algorithm):
    """Delay-based HighSpeed TCP (seed 001 Section V-B): HighSpeed's window law (RFC 3649) with
    the Cx backoff of seed 001 Algorithm 1 added. `cx` and `highspeed` take the parameters of
    `kind = "cx"` and `kind = "highspeed"`. Engine: `tcp/cc/cx_highspeed.rs`."""

    kind: Literal["cx_highspeed"] = "cx_highspeed"
    cx: Cx = Field(default_factory=Cx)
    highspeed: HighSpeed = Field(default_factory=HighSpeed)

    def resolved(self) -> dict[str, Any]:
        def without_kind(values: dict[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in values.items() if k != "kind"}

        return {
            "kind": "cx_highspeed",
            "cx": without_kind(self.cx.resolved()),
            "highspeed": without_kind(self.highspeed.resolved()),
        }


CongestionControl = Annotated[
    Reno | Compound | Cx | Pert | CxHighSpeed | Cubic | HighSpeed | Scalable | Aimd | IllinoisLike | AfricaLike,
    Field(discriminator="kind"),
]

PER_ACK_ECN = frozenset({"aimd", "illinois_like", "africa_like"})

"""Congestion-control algorithms as scenario models: one class per algorithm, each with
its parameters, defaults and sources; `CongestionControl` is their union tagged on `kind`.

Each class mirrors a variant of the engine's `CcConfig` (crates/engine/src/tcp/cc/mod.rs);
`model_dump()` is exactly what the engine reads. A scenario may write `cc = "cubic"` for an
algorithm with default parameters, or `cc = { kind = "cubic", c = 0.4 }`.
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Algorithm(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Reno(_Algorithm):
    """Reno window law: +1 per ACK in slow start, +1/w per ACK in congestion avoidance,
    halve on loss (RFC 5681 Section 3.1)."""

    kind: Literal["reno"] = "reno"


class Cubic(_Algorithm):
    """CUBIC (RFC 9438; seed 004 eqs. (1)-(5)): W(t) = C (t − K)³ + W_max with
    K = cbrt(W_max (1 − β)/C), growth per ACK toward W(t + RTT), the Reno-friendly region
    (α = 3(1 − β)/(1 + β)) and fast convergence. Engine: `tcp/cc/cubic.rs`."""

    kind: Literal["cubic"] = "cubic"
    c: float = Field(default=0.4, gt=0.0, description="C, segments/s³ (RFC 9438 Section 4.1.1)")
    beta: float = Field(default=0.7, gt=0.0, lt=1.0, description="β_cubic (RFC 9438 Section 4.1.1)")
    fast_convergence: bool = Field(default=True, description="RFC 9438 Section 4.7")
    reno_friendly: bool = Field(default=True, description="RFC 9438 Section 4.3")


class HighSpeed(_Algorithm):
    """HighSpeed TCP (RFC 3649): +a(w)/w per ACK and ×(1 − b(w)) per loss above
    `low_window`, Reno below it. Engine: `tcp/cc/highspeed.rs`."""

    kind: Literal["highspeed"] = "highspeed"
    low_window: float = Field(default=38.0, ge=1.0, description="Low_Window (RFC 3649 Section 5)")
    high_window: float = Field(default=83000.0, description="High_Window (RFC 3649 Section 5)")
    low_p: float = Field(default=1e-3, gt=0.0, lt=1.0, description="Low_P (RFC 3649 Section 5)")
    high_p: float = Field(default=1e-7, gt=0.0, description="High_P (RFC 3649 Section 5)")
    high_decrease: float = Field(default=0.1, gt=0.0, le=0.5, description="High_Decrease (RFC 3649 Section 5)")

    @model_validator(mode="after")
    def _check(self) -> HighSpeed:
        if not math.isfinite(self.high_window) or self.high_window <= self.low_window:
            raise ValueError(f"high_window ({self.high_window}) must be above low_window ({self.low_window})")
        if self.high_p >= self.low_p:
            raise ValueError(f"high_p ({self.high_p}) must be below low_p ({self.low_p})")
        return self


class Scalable(_Algorithm):
    """Scalable TCP (Kelly 2003): +a per ACK, ×(1 − b) per loss above the legacy window
    `low_window`, Reno at or below it. Engine: `tcp/cc/scalable.rs`."""

    kind: Literal["scalable"] = "scalable"
    a: float = Field(default=0.01, gt=0.0, description="increase per ACK (Kelly 2003)")
    b: float = Field(default=0.125, gt=0.0, lt=1.0, description="decrease fraction (Kelly 2003)")
    low_window: float = Field(default=16.0, ge=0.0, description="legacy window lwnd (Kelly 2003)")


class Aimd(_Algorithm):
    """Seed 002 Section IV-A: +a·wⁿ per unmarked ACK, −b·wᵐ per marked ACK (and once per
    loss event). Defaults are Reno (1/w, w/2). With `ecn`, needs `ecn_echo = "per_packet"`.
    Engine: `tcp/cc/aimd.rs`."""

    kind: Literal["aimd"] = "aimd"
    a: float = Field(default=1.0, gt=0.0)
    n: float = -1.0
    b: float = Field(default=0.5, gt=0.0)
    m: float = 1.0

    @model_validator(mode="after")
    def _check(self) -> Aimd:
        if self.m == 1.0 and self.b >= 1.0:
            raise ValueError(f"b ({self.b}) must be below 1 when m = 1")
        return self


class IllinoisLike(_Algorithm):
    """Seed 000 Table I, TCP Illinois: i(w) = α_max/w per ACK, d(w) = β_min·w (per marked
    ACK or loss event). Engine: `tcp/cc/aimd.rs`."""

    kind: Literal["illinois_like"] = "illinois_like"
    alpha_max: float = Field(default=10.0, gt=0.0, description="seed 000 Table I")
    beta_min: float = Field(default=0.125, gt=0.0, lt=1.0, description="seed 000 Table I")


class AfricaLike(HighSpeed):
    """Seed 000 Table I, AFRICA TCP: i(w) = a(w)/w, d(w) = w·b(w) with HighSpeed's a, b
    (per marked ACK or loss event). Engine: `tcp/cc/aimd.rs`."""

    kind: Literal["africa_like"] = "africa_like"  # type: ignore[assignment]


CongestionControl = Annotated[
    Reno | Cubic | HighSpeed | Scalable | Aimd | IllinoisLike | AfricaLike,
    Field(discriminator="kind"),
]

#: Algorithms that react to every marked ACK (engine `ecn_per_ack`).
PER_ACK_ECN = frozenset({"aimd", "illinois_like", "africa_like"})

"""Congestion-control algorithms as scenario models: one class per algorithm, each with
its parameters, defaults and sources; `CongestionControl` is their union tagged on `kind`.

Each class mirrors a variant of the engine's `CcConfig` (crates/engine/src/tcp/cc/mod.rs);
`resolved()` is exactly what the engine reads (durations in nanoseconds, fields `*_ns`).
A scenario may write `cc = "reno"` for an algorithm with default parameters, or
`cc = { kind = "cx", p_max = 0.05 }` or `cc = { kind = "cubic", c = 0.4 }`.
"""

import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from aqmlab import units
from aqmlab._declarations import Engine, engine_fields
from aqmlab._fields import MAX_WINDOW, Duration, Kinds, Number, PositiveDuration, apply_attribute_docstrings, default_of


class _Algorithm(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        apply_attribute_docstrings(cls)  # what use_attribute_docstrings did, cheaper (aqmlab._fields)

    def resolved(self) -> dict[str, Any]:
        """The engine's `CcConfig` JSON for this algorithm, derived from its field declarations
        (`aqmlab._declarations`)."""
        return engine_fields(self)


class Reno(_Algorithm):
    """Reno window law: +1 per ACK in slow start, +1/w per ACK in congestion avoidance,
    halve on loss (RFC 5681 Section 3.1)."""

    kind: Literal["reno"] = "reno"
    """Selects Reno (`cc = "reno"` is the short form)."""


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
    """Selects Cx-TCP, the delay-based backoff of seed 001."""
    delta_min: Duration = "5ms"
    """δmin: queueing delay (averaged RTT − minimum RTT) below which no backoff happens
    (seed 001 Algorithm 1)."""
    delta_threshold: PositiveDuration = "20ms"
    """δth: queueing delay at which the backoff probability peaks at `p_max` (seed 001
    Algorithm 1); must be above `delta_min`."""
    # With "observed" the engine does not use delta_max_ns; it gets the default.
    delta_max: Annotated[
        Number,
        Engine(key="delta_max_ns", convert=lambda v: units.nanoseconds(DEFAULT_DELTA_MAX if v == OBSERVED else v)),
    ] = DEFAULT_DELTA_MAX
    """δmax: queueing delay where the backoff probability is back to 0; a positive duration
    above `delta_threshold`, or "observed" (δmax = RTTmax − RTTmin of each flow, seed 001
    Section II)."""
    p_max: float = Field(default=0.05, gt=0.0, le=1.0)
    """Peak backoff probability per ACK, at δ = `delta_threshold` (seed 001 Section III-A)."""
    averaging_time: PositiveDuration = "100ms"
    """Time constant of the RTT average: each ACK weighs avgRTT/(cwnd·averaging_time) (seed 001
    Section II gives the proportionality; the value is aqmlab's)."""
    once_per_rtt: bool = False
    """At most one delay backoff per window of data (FreeBSD cc_hd's variant; not in seed 001
    Algorithm 1, which may back off on every ACK)."""

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
    def _check(self) -> "Cx":
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
        return {**super().resolved(), "delta_max_observed": self.delta_max_observed}


class Pert(_Algorithm):
    """PERT, Probabilistic Early Response TCP (Bhandarkar, Reddy, Zhang, Loguinov, "Emulating
    AQM from end hosts", SIGCOMM 2007): Reno, plus an early response (cwnd × (1 − `beta`))
    with a gentle-RED probability of the queueing delay srtt − minimum RTT: 0 below `t_min`,
    linear to `p_max` at `t_max`, linear to 1 at 2·`t_max`; at most once per round trip.
    srtt has history weight `srtt_weight` per ACK.

    Defaults (the paper's; checked against the ns-3 port `TcpPertRed`): Tmin 5 ms, Tmax
    10 ms, pmax 0.05, srtt weight 0.99, β 0.35. See docs/congestion/pert.md."""

    kind: Literal["pert"] = "pert"
    """Selects PERT (Bhandarkar et al., SIGCOMM 2007)."""
    t_min: Duration = "5ms"
    """Queueing delay (srtt − minimum RTT) below which PERT never responds early."""
    t_max: PositiveDuration = "10ms"
    """Queueing delay at which the early-response probability reaches `p_max`; it then rises
    linearly to 1 at 2·t_max (gentle RED's shape); must be above `t_min`."""
    p_max: float = Field(default=0.05, gt=0.0, le=1.0)
    """Early-response probability at `t_max`."""
    srtt_weight: float = Field(default=0.99, ge=0.0, lt=1.0)
    """History weight of PERT's smoothed RTT per ACK: srtt = w·srtt + (1 − w)·sample."""
    beta: float = Field(default=0.35, gt=0.0, lt=1.0)
    """Fraction of cwnd given up in an early response: cwnd × (1 − beta); losses still halve."""

    @model_validator(mode="after")
    def _check(self) -> "Pert":
        if not 0.0 <= units.seconds(self.t_min) < units.seconds(self.t_max):
            raise ValueError(f"t_max ({self.t_max}) must be above t_min ({self.t_min}), and t_min not negative")
        return self


class Compound(_Algorithm):
    """Compound TCP (seed 000 Section II-A1; seed 004 eqs. (6)-(8)): win = cwnd + dwnd, cwnd
    as Reno (+1/win per ACK), dwnd += (alpha*win^k - 1)+ per round trip while diff < gamma,
    dwnd -= zeta*diff when diff >= gamma, dwnd = (win*(1 - beta) - cwnd/2)+ on loss, 0 on
    timeout. Defaults: seed 000 Section II-A1; `low_window`: draft-sridharan-tcpm-ctcp-02's
    low_wnd; `zeta` = 1 reproduces the Linux/ns-2 port (`tcp_compound.c`, ETA = 1).
    See docs/congestion/compound.md."""

    kind: Literal["compound"] = "compound"
    """Selects Compound TCP."""
    # The default definition is left out, so the resolved JSON (and the run ids) of every
    # scenario written before the option stays what it was.
    definition: Annotated[Literal["paper", "ns2_linux"], Engine(omit_default=True)] = "paper"
    """"paper" (default): seed 000's and seed 004's law; "ns2_linux": ns-2 2.35 TCP-Linux's
    tcp_compound.c in its integer arithmetic (whole segments, dwnd from the previous round's
    window, cwnd = ssthresh/2 during recovery), with the port's constants alpha 0.125, beta 0.5,
    k 0.75, gamma 30, zeta 1, low_window 41. See docs/congestion/compound.md."""
    alpha: float = Field(default=0.125, gt=0.0, le=10.0, allow_inf_nan=False)
    """α of the delay window's growth, dwnd += (α·win^k − 1)+ per round trip while diff < γ
    (seed 004 eqs. (6)-(8))."""
    beta: float = Field(default=0.5, gt=0.0, lt=1.0)
    """β: on a loss the whole window becomes win·(1 − β), dwnd = (win·(1 − β) − cwnd/2)+
    (seed 004 eqs. (6)-(8))."""
    k: float = Field(default=0.75, gt=0.0, le=1.0)
    """Exponent k of the delay window's growth α·win^k (seed 004 eqs. (6)-(8))."""
    gamma: float = Field(default=30.0, gt=0.0, le=MAX_WINDOW, allow_inf_nan=False)
    """γ, packets: backlog estimate diff (expected − actual rate × base RTT) at which the delay
    window stops growing and starts shrinking (seed 000 Section II-A1)."""
    zeta: float = Field(default=0.5, gt=0.0, le=100.0, allow_inf_nan=False)
    """ζ: the delay window shrinks by ζ·diff per round trip once diff ≥ γ (seed 004 eqs.
    (6)-(8)); 1 reproduces the Linux/ns-2 port's ETA = 1."""
    low_window: float = Field(default=41.0, ge=0.0, le=MAX_WINDOW, allow_inf_nan=False)
    """Packets: the delay window grows only while the whole window is at least this large, so
    small windows grow as Reno (draft-sridharan-tcpm-ctcp-02's low_wnd)."""


#: Every algorithm, tagged on `kind`.
class Cubic(_Algorithm):
    """CUBIC (RFC 9438; seed 004 eqs. (1)-(5)): W(t) = C (t − K)³ + W_max with
    K = cbrt(W_max (1 − β)/C), growth per ACK toward W(t + RTT), the Reno-friendly region
    (α = 3(1 − β)/(1 + β)) and fast convergence. Engine: `tcp/cc/cubic.rs`."""

    kind: Literal["cubic"] = "cubic"
    """Selects CUBIC."""
    # The default definition is left out, so the resolved JSON (and the run ids that hash it)
    # of every scenario written before the option stays what it was.
    definition: Annotated[Literal["rfc9438", "ns3", "ns2_linux"], Engine(omit_default=True)] = "rfc9438"
    """"rfc9438" (default), "ns3": ns-3 3.44's TcpCubic where it departs from RFC 9438 (the
    Reno-friendly α stays 3(1 − β)/(1 + β); a timeout keeps W_max; target at t + minimum
    RTT), or "ns2_linux": ns-2 2.35 TCP-Linux's tcp_cubic.c (Linux 2.6.22's CUBIC 2.1) in its
    integer arithmetic, whole-segment window and TCP-Linux's window-limited growth. See
    docs/congestion/cubic.md."""
    c: float = Field(default=0.4, gt=0.0, le=100.0, description="C, segments/s³ (RFC 9438 Section 4.1.1)")
    beta: float = Field(default=0.7, gt=0.0, lt=1.0, description="β_cubic (RFC 9438 Section 4.1.1)")
    fast_convergence: bool = Field(default=True, description="RFC 9438 Section 4.7")
    reno_friendly: bool = Field(default=True, description="RFC 9438 Section 4.3")


HIGHSPEED_SECTION5_PARAMETERS = ("low_window", "high_window", "low_p", "high_p", "high_decrease")


class HighSpeed(_Algorithm):
    """HighSpeed TCP (RFC 3649): +a(w)/w per ACK and ×(1 − b(w)) per loss above
    `low_window`, Reno below it. `definition`: "rfc3649" (Section 5's formulas, the default)
    or "linux_table" (Appendix B's step table, as Linux `tcp_highspeed.c` and ns-3
    `TcpHighSpeed`; no parameters). See docs/congestion/highspeed.md. Engine:
    `tcp/cc/highspeed.rs`."""

    kind: Literal["highspeed"] = "highspeed"
    """Selects HighSpeed TCP."""
    definition: Literal["rfc3649", "linux_table", "ns2_linux"] = "rfc3649"
    """"rfc3649" (default): a(w) and b(w) from RFC 3649 Section 5's formulas; "linux_table":
    Appendix B's step table, as Linux and ns-3 use; "ns2_linux": ns-2 2.35 TCP-Linux's
    tcp_highspeed.c in its integer arithmetic (md/256, whole segments, cwnd = ssthresh/2 during
    recovery). With either table the other parameters must keep their defaults. See
    docs/congestion/highspeed.md."""
    low_window: float = Field(default=38.0, ge=1.0, le=MAX_WINDOW, description="Low_Window (RFC 3649 Section 5)")
    high_window: float = Field(default=83000.0, le=MAX_WINDOW, description="High_Window (RFC 3649 Section 5)")
    low_p: float = Field(default=1e-3, gt=0.0, lt=1.0, description="Low_P (RFC 3649 Section 5)")
    high_p: float = Field(default=1e-7, gt=0.0, description="High_P (RFC 3649 Section 5)")
    high_decrease: float = Field(default=0.1, gt=0.0, le=0.5, description="High_Decrease (RFC 3649 Section 5)")

    @model_validator(mode="after")
    def _check(self) -> "HighSpeed":
        if not math.isfinite(self.high_window) or self.high_window <= self.low_window:
            raise ValueError(f"high_window ({self.high_window}) must be above low_window ({self.low_window})")
        if self.high_p >= self.low_p:
            raise ValueError(f"high_p ({self.high_p}) must be below low_p ({self.low_p})")
        changed = [
            f"{name} = {getattr(self, name)}"
            for name in HIGHSPEED_SECTION5_PARAMETERS
            if getattr(self, name) != type(self).model_fields[name].default
        ]
        if self.definition != "rfc3649" and changed:
            raise ValueError(
                f'definition = "{self.definition}" takes no parameters (got {", ".join(changed)}): RFC 3649 '
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
    """Selects Scalable TCP."""
    definition: Literal["kelly", "ns3", "ns2_linux"] = "kelly"
    """"kelly" (default): Kelly 2003, +a per ACK above the legacy window; "ns3": ns-3's and
    Linux's +1 segment per min(cwnd, 1/a) ACKs at every window; "ns2_linux": ns-2 2.35
    TCP-Linux's tcp_scalable.c in whole segments (ssthresh cwnd − ⌊b·cwnd⌋, cwnd = ssthresh/2
    during recovery). See docs/congestion/scalable.md."""
    a: float = Field(default=0.01, gt=0.0, le=1.0, description="increase per ACK (Kelly 2003); ns3: 1/AIFactor")
    b: float = Field(default=0.125, gt=0.0, lt=1.0, description="decrease fraction (Kelly 2003)")
    low_window: float = Field(
        default=16.0, ge=0.0, le=MAX_WINDOW, description="legacy window lwnd (Kelly 2003); not with ns3 or ns2_linux"
    )

    @model_validator(mode="after")
    def _check(self) -> "Scalable":
        if self.definition != "kelly" and self.low_window != type(self).model_fields["low_window"].default:
            raise ValueError(
                f'low_window = {self.low_window} is Kelly\'s legacy window; definition = "{self.definition}" has none '
                "(its Reno-like growth below 1/a segments comes from the +1 per min(cwnd, 1/a) ACKs rule)"
            )
        return self


class Aimd(_Algorithm):
    """Seed 002 Section IV-A: +a·wⁿ per unmarked ACK, −b·wᵐ per marked ACK (and once per
    loss event). Defaults are Reno (1/w, w/2). With `ecn`, needs `ecn_echo = "per_packet"`.
    Engine: `tcp/cc/aimd.rs`."""

    kind: Literal["aimd"] = "aimd"
    """Selects the generic window law of seed 002 Section IV-A."""
    a: float = Field(default=1.0, gt=0.0, le=100.0)
    """Increase coefficient: +a·wⁿ segments per unmarked ACK."""
    n: float = Field(default=-1.0, ge=-2.0, le=1.0)
    """Increase exponent n (−1: Reno's +1/w per ACK; 0: MIMD's constant increase)."""
    b: float = Field(default=0.5, gt=0.0, le=100.0)
    """Decrease coefficient: −b·wᵐ segments per marked ACK or loss event; below 1 when m = 1."""
    m: float = Field(default=1.0, ge=-2.0, le=2.0)
    """Decrease exponent m (1: a multiplicative decrease, w·(1 − b))."""

    @model_validator(mode="after")
    def _check(self) -> "Aimd":
        if self.m == 1.0 and self.b >= 1.0:
            raise ValueError(f"b ({self.b}) must be below 1 when m = 1")
        return self


class IllinoisLike(_Algorithm):
    """Seed 000 Table I, TCP Illinois: i(w) = α_max/w per ACK, d(w) = β_min·w (per marked
    ACK or loss event). Engine: `tcp/cc/aimd.rs`."""

    kind: Literal["illinois_like"] = "illinois_like"
    """Selects the Illinois-like law of seed 000 Table I."""
    alpha_max: float = Field(default=10.0, gt=0.0, le=1000.0, description="seed 000 Table I")
    beta_min: float = Field(default=0.125, gt=0.0, lt=1.0, description="seed 000 Table I")


class AfricaLike(HighSpeed):
    """Seed 000 Table I, AFRICA TCP: i(w) = a(w)/w, d(w) = w·b(w) with HighSpeed's a, b
    (per marked ACK or loss event). Engine: `tcp/cc/aimd.rs`."""

    kind: Literal["africa_like"] = "africa_like"  # type: ignore[assignment]
    """Selects the AFRICA-like law of seed 000 Table I (HighSpeed's a(w), b(w))."""


class CxHighSpeed(_Algorithm):
    """Delay-based HighSpeed TCP (seed 001 Section V-B): HighSpeed's window law (RFC 3649) with
    the Cx backoff of seed 001 Algorithm 1 added. `cx` and `highspeed` take the parameters of
    `kind = "cx"` and `kind = "highspeed"`. Engine: `tcp/cc/cx_highspeed.rs`."""

    kind: Literal["cx_highspeed"] = "cx_highspeed"
    """Selects delay-based HighSpeed TCP (seed 001 Section V-B)."""
    cx: Cx = Field(default_factory=default_of(Cx))
    """The Cx backoff's parameters, as `kind = "cx"` takes them."""
    highspeed: HighSpeed = Field(default_factory=default_of(HighSpeed))
    """The HighSpeed window law's parameters, as `kind = "highspeed"` takes them."""

    def resolved(self) -> dict[str, Any]:
        def without_kind(values: dict[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in values.items() if k != "kind"}

        return {
            "kind": "cx_highspeed",
            "cx": without_kind(self.cx.resolved()),
            "highspeed": without_kind(self.highspeed.resolved()),
        }


class PythonLaw(_Algorithm):
    """A window law written as a Python class (`aqmlab.extensions.WindowLaw`; see
    docs/extending.md): the shared sender calls its on_ack, on_loss, on_timeout and on_ecn.
    Engine: `tcp/cc/external.rs`, binding `crates/py/src/hooks/cc.rs`."""

    kind: Literal["python"] = "python"
    """Selects a window law written in Python."""
    law: str = Field(pattern=r"^[^:]+:[A-Za-z_][A-Za-z0-9_]*$")
    """The class: "module:Class" (a module on sys.path) or "path/file.py:Class" (absolute, or
    relative to the working directory)."""
    params: dict[str, Any] = {}
    """Keyword arguments of the class's constructor."""


CongestionControl = Annotated[
    Reno
    | Compound
    | Cx
    | Pert
    | CxHighSpeed
    | Cubic
    | HighSpeed
    | Scalable
    | Aimd
    | IllinoisLike
    | AfricaLike
    | PythonLaw,
    Kinds("kind"),
]

PER_ACK_ECN = frozenset({"aimd", "illinois_like", "africa_like"})

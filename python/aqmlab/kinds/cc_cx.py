"""Cx: the scenario model of `kind = "cx"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.congestion.CC_KINDS`; issue 28)."""

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from aqmlab import units
from aqmlab._declarations import Engine
from aqmlab._fields import Duration, Number, PositiveDuration
from aqmlab.congestion import _Algorithm

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

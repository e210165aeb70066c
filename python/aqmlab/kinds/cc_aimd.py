"""Aimd: the scenario model of `kind = "aimd"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.congestion.CC_KINDS`; issue 28)."""

from typing import Literal

from pydantic import Field, model_validator

from aqmlab.congestion import _Algorithm


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

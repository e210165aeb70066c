"""IllinoisLike: the scenario model of `kind = "illinois_like"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.congestion.CC_KINDS`; issue 28)."""

from typing import Literal

from pydantic import Field

from aqmlab.congestion import _Algorithm


class IllinoisLike(_Algorithm):
    """Seed 000 Table I, TCP Illinois: i(w) = α_max/w per ACK, d(w) = β_min·w (per marked
    ACK or loss event). Engine: `tcp/cc/aimd.rs`."""

    kind: Literal["illinois_like"] = "illinois_like"
    """Selects the Illinois-like law of seed 000 Table I."""
    alpha_max: float = Field(default=10.0, gt=0.0, le=1000.0, description="seed 000 Table I")
    beta_min: float = Field(default=0.125, gt=0.0, lt=1.0, description="seed 000 Table I")

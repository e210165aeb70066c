"""Congestion-control algorithms as scenario models: one class per algorithm, each with
its parameters, defaults and sources; `CongestionControl` is their union tagged on `kind`.

Each class mirrors a variant of the engine's `CcConfig` (crates/engine/src/tcp/cc/mod.rs);
`model_dump()` is exactly what the engine reads. A scenario may write `cc = "reno"` for an
algorithm with default parameters.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Algorithm(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Reno(_Algorithm):
    """Reno window law: +1 per ACK in slow start, +1/w per ACK in congestion avoidance,
    halve on loss (RFC 5681 Section 3.1)."""

    kind: Literal["reno"] = "reno"


class Compound(_Algorithm):
    """Compound TCP (seed 000 Section II-A1; seed 004 eqs. (6)-(8)): win = cwnd + dwnd, cwnd
    as Reno (+1/win per ACK), dwnd += (alpha*win^k - 1)+ per round trip while diff < gamma,
    dwnd -= zeta*diff when diff >= gamma, dwnd = (win*(1 - beta) - cwnd/2)+ on loss, 0 on
    timeout. Defaults: seed 000 Section II-A1; `low_window`: draft-sridharan-tcpm-ctcp-02's
    low_wnd; `zeta` = 1 reproduces the Linux/ns-2 port (`tcp_compound.c`, ETA = 1).
    See docs/congestion/compound.md."""

    kind: Literal["compound"] = "compound"
    alpha: float = Field(default=0.125, gt=0.0, allow_inf_nan=False)
    beta: float = Field(default=0.5, gt=0.0, lt=1.0)
    k: float = Field(default=0.75, gt=0.0, le=1.0)
    gamma: float = Field(default=30.0, gt=0.0, allow_inf_nan=False, description="packets")
    zeta: float = Field(default=0.5, gt=0.0, allow_inf_nan=False)
    low_window: float = Field(default=41.0, ge=0.0, allow_inf_nan=False, description="packets")


#: Every algorithm, tagged on `kind`.
CongestionControl = Annotated[Reno | Compound, Field(discriminator="kind")]

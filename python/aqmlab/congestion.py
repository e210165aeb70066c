"""Congestion-control algorithms as scenario models: one class per algorithm, each with
its parameters, defaults and sources; `CongestionControl` is their union tagged on `kind`.

Each class mirrors a variant of the engine's `CcConfig` (crates/engine/src/tcp/cc/mod.rs);
`model_dump()` is exactly what the engine reads. A scenario may write `cc = "reno"` for an
algorithm with default parameters.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class _Algorithm(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Reno(_Algorithm):
    """Reno window law: +1 per ACK in slow start, +1/w per ACK in congestion avoidance,
    halve on loss (RFC 5681 Section 3.1)."""

    kind: Literal["reno"] = "reno"


# A tagged union on `kind` once a second algorithm exists:
# CongestionControl = Annotated[Reno | Cubic | ..., Field(discriminator="kind")]
CongestionControl = Reno

"""Scalable: the scenario model of `kind = "scalable"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.congestion.CC_KINDS`; issue 28)."""

from typing import Literal

from pydantic import Field, model_validator

from aqmlab._fields import MAX_WINDOW
from aqmlab.congestion import _Algorithm


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

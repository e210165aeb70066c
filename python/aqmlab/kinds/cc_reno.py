"""Reno: the scenario model of `kind = "reno"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.congestion.CC_KINDS`; issue 28)."""

from typing import Literal

from aqmlab.congestion import _Algorithm


class Reno(_Algorithm):
    """Reno window law: +1 per ACK in slow start, +1/w per ACK in congestion avoidance,
    halve on loss (RFC 5681 Section 3.1)."""

    kind: Literal["reno"] = "reno"
    """Selects Reno (`cc = "reno"` is the short form)."""

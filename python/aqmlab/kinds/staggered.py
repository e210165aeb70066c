"""Staggered: the scenario model of `kind = "staggered"` (a start or a stop), in a module of its
own so that its class is created only when a scenario names the kind (the registries
`aqmlab.traffic.START_KINDS` and `STOP_KINDS`; issue 28)."""

from typing import Literal

from aqmlab._declarations import Resolved
from aqmlab._fields import Duration, Model


class Staggered(Resolved, Model):
    """Flow i at `first + i * spacing`: as a start, seed 001 Table I's flows entering 0.5 s
    apart from 100 s; as a stop, leaving 5 s apart from 250 s."""

    kind: Literal["staggered"] = "staggered"
    """Selects times evenly spaced flow by flow."""
    first: Duration
    """Start (or stop) time of the group's first flow."""
    spacing: Duration
    """Time between the starts (or stops) of consecutive flows of the group."""

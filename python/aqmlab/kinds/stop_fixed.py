"""FixedStop: the scenario model of `kind = "fixed"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.traffic.STOP_KINDS`; issue 28)."""

from typing import Literal

from aqmlab._declarations import Resolved
from aqmlab._fields import Duration, Model


class FixedStop(Resolved, Model):
    """Every flow stops taking new data at `at` (UDP: falls silent; web: arrivals end)."""

    kind: Literal["fixed"] = "fixed"
    """Selects one stop time for every flow."""
    at: Duration
    """When every flow stops: a TCP flow sends no new data, finishes what it sent and records
    its end time; a UDP source falls silent; web arrivals end."""

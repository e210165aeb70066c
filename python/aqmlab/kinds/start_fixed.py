"""FixedStart: the scenario model of `kind = "fixed"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.traffic.START_KINDS`; issue 28)."""

from typing import Literal

from aqmlab._declarations import Resolved
from aqmlab._fields import Duration, Model


class FixedStart(Resolved, Model):
    """Every flow of the group starts at `at` (web groups: arrivals begin at `at`)."""

    kind: Literal["fixed"] = "fixed"
    """Selects one start time for every flow."""
    at: Duration = "0s"
    """When every flow starts (web groups: when arrivals begin)."""

"""NeverStop: the scenario model of `kind = "never"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.traffic.STOP_KINDS`; issue 28)."""

from typing import Literal

from aqmlab._declarations import Resolved
from aqmlab._fields import Model


class NeverStop(Resolved, Model):
    """Flows run to the end of the simulation (or until a finite transfer completes)."""

    kind: Literal["never"] = "never"
    """Selects no stop time."""

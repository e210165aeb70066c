"""UniformStart: the scenario model of `kind = "uniform"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.traffic.START_KINDS`; issue 28)."""

from typing import Literal

from pydantic import model_validator

from aqmlab import units
from aqmlab._declarations import Resolved
from aqmlab._fields import Duration, Model


class UniformStart(Resolved, Model):
    """Start times independent and uniform in [low, high] (seed 000 Section V: [0, 10 s])."""

    kind: Literal["uniform"] = "uniform"
    """Selects start times drawn uniformly."""
    low: Duration = "0s"
    """Earliest start time."""
    high: Duration = "10s"
    """Latest start time."""

    @model_validator(mode="after")
    def _check(self) -> "UniformStart":
        if units.seconds(self.low) > units.seconds(self.high):
            raise ValueError(f"low ({self.low}) must not exceed high ({self.high})")
        return self

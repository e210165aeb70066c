"""Pareto: the scenario model of `kind = "pareto"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.traffic.SIZE_KINDS`; issue 28)."""

from typing import Annotated, Literal

from pydantic import Field

from aqmlab._declarations import Resolved
from aqmlab._fields import Model, Size
from aqmlab.traffic import MEAN_BYTES


class Pareto(Resolved, Model):
    """Heavy-tailed sizes: Pareto with `shape` > 1 and mean `mean` (web objects)."""

    kind: Literal["pareto"] = "pareto"
    """Selects Pareto sizes."""
    mean: Annotated[Size, MEAN_BYTES]
    """Mean transfer size (application data); the Pareto scale is mean · (shape − 1) / shape."""
    shape: float = Field(default=1.2, gt=1.0, le=1e6)
    """Shape (tail index) of the Pareto law: above 1, so the mean is finite; the closer to 1,
    the heavier the tail."""

"""Exponential: the scenario model of `kind = "exponential"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.traffic.SIZE_KINDS`; issue 28)."""

from typing import Annotated, Literal

from aqmlab._declarations import Resolved
from aqmlab._fields import Model, Size
from aqmlab.traffic import MEAN_BYTES


class Exponential(Resolved, Model):
    """Exponentially distributed sizes with mean `mean`."""

    kind: Literal["exponential"] = "exponential"
    """Selects exponential sizes."""
    mean: Annotated[Size, MEAN_BYTES]
    """Mean transfer size (application data)."""

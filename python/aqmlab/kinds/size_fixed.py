"""FixedSize: the scenario model of `kind = "fixed"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.traffic.SIZE_KINDS`; issue 28)."""

from typing import Annotated, Literal

from aqmlab._declarations import Engine, Resolved
from aqmlab._fields import Model, Size


class FixedSize(Resolved, Model):
    """Every transfer of the same `size`."""

    kind: Literal["fixed"] = "fixed"
    """Selects one size for every transfer."""
    size: Annotated[Size, Engine(key="bytes")]
    """Size of every transfer (application data)."""

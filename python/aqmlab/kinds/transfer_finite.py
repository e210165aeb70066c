"""Finite: the scenario model of `kind = "finite"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.traffic.TRANSFER_KINDS`; issue 28)."""

from typing import Annotated, Literal

from aqmlab._declarations import Engine, Resolved
from aqmlab._fields import Model, Size


class Finite(Resolved, Model):
    """A transfer of `size`; its completion time is recorded."""

    kind: Literal["finite"] = "finite"
    """Selects a transfer of fixed size."""
    size: Annotated[Size, Engine(key="bytes")]
    """Application data to transfer (headers not counted)."""

"""Bulk: the scenario model of `kind = "bulk"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.traffic.TRANSFER_KINDS`; issue 28)."""

from typing import Literal

from aqmlab._declarations import Resolved
from aqmlab._fields import Model


class Bulk(Resolved, Model):
    """A long-lived flow that always has data to send."""

    kind: Literal["bulk"] = "bulk"
    """Selects a long-lived flow."""

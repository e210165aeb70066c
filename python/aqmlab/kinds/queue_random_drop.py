"""RandomDrop: the scenario model of `kind = "random_drop"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.queues.QUEUE_KINDS`; issue 28)."""

from typing import Literal

from pydantic import Field

from aqmlab._fields import QueueLimit
from aqmlab.queues import QueueModel


class RandomDrop(QueueModel):
    """Drops each arrival independently with a fixed `probability` (seed 003 Section II-B);
    with `ecn`, ECN-capable packets are marked instead (RFC 3168 Section 5)."""

    kind: Literal["random_drop"] = "random_drop"
    """Selects random drop."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    probability: float = Field(ge=0.0, le=1.0)
    """Probability with which each arrival is dropped, independently of the queue length
    (seed 003 Section II-B)."""
    ecn: bool = False
    """Mark ECN-capable arrivals instead of dropping them (RFC 3168 Section 5); arrivals that
    are not ECN-capable are still dropped."""

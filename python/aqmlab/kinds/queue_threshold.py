"""Threshold: the scenario model of `kind = "threshold"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.queues.QUEUE_KINDS`; issue 28)."""

from typing import Literal

from pydantic import Field

from aqmlab._fields import MAX_BYTES, QueueLimit
from aqmlab.queues import QueueModel


class Threshold(QueueModel):
    """The threshold policy of seed 000 Section VI: drop (or ECN-mark) an arriving packet when
    the queue holds at least `q_th` packets (bytes with `queue_in_bytes`)."""

    kind: Literal["threshold"] = "threshold"
    """Selects the threshold policy."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    q_th: float = Field(gt=0.0, le=MAX_BYTES)
    """Threshold q_th: an arrival that finds at least this many packets queued (bytes with
    `queue_in_bytes`) is dropped (seed 000 Section VI-A; Section VI-C uses 15 packets)."""
    ecn: bool = False
    """Mark ECN-capable arrivals and admit them instead of dropping them (the queue may then
    pass `q_th`); packets that are not ECN-capable are still dropped."""
    queue_in_bytes: bool = False
    """Compare the queue in bytes with a `q_th` in bytes."""

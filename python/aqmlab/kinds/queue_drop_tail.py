"""DropTail: the scenario model of `kind = "drop_tail"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.queues.QUEUE_KINDS`; issue 28)."""

from typing import Literal

from aqmlab._fields import QueueLimit
from aqmlab.queues import QueueModel


class DropTail(QueueModel):
    """First in, first out; arrivals beyond `limit` are dropped."""

    kind: Literal["drop_tail"] = "drop_tail"
    """Selects drop-tail: first in, first out, with no early drops."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""

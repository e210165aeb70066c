"""Codel: the scenario model of `kind = "codel"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.queues.QUEUE_KINDS`; issue 28)."""

from typing import Literal

from aqmlab._fields import PacketSize, PositiveDuration, QueueLimit
from aqmlab.queues import QueueModel


class Codel(QueueModel):
    """CoDel (RFC 8289): drops (marks) at dequeue once the sojourn time has stayed above
    `target` for `interval`, then at intervals interval/sqrt(count). Defaults: RFC 8289
    Sections 4.3-4.4 (5 ms, 100 ms); `mtu` is MAXPACKET (no drop with at most that much
    queued)."""

    kind: Literal["codel"] = "codel"
    """Selects CoDel."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    target: PositiveDuration = "5ms"
    """TARGET: the acceptable standing queueing delay (sojourn time) (RFC 8289 Section 4.3)."""
    interval: PositiveDuration = "100ms"
    """INTERVAL: how long the sojourn time must stay above `target` before the first drop,
    and the base of the spacing interval/sqrt(count) of the next ones (RFC 8289 Section 4.4)."""
    ecn: bool = False
    """Mark an ECN-capable head packet instead of dropping it (RFC 8289 Section 5, as Linux);
    packets that are not ECN-capable are still dropped."""
    mtu: PacketSize = "1500B"
    """MAXPACKET: no drop while at most this many bytes are queued (RFC 8289 Section 5:
    "SHOULD use interface MTU")."""

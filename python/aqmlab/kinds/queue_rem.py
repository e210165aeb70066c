"""Rem: the scenario model of `kind = "rem"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.queues.QUEUE_KINDS`; issue 28)."""

from typing import Annotated, Literal

from pydantic import Field

from aqmlab._fields import MAX_BYTES, PacketSize, PositiveDuration, QueueLimit
from aqmlab.queues import MEAN_PACKET_BYTES, QueueModel


class Rem(QueueModel):
    """Random Exponential Marking (Athuraliya, Low, Li, Yin, IEEE Network 2001).

    Price p <- max(0, p + gamma (alpha (b - b*) + x - c)) every `update_interval`
    (x, c: arrivals and capacity in packets per interval, as ns-2 rem.cc), marking
    probability 1 - phi^(-p). Defaults: the article's phi = 1.001, gamma = 0.001,
    alpha = 0.1, b* = 20 packets; ns-2's 2 ms update interval.
    """

    kind: Literal["rem"] = "rem"
    """Selects REM."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    gamma: float = Field(default=0.001, gt=0.0, le=1e6)
    """Step size γ of the price update (Athuraliya et al. 2001)."""
    alpha: float = Field(default=0.1, ge=0.0, le=1e6)
    """Weight α of the backlog error b − b* against the rate mismatch x − c in the price
    update (Athuraliya et al. 2001; ns-2 hard-codes 0.1)."""
    phi: float = Field(default=1.001, gt=1.0, le=1e6)
    """Base φ of the marking probability 1 − φ^(−price) (Athuraliya et al. 2001)."""
    target_backlog: float = Field(default=20.0, ge=0.0, le=MAX_BYTES)
    """Target backlog b*, packets (of `mean_packet_size` with `queue_in_bytes`) (Athuraliya et
    al. 2001; ns-2 `pbo_ 20`)."""
    update_interval: PositiveDuration = "2ms"
    """Period of the price update (ns-2 `pupdtime_ 0.002`)."""
    ecn: bool = False
    """Mark ECN-capable packets instead of dropping them; packets that are not ECN-capable
    are still dropped."""
    queue_in_bytes: bool = False
    """Count backlog and arrivals as bytes / `mean_packet_size` instead of packets (ns-2 `qib_`)."""
    mean_packet_size: Annotated[PacketSize | None, MEAN_PACKET_BYTES] = None
    """Packet size that converts the link rate (and bytes) to packets per update interval
    (ns-2 `mean_pktsize_`); unset: the packet size of the first flow group (of the group
    itself on its edge links)."""

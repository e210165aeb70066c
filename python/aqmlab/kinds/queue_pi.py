"""Pi: the scenario model of `kind = "pi"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.queues.QUEUE_KINDS`; issue 28)."""

from typing import Annotated, Literal

from pydantic import Field

from aqmlab._declarations import Engine
from aqmlab._fields import MAX_BYTES, QueueLimit
from aqmlab.queues import QueueModel


class Pi(QueueModel):
    """PI controller (Hollot, Misra, Towsley, Gong, INFOCOM 2001, Section V).

    p(kT) = a (q(kT) - q_ref) - b (q((k-1)T) - q_ref) + p((k-1)T), clamped to [0, 1],
    sampled at `sampling_frequency`; arrivals are dropped (marked) with probability p.
    Defaults: the paper's design example (a = 1.822e-5, b = 1.816e-5, 160 Hz,
    q_ref = 200 packets), designed for N = 60 flows, C = 3750 packets/s, R+ = 0.246 s.
    """

    kind: Literal["pi"] = "pi"
    """Selects the PI controller."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    a: float = Field(default=1.822e-5, ge=0.0, le=1e6)
    """Gain a on the current queue error q(kT) − q_ref, per packet (Hollot et al. 2001
    Section V design example)."""
    b: float = Field(default=1.816e-5, ge=0.0, le=1e6)
    """Gain b on the previous queue error q((k−1)T) − q_ref, per packet (Hollot et al. 2001
    Section V design example)."""
    sampling_frequency: Annotated[float, Engine(key="sampling_frequency_hz")] = Field(default=160.0, gt=0.0, le=1e9)
    """Sampling frequency 1/T of the controller, Hz: p is updated this often (Hollot et al.
    2001 Section V)."""
    q_ref: float = Field(default=200.0, ge=0.0, le=MAX_BYTES)
    """Reference queue length q_ref the controller steers to; packets (bytes with
    `queue_in_bytes`) (Hollot et al. 2001 Section V)."""
    ecn: bool = False
    """Mark ECN-capable packets with probability p instead of dropping them; packets that are
    not ECN-capable are still dropped."""
    queue_in_bytes: bool = False
    """Sample the queue in bytes: `q_ref` is then in bytes, and `a` and `b` must be divided by
    the packet size."""

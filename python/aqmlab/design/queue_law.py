"""The queue law G(p) of seed 003 Section II-A: the average queue of a link with n TCP flows
when each packet is dropped with probability p, eqs. (6)-(8).

Erratum: eq. (7) prints max(B, ·); the average queue cannot exceed the buffer, so it is
min(B, ·) (`shared/seeds/README.md`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from aqmlab.design.pftk import TcpModel, p_for, rtt_for, throughput


@dataclass(frozen=True)
class QueueLaw:
    """G(p) for line rate `rate_bps`, `flows` TCP flows of round-trip time `rtt_s` (excluding
    queueing at this link) and buffer `buffer_packets`; queue lengths in packets."""

    rate_bps: float
    flows: float
    rtt_s: float
    buffer_packets: float = math.inf
    tcp: TcpModel = field(default_factory=TcpModel)

    def __post_init__(self) -> None:
        for name in ("rate_bps", "flows", "rtt_s", "buffer_packets"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} = {getattr(self, name)}; allowed: > 0")

    @property
    def per_flow_bps(self) -> float:
        return self.rate_bps / self.flows

    @property
    def packets_per_second(self) -> float:
        return self.rate_bps / (8.0 * self.tcp.packet_bytes)

    def p0(self) -> float:
        """The drop probability that exactly fills the link at R = R_o (eq. (6))."""
        return p_for(self.per_flow_bps, self.rtt_s, self.tcp)

    def queue(self, p) -> np.ndarray:
        """G(p): average queue, packets (eq. (7) with min(B, ·))."""
        p = np.atleast_1d(np.asarray(p, dtype=float))
        p0 = self.p0()
        out = np.zeros_like(p)
        for i, value in enumerate(p):
            if value <= p0:
                # R = R_o + q/c with the queue q in bits: q(p) = c (T_R^{-1}(p, c/n) - R_o), in packets.
                extra = rtt_for(float(value), self.per_flow_bps, self.tcp) - self.rtt_s
                out[i] = min(self.buffer_packets, max(0.0, extra * self.packets_per_second))
        return out

    def utilisation(self, p) -> np.ndarray:
        """u(p): 1 while p <= p0, else T(p, R_o) / (c/n) (eq. (8))."""
        p = np.atleast_1d(np.asarray(p, dtype=float))
        p0 = self.p0()
        return np.where(
            p <= p0, 1.0, throughput(np.clip(p, 1e-12, 1 - 1e-12), self.rtt_s, self.tcp) / self.per_flow_bps
        )

    def inverse(self, queue_packets: float) -> float:
        """G^{-1}(q): the drop probability at which the average queue is `queue_packets`."""
        if not 0 < queue_packets < self.buffer_packets:
            raise ValueError(
                f"queue {queue_packets} packets; allowed: between 0 and the buffer ({self.buffer_packets})"
            )
        rtt = self.rtt_s + queue_packets / self.packets_per_second
        return p_for(self.per_flow_bps, rtt, self.tcp)

"""The RED feedback map of seed 003 Section II-D: one step per round-trip time R,

    q_{k+1}  = G(p_k)                          (queue law, eq. 7)
    q̄_{k+1} = (1 − w) q̄_k + w q_{k+1}          (EWMA A)
    p_{k+1}  = H(q̄_{k+1})                      (RED control law, eq. 10)

G is any callable p -> average queue (packets), e.g. ``aqmlab.design.queue_law.QueueLaw(...).queue``
(the full PFTK queue law); pass it as ``RedMap(queue_law=...)``. Without one, the built-in law
is eq. (7) with the square-root throughput T = (1/R) sqrt(3/(2p)) packets/s (the leading term of
PFTK eq. 2, no timeouts): G(p) = min(B, max(0, n sqrt(3/(2p)) − c R_o)) — with the erratum
min(B, ·) of shared/seeds/README.md. H is eq. (10) (option control='red', a jump to 1 at
q_max) or seed 003's recommended law, linear from (q_max, p_max) to (B, 1) ('recommended').
States: q, qbar (packets), p. Equilibrium: q = G(H(q)) (eq. 9), by bisection.
Defaults: Fig. 8's RED (p_max = 0.1, q_min = 12.5, q_max = 37.5, B = 75 packets) with 10 flows,
c = 375 packets/s (1.5 Mb/s of 500-byte packets), R_o = 0.1 s, w = 0.002.
"""

from __future__ import annotations

import numpy as np

from aqmlab.fluid.models.base import DiscreteMap, FluidError, Param, bisect_batch

CONTROLS = ("red", "recommended")


class RedMap(DiscreteMap):
    name = "red-map"
    title = "RED as a discrete feedback map, one step per RTT (seed 003 Section II-D)"
    source = "seed 003 eqs. (7), (9), (10) and Section II-D"
    options = {"control": ("red", ", ".join(CONTROLS))}
    state_names = ("q", "qbar", "p")
    units = ("packets", "packets", "1")

    def __init__(self, control: str = "red", queue_law=None):
        if control not in CONTROLS:
            raise FluidError(f"control = {control!r}; allowed: {', '.join(CONTROLS)}")
        if queue_law is not None and not callable(queue_law):
            raise FluidError("queue_law must be a callable p -> queue (packets); allowed: e.g. QueueLaw(...).queue")
        self.control = control
        self.queue_law = queue_law
        self.option_values = {"control": control, "queue_law": "custom" if queue_law else "square-root eq. (7)"}
        self.params = {
            "c": Param(375.0, "packets/s", "link capacity c", 0.0, low_open=True),
            "n": Param(10.0, "1", "number of TCP flows n", 0.0, low_open=True),
            "R_o": Param(0.1, "s", "round-trip time outside the queue R_o", 0.0, low_open=True),
            "B": Param(75.0, "packets", "buffer B", 0.0, low_open=True),
            "w": Param(0.002, "1", "EWMA weight w", 0.0, 1.0, low_open=True),
            "p_max": Param(0.1, "1", "RED p_max (eq. 10)", 0.0, 1.0, low_open=True),
            "q_min": Param(12.5, "packets", "RED q_min (eq. 10)", 0.0),
            "q_max": Param(37.5, "packets", "RED q_max (eq. 10)", 0.0, low_open=True),
        }

    def check(self, P):
        if np.any(np.asarray(P["q_min"]) >= np.asarray(P["q_max"])) or np.any(
            np.asarray(P["q_max"]) >= np.asarray(P["B"])
        ):
            raise FluidError("RED thresholds must satisfy q_min < q_max < B; allowed: 0 <= q_min < q_max < B (packets)")

    def G(self, p, P):
        """Queue law (eq. 7 with min(B, ·))."""
        if self.queue_law is not None:
            p = np.asarray(p, dtype=float)
            inside = (p > 0) & (p < 1)  # a queue law is only defined for 0 < p < 1:
            out = np.where(p <= 0, np.broadcast_to(P["B"], p.shape), 0.0)  # p = 0: the buffer fills; p = 1: empty
            if inside.any():
                out[inside] = np.asarray(self.queue_law(p[inside]), dtype=float)
            return np.minimum(out, P["B"])
        root = P["n"] * np.sqrt(1.5 / np.maximum(p, 1e-300))  # c T_R^{-1}(p, c/n) with T = sqrt(3/(2p))/R
        return np.minimum(P["B"], np.maximum(0.0, root - P["c"] * P["R_o"]))

    def H(self, qbar, P):
        """Control law (eq. 10; or the recommended gentle variant)."""
        middle = (qbar - P["q_min"]) / (P["q_max"] - P["q_min"]) * P["p_max"]
        if self.control == "red":
            top = 1.0
        else:
            top = P["p_max"] + (1.0 - P["p_max"]) * (qbar - P["q_max"]) / (P["B"] - P["q_max"])
        return np.where(qbar < P["q_min"], 0.0, np.where(qbar < P["q_max"], middle, np.minimum(top, 1.0)))

    def step(self, y, P):
        q = self.G(y[2], P)  # q_{k+1} = G(p_k)
        qbar = (1.0 - P["w"]) * y[1] + P["w"] * q  # EWMA
        return np.stack([q, qbar, self.H(qbar, P)])  # p_{k+1} = H(q̄_{k+1})

    def period(self, P):
        return P["R_o"]

    def equilibrium(self, P, size):
        B = np.broadcast_to(np.asarray(P["B"], dtype=float), (size,))
        q = bisect_batch(lambda q: self.G(self.H(q, P), P) - q, np.zeros(size), B, what="RED operating point (eq. 9)")
        return np.stack([q, q, self.H(q, P)])

"""Control laws p = H(q) (seed 003 Section II-C), the equilibrium where they meet the queue
law, and the RTT-step map of Section II-D that tells convergence from oscillation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

from aqmlab.design.queue_law import QueueLaw

ControlLaw = Callable[[float], float]


def red(min_th: float, max_th: float, max_p: float) -> ControlLaw:
    """RED's law (seed 003 eq. (10)): 0 below min_th, linear to max_p at max_th, then 1."""

    def law(q: float) -> float:
        if q < min_th:
            return 0.0
        if q < max_th:
            return max_p * (q - min_th) / (max_th - min_th)
        return 1.0

    return law


def gentle_red(min_th: float, max_th: float, max_p: float) -> ControlLaw:
    """Gentle RED: from max_p at max_th linearly to 1 at 2 max_th."""

    def law(q: float) -> float:
        if q < min_th:
            return 0.0
        if q < max_th:
            return max_p * (q - min_th) / (max_th - min_th)
        return min(1.0, max_p + (1.0 - max_p) * (q - max_th) / max_th)

    return law


def recommended(min_th: float, max_th: float, max_p: float, buffer_packets: float) -> ControlLaw:
    """Seed 003 Section III's law: RED's, then a linear segment from (max_th, max_p) to
    (B, 1) instead of the jump; with B = 2 max_th it is gentle RED."""

    def law(q: float) -> float:
        if q < min_th:
            return 0.0
        if q < max_th:
            return max_p * (q - min_th) / (max_th - min_th)
        return min(1.0, max_p + (1.0 - max_p) * (q - max_th) / (buffer_packets - max_th))

    return law


@dataclass(frozen=True)
class Equilibrium:
    drop_probability: float
    average_queue: float
    #: True when the laws only meet on a jump of H (seed 003 Fig. 11): no steady state.
    on_discontinuity: bool


def equilibrium(queue_law: QueueLaw, control: ControlLaw) -> Equilibrium:
    """(p_s, q_s) with q_s = G(p_s) and p_s = H(q_s) (seed 003 Section II-C)."""
    buffer = queue_law.buffer_packets

    def mismatch(q: float) -> float:
        # G(H(q)) - q decreases in q (G falls with p, H rises with q).
        p = min(max(control(q), 1e-12), 1 - 1e-12)
        return float(queue_law.queue(p)[0]) - q

    high = buffer if np.isfinite(buffer) else 1e7
    if mismatch(0.0) <= 0:
        return Equilibrium(control(0.0), 0.0, False)
    if mismatch(high) >= 0:
        return Equilibrium(control(high), high, False)
    q = float(brentq(mismatch, 0.0, high, xtol=1e-9))
    # A jump of H at q: H just below and just above differ, and G(H) lies across q.
    step = 1e-6 * max(q, 1.0)
    jump = control(q + step) - control(max(q - step, 0.0)) > 1e-3
    p_on_g = queue_law.inverse(q) if 0 < q < buffer else control(q)
    return Equilibrium(p_on_g if jump else control(q), q, jump)


@dataclass(frozen=True)
class MapTrace:
    queue: np.ndarray
    average: np.ndarray
    drop_probability: np.ndarray
    converges: bool


def rtt_map(queue_law: QueueLaw, control: ControlLaw, weight: float, *, steps: int = 2000) -> MapTrace:
    """Seed 003 Section II-D, one step per RTT: q_{k+1} = G(p_k), avg_{k+1} = (1-w) avg_k +
    w q_{k+1}, p_{k+1} = H(avg_{k+1}), from an empty queue. It converges when the last
    quarter of the queue trajectory varies by less than 10 % of the buffer."""
    if not 0 < weight <= 1:
        raise ValueError(f"weight = {weight}; allowed: (0, 1]")
    queue, average, probability = np.zeros(steps + 1), np.zeros(steps + 1), np.zeros(steps + 1)
    for k in range(steps):
        queue[k + 1] = queue_law.queue(min(max(probability[k], 1e-12), 1 - 1e-12))[0]
        average[k + 1] = (1 - weight) * average[k] + weight * queue[k + 1]
        probability[k + 1] = control(average[k + 1])
    tail = queue[-(steps // 4) :]
    span = queue_law.buffer_packets if np.isfinite(queue_law.buffer_packets) else max(queue.max(), 1.0)
    return MapTrace(queue, average, probability, bool(np.ptp(tail) < 0.1 * span))
